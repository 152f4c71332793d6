"""Read-only queries behind the blog. Every one starts from `_published()`: a round in state `published` with its
report; nothing else (drafts, entries, GM notes, the secret part of a scenario) is ever selected here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import peewee

from pbp.models import Campaign, Character, Report, Resolution, Round, Scenario
from pbp.reports import plain_text, render_markdown
from pbp.reports.dicelog import LogLine, dice_log
from pbp.reports.narrative import Names
from pbp.services import publishing
from pbp.services.characters import character_id_of
from pbp.services.clock import from_db
from pbp.services.rounds import PUBLISHED


@dataclass(frozen=True)
class Participant:
    character_id: int | None
    name: str


@dataclass
class ReportCard:
    """What a list shows of one published report."""

    round_id: int
    number: int
    campaign: str
    campaign_name: str
    scenario: str
    scenario_title: str
    published_at: datetime  # aware, UTC
    timezone: str
    excerpt: str
    participants: list[Participant]
    html: str  # the story as cached at publishing (rendered and sanitised then)


@dataclass
class ReportPage(ReportCard):
    """A whole published report: the story's cached HTML, the dice log and what verifying needs."""

    seed: str = ""
    seed_hash: str = ""
    log: list[LogLine] = field(default_factory=list)
    unit_names: dict[str, str] = field(default_factory=dict)


@dataclass
class Paged:
    items: list[ReportCard]
    page: int
    pages: int


def _published() -> peewee.ModelSelect:
    return (
        Round.select(Round, Scenario, Campaign, Report, Resolution)
        .join(Scenario)
        .join(Campaign)
        .switch(Round)
        .join(Report)
        .switch(Round)
        .join(Resolution)
        .where(Round.state == PUBLISHED, Round.published_at.is_null(False), Report.html.is_null(False))
    )


def excerpt(html: str, limit: int = 140) -> str:
    """Plain text from the start of a story, for cards and OpenGraph descriptions."""
    text = plain_text(html)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _participants(encounter: dict[str, Any]) -> list[Participant]:
    return [
        Participant(character_id_of(u["id"]), str(u.get("name") or u["id"]))
        for u in encounter.get("units", [])
        if u.get("side") == "pc"
    ]


def pack_name(pack: dict[str, Any], section: str, key: str | None, locale: str, default: str) -> str:
    """A name the campaign pack gives in `locale` (the campaign's, under `campaign`; a scenario's, under
    `scenarios.<key>`), else `default`: what the database holds, the pack's Japanese as loaded."""
    entry = pack.get(section, {}) if key is None else pack.get(section, {}).get(key)
    return str(entry.get(locale) or default) if isinstance(entry, dict) else default


def _card(rnd: Round, locale: str, cls: type[ReportCard] = ReportCard, **extra: Any) -> ReportCard:
    scenario, campaign = rnd.scenario, rnd.scenario.campaign
    pack = campaign.pack or {}
    return cls(
        round_id=rnd.id,
        number=rnd.number,
        campaign=campaign.slug,
        campaign_name=pack_name(pack, "campaign", None, locale, campaign.name),
        scenario=scenario.slug,
        scenario_title=pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title),
        published_at=from_db(rnd.published_at),
        timezone=campaign.timezone,
        excerpt=excerpt(rnd.report.html),
        participants=_participants(rnd.resolution.encounter),
        html=rnd.report.html,
        **extra,
    )


def _newest(query: peewee.ModelSelect) -> peewee.ModelSelect:
    return query.order_by(Round.published_at.desc(), Round.id.desc())


def reports_page(page: int, per_page: int, *, locale: str, campaign: str | None = None) -> Paged | None:
    """One page of published reports, newest first (None past the last page; page 1 always exists)."""
    query = _published()
    if campaign is not None:
        query = query.where(Campaign.slug == campaign)
    pages = max(1, math.ceil(query.count() / per_page))
    if page < 1 or page > pages:
        return None
    rows = list(_newest(query).paginate(page, per_page))
    return Paged([_card(r, locale) for r in rows], page, pages)


def latest(limit: int, *, locale: str, campaign: str | None = None) -> list[ReportCard]:
    query = _published() if campaign is None else _published().where(Campaign.slug == campaign)
    return [_card(r, locale) for r in _newest(query).limit(limit)]


def campaign_info(slug: str, *, locale: str) -> dict[str, str] | None:
    """A campaign's public face (name and the pack's public description), only once it has a published report."""
    if not _published().where(Campaign.slug == slug).exists():
        return None
    campaign = Campaign.get(Campaign.slug == slug)
    pack = campaign.pack or {}
    about = pack.get("campaign", {})
    name = pack_name(pack, "campaign", None, locale, campaign.name)
    return {"slug": slug, "name": name, "description": str(about.get("description") or "")}


def scenario_reports(campaign: str, scenario: str, *, locale: str) -> tuple[dict[str, str], list[ReportCard]] | None:
    """A scenario's public face (title, public text) and its published reports in round order."""
    rows = list(
        _published().where(Campaign.slug == campaign, Scenario.slug == scenario).order_by(Round.number, Round.id)
    )
    if not rows:
        return None
    cards = [_card(r, locale) for r in rows]
    return {"title": cards[0].scenario_title, "public_text": rows[0].scenario.public_text}, cards


def report_page(campaign: str, scenario: str, number: int, *, locale: str) -> ReportPage | None:
    """One published report with its dice log."""
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    if rnd is None:
        return None
    res = rnd.resolution
    units = {u["id"]: u for u in res.encounter.get("units", [])}
    names = Names(locale, rnd.scenario.campaign.pack or {}, units, rnd.scenario.pack_scenario)
    log = dice_log(res.events, names)
    page = _card(
        rnd,
        locale,
        ReportPage,
        seed=rnd.seed or "",
        seed_hash=rnd.seed_hash or "",
        log=log,
        unit_names={uid: names.unit(uid) for uid in units},
    )
    assert isinstance(page, ReportPage)
    return page


def english_story(campaign: str, scenario: str, number: int) -> tuple[ReportCard, str, bool] | None:
    """A published round's English story as HTML, and whether the GM wrote it: as published (the GM's own or the
    generated one, frozen then), else (a round published before pbp kept it) written now from the resolution."""
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    if rnd is None:
        return None
    if rnd.report.html_en:  # frozen at publishing
        return _card(rnd, "en"), rnd.report.html_en, rnd.report.story_en_md is not None
    return _card(rnd, "en"), render_markdown(publishing.english_story(rnd.id)[0]), False


def round_id_of(campaign: str, scenario: str, number: int) -> int | None:
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    return rnd.id if rnd else None


def chronicle(campaign: str, character_id: int, *, locale: str) -> tuple[str, list[ReportCard]] | None:
    """Every published report a character appears in, oldest first (None if it appears in none)."""
    character = Character.get_or_none(Character.id == character_id)
    if character is None or character.campaign.slug != campaign:
        return None
    query = _published().where(Campaign.slug == campaign).order_by(Round.published_at, Round.id)
    cards = [
        c for c in (_card(r, locale) for r in query) if any(p.character_id == character_id for p in c.participants)
    ]
    if not cards:
        return None
    name = next(p.name for p in cards[-1].participants if p.character_id == character_id)
    return name, cards
