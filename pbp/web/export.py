"""The static export: the whole public blog as files that work from any static server or straight from disk.

It crawls the app from the blog index through every internal link (so every page it writes is one a reader can
reach, and a broken link fails the export), writes `index.html` for every path ending in `/`, and rewrites internal
links to relative paths ending in a file name. Feeds keep absolute URLs (Atom readers need them): set SITE_URL.
"""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from pbp.errors import UserError
from pbp.web import STATIC_EXPORT

START = ("/blog/", "/feed.atom")
_LINK = re.compile(r'(?P<attr>\b(?:href|src))="(?P<url>/(?!/)[^"#?]*)(?P<rest>[^"]*)"')
#: The export's own front door: a relative redirect to the blog index (works from disk too).
_ROOT_PAGE = (
    '<!doctype html><meta charset="utf-8"><title>pbp</title>'
    '<meta http-equiv="refresh" content="0; url=blog/index.html"><a href="blog/index.html">blog</a>\n'
)


class ExportError(UserError):
    """A page of the public blog could not be exported (a broken link or a failing view): the message names the
    page that links to it, so the GM can fix the text (the CLI shows it on one line, exit 2)."""


def file_for(path: str) -> str:
    """The file a URL path is written to, relative to the export root: `/blog/` -> `blog/index.html`."""
    path = path.lstrip("/")
    return path + "index.html" if path.endswith("/") or not path else path


def relative(target: str, page: str) -> str:
    """`target` (a URL path) as seen from the file of `page`, e.g. `../demo/index.html`."""
    here = posixpath.dirname(file_for(page)) or "."
    return posixpath.relpath(file_for(target), here)


def relativize(html: str, page: str, resolve: Callable[[str], str] = str) -> str:
    """Every internal link of `page`'s HTML (`resolve`d to the path it ends at) made relative to its file."""
    return _LINK.sub(lambda m: f'{m["attr"]}="{relative(resolve(m["url"]), page)}{m["rest"]}"', html)


def _final_path(app: Flask) -> Callable[[str], str]:
    """The path a link ends at after the app's own redirects (a missing trailing slash): a static file server
    redirects nothing, so the export links to the final file directly."""
    adapter = app.url_map.bind("export.invalid")

    def final(path: str) -> str:
        try:
            adapter.match(path, method="GET")
        except RequestRedirect as redirect:
            return urlsplit(redirect.new_url).path
        except HTTPException:  # not found: the crawl reports it with the page that links to it
            pass
        return path

    return final


def export_site(app: Flask, out: Path) -> list[str]:
    """Write every public page, feed, bundle and asset under `out`; the list of files written."""
    client = app.test_client()
    client.environ_base[STATIC_EXPORT] = True  # the pages leave out the live site's accounts and home
    final = _final_path(app)
    queue, written = deque(START), []
    linked_from: dict[str, str | None] = dict.fromkeys(START)  # every path queued, and the first page linking to it
    while queue:
        path = queue.popleft()
        response = client.get(path)
        if response.status_code != 200:
            page = linked_from[path]
            where = f"{page} links to {path}, which" if page else path
            raise ExportError(f"cannot export the site: {where} answers HTTP {response.status_code}")
        body = response.get_data()
        if response.mimetype == "text/html":
            text = body.decode("utf-8")
            for match in _LINK.finditer(text):
                link = final(match["url"])
                if link not in linked_from:
                    linked_from[link] = path
                    queue.append(link)
            body = relativize(text, path, final).encode("utf-8")
        target = out / file_for(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        written.append(file_for(path))
    (out / "index.html").write_text(_ROOT_PAGE, encoding="utf-8")
    written.append("index.html")
    return written
