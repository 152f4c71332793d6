"""`/me/notifications`: where a user's notifications go (an e-mail address) and which kinds they receive
(`pbp.services.notifications`). A page of its own beside マイページ."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import BooleanField, EmailField
from wtforms.validators import Length, Optional

from pbp.errors import UserError
from pbp.models import User
from pbp.services import notifications
from pbp.web.forms import SiteForm, show_refusal
from pbp.web.gm.access import runs_any_campaign

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
