"""`/campaigns/<campaign>/scenarios/<scenario>/notes`: a player's private note thread with the scenario's GMs
(`pbp.services.scenario_notes`: read by them and this player only, never published)."""

from __future__ import annotations

from flask import abort, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.models import Campaign, Scenario
from pbp.services import scenario_notes
from pbp.web.gm.labels import scenario_title
from pbp.web.note_form import NoteForm, send_note
from pbp.web.player import bp


def _scenario(campaign: str, scenario: str) -> Scenario:
    found = (
        Scenario.select(Scenario, Campaign)
        .join(Campaign)
        .where(Campaign.slug == campaign, Scenario.slug == scenario)
        .first()
    )
    if found is None:
        abort(404)
    return found


def _page(scenario: Scenario, form: NoteForm, status: int = 200) -> tuple[str, int]:
    notes = scenario_notes.thread(scenario.id, current_user.id, viewer_id=current_user.id)
    title = scenario_title(scenario)
    page = render_template(
        "player/notes.html", scenario=scenario, title=title, notes=notes, form=form, me=current_user.id,
        post=url_for("player.scenario_notes_page", campaign=scenario.campaign.slug, scenario=scenario.slug),
    )  # fmt: skip
    return page, status


@bp.route("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes", methods=["GET", "POST"])
@login_required
def scenario_notes_page(campaign: str, scenario: str) -> Response | tuple[str, int]:
    found = _scenario(campaign, scenario)
    if request.method == "GET":
        return _page(found, NoteForm(formdata=None))
    sent = url_for("player.scenario_notes_page", campaign=campaign, scenario=scenario, _anchor="latest")
    return send_note(found.id, current_user.id, lambda form, status: _page(found, form, status), sent)
