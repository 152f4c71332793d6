"""`/me/notifications`: where a user's notifications go (an e-mail address) and which kinds they receive
(`pbp.services.notifications`). A page of its own beside マイページ. And `/me/notices`, the on-site notice list
(`pbp.services.notices`): every event told to the user, newest first, unread ones marked, with the header's badge
and the "since your last visit" box of the home page and マイページ; it works with no mail server."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import BooleanField, EmailField
from wtforms.validators import Length, Optional

from pbp.errors import NotFound, UserError
from pbp.models import Notice, User
from pbp.services import notices, notifications
from pbp.services.clock import from_db
from pbp.web.clock import app_clock
from pbp.web.forms import ActionForm, SiteForm, show_refusal
from pbp.web.gm.access import runs_any_campaign
from pbp.web.i18n import isolate, page_locale

bp = Blueprint("notify", __name__)
INVALID = 422

#: Each kind's label on the page (`notifications.KINDS`).
LABELS = {
    "round.opened": _("A round of my scenario opens"),
    "round.extended": _("The deadline of a round of my scenario moves"),
    "round.reminder": _("Reminders before a deadline while I have no entry"),
    "round.published": _("A round's report is published"),
    "round.resolved": _("GM: a round is resolved and waits for my review"),
    "round.publish_refused": _("GM: the leak check stopped a round's automatic publication"),
    "round.held": _("GM: a round is held because entries are missing"),
    "round.quarantined": _("GM: a round failed to resolve three times"),
    "roster.accept": _("The GM accepts my character into a scenario"),
    "roster.waitlist": _("The GM puts my character on a scenario's waitlist"),
    "roster.reject": _("The GM turns down my character's sign-up"),
    "roster.remove": _("The GM takes my character off a scenario"),
    "round.scheduled": _("A new round of my scenario is planned"),
    "round.waiting": _("A round of my scenario is held for the GM"),
    "entry.late": _("An entry of mine was saved too late and refused"),
    "signup.joined": _("My character's sign-up: joined"),
    "signup.waitlisted": _("My character's sign-up: on the waiting list"),
    "growth.approved": _("A growth request of mine is approved"),
    "growth.denied": _("A growth request of mine is denied"),
    "note.new": _("A new message in a scenario's private notes between the GM and me"),
}


def field_name(kind: str) -> str:
    return "kind_" + kind.replace(".", "_")


class NotificationsForm(SiteForm):
    email = EmailField(
        _("E-mail address"),
        [Optional(), Length(max=notifications.ADDRESS_LIMIT)],
        description=_("Where notices and the link for a forgotten password go. Empty: no e-mail."),
    )


for _kind in notifications.KINDS:
    setattr(NotificationsForm, field_name(_kind), BooleanField(LABELS[_kind]))


@bp.route("/me/notifications", methods=["GET", "POST"])
@login_required
def settings() -> str | Response | tuple[str, int]:
    form = NotificationsForm()
    # the kinds only a campaign's GMs are sent (`GM_PAGES`), to a user who runs one: a player's switch would do nothing
    shown = [kind for kind in notifications.KINDS if kind not in notifications.GM_PAGES or runs_any_campaign()]
    kinds = [form[field_name(kind)] for kind in shown]
    if request.method == "GET":
        form.email.data = User.get_by_id(current_user.id).email or ""
        for kind, enabled in notifications.preferences(current_user.id).items():
            form[field_name(kind)].data = enabled
    elif form.validate_on_submit():
        try:
            enabled = {kind: bool(form[field_name(kind)].data) for kind in shown}
            notifications.save_settings(current_user.id, form.email.data, enabled)
        except UserError as refusal:
            show_refusal(form, refusal)
        else:
            return redirect(url_for("notify.settings", saved=1), 303)
    page = render_template("notifications.html", form=form, kinds=kinds, saved="saved" in request.args)
    return (page, INVALID) if request.method == "POST" else page


@dataclass(frozen=True)
class Shown:
    """A notice as the list shows it: its words in the page's language and where it leads (None: what it named is
    gone, a deleted round)."""

    id: int
    subject: str
    body: str
    path: str | None
    at: datetime  # aware UTC
    unread: bool
    timezone: str  # the campaign's it tells of (UTC when none)


#: The payload's user text (a scenario's title, a character's name, the GM's reason): isolated in the site's sentence.
USER_TEXT = ("scenario", "character", "reason")


def shown(rows: list[Notice]) -> list[Shown]:
    """The notices in the page's language (the outbox's own words: `notifications.message`), the user text in them
    isolated (`isolate`: a name holding U+202E turns none of the site's words around)."""
    gone = notices.gone_rounds(rows)
    zones = notices.time_zones(rows)
    out = []
    for n in rows:
        payload = notifications.deadline_in(n.payload, getattr(current_user, "timezone", None))
        said = {k: isolate(v) if k in USER_TEXT else v for k, v in payload.items()}
        try:
            subject, body = notifications.message(n.kind, said, page_locale())
        except KeyError:  # a notice stored before its kind's words changed or went: its kind, rather than no page
            subject, body = n.kind, ""
        path = None if n.payload.get("round") in gone else notifications.page_path(n.kind, n.payload)
        zone = zones.get(n.payload.get("campaign"), "UTC")
        out.append(Shown(n.id, subject, body, path, from_db(n.created_at), n.read_at is None, zone))
    return out


def unread_notices() -> int:
    """The header's badge: the signed-in user's unread notices (0 for a visitor)."""
    return notices.unread_count(current_user.id) if current_user.is_authenticated else 0


def since_last_visit() -> list[Shown]:
    """The home page's and マイページ's "since your last visit": the user's unread notices, newest first."""
    return shown(notices.latest(current_user.id, unread_only=True, limit=5))


@bp.app_context_processor
def _globals() -> dict[str, object]:
    return {"unread_notices": unread_notices, "notice_form": ActionForm}


@bp.get("/me/notices")
@login_required
def notice_list() -> str:
    rows = shown(notices.latest(current_user.id))
    return render_template("notices.html", notices=rows)


@bp.post("/me/notices/<row:notice_id>/open")
@login_required
def open_notice(notice_id: int) -> Response:
    """Mark one notice read and go where it leads (the list again when what it named is gone)."""
    try:
        notice = notices.open_notice(notice_id, user_id=current_user.id, clock=app_clock())
    except NotFound:
        abort(404)
    path = shown([notice])[0].path
    return redirect(path or url_for("notify.notice_list"), 303)


@bp.post("/me/notices/read")
@login_required
def read_all() -> Response:
    notices.mark_all_read(current_user.id, clock=app_clock())
    return redirect(url_for("notify.notice_list"), 303)
