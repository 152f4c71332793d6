"""Read-only queries behind the home page, マイページ and the character pages: what anyone may see of campaigns
(names, public scenario text, deadlines) and what a user owns. Nothing secret (GM notes, entries, seeds) is
selected here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbp.errors import Forbidden, NotFound
from pbp.models import Campaign, Character, Participation, Round, Scenario
from pbp.services import characters
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


def campaign_by_slug(slug: str) -> Campaign:
    campaign = Campaign.get_or_none(Campaign.slug == slug)
    if campaign is None:
        raise NotFound(f"no campaign {slug}")
    return campaign


def campaign_name(campaign: Campaign, locale: str) -> str:
    return pack_name(campaign.pack or {}, "campaign", None, locale, campaign.name)


def campaign_names(locale: str) -> list[tuple[str, str]]:
    """Every campaign's slug and name, for マイページ's "create a character" links."""
    return [(c.slug, campaign_name(c, locale)) for c in Campaign.select().order_by(Campaign.id)]


def own_character(character_id: int, user_id: int) -> Character:
    """The user's character with its campaign; another's is Forbidden (403), none NotFound (404)."""
    character = Character.select(Character, Campaign).join(Campaign).where(Character.id == character_id).first()
    if character is None:
        raise NotFound(f"no character {character_id}")
    if character.owner_id != user_id:
        raise Forbidden(f"character {character_id} is not yours")
    return character


def character_name(character: Character, locale: str) -> str:
    """The sheet's name in `locale`, else its Japanese."""
    return str(character.sheet.get(locale) or character.name)


@dataclass(frozen=True)
class GrowthRow:
    id: int
    created_at: datetime  # aware UTC
    raises: list[tuple[str, int, int]]  # skill name, from, to
    cost: int
    note: str
    status: str
    reason: str


def growth_history(character: Character, locale: str) -> list[GrowthRow]:
    """The character's growth requests, newest first, each skill named in `locale`."""
    pack = character.campaign.pack or {}
    rows = []
    for r in characters.growth_requests(character.id):
        before = r.before.get("skills") or {}
        raises = [
            (pack_name(pack, "skills", skill, locale, skill), int(before.get(skill, 1)), int(level))
            for skill, level in characters.requested_levels(r).items()
        ]
        rows.append(GrowthRow(r.id, from_db(r.created_at), raises, r.cost, r.note, r.status, r.reason))
    return rows
