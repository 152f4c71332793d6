"""Whole public pages kept for readers who are not signed in, by each app (so by each web worker).

A blog or game-data page shows only what the site's version (`pbp.models.site`) covers, so a page made while the
version was n is the same for every anonymous reader who asks for the same address in the same language while it
is still n: the next such request is answered from memory after one indexed read of the version, without the
page's queries or its rendering. Any committed change a reader could see moves the version, so every worker serves
the new page at once; nothing has to be told to forget anything (several processes could not be told anyway).

Only what is the same for everyone is kept: GET requests of the public blueprints, from a session without a user
or a pending message, answered 200 without touching the session. A signed-in user's pages (their name, the GM
console link, a logout form with its CSRF token) are never kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask, g, request, session
from werkzeug.wrappers import Response

from pbp.lru import Lru
from pbp.models import site
from pbp.web import STATIC_EXPORT, database
from pbp.web.i18n import page_locale

#: The blueprints whose pages are public and the same for every anonymous reader.
PUBLIC_BLUEPRINTS = frozenset({"blog", "data"})
#: A page larger than this is not kept (a bundle of a huge battle): it would push out many ordinary pages.
MAX_PAGE_BYTES = 2 * 1024 * 1024
_EXTENSION = "pbp.page_cache"


@dataclass(frozen=True)
class Page:
    body: bytes
    headers: list[tuple[str, str]]


class PageCache(Lru[Page]):
    """Pages by key, the least recently used dropped first once they hold more than `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(max_bytes, weight=lambda page: len(page.body))


def _key(app: Flask) -> tuple[Any, ...] | None:
    """What makes this request's page, or None when it must be made for this reader alone."""
    if request.method not in ("GET", "HEAD") or request.blueprint not in PUBLIC_BLUEPRINTS:
        return None
    if "_user_id" in session or "_flashes" in session or app.config.get("REMEMBER_COOKIE_NAME") in request.cookies:
        return None  # a signed-in reader's page, or one 「ログイン状態を保持」 signs in now
    version = site.current(database.of(app))
    static = bool(request.environ.get(STATIC_EXPORT))
    return (request.full_path, page_locale(), request.url_root, request.script_root, static, version)


def init_app(app: Flask) -> None:
    """Serve kept pages before the view runs and keep the ones that qualify; `PAGE_CACHE_BYTES` = 0 turns it off."""
    if not app.config["PAGE_CACHE_BYTES"]:
        return
    cache = app.extensions[_EXTENSION] = PageCache(int(app.config["PAGE_CACHE_BYTES"]))

    @app.before_request
    def _serve_kept() -> Response | None:
        key = _key(app)
        if key is None:
            return None
        page = cache.get(key)
        if page is None:
            g.page_cache_key = key
            return None
        return Response(page.body, headers=page.headers)  # the after_request hooks add the security headers

    @app.after_request
    def _keep(response: Response) -> Response:
        key = g.pop("page_cache_key", None)
        if (
            key is not None
            and request.method == "GET"
            and response.status_code == 200
            and not response.direct_passthrough
            and not session.modified
            and "Set-Cookie" not in response.headers
        ):
            body = response.get_data()
            if len(body) <= MAX_PAGE_BYTES:
                headers = [(name, value) for name, value in response.headers.items() if name != "Content-Length"]
                cache.put(key, Page(body, headers))
        return response


def of(app: Flask) -> PageCache | None:
    """An app's page cache (None when turned off)."""
    return app.extensions.get(_EXTENSION)
