"""Read-only queries behind the blog. Every one starts from `_published()`: a round in state `published` with its
report; nothing else (drafts, entries, GM notes, the secret part of a scenario) is ever selected here.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import peewee
from flask import g, has_request_context

from pbp.models import Campaign, Character, Report, ReportCorrection, Resolution, Round, Scenario
from pbp.reports import plain_text, render_markdown
from pbp.reports.battlemap import Arrow, MapView, battle_map
from pbp.reports.dicelog import GmLine, LogLine, dice_log, gm_lines
from pbp.reports.kancolle_log import KancolleLine, kancolle_log
from pbp.reports.narrative import Names, lexicon
from pbp.reports.pronouns import english_pronoun
from pbp.services import icons, master_comments, publishing
from pbp.services.characters import character_id_of, unit_id
from pbp.services.clock import from_db
from pbp.services.master_comments import Shown
from pbp.services.rounds import PUBLISHED, battle_over, outcome_word
from pbp.text import is_japanese
from pbp.web.blog.cache import cached
from pbp.web.data import rulebook

T = TypeVar("T")


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
    updated_at: datetime  # aware, UTC: when it was last corrected, else published
    timezone: str
    excerpt: str
    participants: list[Participant]
    html: str  # the story as cached at publishing (rendered and sanitised then)


@dataclass(frozen=True)
class CorrectionNote:
    """A correction of a published report as its page shows it: the GM's note and when (aware, UTC)."""

    number: int
    at: datetime
    note: str


@dataclass
class ReportPage(ReportCard):
    """A whole published report: the story's cached HTML, the dice log and what verifying needs."""

    seed: str = ""
    seed_hash: str = ""
    log: list[LogLine] | list[KancolleLine] = field(default_factory=list)
    gm_actions: list[GmLine] = field(default_factory=list)  # the GM's actions before the round, with reasons
    unit_names: dict[str, str] = field(default_factory=dict)
    previous: int | None = None  # the scenario's published round before this one, by number
    next: int | None = None
    battlefield: str = ""  # the battlefield at the round's end as SVG ("" for a scene)
    corrections: list[CorrectionNote] = field(default_factory=list)
    cache_key: tuple[Any, ...] = ()  # what the log, names and map were made from (the page's dice log is kept by it)
    comments: list[Shown] = field(default_factory=list)  # the GM's comment on each character, under the story
    icons: dict[int, str] = field(default_factory=dict)  # the characters' icons, by id: their digests


@dataclass
class Paged:
    items: list[ReportCard]
    page: int
    pages: int


#: What a card reads: never a resolution's JSON (a 260-unit battle's is megabytes) nor a report's Markdown, nor the
#: campaign's pack (`pack_of`: decoding it for every card was most of a campaign page listing 50 runs' reports).
_CARD_COLUMNS = (
    Round.id, Round.number, Round.scenario, Round.state, Round.published_at,
    Scenario.id, Scenario.slug, Scenario.pack_scenario, Scenario.title, Scenario.public_text, Scenario.campaign,
    Campaign.id, Campaign.slug, Campaign.name, Campaign.timezone,
    Report.id, Report.round, Report.html, Report.html_en, Report.story_en_md, Report.corrected_at,
    Resolution.id, Resolution.round, Resolution.version,
)  # fmt: skip


def _published(*columns: peewee.Field) -> peewee.ModelSelect:
    """Published rounds with what a card shows, and `columns` besides."""
    return (
        Round.select(*_CARD_COLUMNS, *columns)
        .join(Scenario)
        .join(Campaign)
        .switch(Round)
        .join(Report)
        .switch(Round)
        .join(Resolution)
        .where(Round.state == PUBLISHED, Round.published_at.is_null(False), Report.html.is_null(False))
    )


def _per_request(kind: str, key: Hashable, make: Callable[[], T]) -> T:
    """`make()`, once per request for `key` (outside a request: each time): what every card of a page would ask the
    database again, the campaign's pack and names' stamp."""
    if not has_request_context():
        return make()
    memo: dict[tuple[str, Hashable], Any] = g.setdefault("pbp_blog_memo", {})
    if (kind, key) not in memo:
        memo[kind, key] = make()
    return memo[kind, key]  # type: ignore[no-any-return]


def pack_of(campaign_id: int) -> tuple[dict[str, Any], bytes]:
    """The campaign's pack and a digest of it: its stored text read once per request, decoded once per app and
    text (a pack upgrade is new text, so a new entry; `cached`)."""

    def read() -> tuple[dict[str, Any], bytes]:
        text = str(Campaign.select(Campaign.pack.cast("TEXT")).where(Campaign.id == campaign_id).scalar() or "{}")
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        return cached("pack", (campaign_id, digest), lambda: json.loads(text)), digest

    return _per_request("pack", campaign_id, read)


def _resolution_key(rnd: Round) -> tuple[int, int, int]:
    return rnd.id, rnd.resolution.id, rnd.resolution.version


def _resolution(rnd: Round, *columns: peewee.Field) -> Resolution:
    return Resolution.select(*columns).where(Resolution.id == rnd.resolution.id).get()


def _pcs(rnd: Round) -> list[tuple[str, str]]:
    """The round's PCs as (unit id, the name the battle gives), read once per resolution."""

    def read() -> list[tuple[str, str]]:
        units = _resolution(rnd, Resolution.encounter).encounter.get("units", [])
        return [(u["id"], str(u.get("name") or u["id"])) for u in units if u.get("side") == "pc"]

    return cached("pcs", _resolution_key(rnd), read)


def _names_stamp(rnd: Round) -> tuple[Any, ...]:
    """What the names of a round's characters were read from: how many characters its campaign has and when the last
    of them changed (one indexed aggregate; a list of the round's 200 ids cost 20 ms)."""
    campaign_id = rnd.scenario.campaign.id

    def read() -> tuple[Any, ...]:
        query = Character.select(peewee.fn.COUNT(Character.id), peewee.fn.MAX(Character.updated_at))
        return tuple(query.where(Character.campaign == campaign_id).tuples().get())

    return _per_request("names", campaign_id, read)


def excerpt(html: str, limit: int = 140) -> str:
    """Plain text from the start of a story, for cards and OpenGraph descriptions: Japanese cut at the limit, a
    text in words (English) at the last space before it, never inside a word."""
    text = plain_text(html)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if not is_japanese(cut) and (space := cut.rfind(" ")) > limit // 2:
        cut = cut[:space].rstrip(",;:")
    return cut + "…"


def character_names(unit_ids: list[str], locale: str) -> dict[str, str]:
    """The characters' names in `locale` (their sheet's), by unit id; enemies and unknown ids are left out."""
    ids = {cid: uid for uid in unit_ids if (cid := character_id_of(uid)) is not None}
    if not ids:
        return {}
    rows = Character.select(Character.id, Character.name, Character.sheet).where(Character.id.in_(list(ids)))
    return {ids[c.id]: str((c.sheet or {}).get(locale) or c.name) for c in rows}


def _participants(rnd: Round, locale: str) -> list[Participant]:
    pcs = _pcs(rnd)
    stamp = _names_stamp(rnd)

    def make() -> list[Participant]:
        names = character_names([uid for uid, _ in pcs], locale)
        return [Participant(character_id_of(uid), names.get(uid) or fallback) for uid, fallback in pcs]

    return cached("participants", (*_resolution_key(rnd), locale, stamp), make)


def pack_name(pack: dict[str, Any], section: str, key: str | None, locale: str, default: str) -> str:
    """A name the campaign pack gives in `locale` (the campaign's, under `campaign`; a scenario's, under
    `scenarios.<key>`), else `default`: what the database holds, the pack's Japanese as loaded."""
    entry = pack.get(section, {}) if key is None else pack.get(section, {}).get(key)
    return str(entry.get(locale) or default) if isinstance(entry, dict) else default


def described(table: dict[str, Any], locale: str) -> str:
    """A pack table's description in `locale`: its `description_<locale>` where the pack gives one (`description_en`),
    else `description`, the pack's own language (Japanese)."""
    return str(table.get(f"description_{locale}") or table.get("description") or "")


def _story_html(rnd: Round, locale: str) -> str:
    """The story as the page's language shows it: in English the English story as published (the GM's or the
    generated one), else one written now; in Japanese the report as published (intro, story, outro)."""
    if locale != "en":
        return str(rnd.report.html)
    if rnd.report.html_en:
        return str(rnd.report.html_en)
    return render_markdown(publishing.english_story(rnd.id)[0])


def _card(rnd: Round, locale: str, cls: type[ReportCard] = ReportCard, **extra: Any) -> ReportCard:
    scenario, campaign = rnd.scenario, rnd.scenario.campaign
    pack = pack_of(campaign.id)[0]
    html = _story_html(rnd, locale)
    return cls(
        round_id=rnd.id,
        number=rnd.number,
        campaign=campaign.slug,
        campaign_name=pack_name(pack, "campaign", None, locale, campaign.name),
        scenario=scenario.slug,
        scenario_title=pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title),
        published_at=from_db(rnd.published_at),
        updated_at=from_db(rnd.report.corrected_at or rnd.published_at),
        timezone=campaign.timezone,
        excerpt=cached(
            "excerpt", (rnd.id, rnd.published_at, rnd.report.corrected_at, locale, len(html)), lambda: excerpt(html)
        ),
        participants=_participants(rnd, locale),
        html=html,
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


def has_reports(slug: str) -> bool:
    """Whether the campaign has a published report (its blog page exists)."""
    return bool(_published().where(Campaign.slug == slug).exists())


def campaign_info(slug: str, *, locale: str) -> dict[str, str] | None:
    """A campaign's public face (name and the pack's public description), only once it has a published report."""
    if not has_reports(slug):
        return None
    campaign = Campaign.select(Campaign.id, Campaign.name).where(Campaign.slug == slug).get()
    pack = pack_of(campaign.id)[0]
    about = pack.get("campaign", {})
    name = pack_name(pack, "campaign", None, locale, campaign.name)
    scenarios: dict[str, str] = {}
    cast: dict[int, Participant] = {}
    for rnd in _published().where(Campaign.slug == slug).order_by(Round.published_at, Round.id):
        card = _card(rnd, locale)
        scenarios.setdefault(card.scenario, card.scenario_title)
        cast.update({p.character_id: p for p in card.participants if p.character_id is not None})
    return {
        "slug": slug,
        "name": name,
        "description": described(about, locale),
        "scenarios": list(scenarios.items()),  # (slug, title), in the order their first report came out
        "cast": list(cast.values()),
    }


def scenario_reports(
    campaign: str, scenario: str, *, locale: str
) -> tuple[dict[str, str | None], list[ReportCard]] | None:
    """A scenario's public face (title, public text, how its battle ended once its published rounds leave no deadline
    to play) and its published reports in round order."""
    rows = list(
        _published().where(Campaign.slug == campaign, Scenario.slug == scenario).order_by(Round.number, Round.id)
    )
    if not rows:
        return None
    cards = [_card(r, locale) for r in rows]
    found = rows[0].scenario
    spec = (pack_of(found.campaign_id)[0].get("scenarios") or {}).get(found.pack_scenario) or {}
    over = outcome_word(battle_over(found.id, published=True))
    return {
        "title": cards[0].scenario_title,
        "public_text": described(spec, locale) or found.public_text,
        "over": over,
    }, cards


def battlefield(
    state: dict[str, Any],
    events: list[dict[str, Any]],
    names: Names,
    title: str,
    *,
    everyone: bool = False,
    scene: bool = False,
) -> str:
    """The battlefield at the round's end, the round's moves as arrows; only the PCs' gauges and statuses are shown
    (the enemies' are not public), or every unit's for the GM (`everyone`). A scene (`scene`: its scenario's kind; its
    characters stand at [0, 0], a position all the same) and a state without positions have none."""
    if scene or not any(isinstance(u.get("position"), list) for u in state.get("units", [])):  # kancolle: no map
        return ""
    arrows = [
        Arrow(e["unit"], tuple(e["from"]), tuple(e["to"]))
        for e in events
        if e.get("type") == "move" and e.get("from") and e.get("to")
    ]
    statuses = lexicon(state.get("ruleset") or "pool", names.locale)["statuses"]
    view = MapView(
        arrows=arrows,
        public=lambda u: everyone or u.get("side") == "pc",
        name=names.unit,
        status_name=lambda sid: str(statuses.get(sid, sid)),
        thing=names.of,
        title=title,
    )
    return battle_map(state, view)


def report_page(campaign: str, scenario: str, number: int, *, locale: str, map_title: str = "") -> ReportPage | None:
    """One published report with its dice log, its neighbours in the scenario and the battlefield at its end."""
    found = _published(Round.seed, Round.seed_hash, Scenario.kind)  # a scene has no battlefield
    rnd = found.where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    if rnd is None:
        return None
    key = (*_resolution_key(rnd), locale, map_title, _names_stamp(rnd), pack_of(rnd.scenario.campaign.id)[1])
    log, unit_names, battlefield, gm_actions = cached("report", key, lambda: _report_parts(rnd, locale, map_title))
    numbers = [
        r.number
        for r in Round.select(Round.number)
        .join(Report)
        .where(
            Round.scenario == rnd.scenario_id,
            Round.state == PUBLISHED,
            Round.published_at.is_null(False),
            Report.html.is_null(False),
        )
        .order_by(Round.number)
    ]
    page = _card(
        rnd,
        locale,
        ReportPage,
        seed=rnd.seed or "",
        seed_hash=rnd.seed_hash or "",
        log=log,
        gm_actions=gm_actions,
        unit_names=unit_names,
        previous=max((n for n in numbers if n < number), default=None),
        next=min((n for n in numbers if n > number), default=None),
        battlefield=battlefield,
        corrections=corrections_of(rnd.id),
        cache_key=key,
    )
    assert isinstance(page, ReportPage)
    page.comments, page.icons = comments_and_icons(rnd.id, page.participants, locale)
    return page


def comments_and_icons(round_id: int, cast: list[Participant], locale: str) -> tuple[list[Shown], dict[int, str]]:
    """A published round's comments on its characters, in the cast's order and names, and their icons' digests."""
    names = {p.character_id: p.name for p in cast if p.character_id is not None}
    return master_comments.shown(round_id, names, locale), icons.digests(list(names))


def _report_parts(rnd: Round, locale: str, map_title: str) -> tuple[list[Any], dict[str, str], str, list[GmLine]]:
    """The dice log, the units' names, the battlefield and the GM's actions of a published round: the costly part of
    its page, which grows with the battle (kept by `cached`). Units the GM took off before the round are named too."""
    res = _resolution(
        rnd, Resolution.encounter, Resolution.events, Resolution.state, Resolution.start, Resolution.gm_actions
    )
    units = {u["id"]: u for u in [*(res.start or {}).get("units", []), *res.encounter.get("units", [])]}
    pack = pack_of(rnd.scenario.campaign.id)[0]
    names = Names(locale, pack, units, rnd.scenario.pack_scenario, character_names(list(units), locale))
    unit_names = {uid: names.unit(uid) for uid in units}
    battle_map = battlefield(res.state, res.events, names, map_title, scene=rnd.scenario.kind == "scene")
    if res.encounter.get("ruleset") == "kancolle":  # its own log: its checks are not pools of successes
        log: list[Any] = kancolle_log(res.events, names, lambda reason: rulebook.anchor_of(reason, "kancolle"))
    else:
        log = dice_log(res.events, names)
    return log, unit_names, battle_map, gm_lines(res.gm_actions or [], names)


def english_story(campaign: str, scenario: str, number: int) -> tuple[ReportCard, str, bool] | None:
    """A published round's English story as HTML, and whether the GM wrote it: as published (the GM's own or the
    generated one, frozen then), else (a round published before pbp kept it) written now from the resolution."""
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    if rnd is None:
        return None
    if rnd.report.html_en:  # frozen at publishing
        return _card(rnd, "en"), rnd.report.html_en, rnd.report.story_en_md is not None
    return _card(rnd, "en"), render_markdown(publishing.english_story(rnd.id)[0]), False


@dataclass(frozen=True)
class GmPart:
    """The GM's intro or outro as the English page shows it: its HTML (images allowed, as on the Japanese page) and
    whether it is in Japanese, the GM's original that the page sets apart (`lang="ja"`) and says is one."""

    html: str
    japanese: bool


def gm_parts(round_id: int, *, by_gm: bool) -> dict[str, GmPart]:
    """The GM's intro and outro for the English page, by part: the English story never carries them, so a Japanese
    one would be missing without a word. A Japanese part is always shown (as the GM's original); an English one only
    beside the generated story (a GM's own English story carries its own intro, if any)."""
    report = Report.select(Report.intro_md, Report.outro_md).where(Report.round == round_id).first()
    parts: dict[str, GmPart] = {}
    for name, text in (("intro", report.intro_md if report else ""), ("outro", report.outro_md if report else "")):
        japanese = is_japanese(text or "")
        if (text or "").strip() and (japanese or not by_gm):
            parts[name] = GmPart(render_markdown(text, allow_images=True), japanese)
    return parts


def corrections_of(round_id: int) -> list[CorrectionNote]:
    """A published round's corrections, oldest first."""
    query = ReportCorrection.select(ReportCorrection.number, ReportCorrection.corrected_at, ReportCorrection.note)
    rows = query.where(ReportCorrection.round == round_id).order_by(ReportCorrection.number)
    return [CorrectionNote(c.number, from_db(c.corrected_at), c.note) for c in rows]


@dataclass
class OldVersion:
    """A published report as it was before one of its corrections: the Japanese page and the English story."""

    card: ReportCard
    correction: CorrectionNote
    html: str
    html_en: str | None


def old_version(campaign: str, scenario: str, number: int, correction: int, *, locale: str) -> OldVersion | None:
    """The text a correction replaced (None: no such published round or correction)."""
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    if rnd is None:
        return None
    row = ReportCorrection.get_or_none(ReportCorrection.round == rnd.id, ReportCorrection.number == correction)
    if row is None:
        return None
    note = CorrectionNote(row.number, from_db(row.corrected_at), row.note)
    return OldVersion(_card(rnd, locale), note, row.old_html, row.old_html_en)


def round_id_of(campaign: str, scenario: str, number: int) -> int | None:
    rnd = _published().where(Campaign.slug == campaign, Scenario.slug == scenario, Round.number == number).first()
    return rnd.id if rnd else None


@dataclass
class CharacterPage:
    """A character as the public sees it: the sheet's public parts, the reports it appears in, its fate."""

    name: str
    description: str
    vehicle: str
    stats: list[tuple[str, int]]
    skills: list[tuple[str, int]]
    gear: list[str]  # weapons, items, abilities by name
    pronoun: str  # in English stories (pbp.reports.pronouns): she, he or they
    cards: list[ReportCard]
    fell_in: ReportCard | None  # the report of the round it died in, if it did


def chronicle(campaign: str, character_id: int, *, locale: str) -> CharacterPage | None:
    """A character's page: its public sheet, every published report it appears in (oldest first) and the round it
    fell in (None if it appears in none)."""
    character = Character.get_or_none(Character.id == character_id)
    if character is None or character.campaign.slug != campaign:
        return None
    query = _published(Resolution.encounter, Resolution.events)
    query = query.where(Campaign.slug == campaign).order_by(Round.published_at, Round.id)
    rows = [r for r in query if any(character_id_of(u["id"]) == character_id for u in r.resolution.encounter["units"])]
    if not rows:
        return None
    cards = [_card(r, locale) for r in rows]
    unit = unit_id(character_id)
    fell = next(
        (c for r, c in zip(rows, cards, strict=True) if any(e.get("type") == "death" and e.get("unit") == unit
                                                             for e in r.resolution.events)),
        None,
    )  # fmt: skip
    sheet, pack = character.sheet or {}, character.campaign.pack or {}

    def named(section: str, key: str) -> str:
        return pack_name(pack, section, key, locale, key)

    return CharacterPage(
        name=str(sheet.get(locale) or character.name),
        description=described(sheet, locale),
        vehicle=named("vehicles", sheet["vehicle"]) if sheet.get("vehicle") else "",
        stats=[(named("stats", k), v) for k, v in (sheet.get("stats") or {}).items()],
        skills=[(named("skills", k), v) for k, v in (sheet.get("skills") or {}).items()],
        gear=[named(section, k) for key, section in (("weapons", "weapons"), ("vehicle_weapons", "weapons"),
                                                     ("items", "items"), ("abilities", "abilities"))
              for k in sheet.get(key) or []],
        pronoun=english_pronoun(sheet, pack),
        cards=cards,
        fell_in=fell,
    )  # fmt: skip
