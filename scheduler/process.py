"""The tick job and the blocking scheduler around it."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler

from pbp import db as pbp_db
from pbp import migrations
from pbp.errors import UserError
from pbp.services import notifications, schedule

log = logging.getLogger("pbp.scheduler")

DEFAULT_INTERVAL = 15.0  # seconds between ticks: a deadline is acted on within this much of passing
#: A second: a shorter tick only repeats the same queries (1e-6 s was accepted and logged 93,000 warnings in 20 s
#: of APScheduler's "maximum number of running instances reached"); deadlines are minutes apart at the least.
MIN_INTERVAL = 1.0
MAX_INTERVAL = 86_400.0  # a day: a longer tick would leave deadlines unresolved for longer than any game waits
#: How far below the web the scheduler runs (nice): at a deadline it closes, resolves and publishes every due round
#: at once, and a player whose save arrives then should not wait behind that batch. Measured in the load run on
#: PostgreSQL: the late saves' page p50 870 ms → 63 ms, p99 1.9 s → 0.27 s, the 50 rounds published ~3 s later.
NICE = 10


def interval_problem(interval: float) -> str | None:
    """Why `interval` cannot be a tick (NaN, infinite, under a second, over a day), or None."""
    if not MIN_INTERVAL <= interval <= MAX_INTERVAL:  # NaN fails every comparison, so it is refused here too
        return f"--interval must be from {MIN_INTERVAL:g} to {MAX_INTERVAL:g} seconds, got {interval}"
    return None


def yield_cpu(nice: int = NICE) -> None:
    """Lower the CPU priority of this thread and of every thread it starts afterwards (on Linux a nice value is a
    thread's, inherited by the threads it creates), so the scheduler's batch work gives way to the web's requests;
    the web server started before keeps its own. Nothing where the system has no nice."""
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)


def ensure_ready() -> None:
    """Refuse to start on a database that is missing or behind the code (each tick would fail on a missing table)."""
    with pbp_db.connected() as database:
        if migrations.pending(database):
            raise UserError(f"the database at {pbp_db.database_url()} is not up to date: run `pbp db upgrade`")
    notifications.Settings.load()  # a mistake in the mail settings is said now, not at every tick


def tick_once() -> schedule.TickReport | None:
    """One tick in its own connection, and what it did in the log. Nothing escapes: a tick that cannot even open the
    database is one line (the same trouble again is not repeated every tick), and the next tick tries again."""
    try:
        with pbp_db.connected():
            report = schedule.tick()
    except Exception as e:
        _trouble(f"tick failed: {e}" if isinstance(e, UserError) else f"tick failed: {type(e).__name__}: {e}")
        return None
    _trouble(None)
    log_report(report)
    return report


def once() -> int:
    """One tick for cron (`--once`); its exit status: 1 when something failed (a round, a step, the tick)."""
    yield_cpu()
    report = tick_once()
    failed = report is None or report.problems or any(o.status in ("failed", "error") for o in report.rounds)
    return 1 if failed else 0


_last_trouble: list[str | None] = [None]


def _trouble(message: str | None) -> None:
    """Log a tick's failure when it is new (a database down for an hour is one line, and one when it is back)."""
    if message == _last_trouble[0]:
        return
    if message is None:
        log.info("ticks work again")
    else:
        log.error("%s (logged once; tried again every tick)", message)
    _last_trouble[0] = message


def log_report(report: schedule.TickReport) -> None:
    """One line per thing done, a warning per thing not done (with its traceback when it was unexpected)."""
    for scenario_id in report.signups_closed:
        log.info("sign-up closed for scenario %s", scenario_id)
    for scenario_id in report.signups_busy:
        log.warning("sign-up of scenario %s: the database is busy; tried again next tick", scenario_id)
    for round_id in report.closed:
        log.info("round %s: closed at its deadline", round_id)
    for round_id in report.held:
        log.warning("round %s: held for the GM: too many entries missing at the deadline", round_id)
    for outcome in report.rounds:
        level = logging.INFO if outcome.status in ("resolved", "already") else logging.WARNING
        log.log(level, "round %s: %s: %s", outcome.round_id, outcome.status, outcome.message)
        if outcome.trace:
            log.warning("round %s: the traceback of that failure:\n%s", outcome.round_id, outcome.trace.rstrip())
    for round_id in report.published:
        log.info("round %s: published (the campaign publishes automatically)", round_id)
    for round_id, users in report.reminded.items():
        log.info("round %s: %d player(s) reminded of the deadline", round_id, len(users))
    for d in report.deliveries:
        if d.status == "sent":
            log.info("notification %s: sent", d.outbox_id)
        elif d.status == "skipped":  # nowhere to send it (no address, no mail server): nothing went wrong
            log.debug("notification %s: skipped: %s", d.outbox_id, d.error)
        else:
            log.warning("notification %s: %s: %s", d.outbox_id, d.status, d.error)
    if report.pruned:
        log.info("%d finished notification(s) older than %s deleted", report.pruned, notifications.OUTBOX_KEPT)
    if report.overdue:
        ids = ", ".join(map(str, report.overdue))
        log.warning("overdue (more than %s s past the deadline, not resolved): round %s", schedule.OVERDUE_AFTER, ids)
    for p in report.problems:
        item = f" {p.item}" if p.item is not None else ""
        log.warning("%s%s: %s%s", p.step, item, p.message, f"\n{p.trace.rstrip()}" if p.trace else "")


def build(interval: float = DEFAULT_INTERVAL, *, kind: type[BaseScheduler] = BlockingScheduler) -> BaseScheduler:
    """A UTC scheduler (blocking, or `kind`: `pbp run` ticks in a background thread) with one interval tick: first
    run now, never dropped as misfired, never two at once."""
    sched = kind(timezone=UTC)
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
    yield_cpu()  # before the scheduler starts the threads its ticks run in
    sched = build(interval)
    log.info("scheduler started: a tick every %s s on %s", interval, pbp_db.database_url())
    try:
        sched.start()
    except (KeyboardInterrupt, SystemExit):
        log.info("scheduler stopped")
