"""The tick job and the blocking scheduler around it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from apscheduler.schedulers.blocking import BlockingScheduler

from pbp import db as pbp_db
from pbp.services import schedule

log = logging.getLogger("pbp.scheduler")

DEFAULT_INTERVAL = 15.0  # seconds between ticks: a deadline is acted on within this much of passing


def tick_once() -> schedule.TickReport:
    """One tick in its own connection: close due sign-ups, resolve due rounds, log what happened."""
    with pbp_db.connected():
        report = schedule.tick()
    for scenario_id in report.signups_closed:
        log.info("sign-up closed for scenario %s", scenario_id)
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
