"""Errors that the layers above the engine raise for a user's bad request.

Every one of them is a `ValueError` with a message fit to show as is: the CLI prints it on one line and exits 2,
the web app shows it beside the field.
"""

from __future__ import annotations


class UserError(ValueError):
    """A request refused for a reason the user can fix; nothing was changed."""

    def __init__(self, message: str, field: str | None = None):
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
