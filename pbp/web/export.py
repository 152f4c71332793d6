"""The static export: the whole public blog as files that work from any static server or straight from disk.

It crawls the app from the blog index through every internal link (so every page it writes is one a reader can
reach, and a broken link fails the export), writes `index.html` for every path ending in `/`, and rewrites internal
links to relative paths ending in a file name. Links are the `href` and `src` attributes of the parsed HTML, never
text: a story may quote markup. Feeds keep absolute URLs (Atom readers need them): set SITE_URL.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections import deque
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from pbp.errors import N_, UserError
from pbp.web import STATIC_EXPORT

START = ("/blog/", "/feed.atom")
#: An internal link: a path on this site (not `//host/...`), then its query and fragment.
_INTERNAL = re.compile(r"(?P<url>/(?!/)[^#?]*)(?P<rest>.*)", re.S)
_LINK_ATTRS = ("href", "src")
#: The export's own front door: a relative redirect to the blog index (works from disk too).
_ROOT_PAGE = (
    '<!doctype html><meta charset="utf-8"><title>pbp</title>'
    '<meta http-equiv="refresh" content="0; url=blog/index.html"><a href="blog/index.html">blog</a>\n'
)


#: The file an export writes at its root first: a folder holding it is an earlier export, exported into again.
MARKER = ".pbp-export"


def check_target(out: Path) -> None:
    """Refuse a folder that holds files but no earlier export: the export's files must never mix into, or write
    over, a pack, a campaign or someone's home folder (a new or empty folder is fine)."""
    if out.is_dir() and not (out / MARKER).is_file() and any(out.iterdir()):
        raise UserError(
            N_(
                "%(folder)s holds other files and no earlier export (no %(marker)s): choose a new or empty folder",
                folder=str(out),
                marker=MARKER,
            )
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


class _LinkTags(HTMLParser):
    """The start tags of a page that carry an internal link in an attribute, with where each stands in the text.

    Links are read from the parsed attributes only: text, comments and scripts are never links, so a story that
    quotes `href="/x/"` in its prose is neither crawled nor rewritten."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
        self.tags: list[tuple[int, int, str, list[tuple[str, str | None]]]] = []  # (start, end, tag, attrs)
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if any(name in _LINK_ATTRS and _INTERNAL.match(value or "") for name, value in attrs):
            line, column = self.getpos()
            start = self.line_starts[line - 1] + column
            self.tags.append((start, start + len(self.get_starttag_text() or ""), tag, attrs))

    def links(self) -> list[str]:
        """The internal paths the tags link to (query and fragment left off), in page order."""
        return [m["url"] for *_, attrs in self.tags for m in _internal(attrs)]


def _internal(attrs: list[tuple[str, str | None]]) -> list[re.Match[str]]:
    return [m for name, value in attrs if name in _LINK_ATTRS for m in [_INTERNAL.match(value or "")] if m]


def links(text: str) -> list[str]:
    """Every internal path an `href` or `src` of the HTML `text` links to."""
    return _LinkTags(text).links()


def relativize(text: str, page: str, resolve: Callable[[str], str] = str) -> str:
    """Every internal link of `page`'s HTML (`resolve`d to the path it ends at) made relative to its file: the tags
    that carry one are written again from their parsed attributes; everything else is left byte for byte."""

    def value(name: str, v: str | None) -> str | None:
        m = _INTERNAL.match(v or "") if name in _LINK_ATTRS else None
        return f"{relative(resolve(m['url']), page)}{m['rest']}" if m else v

    out, done = [], 0
    for start, end, tag, attrs in _LinkTags(text).tags:
        pairs = "".join(_attribute(name, value(name, v)) for name, v in attrs)
        out += [text[done:start], f"<{tag}{pairs}{'/>' if text[start:end].endswith('/>') else '>'}"]
        done = end
    return "".join([*out, text[done:]])


def _attribute(name: str, value: str | None) -> str:
    return f" {name}" if value is None else f' {name}="{html.escape(value)}"'


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
    """Write every public page, feed, bundle and asset under `out` (`check_target` first); the list of files
    written."""
    check_target(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("pbp export-site\n", encoding="utf-8")
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
            raise ExportError(
                N_(
                    "cannot export the site: %(where)s answers HTTP %(status)s",
                    where=where,
                    status=response.status_code,
                )
            )
        body = response.get_data()
        if response.mimetype == "text/html":
            text = body.decode("utf-8")
            for url in links(text):
                link = final(url)
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
