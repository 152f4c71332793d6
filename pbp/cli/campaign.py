"""`pbp campaign load DIR`: load (or reload) a campaign pack into the database."""

from __future__ import annotations

import click

from pbp.cli.db import open_db
from pbp.packs import find_pack


def register(cli: click.Group) -> None:
    cli.add_command(campaign)


@click.group()
def campaign() -> None:
    """Campaigns in the database."""


@campaign.command("load")
@click.argument("directory")
def load(directory: str) -> None:
    """Load the pack in DIRECTORY (a path, or a name under campaigns/) as a campaign."""
    from pbp.services.campaigns import load_campaign

    with open_db():
        loaded = load_campaign(find_pack(directory).resolve())
        count = loaded.scenarios.count()
    click.echo(f"campaign {loaded.slug} (id {loaded.id}): {loaded.name}, {count} scenarios")
