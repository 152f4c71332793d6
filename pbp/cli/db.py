"""`pbp db init | upgrade | status`: create and migrate the database (`DATABASE_URL`, else SQLite under
`PBP_INSTANCE`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click
import peewee

from pbp import db as pbp_db
from pbp import migrations
from pbp.errors import UserError

#: A row id argument (ROUND_ID, SCENARIO_ID): positive and within a 64-bit database integer (SQLite overflows).
ROW_ID = click.IntRange(1, 2**63 - 1)


def register(cli: click.Group) -> None:
    cli.add_command(db_group)


@contextmanager
def open_db() -> Iterator[peewee.Database]:
    """The database for one command, refused with a hint when its schema is behind the code."""
    with pbp_db.connected() as database:
        if migrations.pending(database):
            raise UserError("the database is not initialised or not up to date: run `pbp db upgrade`")
        yield database


@click.group("db")
def db_group() -> None:
    """The database: create it, bring it up to date."""


@db_group.command("init")
def init() -> None:
    """Create the database (or bring an existing one up to date)."""
    _upgrade()


@db_group.command("upgrade")
def upgrade() -> None:
    """Apply every pending migration in place."""
    _upgrade()


def _upgrade() -> None:
    with pbp_db.connected() as database:
        applied = migrations.upgrade(database)
    click.echo(f"applied {', '.join(applied)}" if applied else "the database is up to date")


@db_group.command("status")
def status() -> None:
    """Where the database is and which migrations are applied."""
    with pbp_db.connected() as database:
        click.echo(f"database: {_redacted(pbp_db.database_url())}")
        for m in migrations.runner(database).status():
            click.echo(f"{'applied' if m.applied else 'pending'}  {m.name}")


def _redacted(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}@{host}"
    return url
