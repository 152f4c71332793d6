"""A readable diff of two versions of a story (the generated draft and the GM's edit): line by line, with the
changed words inside a changed line marked, and long unchanged stretches folded away.

Inside a line the unit is a word: an English word, a number, a space, a mark, and in Japanese a word as the
analyser (fugashi, `playing.tokens`) cuts it, else a run of one script (漢字, ひらがな, カタカナ). Comparing characters
instead marks 「tw」→「thr」 inside "twice"/"thrice" and scatters single kana across a rewritten sentence."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from pbp.reports.playing import tokens
from pbp.text import is_japanese

#: Unchanged lines shown around each change.
CONTEXT = 2
#: Lines longer than this (product of both lengths) are marked changed whole: a character diff would crawl.
_CHAR_DIFF_LIMIT = 2_000_000


@dataclass(frozen=True)
class DiffLine:
    """One line of the diff: `same`, `removed`, `added`, or `skipped` (`count` unchanged lines folded away).
    `segments` are (text, changed) pieces of the line."""

    kind: str
    segments: tuple[tuple[str, bool], ...] = ()
    count: int = 0


def _whole(kind: str, line: str) -> DiffLine:
    return DiffLine(kind, ((line, kind != "same"),))


#: One word of a line: a run of kanji (with 々), of hiragana, of katakana (with ー), of Latin letters and digits (with
#: an inner apostrophe or hyphen), of spaces; anything else is a word of one character.
_WORD = re.compile(
    r"[\u4e00-\u9fff\u3400-\u4dbf々〆]+|[\u3041-\u309f]+|[\u30a0-\u30ffー]+|[^\W_]+(?:['’-][^\W_]+)*|\s+|.",
    re.DOTALL,
)


def _words(line: str) -> list[str]:
    """The line cut into words; every character in exactly one of them, in order."""
    if not is_japanese(line):
        return _WORD.findall(line)
    words, at = [], 0
    for tok in tokens(line) or ():
        if tok.start > at:
            words += _WORD.findall(line[at : tok.start])  # what the analyser skipped (spaces)
        words.append(tok.surface)
        at = tok.start + len(tok.surface)
    return words + _WORD.findall(line[at:])


def _pair(old: str, new: str) -> tuple[DiffLine, DiffLine]:
    """A removed and an added line with the words that differ marked."""
    if len(old) * len(new) > _CHAR_DIFF_LIMIT:
        return _whole("removed", old), _whole("added", new)
    a, b = _words(old), _words(new)
    removed: list[tuple[str, bool]] = []
    added: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if i2 > i1:
            removed.append(("".join(a[i1:i2]), tag != "equal"))
        if j2 > j1:
            added.append(("".join(b[j1:j2]), tag != "equal"))
    return DiffLine("removed", tuple(removed)), DiffLine("added", tuple(added))


def line_diff(old: str, new: str, *, context: int = CONTEXT) -> list[DiffLine]:
    """`old` to `new`, line by line (empty: no difference)."""
    a, b = old.splitlines(), new.splitlines()
    if a == b:
        return []
    out: list[DiffLine] = []
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for n, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            lines = a[i1:i2]
            head = lines[:context] if n > 0 else []
            tail = lines[-context:] if n < len(opcodes) - 1 and context else []
            if len(head) + len(tail) >= len(lines):
                out += [_whole("same", line) for line in lines]
                continue
            out += [_whole("same", line) for line in head]
            out.append(DiffLine("skipped", count=len(lines) - len(head) - len(tail)))
            out += [_whole("same", line) for line in tail]
            continue
        olds, news = a[i1:i2], b[j1:j2]
        paired = [_pair(x, y) for x, y in zip(olds, news, strict=False)] if tag == "replace" else []
        out += [pair[0] for pair in paired] + [_whole("removed", x) for x in olds[len(paired) :]]
        out += [pair[1] for pair in paired] + [_whole("added", y) for y in news[len(paired) :]]
    return out
