"""An HTML parser's view of rendered output: what a browser would run, whatever the text says."""

from __future__ import annotations

from html.parser import HTMLParser

_URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "poster", "srcset", "data", "background"}
_BAD_SCHEMES = ("javascript:", "data:", "vbscript:")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag in {"script", "iframe", "object", "embed", "style", "form", "base", "meta", "link"}:
            self.problems.append(f"<{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{name} attribute on <{tag}>")
            if name in _URL_ATTRS and value:
                url = "".join(value.split()).lower()
                if url.startswith(_BAD_SCHEMES):
                    self.problems.append(f"{name}={value!r} on <{tag}>")
            if name == "style":
                self.problems.append(f"style attribute on <{tag}>")

    handle_startendtag = handle_starttag


def html_problems(html: str, *, images: bool = False) -> list[str]:
    """Everything in `html` that could run script or load what it should not (no images unless `images`)."""
    c = _Collector()
    c.feed(html)
    c.close()
    if not images and "img" in c.tags:
        c.problems.append("<img> element")
    return c.problems
