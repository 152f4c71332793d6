"""A small thread-safe least-recently-used map: what the web workers and the services keep between requests."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Lru(Generic[V]):
    """Values up to a total `size`, each weighing `weight(value)` (1 by default: `size` counts values), the least
    recently used dropped first. `get_or_make` runs `make` outside the lock: two threads missing the same key both
    make it (the values are equal; the last one stays)."""

    def __init__(self, size: int, weight: Callable[[V], int] = lambda _value: 1) -> None:
        self.size = size
        self.weight = weight
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._total -= self.weight(old)
            self._values[key] = value
            self._total += self.weight(value)
            while self._total > self.size:
                _, dropped = self._values.popitem(last=False)
                self._total -= self.weight(dropped)

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        found = self.get(key)
        if found is not None:
            return found
        value = make()
        self.put(key, value)
        return value
