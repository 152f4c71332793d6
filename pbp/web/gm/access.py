"""The one door of the GM's pages: the campaign named in the URL, if the signed-in user is one of its GMs."""

from __future__ import annotations

from flask import abort
from flask_login import current_user

from pbp.models import Campaign, Round, Scenario
from pbp.services import gms


def gm_campaign(slug: str) -> Campaign:
    """The campaign (without its pack; with its ruleset, which picks a page's forms) whose GM the current user is;
    404 when there is none, 403 for anyone else. Views are `login_required` first, so an anonymous visitor is sent
    to log in."""
    campaign = (
        Campaign.select(Campaign.id, Campaign.slug, Campaign.name, Campaign.timezone, Campaign.gm, Campaign.ruleset)
        .where(Campaign.slug == slug)
        .first()
    )
    if campaign is None:
        abort(404)
    if not gms.is_gm(campaign.id, current_user.id):
        abort(403)
    return campaign


def campaign_scenario(campaign: Campaign, slug: str) -> Scenario:
    """The campaign's scenario by its slug: 404 for none (another campaign's is none)."""
    scenario = Scenario.get_or_none(Scenario.campaign == campaign.id, Scenario.slug == slug)
    if scenario is None:
        abort(404)
    return scenario


def campaign_round(campaign: Campaign, round_id: int) -> Round:
    """The campaign's round with its scenario: 404 for another campaign's (its GMs' pages never show it)."""
    rnd = (
        Round.select(Round, Scenario)
        .join(Scenario)
        .where(Round.id == round_id, Scenario.campaign == campaign.id)
        .first()
    )
    if rnd is None:
        abort(404)
    return rnd


def runs_any_campaign() -> bool:
    """Whether the signed-in user is a GM of some campaign (the header's link to the console)."""
    return bool(current_user.is_authenticated and gms.campaigns_run_by(current_user.id))
