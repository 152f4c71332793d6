"""Deterministic interleavings on PostgreSQL: two services in their own threads, each with its own connection (peewee
keeps one per thread), one stopped inside its write transaction while the other runs, and a poll of
`pg_stat_activity` that tells whether the other is waiting for a lock or went through. No sleeps decide anything.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from pbp.db import database

PATIENCE = 60.0  # seconds before a poll gives up: a hang is a failure, never a pass


class Worker(threading.Thread):
    """`action()` in a thread of its own, on a connection of its own; keeps its result or error and its backend."""

    def __init__(self, action: Callable[[], Any]):
        super().__init__(daemon=True)
        self.action = action
        self.result: Any = None
        self.error: BaseException | None = None
        self.pid: int | None = None
        self.connected = threading.Event()
        self.start()
        assert self.connected.wait(PATIENCE), "the worker did not connect"

    def run(self) -> None:
        with database.connection_context():
            self.pid = database.execute_sql("SELECT pg_backend_pid()").fetchone()[0]
            self.connected.set()
            try:
                self.result = self.action()
            except BaseException as e:  # handed to the test, which asserts on it
                self.error = e

    def outcome(self) -> Any:
        """The action's result once it finished (its error raised here)."""
        self.join(PATIENCE)
        assert not self.is_alive(), "the worker did not finish"
        if self.error is not None:
            raise self.error
        return self.result

    def waits_for_a_lock(self) -> bool:
        """True once the worker's backend waits for a lock, False if the worker finished first."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if not self.is_alive():
                return False
            row = database.execute_sql(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (self.pid,)
            ).fetchone()
            if row and row[0] == "Lock":
                return True
            time.sleep(0.01)
        raise AssertionError("the worker neither finished nor waited for a lock")


class Pause:
    """`module.name`'s first call, once it returned, stops its thread there (inside the caller's write transaction,
    its locks held) until `release()`; later calls go through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str):
        self.reached, self.go = threading.Event(), threading.Event()
        real, first = getattr(module, name), threading.Lock()

        def pausing(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            if first.acquire(blocking=False):  # never released: only the first call stops
                self.reached.set()
                self.go.wait(PATIENCE)
            return result

        monkeypatch.setattr(module, name, pausing)

    def wait(self) -> None:
        assert self.reached.wait(PATIENCE), "the paused service never got there"

    def release(self) -> None:
        self.go.set()
