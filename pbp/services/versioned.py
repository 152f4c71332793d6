"""Values read from watched tables (pbp.models.site), kept by each process under the site version read before
them: while the version stands still, what those reads gave cannot have changed, so the next caller that finds the
same version skips them. A deadline rush writes only unwatched tables, so its saves share their reads."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from pbp.db import database
from pbp.lru import Lru

T = TypeVar("T")


class KeptUnderVersion:
    """At most `size` values by (database, key, version)."""

    def __init__(self, size: int) -> None:
        self._values: Lru[Any] = Lru(size)

    def get(self, key: tuple[Hashable, ...], version: int | None, make: Callable[[], T]) -> T:
        """The value kept under `key` at `version`, made by `make` when missing. `version` None: made afresh and
        not kept (inside a write transaction, whose own writes the version it read does not count yet)."""
        if version is None:
            return make()
        value: T = self._values.get_or_make((str(database.obj.database), *key, version), make)
        return value
