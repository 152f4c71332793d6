"""Words the console shows in the page's language: the lifecycle's states (`pbp.services.rounds`), and the names
of campaigns and scenarios, which the database holds in Japanese and the pack gives in other languages."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _

from pbp.models import Campaign
from pbp.web.blog.queries import pack_name, pack_of
from pbp.web.gm import bp
from pbp.web.i18n import isolate, page_locale

ROUND_STATES = {
    "draft": _("draft"),
    "open": _("open for entries"),
    "closed": _("closed"),
    "held": _("held"),
    "resolved": _("resolved, not published"),
    "published": _("published"),
    "quarantined": _("quarantined"),
    "cancelled": _("cancelled"),
}


def campaign_name(campaign: Campaign) -> str:
    """The campaign's name in the page's language. The console loads campaigns without their pack; the pack is read
    only off Japanese pages (once a request, `pack_of`)."""
    locale = page_locale()
    if locale == "ja":
        return str(campaign.name)
    return pack_name(pack_of(campaign.id)[0], "campaign", None, locale, campaign.name)


def scenario_title(scenario: Any, campaign_id: int | None = None) -> str:
    """A scenario's title (a `Scenario`, or a row of one with `campaign_id` given) in the page's language: the
    pack's for a scenario from the pack, else the stored one."""
    locale = page_locale()
    if locale == "ja" or not scenario.pack_scenario:
        return str(scenario.title)
    pack = pack_of(campaign_id or scenario.campaign_id)[0]
    return pack_name(pack, "scenarios", scenario.pack_scenario, locale, scenario.title)


@bp.context_processor
def labels() -> dict[str, object]:
    """The pages' words; a GM's names isolated (`isolate`): they stand in titles, headings and the site's phrases."""
    return {
        "round_state": lambda state: ROUND_STATES.get(state, state),
        "campaign_name": lambda campaign: isolate(campaign_name(campaign)),
        "scenario_title": lambda scenario, campaign_id=None: isolate(scenario_title(scenario, campaign_id)),
    }
