"""`pbp pack ...`: campaign pack commands."""

from __future__ import annotations

import click


def register(cli: click.Group) -> None:
    cli.add_command(pack)


@click.group()
def pack() -> None:
    """Campaign packs (campaigns/<name>/)."""
