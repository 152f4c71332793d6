"""The GM's comment on each character of a round (マスターコメント), written on the round's report page
(`pbp.web.gm.comment_desk` draws its section) and posted here: one service call (`pbp.services.master_comments`),
which checks the GM again and has the last word. A published round's comments change only with a correction note,
as its story does."""

from __future__ import annotations

from flask import redirect, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign, Round
from pbp.services import master_comments
from pbp.services.master_comments import Comment
from pbp.web.clock import app_clock
from pbp.web.errors import form_status
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_round, gm_campaign
from pbp.web.gm.comment_desk import CommentsForm, desk, form_for
from pbp.web.gm.publish import stored_report_page
from pbp.web.i18n import refusal_text


@bp.post("/<slug:campaign>/rounds/<row:round_id>/comments")
@login_required
def save_comments(campaign: str, round_id: int) -> Response | tuple[str, int]:
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = form_for(master_comments.cast(rnd.id))()
    if not form.validate_on_submit():
        return _again(found, rnd, form, None, 422)
    typed = [
        Comment(
            int(name.split("-", 1)[1]), form[name].data or "", form[f"comment_en-{name.split('-', 1)[1]}"].data or ""
        )
        for name in form.data
        if name.startswith("comment-")
    ]
    try:
        master_comments.save_comments(
            rnd.id, typed, note=form.note.data or "", actor_id=current_user.id, clock=app_clock()
        )
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        field = refusal.field if refusal.field and refusal.field in form else None
        if field:
            form[field].errors = [refusal_text(refusal)]
        return _again(found, rnd, form, None if field else refusal_text(refusal), form_status(refusal))
    url = url_for("gm.report", campaign=found.slug, round_id=rnd.id, done="comments", _anchor="master-comments")
    return redirect(url, 303)


def _again(campaign: Campaign, rnd: Round, form: CommentsForm, refusal: str | None, status: int) -> tuple[str, int]:
    """The report page again, the comments as typed with their messages."""
    return stored_report_page(campaign, rnd, status=status, comment_desk=desk(rnd, form, refusal))
