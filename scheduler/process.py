"""The tick job and the blocking scheduler around it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from apscheduler.schedulers.blocking import BlockingScheduler

from pbp import db as pbp_db
from pbp import migrations
from pbp.errors import UserError
from pbp.services import schedule

log = logging.getLogger("pbp.scheduler")

DEFAULT_INTERVAL = 15.0  # seconds between ticks: a deadline is acted on within this much of passing
#: A second: a shorter tick only repeats the same queries (1e-6 s was accepted and logged 93,000 warnings in 20 s
#: of APScheduler's "maximum number of running instances reached"); deadlines are minutes apart at the least.
MIN_INTERVAL = 1.0
MAX_INTERVAL = 86_400.0  # a day: a longer tick would leave deadlines unresolved for longer than any game waits


def interval_problem(interval: float) -> str | None:
    """Why `interval` cannot be a tick (NaN, infinite, under a second, over a day), or None."""
    if not MIN_INTERVAL <= interval <= MAX_INTERVAL:  # NaN fails every comparison, so it is refused here too
        return f"--interval must be from {MIN_INTERVAL:g} to {MAX_INTERVAL:g} seconds, got {interval}"
    return None


def ensure_ready() -> None:
    """Refuse to start on a database that is missing or behind the code (each tick would fail on a missing table)."""
    with pbp_db.connected() as database:
        if migrations.pending(database):
            raise UserError(f"the database at {pbp_db.database_url()} is not up to date: run `pbp db upgrade`")


def tick_once() -> schedule.TickReport:
    """One tick in its own connection: close due sign-ups, resolve due rounds, log what happened."""
    with pbp_db.connected():
        report = schedule.tick()
    for scenario_id in report.signups_closed:
        log.info("sign-up closed for scenario %s", scenario_id)
    for scenario_id in report.signups_busy:
        log.warning("sign-up of scenario %s: the database is busy; tried again next tick", scenario_id)
    for outcome in report.rounds:
        level = logging.INFO if outcome.status in ("resolved", "already") else logging.WARNING
        log.log(level, "round %s: %s: %s", outcome.round_id, outcome.status, outcome.message)
    return report


def build(interval: float = DEFAULT_INTERVAL) -> BlockingScheduler:
    """A UTC scheduler with one interval tick: first run now, never dropped as misfired, never two at once."""
    sched = BlockingScheduler(timezone=UTC)
    sched.add_job(
        tick_once,
        "interval",
        seconds=interval,
        id="tick",
        next_run_time=datetime.now(UTC),
        misfire_grace_time=None,
        coalesce=True,
        max_instances=1,
    )
    return sched


def run(interval: float = DEFAULT_INTERVAL) -> None:
    """Tick until interrupted (Ctrl-C or SIGTERM)."""
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one line a tick would drown what matters
    sched = build(interval)
    log.info("scheduler started: a tick every %s s on %s", interval, pbp_db.database_url())
    try:
        sched.start()
    except (KeyboardInterrupt, SystemExit):
        log.info("scheduler stopped")
