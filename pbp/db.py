"""The database handle: one `DatabaseProxy` that models bind to, initialised by whoever runs (CLI, web, scheduler).

`bind()` sets the process-wide database (the CLI's and the scheduler's); `using(db)` overrides it for the current
thread or task only (a web app's requests), so two apps in one process never read each other's database.

SQLite in WAL mode under the instance folder is the embedded default; `DATABASE_URL=postgresql://...` selects
PostgreSQL. Write transactions go through `write_transaction()`, which is `BEGIN IMMEDIATE` on SQLite: a plain
`BEGIN` upgrades its lock at the first write and fails with SQLITE_BUSY under concurrent writers
(notes/stack.md measured 900 of 1,200), `BEGIN IMMEDIATE` takes the write lock up front and waits for it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import peewee

from pbp.errors import UserError
from pbp.paths import instance_dir

_CURRENT: ContextVar[peewee.Database | None] = ContextVar("pbp_database", default=None)


class ContextDatabaseProxy(peewee.DatabaseProxy):
    """A proxy whose target is the context's database (set by `using`) when there is one, else the process's."""

    _process_wide: peewee.Database | None = None

    @property
    def obj(self) -> peewee.Database | None:
        current = _CURRENT.get()
        return current if current is not None else type(self)._process_wide

    @obj.setter
    def obj(self, value: peewee.Database | None) -> None:  # peewee's initialize(): the process-wide database
        type(self)._process_wide = value


database = ContextDatabaseProxy()

SQLITE_PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "normal", "cache_size": -64000}
SQLITE_TIMEOUT = 15  # seconds a writer waits for the lock before SQLITE_BUSY


def database_url() -> str:
    """`DATABASE_URL` if set, else the SQLite file in the instance folder."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{instance_dir() / 'pbp.sqlite3'}"


def make_database(url: str) -> peewee.Database:
    """A peewee database for `sqlite:///PATH` or `postgresql://...` (a PostgreSQL URL is passed to psycopg as is).

    UserError for any other URL, or a SQLite folder that cannot be created (the CLI shows it on one line)."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(f"cannot create the database folder {path.parent}: {e.strerror}") from None
        return peewee.SqliteDatabase(str(path), pragmas=SQLITE_PRAGMAS, timeout=SQLITE_TIMEOUT)
    if url.startswith(("postgresql://", "postgres://")):
        return peewee.PostgresqlDatabase(url.replace("postgres://", "postgresql://", 1))
    raise UserError(f"DATABASE_URL must start with sqlite:/// or postgresql:// (got {url.split(':', 1)[0]}:...)")


def bind(url: str | None = None) -> peewee.Database:
    """Point the models at `url` (default: `database_url()`) and return the concrete database."""
    db = make_database(url or database_url())
    database.initialize(db)
    return db


@contextmanager
def using(db: peewee.Database) -> Iterator[peewee.Database]:
    """Point the models at `db` in this thread or task only, until the block ends (the process's binding stays)."""
    token = _CURRENT.set(db)
    try:
        yield db
    finally:
        _CURRENT.reset(token)


def is_sqlite() -> bool:
    return isinstance(database.obj, peewee.SqliteDatabase)


def write_transaction() -> peewee._atomic:
    """One write transaction: `BEGIN IMMEDIATE` on SQLite (waits for the write lock), plain on PostgreSQL.

    Materialise every SELECT (`list(...)`) before entering: an unfinished cursor on the same SQLite connection makes
    `BEGIN IMMEDIATE` fail at once with "database is locked".
    """
    return database.atomic("IMMEDIATE") if is_sqlite() else database.atomic()


@contextmanager
def connected(url: str | None = None) -> Iterator[peewee.Database]:
    """Bind, connect for the length of a command, close: the CLI's and scheduler's connection scope.

    A database that cannot be opened (server down, file not writable) is a UserError with the driver's first line."""
    db = bind(url)
    try:
        db.connect(reuse_if_open=True)
    except peewee.OperationalError as e:
        raise UserError(f"cannot open the database: {(str(e) or type(e).__name__).splitlines()[0]}") from None
    try:
        yield db
    finally:
        db.close()
