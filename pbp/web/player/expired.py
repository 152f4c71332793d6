"""A form whose CSRF token expired (a long writing session) comes back with everything typed kept and a fresh token;
nothing is saved. A page registers how it draws itself again with `keeps_input`; other forms get the 400 page."""

from __future__ import annotations

from collections.abc import Callable

from flask import request
from flask_babel import lazy_gettext as _
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from pbp.web.errors import error_page, redrawn
from pbp.web.player import bp

MESSAGE = _("Your session's security token expired while you wrote. Nothing was saved: press Save again.")
#: endpoint -> the page drawn again from the request's form with a message above it (status 400).
Redraw = Callable[[str], tuple[str, int]]
_PAGES: dict[str, Redraw] = {}


def keeps_input(endpoint: str) -> Callable[[Redraw], Redraw]:
    def register(redraw: Redraw) -> Redraw:
        _PAGES[endpoint] = redraw
        return redraw

    return register


@bp.errorhandler(CSRFError)
def _expired(error: CSRFError) -> Response | tuple[str, int]:
    redraw = _PAGES.get(request.endpoint or "")
    if redraw is None or not current_user.is_authenticated:
        return error_page(400)
    return redrawn(lambda: (redraw(str(MESSAGE))[0], 400))  # a page the user may not see: its 403/404
