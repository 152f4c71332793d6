"""Read-only queries behind the home page and マイページ: what anyone may see of campaigns (names, public scenario
text, deadlines) and what a user owns. Nothing secret (GM notes, entries, seeds) is selected here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbp.models import Campaign, Character, Participation, Round, Scenario
from pbp.services.clock import from_db, to_db
from pbp.services.rounds import OPEN
from pbp.services.scenarios import resolved_round
from pbp.web.blog.queries import campaign_info, pack_name


@dataclass(frozen=True)
class OpenRound:
    number: int
    deadline: datetime  # aware UTC


@dataclass
class ScenarioRow:
    slug: str
    title: str
    slots: int
    signup_open: bool
    signup_deadline: datetime | None  # aware UTC
    open_rounds: list[OpenRound] = field(default_factory=list)


@dataclass
class CampaignRow:
    slug: str
    name: str
    timezone: str
    has_reports: bool
    scenarios: list[ScenarioRow] = field(default_factory=list)


@dataclass(frozen=True)
class Signup:
    campaign: str
    scenario_title: str
    status: str  # applied | joined | waitlisted


@dataclass
class CharacterRow:
    id: int
    name: str
    campaign: str
    campaign_name: str
    alive: bool
    signups: list[Signup] = field(default_factory=list)


def _signup_open(scenario: Scenario, now: datetime) -> bool:
    """As `join_scenario` decides: not closed, its deadline (if any) ahead, and no round of it resolved yet."""
    if scenario.signup_closed_at is not None:
        return False
    if scenario.signup_deadline is not None and scenario.signup_deadline <= now:
        return False
    return resolved_round(scenario.id) is None


def campaigns(now: datetime, *, locale: str) -> list[CampaignRow]:
    """Every campaign with its scenarios, each with its sign-up state and its rounds open for entries."""
    moment = to_db(now)
    rows = []
    for campaign in Campaign.select().order_by(Campaign.id):
        pack = campaign.pack or {}
        row = CampaignRow(
            campaign.slug,
            pack_name(pack, "campaign", None, locale, campaign.name),
            campaign.timezone,
            campaign_info(campaign.slug, locale=locale) is not None,
        )
        for scenario in Scenario.select().where(Scenario.campaign == campaign.id).order_by(Scenario.id):
            open_rounds = (
                Round.select()
                .where(Round.scenario == scenario.id, Round.state == OPEN, Round.deadline > moment)
                .order_by(Round.number)
            )
            row.scenarios.append(
                ScenarioRow(
                    scenario.slug,
                    pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title),
                    scenario.slots,
                    _signup_open(scenario, moment),
                    from_db(scenario.signup_deadline) if scenario.signup_deadline else None,
                    [OpenRound(r.number, from_db(r.deadline)) for r in open_rounds],
                )
            )
        rows.append(row)
    return rows


def characters_of(user_id: int, *, locale: str) -> list[CharacterRow]:
    """The user's characters, each with the scenarios it signed up for."""
    rows = []
    query = Character.select(Character, Campaign).join(Campaign).where(Character.owner == user_id)
    for character in query.order_by(Character.id):
        campaign = character.campaign
        pack = campaign.pack or {}
        row = CharacterRow(
            character.id,
            character.name,
            campaign.slug,
            pack_name(pack, "campaign", None, locale, campaign.name),
            character.alive,
        )
        signups = (
            Participation.select(Participation, Scenario)
            .join(Scenario)
            .where(Participation.character == character.id)
            .order_by(Scenario.id)
        )
        for p in signups:
            title = pack_name(pack, "scenarios", p.scenario.pack_scenario, locale, p.scenario.title)
            row.signups.append(Signup(campaign.slug, title, p.status))
        rows.append(row)
    return rows
