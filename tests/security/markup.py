"""Is a rendered page inert? An HTML parser (the standard library's, which tokenises as a browser does) reads the
page and lists every piece of active content: a script that is not one of the site's files, an event-handler
attribute, a script-scheme URL, an element that loads or runs something (iframe, object, base, meta refresh,
style), a style attribute. The site's own pages have none of these (the CSP would block them: see
tests/web/test_security.py), so any found came from the input."""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Elements a page of the site never has: each would load, run or restyle something.
FORBIDDEN_TAGS = frozenset(
    {"iframe", "frame", "frameset", "object", "embed", "applet", "base", "style", "portal", "template"}
)
URL_ATTRIBUTES = frozenset(
    {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "ping"}
)
_SCRIPT_URL = re.compile(r"^(javascript|vbscript|data:text/html|data:image/svg)", re.I)
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f]")  # browsers drop these when they read a URL's scheme


def script_url(value: str) -> bool:
    return bool(_SCRIPT_URL.match(_IGNORED_IN_URLS.sub("", value)))


class _Inspector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in FORBIDDEN_TAGS:
            self.found.append(f"<{tag}>")
        if tag == "script" and not values.get("src", "").startswith("/static/"):
            self.found.append(f"<script src={values.get('src')!r}>")
        if tag == "meta" and "http-equiv" in values:
            self.found.append(f"<meta http-equiv={values['http-equiv']!r}>")
        if tag == "link" and values.get("rel") not in {"stylesheet", "alternate", "icon", "canonical"}:
            self.found.append(f"<link rel={values.get('rel')!r}>")
        if tag == "link" and not values.get("href", "").startswith(("/", "http://", "https://")):
            self.found.append(f"<link href={values.get('href')!r}>")
        for name, value in values.items():
            if name.startswith("on") or name in ("style", "srcdoc", "formaction"):
                self.found.append(f"<{tag} {name}=...>")
            elif name in URL_ATTRIBUTES and script_url(value):
                self.found.append(f"<{tag} {name}={value[:40]!r}>")

    handle_startendtag = handle_starttag


def active_content(html: str) -> list[str]:
    """Every piece of active content in `html` (empty: the page is inert)."""
    inspector = _Inspector()
    inspector.feed(html)
    inspector.close()
    return inspector.found
