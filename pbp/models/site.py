"""The site's version: one number that every committed change to what a reader can be shown moves forward.

Database triggers move it (migration 0012), so every writer is covered (a service, the scheduler, the CLI, a hand
edit in `psql`) and none has to remember to. The web app keeps whole public pages under it (`pbp.web.page_cache`):
a page made while the number was n shows nothing older than n, so it may be served to every reader who finds n.

Which tables are watched is a decision per table (`WATCHED` / `UNWATCHED`, a test holds every table to one of
them): the tables written at every deadline rush (entries and their history, the scheduler's heartbeat, the
outbox, the audit log) would empty the cache at every save and show nothing a reader can see. An entry's save
reads the version too: what its validation read cannot have changed while the version stands still.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import peewee

from pbp.models.base import BaseModel


class SiteVersion(BaseModel):
    """One row (id 1): `n` grows by at least one with every transaction that wrote a watched table."""

    n = peewee.BigIntegerField(default=0)


#: Tables a public page (blog, feeds, game data) shows something of, directly or through what it is made from, and
#: every table an entry's validation reads besides the round (`entries._order_context` keeps what it read under the
#: version): a scenario's secret part holds its setup (the checks it offers, its starting state).
WATCHED = (
    "user",
    "campaign",
    "campaign_gm",
    "character",
    "scenario",
    "scenario_secret",
    "participation",
    "round",
    "resolution",
    "resolution_version",
    "override",
    "gm_action",
    "adhoc_check",
    "report",
    "report_correction",
    "master_comment",
    "character_icon",
)
#: Tables no public page shows, or only through a watched one (an entry's prose reaches a report when it is
#: published, which writes `round` and `report`).
UNWATCHED = (
    "site_version",
    "entry",
    "entry_revision",
    "gm_order",
    "growth_request",
    "outbox",
    "audit_log",
    "heartbeat",
    "reminder",
    "notification_opt_out",
    "rate_count",
    "entry_draft",
    "parked_text",
    "notice",
    "scenario_note",
    "entry_wish",
)


def current(db: peewee.Database) -> int:
    """The version now (one indexed read: the stamp every cached public page is checked against)."""
    row = db.execute_sql("SELECT n FROM site_version WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


@dataclass
class _Reading:
    version: int
    assumed: bool  # taken from this process's last reading, not read: see `assume`


#: The version as the current unit of work (a web request) first read it, by database: see `seen`.
_SEEN: ContextVar[dict[peewee.Database, _Reading] | None] = ContextVar("pbp_site_seen", default=None)
#: The version this process last read for a unit of work, by database: what `assume` takes.
_LAST: dict[peewee.Database, int] = {}


class Moved(Exception):
    """A writer found the version moved from an assumed reading: the unit of work starts again (`restart`)."""


@contextmanager
def reading() -> Iterator[None]:
    """One unit of work (a web request) that reads the version once: `seen` answers the first reading inside it."""
    token = _SEEN.set({})
    try:
        yield
    finally:
        _SEEN.reset(token)


def seen(db: peewee.Database) -> int:
    """The version as this unit of work first read it (outside `reading`, as now). Anything read after that first
    reading is at least as new as it, so a value read then may be kept under it (`pbp.services.versioned`): the
    signed-in user at a request's start and the save it makes share one read. A writer checks the version again,
    fresh (`current`), inside its transaction."""
    memo = _SEEN.get()
    if memo is None:
        return current(db)
    if db not in memo:
        memo[db] = _Reading(current(db), assumed=False)
        _LAST[db] = memo[db].version
    return memo[db].version


def assume(db: peewee.Database) -> bool:
    """Take this process's last reading as the unit of work's, without reading: True when it did (nothing read yet
    in this unit, and an earlier one read the version). For a unit whose work is a write that checks the version it
    was given in its own statement (an entry's re-save, `entries.save_entry`): when the write goes through, it has
    proved the reading (`proven`), and the round trip that would have read it is saved. Until then nothing may be
    shown or written on the strength of it: `confirm` before answering, `Moved` from a writer that finds it wrong."""
    memo = _SEEN.get()
    if memo is None or db in memo or db not in _LAST:
        return False
    memo[db] = _Reading(_LAST[db], assumed=True)
    return True


def assumed(db: peewee.Database) -> bool:
    """The unit of work's reading is an assumption nothing has proved yet."""
    memo = _SEEN.get()
    return bool(memo and db in memo and memo[db].assumed)


def proven(db: peewee.Database, version: int) -> None:
    """A write found the version at `version` inside its own statement or transaction: an assumed reading of that
    version is now as good as one read."""
    memo = _SEEN.get()
    if memo and db in memo and memo[db].version == version:
        memo[db].assumed = False


def confirm(db: peewee.Database) -> bool:
    """True when the unit of work's reading holds: read, proven, or assumed and found so now (one read). False: the
    assumption was wrong, and what was made on it must be thrown away (`restart`)."""
    if not assumed(db):
        return True
    now = current(db)
    _LAST[db] = now
    proven(db, now)
    return not assumed(db)


def restart(db: peewee.Database) -> None:
    """Forget the unit of work's reading: the next `seen` reads the version."""
    memo = _SEEN.get()
    if memo is not None:
        memo.pop(db, None)
