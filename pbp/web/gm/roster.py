"""A scenario's roster in the GM's console (`pbp.services.roster`): its sign-ups by name with links to their sheets,
the lottery's draw, and the GM's moves (accept, waitlist, reject, remove), one button a sign-up. Through the door
(`gm_campaign`) and one service call, which checks the GM again."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange

from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign, Scenario
from pbp.services import roster
from pbp.services._common import ROW_ID_MAX
from pbp.web.errors import form_status
from pbp.web.forms import SiteForm
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_scenario, gm_campaign
from pbp.web.i18n import refusal_text

#: A sign-up's status, and each move's button and the confirmation after it.
STATUSES = {"joined": _("joined"), "applied": _("applied"), "waitlisted": _("on the waitlist")}
BUTTONS = {
    roster.ACCEPT: _("Accept"),
    roster.WAITLIST: _("To the waitlist"),
    roster.REJECT: _("Reject"),
    roster.REMOVE: _("Remove"),
}
DONE = {
    roster.ACCEPT: _("Accepted: the character joined, and the player is told."),
    roster.WAITLIST: _("The character is on the waitlist, and the player is told."),
    roster.REJECT: _("The sign-up is turned down, and the player is told."),
    roster.REMOVE: _("The character no longer takes part, and the player is told."),
}


class RosterForm(SiteForm):
    character = IntegerField(validators=[InputRequired(), NumberRange(1, ROW_ID_MAX)])
    action = StringField(validators=[AnyOf(list(roster.MOVES))])


def _page(
    campaign: Campaign,
    scenario: Scenario,
    form: RosterForm,
    *,
    status: int = 200,
    refused: tuple[int | None, str] | None = None,
) -> tuple[str, int]:
    found = roster.roster_of(scenario.id, actor_id=current_user.id)
    names = {m.character_id: m.character for m in found.members}
    page = render_template(
        "gm/roster.html",
        campaign=campaign,
        scenario=scenario,
        roster=found,
        form=form,
        names=names,
        moves={move: applies for move, (applies, _after) in roster.MOVES.items()},
        status_word=lambda s: STATUSES.get(s, s),
        buttons=BUTTONS,
        refused=refused,
        done=DONE.get(request.args.get("done", "")),
    )
    return page, status


@bp.get("/<slug:campaign>/scenarios/<slug:scenario>/roster")
@login_required
def roster_page(campaign: str, scenario: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    return _page(found, campaign_scenario(found, scenario), RosterForm(formdata=None))


@bp.post("/<slug:campaign>/scenarios/<slug:scenario>/roster")
@login_required
def change_roster(campaign: str, scenario: str) -> Response | tuple[str, int]:
    """One move on one sign-up: a refusal is said beside that sign-up (409 for the state of things, else 422)."""
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = RosterForm()
    if not form.validate_on_submit():
        said = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        return _page(found, row, form, status=422, refused=(None, said))
    try:
        roster.change(row.id, form.character.data, form.action.data, actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        said = (form.character.data, refusal_text(refusal))
        return _page(found, row, form, status=form_status(refusal), refused=said)
    return redirect(
        url_for("gm.roster_page", campaign=found.slug, scenario=row.slug, done=form.action.data),
        303,
    )
