"""A Hypothesis state machine over one round's lifecycle: any sequence of GM, player, scheduler and clock moves.

Invariants: no entry is accepted outside `open` or after the deadline; a refused move changes nothing; every
state change is one allowed transition (the GM's resolve of an open round passes through `closed`); no state is
skipped (a published round was opened, closed and resolved, and has exactly one resolution).
"""

from __future__ import annotations

from datetime import timedelta
from itertools import count

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from pbp.errors import UserError
from pbp.models import AuditLog, EntryRevision, Resolution, Round
from pbp.services import campaigns, entries, publishing, rounds, scenarios
from pbp.services.rounds import TRANSITIONS


def test_round_lifecycle_state_machine(world) -> None:
    slugs = count(1)

    class Lifecycle(RuleBasedStateMachine):
        @initialize()
        def new_round(self) -> None:
            run = campaigns.create_scenario(world.campaign, "tama_river", slug=f"sm-{next(slugs)}", clock=world.clock)
            for uid, cid in zip(world.players, world.characters, strict=True):
                scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
            self.rid = rounds.create_round(run.id, world.clock.now() + timedelta(hours=1), clock=world.clock).id
            self.log_seen = self._log_ids()
            self.seed_hash: str | None = None

        def _round(self) -> Round:
            return Round.get_by_id(self.rid)

        def _log_ids(self) -> set[int]:
            return {a.id for a in AuditLog.select(AuditLog.id).where(AuditLog.target == f"round:{self.rid}")}

        def _attempt(self, move) -> None:
            """Run one move; a refusal must leave the round exactly as it was."""
            before = self._round().__data__.copy()
            try:
                move()
            except UserError:
                after = self._round().__data__
                assert {k: v for k, v in after.items() if k not in ("failures", "last_error")} == {
                    k: v for k, v in before.items() if k not in ("failures", "last_error")
                }
            self._check_path(before["state"])

        def _check_path(self, start: str) -> None:
            """Every state change since the last step is one allowed move from the state before it."""
            new = sorted(self._log_ids() - self.log_seen)
            self.log_seen |= set(new)
            state = start
            for row in AuditLog.select().where(AuditLog.id.in_(new)).order_by(AuditLog.id):
                if "to" in row.detail and row.detail["to"] != row.detail["was"]:
                    assert row.detail["was"] == state, row.action
                    assert row.detail["to"] in TRANSITIONS[state], f"{row.action}: {state} -> {row.detail['to']}"
                    state = row.detail["to"]
            assert state == self._round().state

        @rule()
        def open_(self) -> None:
            self._attempt(lambda: rounds.open_round(self.rid, clock=world.clock))

        @rule()
        def close(self) -> None:
            self._attempt(lambda: rounds.close_round(self.rid, clock=world.clock))

        @rule()
        def gm_resolve(self) -> None:
            self._attempt(lambda: rounds.resolve_round(self.rid, clock=world.clock))

        @rule()
        def scheduler_tick(self) -> None:
            self._attempt(lambda: rounds.resolve_due(clock=world.clock))

        @rule()
        def publish(self) -> None:
            self._attempt(lambda: publishing.publish_round(self.rid, clock=world.clock))

        @rule()
        def hold(self) -> None:
            self._attempt(lambda: rounds.hold_round(self.rid, reason="wait", clock=world.clock))

        @rule()
        def release(self) -> None:
            self._attempt(lambda: rounds.release_round(self.rid, clock=world.clock))

        @rule(minutes=st.integers(1, 180))
        def extend(self, minutes: int) -> None:
            deadline = world.clock.now() + timedelta(minutes=minutes)
            self._attempt(lambda: rounds.extend_round(self.rid, deadline, clock=world.clock))

        @rule()
        def cancel(self) -> None:
            self._attempt(lambda: rounds.cancel_round(self.rid, reason="no", clock=world.clock))

        @rule(minutes=st.integers(1, 120))
        def time_passes(self, minutes: int) -> None:
            world.clock.advance(minutes * 60)

        @rule(player=st.integers(0, 1), withdraw=st.booleans())
        def player_enters(self, player: int, withdraw: bool) -> None:
            rnd = self._round()
            revisions = EntryRevision.select().where(EntryRevision.round == self.rid).count()
            uid, cid = world.players[player], world.characters[player]
            try:
                if withdraw:
                    entries.withdraw_entry(self.rid, cid, user_id=uid, clock=world.clock)
                else:
                    entries.save_entry(self.rid, cid, user_id=uid, order=world.order(), prose="", clock=world.clock)
            except UserError:
                assert EntryRevision.select().where(EntryRevision.round == self.rid).count() == revisions
                return
            # Accepted: the round was open and the deadline ahead (server time).
            assert rnd.state == "open" and world.clock.now().replace(tzinfo=None) < rnd.deadline

        @invariant()
        def no_state_skipped(self) -> None:
            rnd = self._round()
            resolutions = Resolution.select().where(Resolution.round == rnd.id).count()
            assert resolutions == (1 if rnd.state in ("resolved", "published") else 0)
            if rnd.state in ("closed", "resolved", "published", "quarantined"):
                assert rnd.opened_at is not None and rnd.seed_hash is not None
            if rnd.state in ("resolved", "published"):
                assert rnd.closed_at is not None and rnd.resolved_at is not None
            if rnd.state == "published":
                assert rnd.published_at is not None

        @invariant()
        def the_seed_is_drawn_once(self) -> None:
            """The hash the players were shown never changes: the dice are drawn once."""
            shown = self._round().seed_hash
            assert self.seed_hash in (None, shown)
            self.seed_hash = shown

    run_state_machine_as_test(
        Lifecycle,
        settings=settings(
            max_examples=80,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        ),
    )


pytestmark = pytest.mark.slow
