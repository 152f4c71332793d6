"""`pbp scheduler`: run the scheduler process (the same as `python -m scheduler`)."""

from __future__ import annotations

import logging

import click

from pbp.errors import UserError


def register(cli: click.Group) -> None:
    cli.add_command(scheduler)


@click.command()
@click.option("--interval", default=15.0, show_default=True, type=float, help="seconds a tick (1 to 86400)")
def scheduler(interval: float) -> None:
    """Resolve due rounds and close due sign-ups, every INTERVAL seconds, until stopped."""
    from scheduler.process import ensure_ready, interval_problem, run

    problem = interval_problem(interval)
    if problem:
        raise UserError(problem)
    ensure_ready()

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    run(interval)
