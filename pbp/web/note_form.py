"""The form of a private note thread (`pbp.services.scenario_notes`) and its send, shared by the player's page and
the GM's."""

from __future__ import annotations

from collections.abc import Callable

from flask import redirect
from flask_babel import lazy_gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response
from wtforms import TextAreaField
from wtforms.validators import DataRequired, Length

from pbp.errors import Forbidden, NotFound, UserError
from pbp.services import scenario_notes
from pbp.services.scenario_notes import NOTE_LIMIT
from pbp.web.clock import app_clock
from pbp.web.errors import form_status
from pbp.web.forms import SiteForm
from pbp.web.i18n import refusal_text


class NoteForm(SiteForm):
    body = TextAreaField(
        _("Message"),
        [
            DataRequired(message=_("Fill this in.")),
            Length(max=NOTE_LIMIT, message=_("Up to %(max)s characters.", max=NOTE_LIMIT)),
        ],
        description=_("Read by this thread's player and the campaign's GMs only; never published."),
        render_kw={"maxlength": NOTE_LIMIT},
    )


def send_note(
    scenario_id: int, player_id: int, page: Callable[[NoteForm, int], tuple[str, int]], sent: str
) -> Response | tuple[str, int]:
    """A message posted to the thread of `player_id` in the scenario, written by the signed-in user: to `sent` once
    stored, else `page` again with the refusal beside the field and the text kept."""
    form = NoteForm()
    if not form.validate_on_submit():
        return page(form, 422)
    try:
        scenario_notes.write(scenario_id, player_id, form.body.data or "", author_id=current_user.id, clock=app_clock())
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        form.body.errors = [refusal_text(refusal)]
        return page(form, form_status(refusal))
    return redirect(sent, 303)
