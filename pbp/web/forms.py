"""The web forms (Flask-WTF: every one carries the CSRF token). Validators here give the reader a message in the
page's language beside the field; the services check again and have the last word (`show_refusal`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from werkzeug.datastructures import CombinedMultiDict, MultiDict
from wtforms import (
    BooleanField,
    EmailField,
    Field,
    FieldList,
    FormField,
    HiddenField,
    PasswordField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import DataRequired, Length, Optional, Regexp

from pbp.errors import UserError
from pbp.services.accounts import NAME_LIMIT, PASSWORD_MAX, PASSWORD_MIN
from pbp.services.clock import time_zones
from pbp.services.notifications import ADDRESS_LIMIT
from pbp.web.i18n import refusal_text

NAME_RULE = _("2 to 40 letters, digits, '_', '.' or '-'.")
PASSWORD_RULE = _("%(min)s to %(max)s characters.", min=PASSWORD_MIN, max=PASSWORD_MAX)


#: Said beside a field that was sent a file or a JSON value: a browser's form sends it text.
NOT_TEXT = _("Type text here: a file or a JSON value is not taken.")
#: Said above a form sent as JSON (each field it names is also said to take text).
NOT_A_FORM = _("Send this form from its page: a JSON body is not taken.")
#: The form's own key in `SiteForm.wrong_types` (a wrong type sent under a name that is none of its fields).
WHOLE_FORM = "form"
_AUTO = object()


class SiteForm(FlaskForm):
    """Every form of the site. Its fields get only the text a browser's form sends: a file (except to a
    `FileField`) or a JSON body never reaches them, since WTForms' validators, `int()` and the services take text
    and would fail on a `FileStorage` or an `int` with a 500. What was sent with a wrong type is said beside the
    field it was sent for (above the form when it names no field), and the form does not validate: 422 with the
    form again, as for any other refusal."""

    def __init__(self, formdata: Any = _AUTO, **kwargs: Any) -> None:
        self._wrong: list[str] = []  # the names sent with a wrong type ("": the body, when it is JSON)
        if formdata is _AUTO:
            formdata = self._text_sent() if self.is_submitted() else None
        super().__init__(formdata=formdata, **kwargs)

    def _text_sent(self) -> Any:
        """The request's form fields (text), with the files sent to this form's file fields; every other file
        and a JSON body are noted as wrong types instead."""
        if request.is_json:
            body = request.get_json(silent=True)
            self._wrong = ["", *(str(key) for key in body)] if isinstance(body, dict) else [""]
            return None
        takes_file = {name for name, f in self._unbound_fields if issubclass(f.field_class, FileField)}
        files = MultiDict([(name, f) for name, f in request.files.items(multi=True) if name in takes_file])
        self._wrong = [name for name in request.files if name not in takes_file]
        if files:
            return CombinedMultiDict((files, request.form))
        return request.form or None

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' checks, then each wrong type beside its field (after them: `Optional` clears a field's
        errors when it got no text) or above the form; any wrong type fails the form."""
        valid = super().validate(extra_validators)
        fields = {f.name: f for f in _fields(self)}
        for name in self._wrong_names():
            if name in fields:
                fields[name].errors = [*fields[name].errors, str(NOT_TEXT)]
            else:
                self.form_errors.append(str(NOT_TEXT if name else NOT_A_FORM))
        return valid and not self._wrong

    def _wrong_names(self) -> list[str]:
        """The names sent with a wrong type but the CSRF token's (a JSON body may carry it: the body is wrong)."""
        return [name for name in self._wrong if not (self.meta.csrf and name == self.meta.csrf_field_name)]

    def wrong_types(self) -> dict[str, str]:
        """The names sent with a wrong type and what to say beside each, for a view that reads fields by hand
        (`WHOLE_FORM`: above the form)."""
        return {name or WHOLE_FORM: str(NOT_TEXT if name else NOT_A_FORM) for name in self._wrong_names()}


def _fields(form: Any) -> Iterator[Field]:
    """Every field of a form that holds a value, those in its lists and sub-forms too (`enemies-0-x`); not the
    lists and sub-forms themselves (`enemies-0`: their errors are their fields')."""
    for f in form:
        if isinstance(f, FieldList):
            yield from _fields(f.entries)
        elif isinstance(f, FormField):
            yield from _fields(f.form)
        else:
            yield f


def _required() -> DataRequired:
    return DataRequired(message=_("Fill this in."))


def _password() -> list:
    return [_required(), Length(PASSWORD_MIN, PASSWORD_MAX, message=PASSWORD_RULE)]


def shown_limit(most: int) -> dict[str, int]:
    """A field's `maxlength` (the browser stops typing there; a paste is cut) and the counter the form shows; the
    service behind the form still refuses more, in its own words beside the field."""
    return {"maxlength": most}


class RegisterForm(SiteForm):
    name = StringField(
        _("User name"),
        [_required(), Regexp(r"[A-Za-z0-9_.-]{2,40}\Z", message=NAME_RULE)],
        description=NAME_RULE,
        render_kw={**shown_limit(40), "autocomplete": "username"},
    )
    display_name = StringField(
        _("Display name"),
        [Optional(), Length(max=NAME_LIMIT, message=_("Up to %(max)s characters.", max=NAME_LIMIT))],
        description=_("Shown to others; any script."),
        render_kw=shown_limit(NAME_LIMIT),
    )
    password = PasswordField(
        _("Password"),
        _password(),
        description=PASSWORD_RULE,
        render_kw={**shown_limit(PASSWORD_MAX), "autocomplete": "new-password"},
    )
    email = EmailField(
        _("E-mail address"),
        [Optional(), Length(max=ADDRESS_LIMIT, message=_("Up to %(max)s characters.", max=ADDRESS_LIMIT))],
        description=_(
            "Optional: where notices and the link for a forgotten password go (the notifications page changes it)."
        ),
        render_kw={**shown_limit(ADDRESS_LIMIT), "autocomplete": "email"},
    )


class LoginForm(SiteForm):
    name = StringField(_("User name"), [_required(), Length(max=40)])
    password = PasswordField(_("Password"), [_required(), Length(max=PASSWORD_MAX)])
    remember = BooleanField(
        _("Keep me logged in"),
        description=_("On this browser until you log out (here or anywhere else). Not on a shared computer."),
    )
    next = HiddenField()


class PasswordForm(SiteForm):
    current_password = PasswordField(_("Current password"), [_required(), Length(max=PASSWORD_MAX)])
    new_password = PasswordField(_("New password"), _password(), description=PASSWORD_RULE)


class ForgotForm(SiteForm):
    who = StringField(
        _("User name or e-mail address"),
        [_required(), Length(max=ADDRESS_LIMIT)],
        description=_("The e-mail address set on the notifications page."),
    )


class ResetForm(SiteForm):
    new_password = PasswordField(_("New password"), _password(), description=PASSWORD_RULE)


class LocaleForm(SiteForm):
    locale = SelectField(
        _("Language"),
        choices=[SelectChoice("", _("The browser's")), SelectChoice("ja", "日本語"), SelectChoice("en", "English")],
        default="",
    )


class TimezoneForm(SiteForm):
    """The time zone every page shows the user's deadlines and times in."""

    timezone = SelectField(
        _("Time zone"),
        choices=[SelectChoice("", _("Each campaign's own")), *(SelectChoice(z, z) for z in time_zones())],
        default="",
        description=_("Deadlines and other times are shown in it; the campaign's own is Japan's for most."),
    )


class CoGmForm(SiteForm):
    user_name = StringField(_("User name"), [_required(), Length(max=40)], description=_("The user to make a co-GM."))


class ActionForm(SiteForm):
    """A form with nothing but its CSRF token (a logout button)."""


def show_refusal(form: SiteForm, refusal: UserError) -> None:
    """A service's refusal beside the field it names (`display name` is the form's `display_name`), else above the
    form: nothing the user typed is lost, the page shows the form again."""
    name = (refusal.field or "").replace(" ", "_")
    if name in form:
        form[name].errors = [*form[name].errors, refusal_text(refusal)]
    else:
        form.form_errors.append(refusal_text(refusal))
