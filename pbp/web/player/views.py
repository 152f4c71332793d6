"""Home and マイページ: query, render; the language choice goes through the accounts service."""

from __future__ import annotations

from flask import redirect, render_template, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.services import accounts
from pbp.services.clock import SYSTEM
from pbp.web.clock import app_clock
from pbp.web.forms import LocaleForm, TimezoneForm
from pbp.web.i18n import page_locale
from pbp.web.notify import since_last_visit
from pbp.web.player import bp, queries

#: A sign-up's status as マイページ shows it.
SIGNUP_STATUS = {
    "applied": _("applied, the lottery is pending"),
    "joined": _("joined"),
    "waitlisted": _("on the waiting list"),
}


@bp.get("/")
def home() -> str:
    """Every campaign and its scenarios; for a signed-in player first the entries they may write now, each a link to
    its form (the page a player lands on after logging in), and their unread notices."""
    due, news = [], []
    if current_user.is_authenticated:
        characters = queries.characters_of(current_user.id, locale=page_locale(), now=app_clock().now())
        due = [(ch, s) for ch in characters for s in ch.signups if s.entry and s.entry.open]
        news = since_last_visit()
    campaigns = queries.campaigns(SYSTEM.now(), locale=page_locale())
    return render_template("player/home.html", campaigns=campaigns, due=due, news=news)


def _me_page(form: LocaleForm | None = None, zone_form: TimezoneForm | None = None) -> str:
    form = form or LocaleForm(formdata=None, locale=current_user.locale or "")
    zone_form = zone_form or TimezoneForm(formdata=None, timezone=current_user.timezone or "")
    characters = queries.characters_of(current_user.id, locale=page_locale(), now=app_clock().now())
    return render_template(
        "player/me.html",
        characters=characters,
        campaigns=queries.campaign_names(page_locale()),
        locale_form=form,
        zone_form=zone_form,
        signup_status=lambda s: SIGNUP_STATUS.get(s, s),
        news=since_last_visit(),
    )


@bp.get("/me")
@login_required
def me() -> str:
    return _me_page()


@bp.post("/me/locale")
@login_required
def set_locale() -> Response | tuple[str, int]:
    form = LocaleForm()
    if not form.validate_on_submit():
        return _me_page(form), 422
    accounts.set_locale(current_user.id, form.locale.data or None)
    return redirect(url_for("player.me"), 303)


@bp.post("/me/timezone")
@login_required
def set_timezone() -> Response | tuple[str, int]:
    form = TimezoneForm()
    if not form.validate_on_submit():
        return _me_page(zone_form=form), 422
    accounts.set_timezone(current_user.id, form.timezone.data or None)
    return redirect(url_for("player.me"), 303)
