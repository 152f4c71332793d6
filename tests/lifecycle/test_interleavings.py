"""Races on PostgreSQL, played out deterministically (`interleave`): one service stopped inside its write
transaction, its locks held, while another runs; then the first goes on. SQLite needs no such test: BEGIN IMMEDIATE
lets one writer in at a time, so these interleavings cannot happen there."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from pbp.errors import UserError
from pbp.models import EntryRevision, Resolution, entry_writes
from pbp.services import entries, rounds
from tests.lifecycle.interleave import Pause, Worker


@pytest.fixture
def pause(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[ModuleType, str], Pause]]:
    """`pause(module, name)`; every pause is released when the test ends, so no transaction outlives it."""
    if not db_url.startswith("postgresql"):
        pytest.skip("an interleaving of two PostgreSQL transactions")
    made: list[Pause] = []

    def make(module: ModuleType, name: str) -> Pause:
        made.append(Pause(monkeypatch, module, name))
        return made[-1]

    yield make
    for p in made:
        p.release()


def _enter_all(world, rid: int) -> None:
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)


def _two_rounds(world) -> tuple[int, int, str]:
    """Round 1 resolved, round 2 closed with its entries, and a check of round 1 whose override changes its final
    state."""
    first = world.new_round()
    _enter_all(world, first)
    world.clock.advance(3600)
    assert rounds.resolve_round(first, clock=world.clock).status == "resolved"
    second = world.new_round()
    _enter_all(world, second)
    rounds.close_round(second, clock=world.clock)
    attack = next(e for e in Resolution.get(Resolution.round == first).events if e["type"] == "attack")
    return first, second, attack["attack_check"]


def _chain_holds(first: int, second: int) -> bool:
    """Round 2 started from round 1's final state as stored now."""
    end = Resolution.get(Resolution.round == first).state
    return Resolution.get(Resolution.round == second).encounter == {**end, "round": 2}


@pytest.mark.rule("R-GM-1")
def test_a_round_resolving_while_the_previous_one_is_overridden_waits_for_the_override(world, pause) -> None:
    first, second, check = _two_rounds(world)
    before = Resolution.get(Resolution.round == first).state
    stopped = pause(rounds, "_store")  # the override, its new resolution written, not yet committed
    override = Worker(lambda: rounds.override_check(first, check, 20, reason="霧が晴れた", clock=world.clock))
    stopped.wait()
    resolver = Worker(lambda: rounds.resolve_round(second, clock=world.clock))
    waited = resolver.waits_for_a_lock()
    stopped.release()
    assert override.outcome().version == 2
    assert resolver.outcome().status == "resolved"
    assert Resolution.get(Resolution.round == first).state != before  # the override changed where round 1 ends
    assert _chain_holds(first, second), "round 2 started from round 1's state before the override"
    assert waited


@pytest.mark.rule("R-GM-1")
def test_an_override_while_the_next_round_resolves_waits_and_is_refused(world, pause) -> None:
    first, second, check = _two_rounds(world)
    stopped = pause(rounds, "_store")  # the resolution of round 2, stored, not yet committed
    resolver = Worker(lambda: rounds.resolve_round(second, clock=world.clock))
    stopped.wait()
    override = Worker(lambda: rounds.override_check(first, check, 20, reason="霧が晴れた", clock=world.clock))
    waited = override.waits_for_a_lock()
    stopped.release()
    assert resolver.outcome().status == "resolved"
    with pytest.raises(UserError, match="a later round of this scenario is resolved"):
        override.outcome()
    assert waited
    assert Resolution.get(Resolution.round == first).version == 1
    assert _chain_holds(first, second)


def test_a_close_that_waited_for_a_save_is_stamped_after_it(world, pause, meanwhile) -> None:
    """`closed_at` is read once the close holds the round: a save that held it first (FOR SHARE) is never later."""
    rid = world.new_round()
    stopped = pause(entry_writes, "store_entry")  # the save, holding the round, not yet committed
    savers: list[Worker] = []

    def a_save_starts_later() -> None:  # the close has read its round, its transaction not begun
        world.clock.advance(5)
        uid, cid = world.players[0], world.characters[0]
        order, clock = world.order(), world.clock
        savers.append(Worker(lambda: entries.save_entry(rid, cid, user_id=uid, order=order, prose="", clock=clock)))
        stopped.wait()

    meanwhile(rounds, a_save_starts_later)
    closer = Worker(lambda: rounds.close_round(rid, clock=world.clock))
    waited = closer.waits_for_a_lock()
    stopped.release()
    receipt, closed = savers[0].outcome(), closer.outcome()
    assert waited and closed.state == "closed"
    assert [r.saved_at for r in EntryRevision.select()] == [receipt.saved_at]
    assert receipt.saved_at <= closed.closed_at
