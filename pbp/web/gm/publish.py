"""The round's report in the GM's console (`/gm/<campaign>/rounds/<id>/report`): the draft in Japanese and English
as Markdown, its preview (sanitised exactly as published), the diff against the generated draft, where each line of
each プレイング went in the story as typed (`pbp.services.line_fates`), the leak check, publishing and, once
published, corrections. Each action is one service call (`pbp.services.publishing`), which checks the GM again and
has the last word."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import HiddenField, TextAreaField

from pbp.errors import N_, Forbidden, InvalidState, NotFound, UserError
from pbp.models import Campaign, Round
from pbp.reports.diff import line_diff
from pbp.reports.weave import LEFT_OUT, QUOTED, TOLD
from pbp.services import publishing, rounds, secret_terms
from pbp.services._common import MARKDOWN_LIMIT, REASON_LIMIT
from pbp.services.clock import from_db
from pbp.services.leaks import secret_name
from pbp.services.line_fates import entry_fates
from pbp.services.publishing import LeakFound, Review
from pbp.services.rounds import PUBLISHED, RESOLVED, state_word
from pbp.web.clock import app_clock
from pbp.web.errors import error_page, form_status, redrawn
from pbp.web.forms import SiteForm, shown_limit
from pbp.web.gm import EXPIRED_PAGES, bp
from pbp.web.gm import comment_desk as comments
from pbp.web.gm.access import campaign_round, gm_campaign
from pbp.web.gm.rounds import confirm_move
from pbp.web.i18n import localized, refusal_text

#: A part of the public text, as the leak check's finds name it.
PARTS = {
    "intro": _("the intro"),
    "story": _("the Japanese story"),
    "outro": _("the outro"),
    "comments": _("the GM's comments on the characters"),
    "story_en": _("the English story"),
    "scenario": _("the scenario's title and public text"),
    "units": _("the names of the units on the field (the dice log)"),
}
#: A service's refusal names a part (`report` is the story): the form's field it is shown beside.
FIELDS = {"report": "story", "intro": "intro", "outro": "outro", "English story": "story_en", "note": "note"}
#: What became of a line of a プレイング in the story, and what kind of line it is (`pbp.reports.playing`).
FATES = {QUOTED: _("quoted"), TOLD: _("told"), LEFT_OUT: _("left out")}
KINDS = {"speech": _("dialogue"), "action": _("plan"), "inner": _("thought"), "narration": _("description")}
EXPIRED = _("Your session's security token expired while you wrote. Nothing was saved: press the button again.")


#: The report's Markdown fields show what the story's renderer takes at most (the service refuses more, beside them).
_MARKDOWN = shown_limit(MARKDOWN_LIMIT)


class ReportForm(SiteForm):
    intro = TextAreaField(
        _("Intro"),
        render_kw=_MARKDOWN,
        description=_("Markdown, above the story (images allowed). Japanese page only."),
    )
    story = TextAreaField(
        _("Story (Japanese)"), render_kw=_MARKDOWN, description=_("Markdown: the generated draft, yours to edit.")
    )
    outro = TextAreaField(
        _("Outro"),
        render_kw=_MARKDOWN,
        description=_("Markdown, below the story (images allowed). Japanese page only."),
    )
    story_en = TextAreaField(
        _("Story (English)"),
        render_kw=_MARKDOWN,
        description=_(
            "Markdown. Left as generated, or emptied, the English page tells the story written from the facts."
        ),
    )
    note = TextAreaField(
        _("Correction note"),
        render_kw=shown_limit(REASON_LIMIT),
        description=_("Required: shown with today's date above the corrected report."),
    )
    #: "yes" once the GM confirmed publishing a round whose deadline lies ahead or whose entries are missing.
    confirm = HiddenField()


def _texts(form: ReportForm) -> dict[str, str]:
    return {
        "markdown": form.story.data or "",
        "intro": form.intro.data or "",
        "outro": form.outro.data or "",
        "story_en": form.story_en.data or "",
    }


def _fill(form: ReportForm, review: Review) -> None:
    form.intro.data, form.story.data, form.outro.data = review.intro, review.story, review.outro
    form.story_en.data = review.story_en if review.story_en is not None else (review.english or "")


def _mark(text: str) -> Markup:
    return Markup("<mark>{}</mark>").format(text)


def _page(
    campaign: Campaign,
    rnd: Round,
    form: ReportForm,
    review: Review | None,
    *,
    status: int = 200,
    refusal: str | None = None,
    leaks: list[Any] | None = None,
    previewed: bool = False,
    comment_desk: Any = None,
) -> tuple[str, int]:
    diffs = []
    if review is not None:
        if review.generated is not None:
            diffs.append(("ja", line_diff(review.generated, review.story)))
        if review.story_en is not None and review.generated_en is not None:
            diffs.append(("en", line_diff(review.generated_en, review.story_en)))
    corrections = review.corrections if review is not None else publishing.corrections(rnd.id)
    page = render_template(
        "gm/report.html",
        campaign=campaign,
        rnd=rnd,
        scenario=rnd.scenario,
        form=form,
        review=review,
        diffs=diffs,
        leaks=review.leaks if leaks is None and review is not None else (leaks or []),
        watched=secret_terms.watched(campaign.id),
        refusal=refusal,
        previewed=previewed,
        corrections=[(c, from_db(c.corrected_at)) for c in corrections],
        fates=entry_fates(rnd.id, review.story, actor_id=current_user.id) if review is not None else [],
        fate_word=lambda fate: FATES.get(fate, fate),
        kind_word=lambda kind: KINDS.get(kind, kind),
        part_name=lambda part: PARTS.get(part, part),
        secret_name=lambda secret: localized(secret_name(secret)),
        mark=_mark,
        editable=rnd.state in (RESOLVED, PUBLISHED),
        published=rnd.state == PUBLISHED,
        done=request.args.get("done"),
        comment_desk=comment_desk or comments.desk(rnd),
    )
    return page, status


def _review(rnd: Round, texts: dict[str, str] | None = None) -> Review | None:
    """The page's review of the round: with the texts typed, else as stored; None when there is none to show (an
    unresolved round, or typed text a service refuses: the refusal is shown instead)."""
    if rnd.state not in (RESOLVED, PUBLISHED):
        return None
    try:
        return publishing.review(rnd.id, **(texts or {}), actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError:
        return None


def stored_report_page(campaign: Campaign, rnd: Round, *, status: int, comment_desk: Any) -> tuple[str, int]:
    """The report page with the texts as stored and the comments' section as given (what the GM typed there)."""
    form = ReportForm(formdata=None)
    review = _review(rnd)
    if review is not None:
        _fill(form, review)
    return _page(campaign, rnd, form, review, status=status, comment_desk=comment_desk)


@bp.get("/<slug:campaign>/rounds/<row:round_id>/report")
@login_required
def report(campaign: str, round_id: int) -> tuple[str, int]:
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = ReportForm(formdata=None)
    review = _review(rnd)
    if review is not None:
        _fill(form, review)
    return _page(found, rnd, form, review)


@bp.post("/<slug:campaign>/rounds/<row:round_id>/report")
@login_required
def report_action(campaign: str, round_id: int) -> Response | tuple[str, int]:
    """One form, four buttons (`action`): preview (changes nothing), save the draft, publish it (saved with the
    text as typed), or correct the published report (with its note)."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = ReportForm()
    if not form.validate_on_submit():  # a file or JSON where the form takes text: said beside the field
        return _page(found, rnd, form, _review(rnd), status=422)
    action = request.form.get("action", "preview")
    if action not in ("preview", "save", "publish", "correct"):
        abort(400)
    texts = _texts(form)
    me = current_user.id
    try:
        if action == "preview":
            if rnd.state not in (RESOLVED, PUBLISHED):
                raise InvalidState(
                    N_(
                        "round %(round)s is %(state)s: its report is written when it is resolved",
                        round=rnd.id,
                        state=state_word(rnd.state),
                    )
                )
            review = publishing.review(rnd.id, **texts, actor_id=me)
            return _page(found, rnd, form, review, previewed=True)
        if action == "save":
            publishing.edit_report(rnd.id, **texts, actor_id=me)
        elif action == "publish":
            if rnd.state == RESOLVED and form.confirm.data != "yes":
                risk = rounds.move_risk(rnd.id, actor_id=me, clock=app_clock())
                if risk.asks:
                    carried = {"action": "publish", "intro": texts["intro"], "story": texts["markdown"]}
                    carried |= {"outro": texts["outro"], "story_en": texts["story_en"]}
                    post = url_for("gm.report_action", campaign=found.slug, round_id=rnd.id)
                    return confirm_move(found, rnd, "publish", risk, form, post, carried)
            publishing.publish_round(rnd.id, **texts, actor_id=me)
        else:
            publishing.correct_report(rnd.id, form.note.data or "", **texts, actor_id=me)
    except (Forbidden, NotFound):
        raise
    except LeakFound as refusal:  # the leak check's section says it, in the page's language, with every find
        return _page(found, rnd, form, _review(rnd, texts), status=422, leaks=refusal.leaks)
    except UserError as refusal:
        field = FIELDS.get(refusal.field or "")
        if field:
            form[field].errors = [refusal_text(refusal)]
        status = form_status(refusal)
        message = None if field else refusal_text(refusal)
        return _page(found, rnd, form, _review(rnd, texts), status=status, refusal=message)
    done = {"save": "saved", "publish": "published", "correct": "corrected"}[action]
    return redirect(url_for("gm.report", campaign=found.slug, round_id=rnd.id, done=done), 303)


@bp.errorhandler(CSRFError)
def _expired(error: CSRFError) -> tuple[str, int] | Response:
    """A long writing session outlived its CSRF token: the report page comes back with everything typed and a
    fresh token (nothing saved); any other GM form gets the 400 page. A page the user may not see answers its
    access check's 403 or 404 (`redrawn`)."""
    if request.endpoint in EXPIRED_PAGES and current_user.is_authenticated:
        return redrawn(EXPIRED_PAGES[request.endpoint])
    if request.endpoint != "gm.report_action" or not current_user.is_authenticated:
        return error_page(400)
    return redrawn(_expired_report)


def _expired_report() -> tuple[str, int]:
    """The report form back with the story typed, a fresh token and the message above it (status 400)."""
    args = request.view_args or {}
    found = gm_campaign(args["campaign"])
    rnd = campaign_round(found, args["round_id"])
    form = ReportForm()
    body, _status = _page(found, rnd, form, None, refusal=str(EXPIRED))
    return body, 400
