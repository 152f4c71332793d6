"""Errors that the layers above the engine raise for a user's bad request.

Every one of them is a `ValueError` with an English message fit to show as is: the CLI prints it on one line and
exits 2. The message is usually a `Text` made by `N_`: it remembers its English template and parameters, so the web
app shows it beside the field in the reader's language (`pbp.web.i18n.localized`), while this layer stays free of
Flask and Babel. `make messages` extracts every `N_` template into the catalogs. A refused order's message is a
`Joined` of the engine's problems, each a `Text` after its field path: one English line, said part by part.
"""

from __future__ import annotations

from collections.abc import Iterable


class Text(str):
    """English text (its template with the parameters put in) that keeps the template and the parameters, so a
    page can say the same in another language; anywhere else it is the plain English string."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, **params: object) -> Text:
        text = super().__new__(cls, template % params if params else template)
        text.template, text.params = template, params
        return text


class Joined(str):
    """English text made of parts (each a `Text`, a `Joined` or plain English) put together with `sep`: the engine's
    problems with an order, each after its field path. Anywhere it is the plain English line; a page says each part
    in its own language."""

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, parts: Iterable[str], sep: str = "") -> Joined:
        parts = tuple(parts)
        text = super().__new__(cls, sep.join(parts))
        text.parts, text.sep = parts, sep
        return text


def N_(template: str, **params: object) -> Text:
    """Mark an English template for the catalogs (`%(name)s` placeholders, filled from `params`). A parameter that
    is itself a `Text` (a field's label, a round's state) is translated too; any other (a name, a number) is not."""
    return Text(template, **params)


class UserError(ValueError):
    """A request refused for a reason the user can fix; nothing was changed. `message` is a `Text` from `N_` (or a
    `Joined` of them: an order's problems) for a page to translate, or plain English that stays English (an engine
    problem worded without a template)."""

    def __init__(self, message: str, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)


class Refusals(UserError):
    """A request refused for several problems, each at its own place in what was sent: `problems` holds each one's
    path (`major.targets[0]` in an order) and message, for a page that says each beside its field; the message is
    all of them on one line (what the CLI prints)."""

    def __init__(self, message: str, field: str | None, problems: Iterable[tuple[str, str]]):
        super().__init__(message, field)
        self.problems = tuple(problems)


class NotFound(UserError):
    """The row asked for does not exist (the web app answers 404)."""


class Forbidden(UserError):
    """The row exists but is not the user's to act on (403)."""


class Conflict(UserError):
    """The request clashes with what exists: a name taken, a sign-up made twice, a concurrent change (409)."""


class InvalidState(UserError):
    """The thing is not in a state that allows this now: a closed round, a passed deadline (409)."""
