"""`pbp scheduler`: run the scheduler process (the same as `python -m scheduler`)."""

from __future__ import annotations

import logging
import sys

import click

from pbp.errors import UserError


def register(cli: click.Group) -> None:
    cli.add_command(scheduler)


@click.command()
@click.option("--interval", default=15.0, show_default=True, type=float, help="seconds a tick (1 to 86400)")
@click.option("--once", is_flag=True, help="run one tick and exit (cron); exit 1 if something failed")
def scheduler(interval: float, once: bool) -> None:
    """Every INTERVAL seconds until stopped: close due sign-ups and rounds, hold, resolve, publish, remind, notify."""
    from scheduler.process import ensure_ready, interval_problem, run
    from scheduler.process import once as one_tick

    problem = interval_problem(interval)
    if problem:
        raise UserError(problem)
    ensure_ready()

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if once:
        sys.exit(one_tick())
    run(interval)
