"""The web forms (Flask-WTF: every one carries the CSRF token). Validators here give the reader a message in the
page's language beside the field; the services check again and have the last word (`show_refusal`)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _
from flask_wtf import FlaskForm
from wtforms import EmailField, HiddenField, PasswordField, SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, Length, Optional, Regexp

from pbp.errors import UserError
from pbp.services.accounts import NAME_LIMIT, PASSWORD_MAX, PASSWORD_MIN
from pbp.services.notifications import ADDRESS_LIMIT
from pbp.web.i18n import refusal_text

NAME_RULE = _("2 to 40 letters, digits, '_', '.' or '-'.")
PASSWORD_RULE = _("%(min)s to %(max)s characters.", min=PASSWORD_MIN, max=PASSWORD_MAX)


def _required() -> DataRequired:
    return DataRequired(message=_("Fill this in."))


def _password() -> list:
    return [_required(), Length(PASSWORD_MIN, PASSWORD_MAX, message=PASSWORD_RULE)]


class RegisterForm(FlaskForm):
    name = StringField(
        _("User name"), [_required(), Regexp(r"[A-Za-z0-9_.-]{2,40}\Z", message=NAME_RULE)], description=NAME_RULE
    )
    display_name = StringField(
        _("Display name"), [Optional(), Length(max=NAME_LIMIT)], description=_("Shown to others; any script.")
    )
    password = PasswordField(_("Password"), _password(), description=PASSWORD_RULE)
    email = EmailField(
        _("E-mail address"),
        [Optional(), Length(max=ADDRESS_LIMIT)],
        description=_(
            "Optional: where notices and the link for a forgotten password go (the notifications page changes it)."
        ),
    )


class LoginForm(FlaskForm):
    name = StringField(_("User name"), [_required(), Length(max=40)])
    password = PasswordField(_("Password"), [_required(), Length(max=PASSWORD_MAX)])
    next = HiddenField()


class PasswordForm(FlaskForm):
    current_password = PasswordField(_("Current password"), [_required(), Length(max=PASSWORD_MAX)])
    new_password = PasswordField(_("New password"), _password(), description=PASSWORD_RULE)


class ForgotForm(FlaskForm):
    who = StringField(
        _("User name or e-mail address"),
        [_required(), Length(max=ADDRESS_LIMIT)],
        description=_("The e-mail address set on the notifications page."),
    )


class ResetForm(FlaskForm):
    new_password = PasswordField(_("New password"), _password(), description=PASSWORD_RULE)


class LocaleForm(FlaskForm):
    locale = SelectField(
        _("Language"),
        choices=[SelectChoice("", _("The browser's")), SelectChoice("ja", "日本語"), SelectChoice("en", "English")],
        default="",
    )


class CoGmForm(FlaskForm):
    user_name = StringField(_("User name"), [_required(), Length(max=40)], description=_("The user to make a co-GM."))


class ActionForm(FlaskForm):
    """A form with nothing but its CSRF token (a logout button)."""


def show_refusal(form: FlaskForm, refusal: UserError) -> None:
    """A service's refusal beside the field it names (`display name` is the form's `display_name`), else above the
    form: nothing the user typed is lost, the page shows the form again."""
    name = (refusal.field or "").replace(" ", "_")
    if name in form:
        form[name].errors = [*form[name].errors, refusal_text(refusal)]
    else:
        form.form_errors.append(refusal_text(refusal))
