"""`pbp notifications USER`: a user's e-mail address and the kinds of notification they receive."""

from __future__ import annotations

import click

from pbp.cli.db import open_db


def register(cli: click.Group) -> None:
    cli.add_command(notifications_command)


@click.command("notifications")
@click.argument("user")
@click.option("--email", help="where the user's notifications go ('' for nowhere)")
@click.option("--on", "on", multiple=True, help="a kind to receive (e.g. round.reminder); repeatable")
@click.option("--off", "off", multiple=True, help="a kind to switch off; repeatable")
def notifications_command(user: str, email: str | None, on: tuple[str, ...], off: tuple[str, ...]) -> None:
    """Set a user's e-mail address and notification kinds; prints them."""
    from pbp.errors import NotFound
    from pbp.models import User
    from pbp.services import notifications
    from pbp.services._common import is_text

    with open_db():
        found = User.get_or_none(User.name == user) if is_text(user) else None
        if found is None:
            raise NotFound(f"no user {user!r}")
        if email is not None:
            notifications.set_email(found.id, email)
        for kind, enabled in [*((k, True) for k in on), *((k, False) for k in off)]:
            notifications.set_preference(found.id, kind, enabled)
        address = User.get_by_id(found.id).email
        kinds = notifications.preferences(found.id)
    click.echo(f"{user}: e-mail {address or 'none'}")
    for kind, enabled in kinds.items():
        click.echo(f"  {kind}: {'on' if enabled else 'off'}")
