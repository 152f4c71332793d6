"""What the GM's overview shows, read in a few queries (no packs; of the resolutions only the last one's final state,
whether the battle is over)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.errors import Text
from pbp.models import Campaign, Participation, Round, Scenario
from pbp.services import rounds as lifecycle
from pbp.services.clock import local_text


@dataclass
class RoundRow:
    id: int
    number: int
    state: str
    deadline: str


@dataclass
class ScenarioRow:
    id: int
    slug: str
    title: str
    pack_scenario: str | None
    kind: str
    slots: int
    joined: int
    rounds: list[RoundRow] = field(default_factory=list)
    over: Text | None = None  # how the battle ended, once no deadline is left to play (`rounds.battle_over`)


def scenarios_of(campaign: Campaign) -> list[ScenarioRow]:
    """The campaign's scenarios, newest first, each with its joined characters and its rounds in order."""
    rows = {
        s.id: ScenarioRow(s.id, s.slug, s.title, s.pack_scenario, s.kind, s.slots, 0)
        for s in Scenario.select(
            Scenario.id, Scenario.slug, Scenario.title, Scenario.pack_scenario, Scenario.kind, Scenario.slots
        )
        .where(Scenario.campaign == campaign.id)
        .order_by(Scenario.id.desc())
    }
    joined = (
        Participation.select(Participation.scenario)
        .join(Scenario)
        .where(Scenario.campaign == campaign.id, Participation.status == "joined")
    )
    for p in joined:
        rows[p.scenario_id].joined += 1
    rounds = (
        Round.select(Round.id, Round.scenario, Round.number, Round.state, Round.deadline)
        .join(Scenario)
        .where(Scenario.campaign == campaign.id)
        .order_by(Round.number)
    )
    for r in rounds:
        rows[r.scenario_id].rounds.append(RoundRow(r.id, r.number, r.state, local_text(r.deadline, campaign.timezone)))
    for row in rows.values():
        if any(r.state in (lifecycle.RESOLVED, lifecycle.PUBLISHED) for r in row.rounds):
            row.over = lifecycle.outcome_word(lifecycle.battle_over(row.id))
    return list(rows.values())
