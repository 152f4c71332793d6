"""The server's clock, injectable: services take a `Clock` so tests (and the demo) can move time.

Every time is stored in UTC (naive datetimes in the database) and shown in the campaign's time zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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


def local_text(value: datetime, timezone: str) -> str:
    """A stored time as the campaign shows it: '2026-12-02 21:00 (Asia/Tokyo)'."""
    return f"{from_db(value).astimezone(ZoneInfo(timezone)):%Y-%m-%d %H:%M} ({timezone})"
