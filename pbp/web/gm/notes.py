"""The GM's side of the private note threads of a scenario (`pbp.services.scenario_notes`): every player of the
scenario with their thread (`/gm/<campaign>/scenarios/<scenario>/notes`), and one thread to read and answer."""

from __future__ import annotations

from flask import abort, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.models import Campaign, Scenario, User
from pbp.services import scenario_notes
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_scenario, gm_campaign
from pbp.web.note_form import NoteForm, send_note


@bp.get("/<slug:campaign>/scenarios/<slug:scenario>/notes")
@login_required
def note_threads(campaign: str, scenario: str) -> str:
    found = gm_campaign(campaign)
    sc = campaign_scenario(found, scenario)
    threads = scenario_notes.threads(sc.id, viewer_id=current_user.id)
    return render_template("gm/note_threads.html", campaign=found, scenario=sc, threads=threads)


def _page(campaign: Campaign, scenario: Scenario, player: User, form: NoteForm, status: int = 200) -> tuple[str, int]:
    notes = scenario_notes.thread(scenario.id, player.id, viewer_id=current_user.id)
    post = url_for("gm.note_thread", campaign=campaign.slug, scenario=scenario.slug, user_id=player.id)
    page = render_template(
        "gm/note_thread.html", campaign=campaign, scenario=scenario, player=player, notes=notes, form=form,
        me=current_user.id, post=post,
    )  # fmt: skip
    return page, status


@bp.route("/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>", methods=["GET", "POST"])
@login_required
def note_thread(campaign: str, scenario: str, user_id: int) -> Response | tuple[str, int]:
    found = gm_campaign(campaign)
    sc = campaign_scenario(found, scenario)
    player = User.get_or_none(User.id == user_id)
    if player is None or not scenario_notes.is_player(sc.id, user_id):
        abort(404)
    if request.method == "GET":
        return _page(found, sc, player, NoteForm(formdata=None))
    sent = url_for("gm.note_thread", campaign=campaign, scenario=scenario, user_id=user_id, _anchor="latest")
    return send_note(sc.id, user_id, lambda form, status: _page(found, sc, player, form, status), sent)
