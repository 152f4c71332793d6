"""The form of a private note thread (`pbp.services.scenario_notes`), shared by the player's page and the GM's."""

from __future__ import annotations

from flask_babel import lazy_gettext as _
from wtforms import TextAreaField
from wtforms.validators import DataRequired, Length

from pbp.services.scenario_notes import NOTE_LIMIT
from pbp.web.forms import SiteForm


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
