"""What text every database stores and every page shows: no NUL, no half characters. Pure (no database), so the
pack loader, the services and the command line share one rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


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


def non_text(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """The key path of every string in `value` that is not text (a key or a value at any depth of its dicts and
    lists, e.g. `major.targets[0]` under `path`) with its `text_problem`."""
    pending = [(value, path)]
    while pending:  # a loop, not recursion: the nesting depth is the sender's
        item, at = pending.pop()
        problem = text_problem(item) if isinstance(item, str) else None
        if problem:
            yield at, problem
        if isinstance(item, dict):
            for key, inner in item.items():
                problem = text_problem(key) if isinstance(key, str) else None
                if problem:
                    yield at, f"has a key that {problem}"
                pending.append((inner, f"{at}.{key}" if at else str(key)))
        elif isinstance(item, list | tuple):
            pending.extend((inner, f"{at}[{i}]") for i, inner in enumerate(item))


def first_non_text(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first of `non_text`, None when all of `value` is text."""
    return next(non_text(value, path), None)
