"""The console's front: the campaigns the user runs, a campaign's overview and its GMs (the owner adds and removes
co-GMs). Each view: the door (`gm_campaign`), a query or a service call, a page."""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.errors import Forbidden, UserError
from pbp.models import Campaign
from pbp.services import authoring, campaign_settings, desk, gms
from pbp.web.forms import ActionForm, CoGmForm, show_refusal
from pbp.web.gm import bp, queries
from pbp.web.gm.access import gm_campaign
from pbp.web.gm.settings import DONE as SETTINGS_DONE
from pbp.web.gm.settings import SwitchForm

#: What the overview says after its own forms (the settings switch's words are `settings.DONE`'s).
DONE = {"gm_added": _("The co-GM is added: they reach this console now."), "gm_removed": _("The co-GM is removed.")}


@bp.get("/")
@login_required
def index() -> str:
    campaigns = gms.campaigns_run_by(current_user.id)
    if not campaigns:
        abort(403)
    auto = campaign_settings.publishing_automatically([c.id for c in campaigns])
    return render_template("gm/index.html", campaigns=campaigns, needs=desk.needs(current_user.id), auto=auto)


def _campaign_page(campaign: Campaign, form: CoGmForm, status: int = 200) -> tuple[str, int]:
    team = gms.gms_of(campaign.id)
    is_owner = any(g.user_id == current_user.id and g.role == gms.OWNER for g in team)
    done = request.args.get("done")
    page = render_template(
        "gm/campaign.html",
        campaign=campaign,
        scenarios=queries.scenarios_of(campaign),
        team=team,
        is_owner=is_owner,
        form=form,
        action_form=ActionForm(),
        summaries={row.id: row for row in authoring.summaries([campaign.id])},
        needs=desk.needs(current_user.id, campaign.id),
        auto=bool(campaign_settings.publishing_automatically([campaign.id])),
        switch=SwitchForm(formdata=None),
        done=done,
        said=DONE.get(done or "") or (SETTINGS_DONE[done] if done in ("auto_on", "auto_off") else None),
    )
    return page, status


@bp.get("/<slug:campaign>/")
@login_required
def campaign(campaign: str) -> tuple[str, int]:
    return _campaign_page(gm_campaign(campaign), CoGmForm())


@bp.post("/<slug:campaign>/gms")
@login_required
def add_gm(campaign: str) -> Response | tuple[str, int]:
    found = gm_campaign(campaign)
    form = CoGmForm()
    if not form.validate_on_submit():
        return _campaign_page(found, form, 422)
    try:
        gms.add_co_gm(found.id, form.user_name.data or "", actor_id=current_user.id)
    except Forbidden:
        raise
    except UserError as refusal:
        show_refusal(form, refusal)
        return _campaign_page(found, form, 422)
    return redirect(url_for("gm.campaign", campaign=found.slug, done="gm_added"), 303)


@bp.post("/<slug:campaign>/gms/<row:user_id>/remove")
@login_required
def remove_gm(campaign: str, user_id: int) -> Response:
    found = gm_campaign(campaign)
    if not ActionForm().validate_on_submit():
        abort(400)
    gms.remove_co_gm(found.id, user_id, actor_id=current_user.id)
    return redirect(url_for("gm.campaign", campaign=found.slug, done="gm_removed"), 303)
