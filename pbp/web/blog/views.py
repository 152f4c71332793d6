"""Blog routes: query, render. Paginated by path (`/blog/page/2/`) so a static export needs no query strings."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Response, abort, current_app, render_template, request, url_for
from flask_babel import force_locale, gettext
from markupsafe import Markup

from pbp.reports import render_markdown
from pbp.reports.kancolle_log import KancolleLine
from pbp.reports.markdown import xml_safe
from pbp.services import publishing
from pbp.web import STATIC_EXPORT
from pbp.web.blog import bp, queries
from pbp.web.blog.cache import cached
from pbp.web.clock import shown_zone
from pbp.web.hosts import absolute
from pbp.web.i18n import isolate, page_locale
from pbp.web.player.icons import icon_digest
from pbp.web.pronouns import PRONOUN_LABELS

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def report_title(card: queries.ReportCard) -> str:
    """A report's title in the page's language: `多摩川 第2ラウンド`, `Tama River, round 2` (the scenario's title
    isolated: it stands in the site's phrase, the page's `<title>` and the feed)."""
    return gettext("%(scenario)s, round %(number)s", scenario=isolate(card.scenario_title), number=card.number)


@bp.app_context_processor
def _helpers() -> dict:
    return {"absolute": absolute, "epoch": EPOCH, "report_title": report_title}


@bp.app_template_filter("localtime")
def localtime(moment: datetime, timezone: str) -> str:
    """An aware time in the signed-in user's chosen time zone, else the campaign's (`timezone`):
    `2026-12-02 21:00 JST`. A reader who is not signed in (a kept public page) always gets the campaign's."""
    return moment.astimezone(ZoneInfo(shown_zone(timezone))).strftime("%Y-%m-%d %H:%M %Z")


@bp.app_template_filter("rfc3339")
def rfc3339(moment: datetime) -> str:
    """Atom's date form (RFC 3339, UTC with Z); naive times are refused rather than guessed."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime in a feed")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.app_template_filter("markdown")
def markdown_filter(text: str) -> Markup:
    return Markup(render_markdown(text))


def _page_size() -> int:
    return int(current_app.config["BLOG_PAGE_SIZE"])


@bp.get("/blog/", defaults={"page": 1})
@bp.get("/blog/page/<int:page>/")
def index(page: int) -> str:
    found = queries.reports_page(page, _page_size(), locale=page_locale())
    if found is None:
        abort(404)
    return render_template("blog/index.html", paged=found, campaign=None)


@bp.get("/blog/<slug:campaign>/", defaults={"page": 1})
@bp.get("/blog/<slug:campaign>/page/<int:page>/")
def campaign(campaign: str, page: int) -> str:
    info = queries.campaign_info(campaign, locale=page_locale())
    found = queries.reports_page(page, _page_size(), locale=page_locale(), campaign=campaign) if info else None
    if found is None:
        abort(404)
    return render_template("blog/index.html", paged=found, campaign=info)


@bp.get("/blog/<slug:campaign>/<slug:scenario>/")
def scenario(campaign: str, scenario: str) -> str:
    found = queries.scenario_reports(campaign, scenario, locale=page_locale())
    if found is None:
        abort(404)
    sc, cards = found
    return render_template("blog/scenario.html", scenario=sc, cards=cards, campaign=campaign)


@bp.get("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/")
def report(campaign: str, scenario: str, number: int) -> str:
    title = gettext("The battlefield at the end of round %(number)s", number=number)
    page = queries.report_page(campaign, scenario, number, locale=page_locale(), map_title=title)
    if page is None:
        abort(404)
    # The dice log is most of a big battle's page: rendered once per what it shows, and where its links point.
    key = (*page.cache_key, request.script_root, bool(request.environ.get(STATIC_EXPORT)))
    log = "blog/_kancolle_dicelog.html" if page.log and isinstance(page.log[0], KancolleLine) else "blog/_dicelog.html"
    dicelog = cached("dicelog", key, lambda: Markup(render_template(log, report=page)))  # noqa: S704
    return render_template("blog/report.html", report=page, dicelog=dicelog)


@bp.get("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/ja/")
def report_ja(campaign: str, scenario: str, number: int) -> str:
    """The report as a Japanese reader reads it, the story in its original, whatever language the browser asks
    for: where an English page's 日本語 link leads."""
    with force_locale("ja"):
        return report(campaign, scenario, number)


@bp.get("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/en/")
def report_en(campaign: str, scenario: str, number: int) -> str:
    """The English story beside the report: the GM's own, or one generated from the published facts."""
    found = queries.english_story(campaign, scenario, number)
    if found is None:
        abort(404)
    card, html, by_gm = found
    corrections = queries.corrections_of(card.round_id)
    parts = queries.gm_parts(card.round_id, by_gm=by_gm)
    comments, faces = queries.comments_and_icons(card.round_id, card.participants, "en")
    with force_locale("en"):
        return render_template(
            "blog/report_en.html", report=card, story=html, by_gm=by_gm, corrections=corrections, parts=parts,
            comments=comments, icons=faces,
        )  # fmt: skip


@bp.get("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/corrections/<row:correction>/")
def correction(campaign: str, scenario: str, number: int, correction: int) -> str:
    """A published report as it was before one of its corrections (the public page links it from the note)."""
    found = queries.old_version(campaign, scenario, number, correction, locale=page_locale())
    if found is None:
        abort(404)
    return render_template("blog/correction.html", report=found.card, old=found)


@bp.get("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/bundle.json")
def bundle(campaign: str, scenario: str, number: int) -> Response:
    """The verify bundle (`pbp export-round`): inputs, revealed seed, events and state of a published round."""
    round_id = queries.round_id_of(campaign, scenario, number)
    if round_id is None:
        abort(404)
    body = json.dumps(publishing.round_bundle(round_id), ensure_ascii=False, sort_keys=True, indent=1)
    headers = {"Content-Disposition": f'attachment; filename="{campaign}-{scenario}-round-{number}.json"'}
    return Response(body, mimetype="application/json", headers=headers)


@bp.get("/blog/<slug:campaign>/characters/<row:character_id>/")
def character(campaign: str, character_id: int) -> str:
    found = queries.chronicle(campaign, character_id, locale=page_locale())
    if found is None:
        abort(404)
    pronoun = PRONOUN_LABELS[found.pronoun]
    return render_template(
        "blog/character.html", character=found, cards=found.cards, campaign=campaign, pronoun=pronoun,
        face=(character_id, icon_digest(character_id)),
    )  # fmt: skip


def _feed(cards: list[queries.ReportCard], title: str, self_path: str, home_path: str) -> Response:
    xml = render_template(
        "blog/feed.atom.xml", cards=cards, title=title, self_url=absolute(self_path), home_url=absolute(home_path)
    )
    xml = xml_safe(xml)  # a control character in a name or a player's line must not make the feed unreadable
    return Response(xml, mimetype="application/atom+xml")


@bp.get("/feed.atom")
def feed() -> Response:
    cards = queries.latest(int(current_app.config["FEED_SIZE"]), locale=page_locale())
    return _feed(cards, current_app.config["SITE_NAME"], url_for("blog.feed"), url_for("blog.index"))


@bp.get("/blog/<slug:campaign>/feed.atom")
def campaign_feed(campaign: str) -> Response:
    info = queries.campaign_info(campaign, locale=page_locale())
    if info is None:
        abort(404)
    cards = queries.latest(int(current_app.config["FEED_SIZE"]), locale=page_locale(), campaign=campaign)
    return _feed(
        cards,
        info["name"],
        url_for("blog.campaign_feed", campaign=campaign),
        url_for("blog.campaign", campaign=campaign),
    )
