"""Security headers on every response and the session cookie's flags.

The pages carry no inline script or style (every style is in `static/site.css`, and there is no script at all), so
the Content-Security-Policy allows only the site's own files; images may also come over HTTPS, for a GM's
pictures in a report. Framing is refused twice (CSP `frame-ancestors` and the older `X-Frame-Options`).

A request body without a Content-Length (chunked) is held to `MAX_CONTENT_LENGTH` like one with it: Werkzeug
stops reading such a stream at the limit without an error, so a chunked body over it would reach the form parser
cut short instead of getting the 413 page (`BodyLimit`).

Every answer to a signed-in user, and every page of the GM's console, is `Cache-Control: no-store`: it holds their
name, their forms' CSRF tokens, a GM's secrets, which no shared cache or back button may keep. An anonymous
reader's public pages keep their caching (and `pbp.web.page_cache` keeps them, without this header).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from flask import Flask, request, session
from werkzeug.wrappers import Response

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' https: data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
#: Answers the same for everyone, signed in or not, that keep their own caching (a character's icon, by its digest).
SHARED_ANSWERS = frozenset({"player.character_icon"})
#: The blueprints whose every page is private, whoever asks (an anonymous visitor's redirect to log in too).
PRIVATE_BLUEPRINTS = frozenset({"gm"})
#: With HTTPS: browsers keep to HTTPS for a year.
HSTS = "max-age=31536000"


class BodyLimit:
    """WSGI middleware: a body without a Content-Length is read up to one byte past the app's limit and handed on
    as a body of known length; Werkzeug then answers one over the limit with the 413 page (unread, as for a body
    whose Content-Length says it is too large)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        if limit is not None and not environ.get("CONTENT_LENGTH") and environ.get("wsgi.input_terminated"):
            body = environ["wsgi.input"].read(limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.wsgi_app(environ, start_response)


def _signed_in(app: Flask) -> bool:
    """Whether the request's session has a user; without a session cookie the session is not opened (reading it
    would add `Vary: Cookie` to a static file's answer)."""
    remembered = app.config.get("REMEMBER_COOKIE_NAME")  # 「ログイン状態を保持」: a user without a session yet
    return (app.config["SESSION_COOKIE_NAME"] in request.cookies and "_user_id" in session) or (
        bool(remembered) and remembered in request.cookies
    )


def init_app(app: Flask) -> None:
    """Cookie flags from the settings (Secure when `HTTPS`), and the headers on every response, error pages too
    (`no-store` for a signed-in user's and the GM's: the session says who, without loading the user)."""
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=bool(app.config["HTTPS"]),
    )
    app.wsgi_app = BodyLimit(app)  # type: ignore[method-assign]

    @app.after_request
    def _headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if app.config["HTTPS"]:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        if request.endpoint in SHARED_ANSWERS and response.status_code in (200, 304):
            return response
        if request.blueprint in PRIVATE_BLUEPRINTS or _signed_in(app):
            response.headers["Cache-Control"] = "no-store"
        return response
