"""`pbp demo`: the demo campaign in one command (pbp.services.demo)."""

from __future__ import annotations

import click

from pbp import db as pbp_db
from pbp import migrations
from pbp.cli.rounds import DEADLINE_IN


def register(cli: click.Group) -> None:
    cli.add_command(demo)


@click.command()
@click.option(
    "--deadline-in",
    default=3600,
    show_default=True,
    type=DEADLINE_IN,
    help="seconds until the open round's deadline",
)
@click.option("--if-empty", is_flag=True, help="do nothing (exit 0) when the demo is already loaded")
@click.option(
    "--campaign",
    type=click.Choice(["demo", "kancolle-demo"]),
    default="demo",
    show_default=True,
    help="which demo: pool's (demo) or kancolle's, which may be loaded beside it",
)
def demo(deadline_in: int, if_empty: bool, campaign: str) -> None:
    """Load a demo campaign with a GM, its players, one published round and one open round."""
    from pbp.services import demo as demo_service
    from pbp.services import kancolle_demo

    service = kancolle_demo if campaign == "kancolle-demo" else demo_service
    with pbp_db.connected() as database:
        migrations.upgrade(database)
        if if_empty and service.is_loaded():
            click.echo(f"the demo is already loaded in {pbp_db.database_url()}")
            return
        loaded = (
            kancolle_demo.load_kancolle_demo(deadline_in)
            if service is kancolle_demo
            else service.load_demo(deadline_in)
        )
    players = ", ".join(kancolle_demo.PLAYERS) if service is kancolle_demo else "player1, player2"
    click.echo(f"demo campaign {loaded.campaign!r} in {pbp_db.database_url()}")
    click.echo(f"users gm, {players} (password {demo_service.DEMO_PASSWORD!r})")
    click.echo(f"round {loaded.published_round}: published (check it: pbp verify {loaded.published_round})")
    click.echo(f"round {loaded.open_round}: open, deadline in {deadline_in} s, {loaded.entries} entries")
