"""Accounts in the browser: register, log in, log out, change the password, set a forgotten one by a mailed link
(Flask-Login sessions).

The session cookie names the user and their `session_version` (`SessionUser.get_id`: "12:3"); a cookie whose
version is no longer the user's is refused, so logging out or changing the password (both bump the version) ends
every copy of the cookie, not only the browser's own. Login attempts are rate-limited per address and user name
(`LOGIN_RATE_LIMIT`: one client's failures lock no one else out) and, more widely, per address
(`LOGIN_ADDRESS_RATE_LIMIT`), with Flask-Limiter counting in `RATELIMIT_STORAGE_URI`; a limited attempt gets the 429
page. The address is the client's behind a trusted proxy (`PBP_TRUSTED_PROXIES`, pbp.web); the name counts only
once checked (`accounts.login_name`): nothing unchecked is written before the form judges it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import limits
from flask import Blueprint, Flask, current_app, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_login import LoginManager, current_user, login_required, login_user, logout_user
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.wrappers import Response

from pbp.db import database
from pbp.errors import Conflict, NotFound, UserError
from pbp.models import User, site
from pbp.services import accounts, drafts, notifications
from pbp.services.versioned import KeptUnderVersion
from pbp.web import ratelimit  # noqa: F401 - registers the pbp-database:// storage of the login limits
from pbp.web.clock import app_clock
from pbp.web.forms import ActionForm, ForgotForm, LoginForm, PasswordForm, RegisterForm, ResetForm, show_refusal
from pbp.web.hosts import absolute

#: An invalid form comes back with this status (the page shows the form again, messages beside the fields).
INVALID = 422
#: Without `LOGIN_ADDRESS_RATE_LIMIT`, an address may try this many times the logins one name may (`_address_limit`).
ADDRESS_FACTOR = 5
#: How long a mailed link to set a new password works (its mail says "within an hour"), and its signature's salt.
RESET_MAX_AGE = int(notifications.EXPIRES[accounts.RESET_KIND].total_seconds())
RESET_SALT = "pbp.password-reset"
#: 「ログイン状態を保持」's cookie (Flask-Login's remember cookie).
REMEMBER_COOKIE = "pbp_remember"
#: The session's key for the token of text a save parked when the session had ended (`pbp.web.player.drafts`).
PARKED = "pbp.parked"


@dataclass(frozen=True)
class SessionUser:
    """The signed-in user as the web app sees it (Flask-Login's user protocol); models stay free of Flask."""

    id: int
    name: str
    display_name: str
    locale: str | None
    session_version: int
    timezone: str | None = None

    is_authenticated = True
    is_active = True
    is_anonymous = False

    @classmethod
    def of(cls, user: User) -> SessionUser:
        return cls(user.id, user.name, user.display_name, user.locale, user.session_version, user.timezone)

    def get_id(self) -> str:
        return f"{self.id}:{self.session_version}"


#: Signed-in users by id, kept under the site's version as the request first read it (`site.seen`): a user is a
#: watched table, so a logout, a new password or an edited name moves the version and the next request reads the
#: row again. A save then reads nothing but the version before its write transaction.
_SIGNED_IN = KeptUnderVersion(4096)


def _session_user(user_id: int) -> SessionUser | None:
    user = User.get_or_none(User.id == user_id)
    return None if user is None else SessionUser.of(user)


def load_user(session_id: str) -> SessionUser | None:
    """The user a session names, if the session's version is still theirs (else the session has ended)."""
    user_id, _sep, version = session_id.partition(":")
    if not (user_id.isdigit() and version.isdigit()):
        return None
    uid = int(user_id)
    user = _SIGNED_IN.get(("session user", uid), site.seen(database.obj), lambda: _session_user(uid))
    if user is None or user.session_version != int(version):
        return None
    return user


def local_target(target: str | None) -> str | None:
    """`target` if it is a path on this site (`/me`), else None: `next` must never send anyone elsewhere
    (`//evil.example`, `https://...`, `/\\evil.example`, which browsers read as `//`)."""
    if not target or not target.startswith("/") or "\\" in target or any(c < " " for c in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc and not target.startswith("//") else None


def _address() -> str:
    """The client's address, one spelling per address (`::FFFF:...`, `2001:DB8::1`), or "-" when it is not one (the
    server's REMOTE_ADDR, or a trusted proxy's X-Forwarded-For through `ProxyFix`)."""
    try:
        return str(ipaddress.ip_address(request.remote_addr or ""))
    except ValueError:
        return "-"


def _address_key() -> str:
    return f"address:{_address()}"


def _login_name() -> str | None:
    return accounts.login_name(request.form.get("name", ""))


def _not_a_login_name() -> bool:
    """A name no account can have is counted by the address's limit only: it is never written to the limits."""
    return _login_name() is None


def _sign_in_key() -> str:
    """The address and the checked user name: one client's failures lock no one else out (issue 33)."""
    return f"sign-in:{_address()}:{_login_name()}"


def _login_limit() -> str:
    return str(current_app.config["LOGIN_RATE_LIMIT"])


def _address_limit() -> str:
    """`LOGIN_ADDRESS_RATE_LIMIT`, else `ADDRESS_FACTOR` times `LOGIN_RATE_LIMIT`: a household or a club behind one
    address signs in by several names, a client trying name after name is stopped (and a setting that raises the
    login limit, as the load test's does, raises both)."""
    setting = current_app.config["LOGIN_ADDRESS_RATE_LIMIT"]
    if setting:
        return str(setting)
    per_name = limits.parse_many(_login_limit())
    return "; ".join(f"{i.amount * ADDRESS_FACTOR} per {i.multiples} {i.GRANULARITY.name}" for i in per_name)


def _home() -> str:
    return url_for("player.home")


def register() -> str | Response | tuple[str, int]:
    """Every problem of a sign-up said at once, each beside its field: the form's checks, then the service's of the
    fields those passed (an e-mail address that is none, a taken name), so no second try finds a new one."""
    if current_user.is_authenticated:
        return redirect(_home())
    form = RegisterForm()
    if form.is_submitted():
        valid = form.validate()
        problems = accounts.registration_problems(
            form.name.data or "",
            form.password.data or "",
            display_name=form.display_name.data or None,
            email=form.email.data or None,
        )
        for refusal in problems:
            name = (refusal.field or "").replace(" ", "_")
            if isinstance(refusal, Conflict):
                form.name.errors.append(_("This user name is taken: choose another."))
            elif not (name in form and form[name].errors):  # the form's own check said it already
                show_refusal(form, refusal)
        if valid and not problems:
            try:
                user = accounts.create_user(
                    form.name.data,
                    form.password.data,
                    display_name=form.display_name.data or None,
                    email=form.email.data or None,
                )
            except Conflict:  # taken since it was checked
                form.name.errors.append(_("This user name is taken: choose another."))
            except UserError as refusal:
                show_refusal(form, refusal)
            else:
                login_user(SessionUser.of(user))
                return redirect(_home(), 303)
    return _form_page("auth/register.html", form)


def login() -> str | Response | tuple[str, int]:
    form = LoginForm()
    if request.method == "GET":
        form.next.data = local_target(request.args.get("next"))
    elif form.validate_on_submit():
        user = accounts.authenticate(form.name.data, form.password.data)
        if user is not None:
            login_user(SessionUser.of(user), remember=bool(form.remember.data))
            back = _claim_parked(user.id)  # text a save kept when this browser's session had ended
            return redirect(back or local_target(form.next.data) or _home(), 303)
        form.form_errors.append(_("The user name or the password is not right."))
    return _form_page("auth/login.html", form)


def _claim_parked(user_id: int) -> str | None:
    """After a login: the text parked in this browser (`PARKED`) becomes the user's draft; the entry form to return
    to, with the draft in it, or None when nothing of theirs was parked here."""
    token = session.pop(PARKED, None)
    if not isinstance(token, str):
        return None
    found = drafts.claim_parked(token, user_id=user_id, clock=app_clock())
    if found is None:
        return None
    return url_for("player.entry", round_id=found[0], character_id=found[1], draft=1)


def logout() -> Response:
    """POST only (with the CSRF token, like every POST): ends every session of the user, then this one."""
    if current_user.is_authenticated:
        accounts.end_sessions(current_user.id)
    logout_user()
    return redirect(_home(), 303)


@login_required
def password() -> str | Response | tuple[str, int]:
    form = PasswordForm()
    if form.validate_on_submit():
        try:
            user = accounts.change_password(current_user.id, form.current_password.data, form.new_password.data)
        except UserError as refusal:
            if refusal.field == "current_password":
                form.current_password.errors.append(_("The current password is not right."))
            else:
                show_refusal(form, refusal)
        else:
            login_user(SessionUser.of(user))  # this browser goes on with the new version; every other copy ends
            return redirect(url_for("player.me"), 303)
    return _form_page("auth/password.html", form)


def _reset_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt=RESET_SALT)


def reset_link(user_id: int, fingerprint: str) -> str:
    """The mailed link: the account and its password's fingerprint, signed with the site's secret and dated."""
    return absolute(url_for("auth.reset", token=_reset_signer().dumps([user_id, fingerprint])))


def sends_mail() -> bool:
    """Whether a mailed link can reach anyone: `MAIL` when set, else whether the scheduler has an SMTP server (its
    settings: PBP_SMTP_HOST, or SMTP_HOST in the instance's config.py)."""
    if current_app.config["MAIL"] is not None:
        return bool(current_app.config["MAIL"])
    try:
        return bool(notifications.Settings.load().smtp_host)
    except UserError:  # SMTP settings the scheduler refuses too: it sends nothing
        return False


def forgot() -> str | tuple[str, int]:
    """Ask for the link. The answer is the same whether or not the account exists or has an address. A site that
    sends no e-mail says so instead, and who can help."""
    form = ForgotForm()
    if not sends_mail():
        return render_template("auth/forgot.html", form=form, no_mail=True)
    if form.validate_on_submit():
        accounts.request_password_reset(form.who.data, reset_link)
        return render_template("auth/forgot.html", form=form, sent=True)
    return _form_page("auth/forgot.html", form)


def reset(token: str) -> str | Response | tuple[str, int]:
    """Set the new password from a mailed link: refused once it is over an hour old or the password has changed."""
    try:
        user_id, fingerprint = _reset_signer().loads(token, max_age=RESET_MAX_AGE)
        user_id, fingerprint = int(user_id), str(fingerprint)
    except (BadSignature, ValueError, TypeError):  # forged, expired (SignatureExpired), or not a pair
        return _gone()
    if not accounts.reset_usable(user_id, fingerprint):  # used already, or the account is gone
        return _gone()
    form = ResetForm()
    if form.validate_on_submit():
        try:
            accounts.reset_password(user_id, fingerprint, form.new_password.data)
        except NotFound:  # the account is gone meanwhile
            return _gone()
        except UserError as refusal:
            if refusal.field == "link":  # used meanwhile
                return _gone()
            show_refusal(form, refusal)
        else:
            return redirect(url_for("auth.login", reset=1), 303)
    return _form_page("auth/reset.html", form)


def _gone() -> tuple[str, int]:
    """A reset link that no longer works: the page says so and offers a new one."""
    return render_template("auth/reset.html", form=None), 410


def _form_page(template: str, form: object) -> str | tuple[str, int]:
    """The form's page; after a refused submission, with its messages and the status that says so."""
    page = render_template(template, form=form)
    return (page, INVALID) if request.method == "POST" else page


def blueprint(limiter: Limiter) -> Blueprint:
    """The account routes of one app; its login view wears that app's limits (per address and user name, and a wider
    one per address: a client trying name after name)."""
    bp = Blueprint("auth", __name__)
    limited_login = limiter.limit(_login_limit, key_func=_sign_in_key, methods=["POST"], exempt_when=_not_a_login_name)(
        login
    )
    limited_login = limiter.limit(_address_limit, key_func=_address_key, methods=["POST"])(limited_login)
    bp.add_url_rule("/register", view_func=register, methods=["GET", "POST"])
    bp.add_url_rule("/login", view_func=limited_login, methods=["GET", "POST"])
    bp.add_url_rule("/logout", view_func=logout, methods=["POST"])
    bp.add_url_rule("/me/password", view_func=password, methods=["GET", "POST"])
    limited_forgot = limiter.limit(_login_limit, key_func=_address_key, methods=["POST"])(forgot)
    bp.add_url_rule("/password/forgot", view_func=limited_forgot, methods=["GET", "POST"])
    bp.add_url_rule("/password/reset/<token>", view_func=reset, methods=["GET", "POST"])
    return bp


def init_app(app: Flask) -> None:
    """Flask-Login and a limiter of this app's own, counting in the site's database (`pbp.web.ratelimit`) unless
    `RATELIMIT_STORAGE_URI` says otherwise. 「ログイン状態を保持」 is Flask-Login's remember cookie (HttpOnly, Lax,
    Secure with `HTTPS`, `REMEMBER_DAYS`): it holds the user's id and session version like the session, so a logout
    or a new password revokes it with every session."""
    app.config.update(
        REMEMBER_COOKIE_NAME=REMEMBER_COOKIE,
        REMEMBER_COOKIE_DURATION=timedelta(days=int(app.config["REMEMBER_DAYS"])),
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_SECURE=bool(app.config["HTTPS"]),
    )
    manager = LoginManager(app)
    manager.user_loader(load_user)
    manager.login_view = "auth.login"
    manager.login_message = None  # the login page says what it is; no flash messages on this site
    limiter = Limiter(key_func=_address_key, app=app, headers_enabled=True)
    app.register_blueprint(blueprint(limiter))
    app.jinja_env.globals["logout_form"] = ActionForm
    app.jinja_env.globals["sends_mail"] = sends_mail  # pages that mention e-mail say so when none goes out
