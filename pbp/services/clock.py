"""The server's clock, injectable: services take a `Clock` so tests (and the demo) can move time.

Every time is stored in UTC (naive datetimes in the database) and shown in the campaign's time zone, or the one
the user chose (`time_zones`).
"""

from __future__ import annotations

import os
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Protocol
from zoneinfo import ZoneInfo


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock that stands still until told to move (tests)."""

    at: datetime

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


SYSTEM = SystemClock()


def to_db(moment: datetime) -> datetime:
    """An aware datetime as the naive UTC value the database stores (whole seconds: deadlines need no more)."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: pass an aware one (UTC or a zone)")
    return moment.astimezone(UTC).replace(tzinfo=None, microsecond=0)


def from_db(value: datetime) -> datetime:
    """A stored naive-UTC datetime as an aware one."""
    return value.replace(tzinfo=UTC)


def iso_utc(value: datetime) -> str:
    """ISO 8601 UTC with a Z, e.g. 2026-12-02T12:00:00Z."""
    return from_db(value).strftime("%Y-%m-%dT%H:%M:%SZ")


@cache
def time_zones() -> tuple[str, ...]:
    """The IANA time zone names the system knows (`Asia/Tokyo`), sorted: what a user may choose; a name is looked up
    here, never opened as a path."""
    return tuple(sorted(zoneinfo.available_timezones()))


def local_text(value: datetime, timezone: str) -> str:
    """A stored time as the campaign shows it: '2026-12-02 21:00 (Asia/Tokyo)'."""
    return f"{from_db(value).astimezone(ZoneInfo(timezone)):%Y-%m-%d %H:%M} ({timezone})"


@dataclass
class FileClock:
    """A clock that reads the time from a file on every call (ISO 8601, UTC): tests that serve the app from several
    processes (gunicorn's workers) move time for all of them at once by rewriting the file. Only a test's instance
    config sets it; the app never reads such a file otherwise."""

    path: str

    def now(self) -> datetime:
        with open(self.path, encoding="utf-8") as f:
            return datetime.fromisoformat(f.read().strip()).astimezone(UTC)

    def set(self, moment: datetime) -> None:
        """Move every process's clock to `moment` (written whole, then renamed: a reader never sees half a time)."""
        part = f"{self.path}.part"
        with open(part, "w", encoding="utf-8") as f:
            f.write(moment.astimezone(UTC).isoformat())
        os.replace(part, self.path)

    def advance(self, seconds: float) -> None:
        self.set(self.now() + timedelta(seconds=seconds))
