"""A scenario's texts in the GM's console (`/gm/<campaign>/scenarios/<scenario>/texts`, `pbp.services.scenario_texts`):
the titles, public descriptions and GM notes, editable at any time, even while its rounds run; the page says what
stays fixed and shows the last change as a diff. Through the door (`gm_campaign`) and one service call, which checks
the GM again and logs the change."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign, Scenario
from pbp.reports.diff import line_diff
from pbp.services import authoring, scenario_texts
from pbp.services.clock import local_text
from pbp.web.errors import form_status
from pbp.web.forms import SiteForm, show_refusal
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_scenario, gm_campaign
from pbp.web.gm.scenario_form import ScenarioForm


class TextsForm(SiteForm):
    """The scenario form's text fields (their labels, hints and limits), alone."""

    ja = ScenarioForm.ja
    en = ScenarioForm.en
    description = ScenarioForm.description
    description_en = ScenarioForm.description_en
    gm_notes = ScenarioForm.gm_notes


def _page(campaign: Campaign, scenario: Scenario, form: TextsForm, status: int = 200) -> tuple[str, int]:
    editable = scenario_texts.editable(scenario)
    current = scenario_texts.texts_of(scenario)
    change = scenario_texts.last_change(scenario.id)
    diffs = []
    if change is not None:
        was = (change.detail or {}).get("was") or {}
        diffs = [(form[key].label.text, line_diff(str(was[key]), current[key])) for key in was if key in current]
    page = render_template(
        "gm/scenario_texts.html",
        campaign=campaign,
        scenario=scenario,
        form=form,
        editable=editable,
        current=current,
        started=authoring.started(scenario.id),
        change=change,
        changed_at=local_text(change.at, campaign.timezone) if change else None,
        diffs=diffs,
        done=request.args.get("done"),
    )
    return page, status


@bp.get("/<slug:campaign>/scenarios/<slug:scenario>/texts")
@login_required
def scenario_texts_page(campaign: str, scenario: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    return _page(found, row, TextsForm(formdata=None, **scenario_texts.texts_of(row)))


@bp.post("/<slug:campaign>/scenarios/<slug:scenario>/texts")
@login_required
def save_scenario_texts(campaign: str, scenario: str) -> Response | tuple[str, int]:
    """Save the texts this scenario lets the GM change: a refusal beside its field, everything typed kept."""
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = TextsForm()
    if not form.validate_on_submit():
        return _page(found, row, form, 422)
    texts = {key: form[key].data or "" for key in scenario_texts.editable(row)}
    try:
        changed = scenario_texts.edit_texts(row.id, texts, actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        show_refusal(form, refusal)
        return _page(found, row, form, form_status(refusal))
    done = "saved" if changed else "unchanged"
    return redirect(url_for("gm.scenario_texts_page", campaign=found.slug, scenario=row.slug, done=done), 303)
