"""`pbp user password NAME`: the site operator sets a new password for a user who forgot theirs and has no e-mail
address for the mailed link (or on a site that sends no mail)."""

from __future__ import annotations

import sys

import click

from pbp.cli.db import open_db


def register(cli: click.Group) -> None:
    cli.add_command(user)


@click.group()
def user() -> None:
    """User accounts."""


@user.command("password")
@click.argument("name")
@click.option("--stdin", "from_stdin", is_flag=True, help="read the new password from the first line of stdin")
def password(name: str, from_stdin: bool) -> None:
    """Set a new password for the user NAME (asked twice, not echoed); every session of theirs ends."""
    from pbp.services import accounts

    if from_stdin:
        new = sys.stdin.readline().rstrip("\r\n")
    else:
        new = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    with open_db():
        accounts.set_password(name, new)
    click.echo(f"{name}: the password is set; every session of theirs has ended")
