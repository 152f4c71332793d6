"""`pbp scheduler`: run the scheduler process (the same as `python -m scheduler`)."""

from __future__ import annotations

import logging

import click


def register(cli: click.Group) -> None:
    cli.add_command(scheduler)


@click.command()
@click.option("--interval", default=15.0, show_default=True, type=click.FloatRange(min=0.1), help="seconds a tick")
def scheduler(interval: float) -> None:
    """Resolve due rounds and close due sign-ups, every INTERVAL seconds, until stopped."""
    from scheduler.process import run

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    run(interval)
