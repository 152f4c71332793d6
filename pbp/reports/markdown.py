"""Markdown for everything people write (the GM's intro/outro/edits, players' prose) -> safe HTML.

python-markdown does not sanitise, so raw HTML is switched off in the parser (it shows as text) and the output goes
through one allowlist (`nh3`) before it reaches a page. Callers render once at save time and cache the HTML.
"""

from __future__ import annotations

import html
import re
import threading
from functools import cache

import markdown
import nh3

#: Longest source rendered; the rest is cut (a 100 KB line must never hang a page or a save).
MARKDOWN_LIMIT = 50_000
LINK_REL = "nofollow noopener noreferrer ugc"
URL_SCHEMES = frozenset({"http", "https", "mailto"})

_TAGS = frozenset(
    {
        "p", "br", "hr", "em", "strong", "del", "code", "pre", "blockquote", "ul", "ol", "li",
        "h1", "h2", "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tr", "th", "td", "ruby", "rt", "rp",
    }
)  # fmt: skip
#: `lang` on em: an English story sets a player's Japanese words off as `*…*{: lang="ja"}` (attr_list).
_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}, "em": {"lang"}}
_IMAGE_ATTRIBUTES = {"img": {"src", "alt", "title"}}
_EXTENSIONS = ["sane_lists", "fenced_code", "nl2br", "tables", "attr_list"]
_EXTENSION_CONFIGS = {"tables": {"use_align_attribute": True}}  # nh3 strips style, so align it is
_IMAGE_PATTERNS = ("image_link", "image_reference", "short_image_ref")
#: python-markdown is superlinear in unmatched brackets and in inline markup per block: text with more of them than
#: any real post has is shown as plain paragraphs instead, so no input can make a render crawl.
_MAX_BRACKET_WORK = 1_000_000  # sum over blocks of (brackets x block length): each `[` may scan its whole block
_MAX_MARKUP = 2000
_MARKUP_CHARS = re.compile(r"[\\`*_<>&!\[\]]")
#: Lines that open a Markdown block (list items, setext and ATX headings, rules, tables, quotes): thousands of them
#: make python-markdown's block parser crawl (quadratically), so text with more is rendered as plain paragraphs.
_BLOCK_LINE = re.compile(r"^[ \t]*[-=*+#|>]", re.M)
#: What XML 1.0 forbids (C0 controls but tab and line ends, lone surrogates, U+FFFE/U+FFFF): one such character
#: in a player's prose would make the Atom feed unreadable, a lone surrogate a page that cannot be encoded.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_BLANK_LINE = re.compile(r"\n\s*\n")
_TAG = re.compile(r"<[^>]+>")


@cache
def cleaner(allow_images: bool = False) -> nh3.Cleaner:
    """The shared allowlist; images are its only variant, and only GM text may ask for them."""
    tags = _TAGS | {"img"} if allow_images else _TAGS
    attributes = _ATTRIBUTES | _IMAGE_ATTRIBUTES if allow_images else _ATTRIBUTES
    return nh3.Cleaner(
        tags=set(tags),
        clean_content_tags={"script", "style"},
        attributes={tag: set(names) for tag, names in attributes.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=LINK_REL,
        strip_comments=True,
    )


_local = threading.local()


def _parser(allow_images: bool) -> markdown.Markdown:
    """A per-thread parser (python-markdown instances are not thread-safe) with raw HTML switched off."""
    key = f"md_{int(allow_images)}"
    md = getattr(_local, key, None)
    if md is None:
        md = markdown.Markdown(extensions=_EXTENSIONS, extension_configs=_EXTENSION_CONFIGS, output_format="html")
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        if not allow_images:
            for name in _IMAGE_PATTERNS:
                md.inlinePatterns.deregister(name)
        setattr(_local, key, md)
    return md.reset()


def xml_safe(text: str) -> str:
    """`text` with every character XML cannot carry replaced by U+FFFD (visible, so nothing is silently lost)."""
    return _NOT_XML.sub("\ufffd", text)


def _is_hostile(source: str) -> bool:
    if len(_MARKUP_CHARS.findall(source)) > _MAX_MARKUP or len(_BLOCK_LINE.findall(source)) > _MAX_MARKUP:
        return True
    return "[" in source and sum(b.count("[") * len(b) for b in _BLANK_LINE.split(source)) > _MAX_BRACKET_WORK


def _plain_html(source: str) -> str:
    """Escaped paragraphs with line breaks: the fallback for text the Markdown parser would crawl on."""
    paragraphs = (p.strip("\n") for p in _BLANK_LINE.split(source))
    return "\n".join(f"<p>{html.escape(p).replace(chr(10), '<br>' + chr(10))}</p>" for p in paragraphs if p.strip())


def render_markdown(text: str, *, allow_images: bool = False, limit: int = MARKDOWN_LIMIT) -> str:
    """Safe HTML for `text`: Markdown without raw HTML, cut to `limit` characters, then the nh3 allowlist."""
    source = xml_safe((text or "")[:limit])
    raw = _plain_html(source) if _is_hostile(source) else _parser(allow_images).convert(source)
    return cleaner(allow_images).clean(raw)


def plain_text(html_text: str) -> str:
    """The text of sanitised HTML (tags dropped, entities decoded): an excerpt, or a published story's sentences."""
    return " ".join(html.unescape(_TAG.sub(" ", html_text)).split())
