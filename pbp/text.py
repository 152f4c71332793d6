"""What text every database stores and every page shows: no NUL, no half characters. Pure (no database), so the
pack loader, the services and the command line share one rule."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

#: What a name may not hold: controls (a newline, an escape), invisible characters that make two names look alike,
#: and the bidi embeddings, overrides, isolates and marks that make a name show its characters in another order
#: (U+202E turns "txt.exe" around). Joiners (U+200C/D) stay: emoji sequences and several scripts need them.
_NOT_IN_NAMES = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
#: What no text a page shows may hold: the bidi embeddings, overrides and isolates, which show the text after them
#: in another order (a description that reads one way and says another). Marks (U+200E/F) stay outside names.
_REORDERING = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: The keys of a campaign pack whose strings are names (a unit's `ja`/`en`, a campaign's or scenario's title).
NAME_KEYS = frozenset({"ja", "en", "name", "title"})


def text_problem(value: str) -> str | None:
    """Why `value` is not text every database stores and every page shows, else None: a NUL (U+0000), which
    PostgreSQL's text and JSON cannot hold (SQLite can: the two would disagree), or half a character (a lone
    surrogate, which JSON's `\\ud800` escape can produce), which cannot be encoded, hashed for a receipt or shown."""
    if "\x00" in value:
        return "holds a NUL character (U+0000)"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds half a character (a lone surrogate)"
    return None


def hidden_character(value: str) -> str | None:
    """The first character of `value` a name may not hold (see `_NOT_IN_NAMES`) as `U+XXXX`, else None."""
    found = _NOT_IN_NAMES.search(value)
    return None if found is None else f"U+{ord(found[0]):04X}"


def name_problem(value: str) -> str | None:
    """Why `value` may not be a name (see `hidden_character`), else None."""
    char = hidden_character(value)
    return None if char is None else f"holds {char}, a control, invisible or direction-changing character"


def reordering_problem(value: str) -> str | None:
    """Why `value` may not be shown (see `_REORDERING`), naming the character, else None."""
    found = _REORDERING.search(value)
    return None if found is None else f"holds U+{ord(found[0]):04X}, a character that reorders the text after it"


def _problems(value: Any, path: str, check: Callable[[str, str], str | None]) -> Iterator[tuple[str, str]]:
    """The key path of every string in `value` (a key or a value at any depth of its dicts and lists, e.g.
    `major.targets[0]` under `path`) that `check(string, its key)` finds a problem in, with the problem."""
    pending: list[tuple[Any, str, str]] = [(value, path, "")]
    while pending:  # a loop, not recursion: the nesting depth is the sender's
        item, at, name = pending.pop()
        problem = check(item, name) if isinstance(item, str) else None
        if problem:
            yield at, problem
        if isinstance(item, dict):
            for key, inner in item.items():
                problem = check(key, "") if isinstance(key, str) else None
                if problem:
                    yield at, f"has a key that {problem}"
                pending.append((inner, f"{at}.{key}" if at else str(key), str(key)))
        elif isinstance(item, list | tuple):
            pending.extend((inner, f"{at}[{i}]", name) for i, inner in enumerate(item))


def non_text(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in `value` that is not text, with its `text_problem` (see `_problems`)."""
    return _problems(value, path, lambda text, _key: text_problem(text))


def unfit_to_show(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a campaign pack or scenario that a page could not show as written: a name (`NAME_KEYS`)
    with a `name_problem`, any other string that reorders text (`reordering_problem`); what is not text at all is
    `non_text`'s to say."""

    def check(text: str, key: str) -> str | None:
        if text_problem(text):
            return None
        return (name_problem if key in NAME_KEYS else reordering_problem)(text)

    return _problems(value, path, check)


def first_non_text(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first of `non_text`, None when all of `value` is text."""
    return next(non_text(value, path), None)


#: Kana and kanji: a text holding any is (at least partly) Japanese.
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")


def is_japanese(text: str) -> bool:
    """Whether `text` holds Japanese script (an English page sets such words apart, marked `lang="ja"`)."""
    return bool(_JAPANESE.search(text))
