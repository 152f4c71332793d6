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
    "report",
    "report_correction",
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
)


def current(db: peewee.Database) -> int:
    """The version now (one indexed read: the stamp every cached public page is checked against)."""
    row = db.execute_sql("SELECT n FROM site_version WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


#: The version as the current unit of work (a web request) first read it, by database: see `seen`.
_SEEN: ContextVar[dict[peewee.Database, int] | None] = ContextVar("pbp_site_seen", default=None)


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
        memo[db] = current(db)
    return memo[db]
