"""A scenario's secret terms in the GM's console (`pbp.services.secret_terms`): the list, editable at any time (a pack
scenario's and a running one's too: it only makes the leak check stricter), beside the terms marked in its GM
notes. Through the door (`gm_campaign`) and one service call, which checks the GM again."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign, Scenario
from pbp.services import secret_terms
from pbp.web.forms import SiteForm, show_refusal
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_scenario, gm_campaign
from pbp.web.gm.scenario_form import secret_terms_field


class SecretTermsForm(SiteForm):
    secret_terms = secret_terms_field()


def _page(campaign: Campaign, scenario: Scenario, form: SecretTermsForm, status: int = 200) -> tuple[str, int]:
    page = render_template(
        "gm/secret_terms.html",
        campaign=campaign,
        scenario=scenario,
        form=form,
        marked=secret_terms.marked_in(scenario.id),
        limit=secret_terms.TERMS_LIMIT,
        done=request.args.get("done"),
    )
    return page, status


@bp.get("/<slug:campaign>/scenarios/<slug:scenario>/secrets")
@login_required
def secret_terms_page(campaign: str, scenario: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = SecretTermsForm(formdata=None)
    form.secret_terms.data = secret_terms.listed(row.id)
    return _page(found, row, form)


@bp.post("/<slug:campaign>/scenarios/<slug:scenario>/secrets")
@login_required
def save_secret_terms(campaign: str, scenario: str) -> Response | tuple[str, int]:
    """Save the list: a refusal (too many terms, one too long or with nothing to look for) beside the field, what
    was typed kept."""
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = SecretTermsForm()
    if not form.validate_on_submit():
        return _page(found, row, form, 422)
    try:
        secret_terms.set_terms(row.id, form.secret_terms.data or "", actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        show_refusal(form, refusal)
        return _page(found, row, form, 422)
    return redirect(url_for("gm.secret_terms_page", campaign=found.slug, scenario=row.slug, done="saved"), 303)
