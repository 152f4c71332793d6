"""The scheduler's tick as one call: everything whose time has come, asked of the database (the scheduler keeps no
truth of its own, so missed deadlines while nothing ran are caught up at the next tick)."""

from __future__ import annotations

from dataclasses import dataclass

from pbp.services import rounds, scenarios
from pbp.services.clock import SYSTEM, Clock


@dataclass(frozen=True)
class TickReport:
    #: Scenarios whose sign-up closed now (by lottery when over-subscribed).
    signups_closed: list[int]
    #: One outcome per due round.
    rounds: list[rounds.ResolveOutcome]


def tick(*, clock: Clock = SYSTEM) -> TickReport:
    """Close the sign-ups whose deadline passed, then resolve every due round."""
    closed = []
    for scenario_id in scenarios.due_signups(clock=clock):
        scenarios.close_signup(scenario_id, clock=clock)
        closed.append(scenario_id)
    return TickReport(closed, rounds.resolve_due(clock=clock))
