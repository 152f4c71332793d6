"""How often the site's version (pbp.models.site) moved in each phase of a run. Every move empties every worker's
page cache at once, so the blog's ratio and the rush's reader pages depend on it: a reader phase in which it moved
measures pages made cold, not the cache (a PostgreSQL run on 2026-12-06 showed the reader phase costing what the
warm-up did, and nothing else said why)."""

from __future__ import annotations

import threading
import time
from typing import Any

INTERVAL = 0.1  # seconds between readings


class VersionWatch:
    """The version read every INTERVAL seconds on its own connection, from `start` until `stop`."""

    def __init__(self, bound: Any):
        self.bound = bound
        self.readings: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        from pbp.models import site

        def run() -> None:
            with self.bound.connection_context():
                while not self._stop.is_set():
                    self.readings.append((time.time(), site.current(self.bound)))
                    self._stop.wait(INTERVAL)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def moves(self, start: float, end: float) -> int:
        """How far the version moved between the readings nearest `start` and `end` (-1: no readings there)."""
        inside = [n for t, n in self.readings if start <= t <= end]
        return inside[-1] - inside[0] if len(inside) >= 2 else -1
