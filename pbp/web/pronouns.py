"""A character's English pronoun as a page names it: the character form's choices and the character's page."""

from __future__ import annotations

from flask_babel import lazy_gettext as _

#: Each of `pbp.reports.pronouns.PRONOUNS` with its object form: a player reading in Japanese sees what the English
#: story will say.
PRONOUN_LABELS = {"she": _("she (her)"), "he": _("he (him)"), "they": _("they (them)")}
