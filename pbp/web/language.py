"""`/language/<locale>`: a visitor's language switch (the header's 日本語 / English). It keeps the choice in a
cookie the page's locale is chosen by (`pbp.web.i18n`) and goes back to the page it was asked from. A GET, not a
form: a public page that carried a CSRF token could not be kept for every reader (`pbp.web.page_cache`), and the
cookie changes nothing but the words a page is shown in. A signed-in user's choice on マイページ comes first."""

from __future__ import annotations

from flask import Flask, abort, current_app, redirect, request
from werkzeug.wrappers import Response

from pbp.web.auth import local_target
from pbp.web.i18n import LANG_COOKIE, LOCALES

#: How long the choice is kept: a year, renewed by each switch.
MAX_AGE = 365 * 24 * 3600


def switch(locale: str) -> Response:
    if locale not in LOCALES:
        abort(404)
    response = redirect(local_target(request.args.get("next")) or "/", 303)
    response.set_cookie(
        LANG_COOKIE,
        locale,
        max_age=MAX_AGE,
        secure=bool(current_app.config["HTTPS"]),
        httponly=True,
        samesite="Lax",
    )
    return response


def init_app(app: Flask) -> None:
    app.add_url_rule("/language/<locale>", "language", switch, methods=["GET"])
