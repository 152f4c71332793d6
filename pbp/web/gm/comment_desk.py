"""The comments' section of a round's report page (マスターコメント, `templates/gm/_master_comments.html`): its form,
one Japanese and one English field per character of the round, filled from the stored comments or with what the
GM typed (`pbp.web.gm.comments` takes the post)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _
from wtforms import TextAreaField
from wtforms.validators import Length

from pbp.models import Round
from pbp.services import icons, master_comments
from pbp.services._common import REASON_LIMIT
from pbp.services.master_comments import COMMENT_LIMIT
from pbp.services.rounds import PUBLISHED, RESOLVED
from pbp.web.forms import SiteForm
from pbp.web.i18n import page_locale

TOO_LONG = _("Up to %(max)s characters.", max=COMMENT_LIMIT)


class CommentsForm(SiteForm):
    """The comments' form: a Japanese and an English field per character of the round (`form_for`), and the
    correction note a published round's change needs."""

    note = TextAreaField(
        _("Correction note"),
        [Length(max=REASON_LIMIT)],
        description=_("Required once the report is published: shown with today's date above the corrected report."),
        render_kw={"maxlength": REASON_LIMIT},
        id="comments-note",  # the report's own form above has a correction note too
    )


def form_for(cast: list[tuple[int, str]]) -> type[CommentsForm]:
    """The form class for a round's characters: `comment-<id>` (Japanese) and `comment_en-<id>` (English)."""
    limit = {"maxlength": COMMENT_LIMIT}
    fields = {}
    for cid, name in cast:
        fields[f"comment-{cid}"] = TextAreaField(name, [Length(max=COMMENT_LIMIT, message=TOO_LONG)], render_kw=limit)
        fields[f"comment_en-{cid}"] = TextAreaField(
            _("In English (optional)"), [Length(max=COMMENT_LIMIT, message=TOO_LONG)], render_kw=limit
        )
    return type("RoundCommentsForm", (CommentsForm,), fields)


@dataclass
class Desk:
    """What the comments' section shows: the form and, per character, its two fields and its icon's digest."""

    form: CommentsForm
    rows: list[tuple[int, str, str | None]]  # character id, name, icon digest
    published: bool
    refusal: str | None = None
    limit: int = COMMENT_LIMIT


def desk(rnd: Round, form: CommentsForm | None = None, refusal: str | None = None) -> Desk | None:
    """The section for a resolved or published round (None for any other: nothing to comment on yet), filled
    with the stored comments unless `form` brings what the GM typed."""
    if rnd.state not in (RESOLVED, PUBLISHED):
        return None
    cast = master_comments.cast(rnd.id, page_locale())
    if form is None:
        form = form_for(cast)(formdata=None)
        for cid, comment in master_comments.stored(rnd.id).items():
            if f"comment-{cid}" in form:
                form[f"comment-{cid}"].data = comment.text
                form[f"comment_en-{cid}"].data = comment.text_en or ""
    faces = icons.digests([cid for cid, _name in cast])
    rows = [(cid, name, faces.get(cid)) for cid, name in cast]
    return Desk(form, rows, rnd.state == PUBLISHED, refusal)
