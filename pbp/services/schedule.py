"""The scheduler's tick as one call: everything whose time has come, asked of the database (the scheduler keeps no
truth of its own, so missed deadlines while nothing ran are caught up at the next tick). Each finished tick is
recorded as the scheduler's heartbeat, which `/healthz` reads.

A tick, in order: close the sign-ups whose deadline passed (lottery), close the open rounds whose deadline passed,
hold for the GM the due rounds with too many entries missing (the guard), resolve the due rounds, publish the
resolved rounds of campaigns that publish automatically, remind players without an entry, deliver the outbox, delete
the notifications finished long ago. Each step and each item in it stands alone: one that fails, in any way, is
reported in the `TickReport` (with its traceback when unexpected) and the others go on; nothing here raises but a
failure to read what is due at all.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import peewee

from pbp.db import Busy, retried, write_transaction
from pbp.errors import UserError
from pbp.models import Heartbeat
from pbp.services import notifications, publishing, rounds, scenarios
from pbp.services.clock import SYSTEM, Clock, FixedClock, from_db, to_db

#: The heartbeat's name for the scheduler's tick.
SCHEDULER = "scheduler"
#: Seconds past its deadline after which a round still open or closed is overdue (`/healthz`, the log).
OVERDUE_AFTER = 900


@dataclass(frozen=True)
class Problem:
    """One thing a tick could not do: the step, the item (a round, scenario or notification id) and why."""

    step: str
    item: int | None
    message: str
    #: The traceback of an unexpected error (a bug or a database that went away), once.
    trace: str | None = None


@dataclass(frozen=True)
class TickReport:
    #: Scenarios whose sign-up closed now (by lottery when over-subscribed).
    signups_closed: list[int]
    #: One outcome per due round.
    rounds: list[rounds.ResolveOutcome]
    #: Scenarios whose sign-up is due but the database stayed busy: closed at a later tick.
    signups_busy: list[int] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)  # open rounds closed at their deadline
    held: list[int] = field(default_factory=list)  # rounds the guard held for the GM
    published: list[int] = field(default_factory=list)  # rounds published automatically
    reminded: dict[int, list[int]] = field(default_factory=dict)  # round -> users reminded
    deliveries: list[notifications.Delivery] = field(default_factory=list)
    pruned: int = 0  # finished notifications deleted (`notifications.prune`)
    overdue: list[int] = field(default_factory=list)  # rounds more than OVERDUE_AFTER past their deadline
    problems: list[Problem] = field(default_factory=list)


def _each(step: str, ids: Iterable[int], act: Callable[[int], Any], problems: list[Problem]) -> list[tuple[int, Any]]:
    """`act` on every id, each on its own: a refusal (`UserError`: another scheduler moved first, the database stayed
    busy) or any other error is a `Problem` and the next id goes on."""
    done = []
    for item in ids:
        try:
            done.append((item, act(item)))
        except UserError as e:
            problems.append(Problem(step, item, str(e)))
        except Exception as e:
            problems.append(Problem(step, item, f"{type(e).__name__}: {e}", traceback.format_exc()))
    return done


def _ask(step: str, query: Callable[[], list[int]], problems: list[Problem]) -> list[int]:
    """What a step has to do, or nothing (and a `Problem`) when the database cannot say."""
    try:
        return query()
    except Exception as e:
        problems.append(Problem(step, None, f"{type(e).__name__}: {e}", traceback.format_exc()))
        return []


def _close(clock: Clock, problems: list[Problem]) -> list[int]:
    """The open rounds past their deadline closed together (`rounds.close_past_deadline`); when that fails, each on
    its own, so one round that cannot close keeps no other open."""
    try:
        return rounds.close_past_deadline(clock=clock)
    except Exception:  # the round at fault is named by the close one by one
        closed = _each("close", _ask("close", lambda: rounds.open_past_deadline(clock=clock), problems),
                       lambda rid: rounds.close_round(rid, clock=clock), problems)  # fmt: skip
        return [rid for rid, _ in closed]


def tick(
    *,
    clock: Clock = SYSTEM,
    settings: notifications.Settings | None = None,
    sender: notifications.Sender = notifications.send,
    overdue_after: float = OVERDUE_AFTER,
) -> TickReport:
    """One tick (see the module's docstring); record that it ran. Its steps all see the time it started: a round
    whose deadline passes during the tick is not resolved by a step after the guard that did not see it due."""
    clock = FixedClock(clock.now())
    problems: list[Problem] = []
    signups = _each("signup", _ask("signup", lambda: scenarios.due_signups(clock=clock), problems),
                    lambda sid: scenarios.close_signup(sid, clock=clock), problems)  # fmt: skip
    signups_busy = [p.item for p in problems if p.step == "signup" and p.message == str(Busy())]
    closed = _close(clock, problems)
    due = _ask("guard", lambda: rounds.due_round_ids(clock=clock), problems)
    held = [rid for rid, did in _each("guard", due, lambda rid: rounds.guard(rid, clock=clock), problems) if did]
    try:
        outcomes = rounds.resolve_due(clock=clock)
    except Exception as e:  # reading what is due failed (each round's own failures are in its outcome)
        problems.append(Problem("resolve", None, f"{type(e).__name__}: {e}", traceback.format_exc()))
        outcomes = []
    published = _each("publish", _ask("publish", rounds.to_publish, problems),
                      lambda rid: publishing.publish_automatically(rid, clock=clock), problems)  # fmt: skip
    reminded = _each("remind", _ask("remind", lambda: notifications.rounds_to_remind(clock=clock), problems),
                     lambda rid: notifications.remind(rid, clock=clock), problems)  # fmt: skip
    overdue = _ask("overdue", lambda: rounds.overdue(overdue_after, clock=clock), problems)
    try:
        deliveries = notifications.deliver_due(clock=clock, settings=settings, sender=sender)
    except Exception as e:  # the settings or the database: the outbox keeps everything for the next tick
        problems.append(Problem("deliver", None, f"{type(e).__name__}: {e}", traceback.format_exc()))
        deliveries = []
    try:
        pruned = notifications.prune(clock=clock)
    except Exception as e:  # the old rows wait for the next tick
        problems.append(Problem("prune", None, f"{type(e).__name__}: {e}", traceback.format_exc()))
        pruned = 0
    with suppress(Busy, peewee.PeeweeException):  # the heartbeat waits for the next tick; the tick went through
        record_tick(clock=clock)
    return TickReport(
        signups_closed=[sid for sid, _ in signups],
        rounds=outcomes,
        signups_busy=signups_busy,
        closed=closed,
        held=held,
        published=[rid for rid, _ in published],
        reminded={rid: users for rid, users in reminded if users},
        deliveries=deliveries,
        pruned=pruned,
        overdue=overdue,
        problems=problems,
    )


@retried
def record_tick(*, clock: Clock = SYSTEM) -> None:
    """The scheduler's heartbeat: the time its last tick finished (one row, updated in place)."""
    now = to_db(clock.now())
    with write_transaction():
        (
            Heartbeat.insert(name=SCHEDULER, at=now)
            .on_conflict(conflict_target=[Heartbeat.name], update={Heartbeat.at: now})
            .execute()
        )


def last_tick() -> datetime | None:
    """When the scheduler's last tick finished (aware UTC), None if it never ran on this database."""
    beat = Heartbeat.get_or_none(Heartbeat.name == SCHEDULER)
    return from_db(beat.at) if beat else None


def work_is_due(*, clock: Clock = SYSTEM) -> bool:
    """Whether a tick would have something to do now (a round to resolve, a sign-up to close)."""
    return bool(rounds.due_round_ids(clock=clock) or scenarios.due_signups(clock=clock))
