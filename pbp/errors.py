"""Errors that the layers above the engine raise for a user's bad request.

Every one of them is a `ValueError` with an English message fit to show as is: the CLI prints it on one line and
exits 2. The message is usually a `Text` made by `N_`: it remembers its English template and parameters, so the web
app shows it beside the field in the reader's language (`pbp.web.i18n.localized`), while this layer stays free of
Flask and Babel. `make messages` extracts every `N_` template into the catalogs.
"""

from __future__ import annotations


class Text(str):
    """English text (its template with the parameters put in) that keeps the template and the parameters, so a
    page can say the same in another language; anywhere else it is the plain English string."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, **params: object) -> Text:
        text = super().__new__(cls, template % params if params else template)
        text.template, text.params = template, params
        return text


def N_(template: str, **params: object) -> Text:
    """Mark an English template for the catalogs (`%(name)s` placeholders, filled from `params`). A parameter that
    is itself a `Text` (a field's label, a round's state) is translated too; any other (a name, a number) is not."""
    return Text(template, **params)


class UserError(ValueError):
    """A request refused for a reason the user can fix; nothing was changed. `message` is a `Text` from `N_` for a
    page to translate, or plain English that stays English (a list of the engine's problems)."""

    def __init__(self, message: str, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)


class NotFound(UserError):
    """The row asked for does not exist (the web app answers 404)."""


class Forbidden(UserError):
    """The row exists but is not the user's to act on (403)."""


class Conflict(UserError):
    """The request clashes with what exists: a name taken, a sign-up made twice, a concurrent change (409)."""


class InvalidState(UserError):
    """The thing is not in a state that allows this now: a closed round, a passed deadline (409)."""
