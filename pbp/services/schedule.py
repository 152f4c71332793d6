"""The scheduler's tick as one call: everything whose time has come, asked of the database (the scheduler keeps no
truth of its own, so missed deadlines while nothing ran are caught up at the next tick)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.db import Busy
from pbp.services import rounds, scenarios
from pbp.services.clock import SYSTEM, Clock


@dataclass(frozen=True)
class TickReport:
    #: Scenarios whose sign-up closed now (by lottery when over-subscribed).
    signups_closed: list[int]
    #: One outcome per due round.
    rounds: list[rounds.ResolveOutcome]
    #: Scenarios whose sign-up is due but the database stayed busy: closed at a later tick.
    signups_busy: list[int] = field(default_factory=list)


def tick(*, clock: Clock = SYSTEM) -> TickReport:
    """Close the sign-ups whose deadline passed, then resolve every due round. A busy database (`Busy`, after the
    services' own retries) leaves what it stopped due for the next tick."""
    closed, busy = [], []
    for scenario_id in scenarios.due_signups(clock=clock):
        try:
            scenarios.close_signup(scenario_id, clock=clock)
        except Busy:  # nothing changed: still due at the next tick
            busy.append(scenario_id)
        else:
            closed.append(scenario_id)
    return TickReport(closed, rounds.resolve_due(clock=clock), busy)
