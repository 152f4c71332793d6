"""The leak check: GM-secret text in what is about to be published. Pure text work; the publishing service
(`pbp.services.publishing`) gathers the secrets, what is already public and the parts to check.

What counts (docs/reports.md, "The leak check"):

- A **phrase** is the text between two punctuation marks or line breaks of a secret text (GM notes, a hidden
  enemy's or gimmick's description). It is a secret when it weighs at least `PHRASE_WEIGHT` — a CJK character
  (kanji, kana) weighs 2, a letter or digit of any other script 1 — in at least `MIN_WORDS` words (each CJK character
  is a word of its own): 8 kanji or kana, or three words of 16 letters. Single common words never are.
- A **name** (of a hidden enemy type, a placed enemy, a hidden gimmick) is a secret as it is, from a weight of
  `NAME_WEIGHT` (two kanji or kana, four letters) up.
- Text is compared **folded**: NFKC, case-folded, everything but letters and digits dropped (spaces, punctuation,
  Markdown markup), so `**古カガチ**が` and `古 カガチ` are both found; words of other scripts than CJK only where
  a word starts and ends (`Orochi` is not found in `Orochimaru`).
- A phrase is found when the public text holds it whole, or — a long phrase — any stretch of it weighing
  `WINDOW_WEIGHT` (12 kanji or kana, about five words), so a copied clause is found even with its ends trimmed.
- A phrase, stretch or name that the already-public text holds (the campaign's public game data, pbp's own
  phrasebooks, the reports published before) is not a secret any more, and is left out.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from html.parser import HTMLParser

from pbp.reports.markdown import render_markdown
from pbp.reports.narrative import NARRATIVE_DIR

PHRASE_WEIGHT = 16
WINDOW_WEIGHT = 24
NAME_WEIGHT = 4  # a name of one kanji (or under four letters) is too common to look for
MIN_WORDS = 3
EXCERPT = 40  # characters of context each side of a find
#: What ends a phrase: line breaks and the punctuation of Japanese and English prose.
_BREAKS = re.compile(r"[\n\r。．.！!？?；;：:、，,()（）「」『』【】\[\]〔〕《》〈〉\"“”…‥—―]+")


@cache
def _wide(char: str) -> bool:
    """A CJK character (after NFKC, which makes full-width Latin narrow): a word of its own."""
    return unicodedata.east_asian_width(char) in ("W", "F")


@dataclass(frozen=True)
class Folded:
    """Text folded for comparison: its letters and digits (NFKC, case-folded), where each came from in the source,
    and where a word may start (the first character, after anything dropped, at and after a CJK character)."""

    text: str
    origin: tuple[int, ...]
    starts: tuple[bool, ...]

    def boundary(self, at: int) -> bool:
        """Whether a word may start (or the one before end) at `at`."""
        return at >= len(self.text) or self.starts[at]


class _FoldTable(dict[int, str]):
    """Each character's folded form (NFKC, case-folded, letters and digits only), computed once per character:
    `str.translate` with it folds whole texts at C speed."""

    def __missing__(self, code: int) -> str:
        folded = "".join(c for c in unicodedata.normalize("NFKC", chr(code)).casefold() if c.isalnum())
        self[code] = folded
        return folded


_FOLD = _FoldTable()


@lru_cache(maxsize=1024)
def fold_text(source: str) -> str:
    """`fold(source).text`, quicker (the already-public texts are folded once per process)."""
    return source.translate(_FOLD)


def fold(source: str) -> Folded:
    chars: list[str] = []
    origin: list[int] = []
    starts: list[bool] = []
    last = -2
    for i, char in enumerate(source):
        for c in _FOLD[ord(char)]:
            starts.append(not chars or i - last > 1 or _wide(c) or _wide(chars[-1]))
            chars.append(c)
            origin.append(i)
            last = i
    return Folded("".join(chars), tuple(origin), tuple(starts))


def _words(folded: Folded) -> list[tuple[int, int]]:
    """The (start, end) of each word of folded text."""
    bounds = [i for i, start in enumerate(folded.starts) if start] + [len(folded.text)]
    return list(zip(bounds, bounds[1:], strict=False))


def _weight(folded: Folded, start: int, end: int) -> int:
    return sum(2 if _wide(c) else 1 for c in folded.text[start:end])


def phrases(text: str) -> list[str]:
    """The phrases of a secret text that are secrets on their own (see the module's docstring), as written."""
    found = []
    for piece in _BREAKS.split(text or ""):
        piece = piece.strip()
        folded = fold(piece)
        if len(_words(folded)) >= MIN_WORDS and _weight(folded, 0, len(folded.text)) >= PHRASE_WEIGHT:
            found.append(piece)
    return found


@dataclass(frozen=True)
class Secret:
    """One secret: its text as the GM wrote it, whether it is a phrase (else a name), what kind of secret it is
    (`gm_notes`, `enemy`, `placed_enemy`, `gimmick`) and where it comes from (a scenario's or an enemy type's id)."""

    text: str
    phrase: bool
    kind: str
    source: str


@dataclass(frozen=True)
class Leak:
    """A secret found in a part of the public text: the excerpt around it (`before`, `found`, `after`, from the
    part's Markdown as written, or from its page's text when only the rendered page holds it)."""

    part: str
    secret: Secret
    before: str
    found: str
    after: str


def _needles(secret: Secret, public: str) -> list[str]:
    """The folded forms a secret is looked for in: the whole of it, and for a long phrase each stretch of
    `WINDOW_WEIGHT` (of `MIN_WORDS` words at least); leaving out what the public text already holds."""
    folded = fold(secret.text)
    total = _weight(folded, 0, len(folded.text))
    if total < NAME_WEIGHT or folded.text in public:
        return []
    needles = [folded.text]
    if secret.phrase and total > WINDOW_WEIGHT:
        words = _words(folded)
        sums = [0]
        for start, end in words:
            sums.append(sums[-1] + _weight(folded, start, end))
        last = len(words) - 1
        j = 0
        for i, (start, _) in enumerate(words):  # two pointers: the shortest window from each word on
            j = max(j, i)
            while j < last and (sums[j + 1] - sums[i] < WINDOW_WEIGHT or j - i + 1 < MIN_WORDS):
                j += 1
            if sums[j + 1] - sums[i] < WINDOW_WEIGHT or j - i + 1 < MIN_WORDS:
                break
            needles.append(folded.text[start : words[j][1]])
    return list(dict.fromkeys(n for n in needles if n not in public))


GRAM = 6  # the length of the stretches a part is indexed by (every window is longer)


class _Hay:
    """Folded text to look in, indexed by its stretches of GRAM characters: a secret's thousands of windows are
    each looked up, not searched for."""

    def __init__(self, source: str):
        self.source = source
        self.folded = fold(source)
        self.grams: dict[str, list[int]] = {}
        text = self.folded.text
        for at in range(len(text) - GRAM + 1):
            self.grams.setdefault(text[at : at + GRAM], []).append(at)

    def find(self, needle: str) -> int | None:
        """Where `needle` first occurs on word boundaries, else None."""
        text, folded = self.folded.text, self.folded
        if len(needle) < GRAM:
            at = text.find(needle)
            while at >= 0:
                if folded.boundary(at) and folded.boundary(at + len(needle)):
                    return at
                at = text.find(needle, at + 1)
            return None
        for at in self.grams.get(needle[:GRAM], ()):
            if text.startswith(needle, at) and folded.boundary(at) and folded.boundary(at + len(needle)):
                return at
        return None


class _PageText(HTMLParser):
    """The text of rendered HTML as a reader gets it: the text, and the link targets, titles and image texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []

    def handle_data(self, data: str) -> None:
        self.pieces.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.pieces.extend(f" {value} " for name, value in attrs if name in ("href", "title", "alt", "src") and value)
        if tag in ("p", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote", "pre"):
            self.pieces.append("\n")


def page_text(markdown: str, *, allow_images: bool = True) -> str:
    """The text a reader gets from a part once rendered (entities decoded, link targets included)."""
    parser = _PageText()
    parser.feed(render_markdown(markdown, allow_images=allow_images))
    parser.close()
    return html.unescape("".join(parser.pieces))


def _excerpt(source: str, hay: Folded, at: int, length: int) -> tuple[str, str, str]:
    start, end = hay.origin[at], hay.origin[at + length - 1] + 1
    before = source[max(0, start - EXCERPT) : start]
    after = source[end : end + EXCERPT]
    before = ("…" if start > EXCERPT else "") + before.replace("\n", " ")
    after = after.replace("\n", " ") + ("…" if end + EXCERPT < len(source) else "")
    return before, source[start:end].replace("\n", " "), after


def find_leaks(parts: dict[str, str], secrets: Iterable[Secret], public: Iterable[str] = ()) -> list[Leak]:
    """Every secret found in each part (Markdown, by part name), at most once per part and secret, in the order of
    `parts` and then of where it occurs. `public` is the text already public: what it holds is no secret."""
    known = "\x00".join(fold_text(text) for text in public)
    unique: dict[str, Secret] = {}
    for secret in secrets:  # one secret per folded text: the first given
        unique.setdefault(fold(secret.text).text, secret)
    searches = [(secret, needles) for secret in unique.values() if (needles := _needles(secret, known))]
    if not searches:
        return []
    leaks = []
    for part, markdown in parts.items():
        if not markdown or not markdown.strip():
            continue
        views = [_Hay(markdown), _Hay(page_text(markdown))]
        found: list[tuple[int, Leak]] = []
        for secret, needles in searches:
            hit = _first_hit(views, needles)
            if hit is not None:
                source, hay, at, length, rank = hit
                found.append((rank, Leak(part, secret, *_excerpt(source, hay, at, length))))
        leaks += [leak for _, leak in sorted(found, key=lambda pair: pair[0])]
    return leaks


def _first_hit(views: list[_Hay], needles: list[str]) -> tuple[str, Folded, int, int, int] | None:
    """Where the needles first occur: in the Markdown as written, else in the page's text; the stretches that
    overlap the first one are joined to it (a copied clause shows whole). The last item orders the finds of a part
    (the source's finds first, by position)."""
    for view, hay in enumerate(views):
        hits = sorted((at, at + len(n)) for n in needles if (at := hay.find(n)) is not None)
        if hits:
            start, end = hits[0]
            for at, stop in hits[1:]:
                if at <= end:
                    end = max(end, stop)
            return hay.source, hay.folded, start, end - start, view * 10**9 + start
    return None


@cache
def own_words() -> tuple[str, ...]:
    """pbp's own words (every phrasebook and lexicon of the narrator, as written): what the draft may say by
    itself is no GM secret."""
    files = sorted(NARRATIVE_DIR.glob("*/*/*.toml"))
    return tuple(path.read_text(encoding="utf-8") for path in files)
