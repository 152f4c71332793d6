"""Error pages in the site's layout and language, never a traceback; the services' typed refusals mapped to HTTP.

A view calls a service and lets its typed error through: `NotFound` is a 404, `Forbidden` a 403, `Conflict` and
`InvalidState` a 409 with the service's reason, any other `UserError` a 400 (a view with a form catches them
first and shows the message beside the field). Nothing here parses a message.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from flask import Flask, current_app, render_template
from flask_babel import lazy_gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from pbp import errors
from pbp.web.i18n import refusal_text

log = logging.getLogger("pbp.web")

#: The pages: their title and what the reader may do about it.
PAGES = {
    400: (_("Bad request"), _("The request could not be used. If you sent a form, reload it and try again.")),
    403: (_("Not allowed"), _("This is not yours to see or change.")),
    404: (_("Page not found"), _("There is no page at this address.")),
    405: (_("Method not allowed"), _("This address does not take that kind of request.")),
    409: (_("Not possible now"), _("This cannot be done in the current state of things.")),
    413: (_("Request too large"), _("What you sent is larger than this site accepts.")),
    429: (_("Too many requests"), _("Too many attempts in a short time. Wait a little and try again.")),
    500: (_("Something went wrong"), _("The site failed to answer this request. Please try again later.")),
}
#: The typed refusals of the services and the status each one answers with.
SERVICE_ERRORS: dict[type[errors.UserError], int] = {
    errors.NotFound: 404,
    errors.Forbidden: 403,
    errors.Conflict: 409,
    errors.InvalidState: 409,
    errors.UserError: 400,
}
#: A page that needs nothing: what is shown if even the error page fails (the database is down, say).
FALLBACK = '<!doctype html><meta charset="utf-8"><title>{code}</title><h1>{code}</h1>\n'


def error_page(code: int, detail: str | None = None, retry_after: int | None = None) -> tuple[str, int]:
    title, text = PAGES[code]
    try:
        page = render_template(
            "errors/error.html", code=code, title=title, text=text, detail=detail, wait=_wait_words(retry_after)
        )
        return page, code
    except Exception:  # the layout needs the signed-in user, hence the database: a bare page instead of nothing
        log.exception("the %s page could not be rendered", code)
        return FALLBACK.format(code=code), code


def form_status(refusal: errors.UserError) -> int:
    """The status of a form shown again with a service's refusal: 409 when the state of things refused it (a
    closed round, a taken name), else 422 (what was typed)."""
    return 409 if isinstance(refusal, errors.InvalidState | errors.Conflict) else 422


def _wait_words(seconds: int | None) -> str | None:
    """How long to wait before trying again, in the page's language (minutes once it is more than 90 seconds)."""
    if seconds is None:
        return None
    if seconds > 90:
        minutes = math.ceil(seconds / 60)
        return ngettext("Try again in %(num)s minute.", "Try again in %(num)s minutes.", minutes)
    return ngettext("Try again in %(num)s second.", "Try again in %(num)s seconds.", seconds)


def retry_after(e: HTTPException) -> int | None:
    """The seconds before a refused request may be sent again: the error's own `Retry-After` (a view's
    `TooManyRequests(retry_after=...)`), else when the Flask-Limiter limit this request broke starts a new window;
    None when nothing says."""
    for name, value in e.get_headers():
        if name.lower() == "retry-after" and value.isdigit():
            return max(1, int(value))
    for limiter in current_app.extensions.get("limiter", ()):
        limit = limiter.current_limit
        if limit is not None:
            return max(1, int(limit.reset_at - time.time()))  # as Flask-Limiter words its header
    return None


def _http_error(e: HTTPException) -> Response:
    code = e.code if e.code in PAGES else 500
    wait = retry_after(e) if code == 429 else None
    body, status = error_page(code, retry_after=wait)
    response = Response(body, status=status, mimetype="text/html")
    for name, value in e.get_headers():  # e.g. Allow on a 405
        if name.lower() != "content-type":
            response.headers[name] = value
    if wait is not None:  # the words and the header agree (Flask-Limiter keeps the later of its own and this)
        response.headers["Retry-After"] = str(wait)
    return response


def _service_error(e: errors.UserError) -> tuple[str, int]:
    code = next(status for kind, status in SERVICE_ERRORS.items() if isinstance(e, kind))
    return error_page(code, refusal_text(e) if code in (400, 409) else None)


def redrawn(draw: Callable[[], tuple[str, int]]) -> tuple[str, int] | Response:
    """A form drawn again inside an error handler (after a CSRF failure) runs its page's access check, and Flask turns
    whatever an error handler raises into a 500: the check's refusal is answered here with its own page instead."""
    try:
        return draw()
    except HTTPException as e:  # abort(403), abort(404)
        return _http_error(e)
    except errors.UserError as e:  # a service's Forbidden, NotFound
        return _service_error(e)


def _server_error(_e: InternalServerError) -> tuple[str, int]:
    return error_page(500)  # Flask has logged the exception with its traceback


def init_app(app: Flask) -> None:
    for code in PAGES:
        if code != 500:
            app.register_error_handler(code, _http_error)
    app.register_error_handler(InternalServerError, _server_error)
    for kind in SERVICE_ERRORS:
        app.register_error_handler(kind, _service_error)
