"""Game-data routes: a campaign's data index, one page per section (entries anchored `#<kind>-<id>`), a search that
needs no JavaScript (a GET form and its results page), and a ruleset's rules page (rules anchored `#R-HIT-2`)."""

from __future__ import annotations

from flask import abort, g, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup, escape

from pbp.engine import find_ruleset
from pbp.models import Campaign
from pbp.web.data import bp, rulebook
from pbp.web.data.catalog import SECTION_OF, SECTIONS, Catalog, catalog
from pbp.web.i18n import page_locale

#: Longest search text looked at (characters); the rest is ignored.
QUERY_LIMIT = 80


def campaign_catalog(slug: str) -> Catalog | None:
    """The public data of a campaign as loaded now (cached for the request: the helpers ask once per link)."""
    cached = g.setdefault("data_catalogs", {})
    if slug not in cached:
        campaign = Campaign.get_or_none(Campaign.slug == slug)
        cached[slug] = catalog(campaign.pack or {}) if campaign else None
    return cached[slug]


def _found(slug: str) -> Catalog:
    found = campaign_catalog(slug)
    if found is None:
        abort(404)
    return found


@bp.get("/campaigns/<slug:campaign>/data/")
def index(campaign: str) -> str:
    return render_template("data/index.html", data=_found(campaign), campaign=campaign)


@bp.get("/campaigns/<slug:campaign>/data/<section>/")
def section(campaign: str, section: str) -> str:
    data = _found(campaign)
    if section not in SECTIONS:
        abort(404)
    return render_template(f"data/{section}.html", data=data, campaign=campaign, section=section)


@bp.get("/campaigns/<slug:campaign>/data/search")
def search(campaign: str) -> str:
    data = _found(campaign)
    query = request.args.get("q", "")[:QUERY_LIMIT]
    found = data.fleet.search(query) if data.fleet else data.search(query)  # a kancolle campaign: its fleet's data
    return render_template("data/search.html", data=data, campaign=campaign, query=query, found=found)


@bp.get("/rules/<ruleset>/")
def rules(ruleset: str) -> str:
    if not rulebook.known(ruleset):
        abort(404)
    lang = rulebook.language(ruleset, page_locale())
    html, sections, _ids = rulebook.rules_page(ruleset, lang)
    primer = rulebook.primer(ruleset, page_locale())
    return render_template(
        "data/rules.html",
        ruleset=gettext(find_ruleset(ruleset).name),
        html=Markup(html),
        primer=Markup(primer) if primer else None,
        primer_sections=rulebook.primer_sections(primer) if primer else [],
        sections=sections,
        lang=lang,
    )


# ---- helpers for every template -----------------------------------------------------------------------------
def belongs_to(campaign: str) -> None:
    """Name the campaign of the page being drawn where its address does not (an entry, a character's sheet): the
    layout then links the campaign's game data, and `data_link` its entries, as on the campaign's own pages."""
    g.page_campaign = campaign


def _campaign_arg(campaign: str | None) -> str | None:
    return campaign or (request.view_args or {}).get("campaign") or g.get("page_campaign")


@bp.app_template_global()
def data_link(
    kind: str, key: str | None, name: str | None = None, campaign: str | None = None, *, new_tab: bool = False
) -> Markup:
    """`name` (default: the entry's name in the page's language) linked to its entry on the campaign's data pages
    (the campaign of the page being drawn unless given); plain text when the entry is not public or not known.
    `new_tab`: opened beside the page (a form half written stays as it is)."""
    slug = _campaign_arg(campaign)
    data = campaign_catalog(slug) if slug and key else None
    entry = data.get(kind, key) if data and key else None
    text = name if name is not None else (entry.name(page_locale()) if entry else key or "")
    if entry is None or kind not in SECTION_OF:
        return escape(text)
    url = url_for("data.section", campaign=slug, section=entry.section, _anchor=entry.anchor)
    beside = Markup(' target="_blank" rel="noopener"') if new_tab else Markup("")
    return Markup('<a class="data" href="{}"{}>{}</a>').format(url, beside, text)


@bp.app_template_global()
def rule_link(rule_or_reason: str, text: str | None = None, ruleset: str = "pool") -> Markup:
    """A rule id (`R-HIT-2`) or a refusal reason (`out_of_range`) linked to the rule on the ruleset's rules page."""
    url = url_for("data.rules", ruleset=ruleset, _anchor=rulebook.anchor_of(rule_or_reason, ruleset))
    return Markup('<a class="rule" href="{}">{}</a>').format(url, rule_or_reason if text is None else text)


@bp.app_template_global()
def campaign_data_url() -> str | None:
    """The data index of the campaign the page belongs to (for the layout's navigation), if there is one."""
    slug = _campaign_arg(None)
    exists = slug is not None and Campaign.select().where(Campaign.slug == slug).exists()
    return url_for("data.index", campaign=slug) if exists else None
