"""A scenario's page: what players may read of it, who takes part and who waits, the open round; join and leave."""

from __future__ import annotations

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import HiddenField

from pbp.errors import UserError
from pbp.services import scenarios
from pbp.web.clock import app_clock
from pbp.web.errors import SERVICE_ERRORS
from pbp.web.forms import SiteForm
from pbp.web.i18n import page_locale, refusal_text
from pbp.web.player import bp, queries


class SignupForm(SiteForm):
    character = HiddenField()


def _page(campaign: str, scenario: str, refusal: str | None = None, status: int = 200) -> tuple[str, int]:
    user = current_user.id if current_user.is_authenticated else None
    page = queries.scenario_page(campaign, scenario, app_clock().now(), user_id=user, locale=page_locale())
    if page is None:
        abort(404)
    entries = {}
    if page.open_round is not None:
        entries = {s.character_id: url_for("player.entry", round_id=page.open_round.id, character_id=s.character_id)
                   for s in page.mine if s.status == scenarios.JOINED}  # fmt: skip
    body = render_template("player/scenario.html", page=page, form=SignupForm(), refusal=refusal, entries=entries)
    return body, status


@bp.get("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/")
def scenario(campaign: str, scenario: str) -> tuple[str, int]:
    return _page(campaign, scenario)


def _signup(campaign: str, scenario: str, act: str) -> Response | tuple[str, int]:
    form = SignupForm()
    page = queries.scenario_page(campaign, scenario, app_clock().now(), user_id=current_user.id, locale=page_locale())
    if page is None:
        abort(404)
    try:
        character = int(form.character.data or "")
    except ValueError:
        return _page(campaign, scenario, gettext("Choose a character."), 422)
    call = scenarios.join_scenario if act == "join" else scenarios.leave_scenario
    try:
        call(page.id, character, user_id=current_user.id, clock=app_clock())
    except UserError as refusal:  # not yours, dead, under way, already signed up...: said on the page
        return _page(campaign, scenario, refusal_text(refusal), SERVICE_ERRORS.get(type(refusal), 400))
    return redirect(url_for("player.scenario", campaign=campaign, scenario=scenario) + "#signup", 303)


@bp.post("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/join")
@login_required
def join(campaign: str, scenario: str) -> Response | tuple[str, int]:
    return _signup(campaign, scenario, "join")


@bp.post("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/leave")
@login_required
def leave(campaign: str, scenario: str) -> Response | tuple[str, int]:
    return _signup(campaign, scenario, "leave")
