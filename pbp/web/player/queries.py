"""Read-only queries behind the home page, a scenario's page, マイページ and the character pages: what anyone may see
of campaigns (names, public scenario text and gimmicks, deadlines, who takes part) and what a user owns. Nothing
secret (GM notes, enemies' data, secret gimmicks, entries, unrevealed seeds) is selected here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbp.engine.pool.encounters import public_scenario
from pbp.errors import N_, Forbidden, NotFound, Text
from pbp.models import Campaign, Character, Entry, Participation, Round, Scenario
from pbp.services import characters
from pbp.services.clock import from_db, to_db
from pbp.services.rounds import CLOSED, OPEN, PUBLISHED, RESOLVED, battle_over, outcome_word
from pbp.services.scenarios import APPLIED, JOINED, resolved_round, waitlist
from pbp.web.blog.queries import described, has_reports, pack_name


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
    description: str = ""  # the pack's, as the campaign's blog page shows it
    scenarios: list[ScenarioRow] = field(default_factory=list)


@dataclass(frozen=True)
class EntryStatus:
    """A joined character's entry for its scenario's current round: where to write it and how it stands."""

    round_id: int
    number: int
    deadline: datetime  # aware UTC
    saved_at: datetime | None  # aware UTC; None: not written yet
    open: bool  # still taking saves
    timezone: str


@dataclass(frozen=True)
class Signup:
    campaign: str
    scenario_title: str
    status: str  # applied | joined | waitlisted
    scenario: str = ""  # its slug
    entry: EntryStatus | None = None


@dataclass
class CharacterRow:
    id: int
    name: str
    campaign: str
    campaign_name: str
    alive: bool
    signups: list[Signup] = field(default_factory=list)
    in_reports: bool = False  # it takes part in a scenario with a published round: its page on the blog exists


def _signup_open(scenario: Scenario, now: datetime, started: bool | None = None) -> bool:
    """As `join_scenario` decides: not closed, its deadline (if any) ahead, and no round of it resolved yet
    (`started`: whether one is, when the caller knows it already)."""
    if scenario.signup_closed_at is not None:
        return False
    if scenario.signup_deadline is not None and scenario.signup_deadline <= now:
        return False
    return not (resolved_round(scenario.id) is not None if started is None else started)


def campaigns(now: datetime, *, locale: str) -> list[CampaignRow]:
    """Every campaign with its scenarios, each with its sign-up state and its rounds open for entries: a few
    queries per campaign, not per scenario (a campaign that runs its battle for 50 groups has 50 scenarios)."""
    moment = to_db(now)
    rows = []
    for campaign in Campaign.select().order_by(Campaign.id):
        pack = campaign.pack or {}
        row = CampaignRow(
            campaign.slug,
            pack_name(pack, "campaign", None, locale, campaign.name),
            campaign.timezone,
            has_reports(campaign.slug),
            described(pack.get("campaign") or {}, locale),
        )
        scenarios = list(Scenario.select().where(Scenario.campaign == campaign.id).order_by(Scenario.id))
        rounds = Round.select(Round.scenario, Round.number, Round.state, Round.deadline).join(Scenario)
        rounds = rounds.where(Scenario.campaign == campaign.id, Round.state.in_((OPEN, RESOLVED, PUBLISHED)))
        open_rounds: dict[int, list[OpenRound]] = {}
        started: set[int] = set()
        for r in rounds.order_by(Round.number):
            if r.state != OPEN:
                started.add(r.scenario_id)
            elif r.deadline > moment:
                open_rounds.setdefault(r.scenario_id, []).append(OpenRound(r.number, from_db(r.deadline)))
        for scenario in scenarios:
            row.scenarios.append(
                ScenarioRow(
                    scenario.slug,
                    pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title),
                    scenario.slots,
                    _signup_open(scenario, moment, scenario.id in started),
                    from_db(scenario.signup_deadline) if scenario.signup_deadline else None,
                    open_rounds.get(scenario.id, []),
                )
            )
        rows.append(row)
    return rows


def _entry_status(character_id: int, scenario: Scenario, timezone: str, now: datetime) -> EntryStatus | None:
    """The character's entry for the scenario's latest round still waiting for entries or just closed."""
    rnd = (
        Round.select()
        .where(Round.scenario == scenario.id, Round.state.in_((OPEN, CLOSED)))
        .order_by(Round.number.desc())
        .first()
    )
    if rnd is None:
        return None
    entry = Entry.get_or_none(Entry.round == rnd.id, Entry.character == character_id)
    return EntryStatus(
        rnd.id,
        rnd.number,
        from_db(rnd.deadline),
        from_db(entry.saved_at) if entry else None,
        rnd.state == OPEN and to_db(now) < rnd.deadline,
        timezone,
    )


def _has_published_round(scenario_id: int) -> bool:
    """Whether a round of the scenario is published: its reports, and its characters' pages, are on the blog."""
    return bool(Round.select().where(Round.scenario == scenario_id, Round.state == PUBLISHED).exists())


def characters_of(user_id: int, *, locale: str, now: datetime) -> list[CharacterRow]:
    """The user's characters, each with the scenarios it signed up for and, where it takes part, how its entry for
    the current round stands."""
    rows = []
    query = Character.select(Character, Campaign).join(Campaign).where(Character.owner == user_id)
    for character in query.order_by(Character.id):
        campaign = character.campaign
        pack = campaign.pack or {}
        row = CharacterRow(
            character.id,
            character_name(character, locale),
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
            entry = _entry_status(character.id, p.scenario, campaign.timezone, now) if p.status == JOINED else None
            row.signups.append(Signup(campaign.slug, title, p.status, p.scenario.slug, entry))
            row.in_reports = row.in_reports or (p.status == JOINED and _has_published_round(p.scenario.id))
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Named:
    """A public piece of a scenario: its name in the page's language and what players may read of it."""

    name: str
    text: str = ""


@dataclass(frozen=True)
class MySignup:
    character_id: int
    name: str
    status: str  # applied | joined | waitlisted
    place: int | None  # on the waitlist, counted from 1


@dataclass
class ScenarioPage:
    """Everything a scenario's page shows; nothing of the GM's (notes, enemies' data, secret gimmicks)."""

    id: int
    campaign: str
    campaign_name: str
    slug: str
    title: str
    kind: str
    description: str
    timezone: str
    slots: int
    joined: list[str]
    waitlist: list[str]
    applicants: int
    signup_open: bool
    signup_deadline: datetime | None
    signup_closed_at: datetime | None
    lottery_seed: str | None
    under_way: int | None  # the first resolved round's number
    over: Text | None  # how the battle ended, once the published rounds leave no deadline to play
    has_reports: bool
    open_round: Round | None
    gimmicks: list[Named] = field(default_factory=list)
    terrain: list[Named] = field(default_factory=list)
    checks: list[Named] = field(default_factory=list)
    mine: list[MySignup] = field(default_factory=list)
    joinable: list[tuple[int, str]] = field(default_factory=list)  # the user's characters that may sign up


def _localised(entry: dict, locale: str, default: str = "") -> str:
    return str(entry.get(locale) or entry.get("ja") or default)


def scenario_page(
    campaign_slug: str, scenario_slug: str, now: datetime, *, user_id: int | None, locale: str
) -> ScenarioPage | None:
    """The scenario's public page, with the signed-in user's own sign-ups; None when there is no such scenario."""
    scenario = (
        Scenario.select(Scenario, Campaign)
        .join(Campaign)
        .where(Campaign.slug == campaign_slug, Scenario.slug == scenario_slug)
        .first()
    )
    if scenario is None:
        return None
    campaign = scenario.campaign
    pack = campaign.pack or {}
    spec = public_scenario(pack, scenario.pack_scenario)
    moment = to_db(now)
    signups = list(
        Participation.select(Participation, Character)
        .join(Character)
        .where(Participation.scenario == scenario.id)
        .order_by(Participation.id)
    )
    queue = waitlist(scenario)
    names = {p.character_id: p.character.sheet.get(locale) or p.character.name for p in signups}
    open_round = (
        Round.select()
        .where(Round.scenario == scenario.id, Round.state == OPEN, Round.deadline > moment)
        .order_by(Round.number)
        .first()
    )
    page = ScenarioPage(
        id=scenario.id,
        campaign=campaign.slug,
        campaign_name=pack_name(pack, "campaign", None, locale, campaign.name),
        slug=scenario.slug,
        title=pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title),
        kind=scenario.kind,
        description=described(spec, locale) or scenario.public_text,
        timezone=campaign.timezone,
        slots=scenario.slots,
        joined=[names[p.character_id] for p in signups if p.status == JOINED],
        waitlist=[names[cid] for cid in queue],
        applicants=sum(1 for p in signups if p.status == APPLIED),
        signup_open=_signup_open(scenario, moment),
        signup_deadline=from_db(scenario.signup_deadline) if scenario.signup_deadline else None,
        signup_closed_at=from_db(scenario.signup_closed_at) if scenario.signup_closed_at else None,
        lottery_seed=scenario.lottery_seed,
        under_way=resolved_round(scenario.id),
        over=outcome_word(battle_over(scenario.id, published=True)),
        has_reports=_has_published_round(scenario.id),
        open_round=open_round,
        gimmicks=[
            Named(_localised(g, locale, g["id"]), described(g, locale))
            for g in spec.get("gimmicks") or []
            if g.get("public")
        ],  # fmt: skip
        terrain=[Named(_localised(t, locale), f"×{t.get('rough', 1)}") for t in spec.get("terrain") or []],
        checks=[
            Named(_localised(c, locale, c["id"]), pack_name(pack, "skills", c["skill"], locale, c["skill"]))
            for c in spec.get("checks") or []
        ],  # each with its skill in the page's language
    )
    if user_id is not None:
        taken = {p.character_id for p in signups}
        for p in signups:
            if p.character.owner_id == user_id:
                place = queue.index(p.character_id) + 1 if p.character_id in queue else None
                page.mine.append(MySignup(p.character_id, names[p.character_id], p.status, place))
        own = Character.select().where(
            Character.owner == user_id,
            Character.campaign == campaign.id,
            Character.alive == True,  # noqa: E712
        )
        page.joinable = [(c.id, c.sheet.get(locale) or c.name) for c in own.order_by(Character.id) if c.id not in taken]
    return page


def campaign_by_slug(slug: str) -> Campaign:
    campaign = Campaign.get_or_none(Campaign.slug == slug)
    if campaign is None:
        raise NotFound(N_("no %(label)s %(id)s", label=N_("campaign"), id=slug))
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
        raise NotFound(N_("no %(label)s %(id)s", label=N_("character"), id=character_id))
    if character.owner_id != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
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
