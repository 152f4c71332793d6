"""What the blog's pages compute from a published round, kept by each app (so by each web worker) between requests.

A published round's resolution never changes, and its report only through a correction; the names its units show
change when a character's sheet does. So every entry is keyed by what it was computed from (the round, its
resolution's id and version, the report's correction time, the characters' count and last update, the locale):
a correction or an edited sheet makes a new key, read by every worker the next time it asks, and the old entry
ages out. Nothing has to be told to forget anything, which several processes could not do anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import current_app, has_app_context

from pbp.lru import Lru

T = TypeVar("T")
SIZE = 512  # entries per app: a few per published round and locale


def cached(kind: str, key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """The value kept under (kind, key) in this app, made by `make` when missing (outside an app: made each time)."""
    if not has_app_context():
        return make()
    store: Lru[Any] = current_app.extensions.setdefault("pbp.blog_cache", Lru(SIZE))
    value: T = store.get_or_make((kind, *key), make)
    return value
