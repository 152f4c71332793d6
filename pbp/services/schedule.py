"""The scheduler's tick as one call: everything whose time has come, asked of the database (the scheduler keeps no
truth of its own, so missed deadlines while nothing ran are caught up at the next tick). Each finished tick is
recorded as the scheduler's heartbeat, which `/healthz` reads."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime

from pbp.db import Busy, retried, write_transaction
from pbp.models import Heartbeat
from pbp.services import rounds, scenarios
from pbp.services.clock import SYSTEM, Clock, from_db, to_db

#: The heartbeat's name for the scheduler's tick.
SCHEDULER = "scheduler"


@dataclass(frozen=True)
class TickReport:
    #: Scenarios whose sign-up closed now (by lottery when over-subscribed).
    signups_closed: list[int]
    #: One outcome per due round.
    rounds: list[rounds.ResolveOutcome]
    #: Scenarios whose sign-up is due but the database stayed busy: closed at a later tick.
    signups_busy: list[int] = field(default_factory=list)


def tick(*, clock: Clock = SYSTEM) -> TickReport:
    """Close the sign-ups whose deadline passed, then resolve every due round; record that the tick ran. A busy
    database (`Busy`, after the services' own retries) leaves what it stopped due for the next tick."""
    closed, busy = [], []
    for scenario_id in scenarios.due_signups(clock=clock):
        try:
            scenarios.close_signup(scenario_id, clock=clock)
        except Busy:  # nothing changed: still due at the next tick
            busy.append(scenario_id)
        else:
            closed.append(scenario_id)
    report = TickReport(closed, rounds.resolve_due(clock=clock), busy)
    with contextlib.suppress(Busy):  # the heartbeat waits for the next tick like the work did; the tick went through
        record_tick(clock=clock)
    return report


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
