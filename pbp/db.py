"""The database handle: one `DatabaseProxy` that models bind to, initialised by whoever runs (CLI, web, scheduler).

`bind()` sets the process-wide database (the CLI's and the scheduler's); `using(db)` overrides it for the current
thread or task only (a web app's requests), so two apps in one process never read each other's database.

SQLite in WAL mode under the instance folder is the embedded default; `DATABASE_URL=postgresql://...` selects
PostgreSQL. Write transactions go through `write_transaction()`, which is `BEGIN IMMEDIATE` on SQLite: a plain
`BEGIN` upgrades its lock at the first write and fails with SQLITE_BUSY under concurrent writers
(notes/stack.md measured 900 of 1,200), `BEGIN IMMEDIATE` takes the write lock up front and waits for it.
"""

from __future__ import annotations

import functools
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import ParamSpec, TypeVar

import peewee

from pbp.errors import N_, UserError
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

    def initialize(self, obj: peewee.Database | None) -> None:
        super().initialize(obj)
        type(self)._fields_set_for = type(obj) if obj is not None else None

    #: The kind of database the models' fields are set up for (peewee 4 sets up JSON and BLOB fields, e.g. whether a
    #: JSON column is parsed on reading, through the proxy's callbacks when it is initialised).
    _fields_set_for: type[peewee.Database] | None = None

    def set_up_fields(self, db: peewee.Database) -> None:
        """Set the fields up for `db`'s kind when `using` it without `bind`: a web worker that never bound a
        process-wide database read every JSON column as a string (gunicorn served the blog's reports as 500s)."""
        if type(self)._fields_set_for is not type(db):
            for callback in self._callbacks:
                callback(db)
            type(self)._fields_set_for = type(db)


database = ContextDatabaseProxy()

SQLITE_PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "normal", "cache_size": -64000}
SQLITE_TIMEOUT = 5  # seconds a writer waits for the lock before SQLITE_BUSY (then `retried` tries again)
SQLITE_SLICE_MS = 10  # BEGIN IMMEDIATE's busy handler starts afresh this often (see SqliteDatabase)
BUSY_ATTEMPTS = 3  # times `retried` runs a service before it gives up with Busy
BUSY_BACKOFF = 0.05  # seconds before the second attempt, doubled for each further one (jittered)
#: SQLite's result codes for a database another connection holds (primary codes, the low byte).
SQLITE_BUSY_CODES = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED
#: PostgreSQL's SQLSTATEs after which the same transaction, run again, may well go through.
PG_RETRY_STATES = frozenset({"40001", "40P01", "55P03"})  # serialization failure, deadlock, lock not available

P = ParamSpec("P")
T = TypeVar("T")


class Busy(UserError):
    """The database stayed busy (other writers held it) through every attempt; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(N_("the database is busy, try again"))


class SqliteDatabase(peewee.SqliteDatabase):
    """SQLite whose BEGIN IMMEDIATE waits for the write lock in short slices, up to SQLITE_TIMEOUT. SQLite's own busy
    handler sleeps the longer the longer it has waited (up to 100 ms a try), so under a crowd of writers the newest,
    trying every millisecond, takes the lock before the one that has waited longest: saves before a deadline waited
    up to 12.8 s. Starting the handler afresh every SQLITE_SLICE_MS gives every waiter the same pace (tries at 0, 1,
    3 and 8 ms of each slice), without the CPU a tighter loop would take from the writer holding the lock."""

    def begin(self, lock_type: str | None = None) -> None:
        if (lock_type or self._lock_type) != "IMMEDIATE":
            return super().begin(lock_type)
        raw = self.connection()
        raw.execute(f"PRAGMA busy_timeout = {SQLITE_SLICE_MS}")  # this connection's other statements keep theirs
        try:
            deadline = time.monotonic() + SQLITE_TIMEOUT
            while True:
                try:
                    return super().begin(lock_type)
                except peewee.OperationalError as e:
                    if not is_busy(e) or time.monotonic() >= deadline:
                        raise
                time.sleep(random.uniform(0, SQLITE_SLICE_MS / 5000))  # out of step with the other waiters
        finally:
            raw.execute(f"PRAGMA busy_timeout = {int(SQLITE_TIMEOUT * 1000)}")


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
        return SqliteDatabase(str(path), pragmas=SQLITE_PRAGMAS, timeout=SQLITE_TIMEOUT)
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
    database.set_up_fields(db)
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


def is_busy(error: BaseException) -> bool:
    """Whether `error` says the database was busy rather than anything being wrong: SQLite's "database is locked",
    PostgreSQL's deadlock or serialization failure (peewee keeps the driver's error in `orig`)."""
    cause = getattr(error, "orig", error)
    code = getattr(cause, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in SQLITE_BUSY_CODES
    return getattr(cause, "sqlstate", None) in PG_RETRY_STATES


_retrying = threading.local()


def retried(service: Callable[P, T]) -> Callable[P, T]:
    """A service's write path, run again from the start when the database is busy (its transaction was rolled back),
    up to BUSY_ATTEMPTS times with a growing, jittered pause; then `Busy`, which the CLI prints on one line and the
    scheduler logs before its next tick. A service called by another (or inside a caller's transaction) is not
    retried on its own: the error goes up to the outermost one, which runs again as a whole."""

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if getattr(_retrying, "active", False) or database.in_transaction():
            return service(*args, **kwargs)
        _retrying.active = True
        try:
            for attempt in range(BUSY_ATTEMPTS):
                if attempt:
                    time.sleep(BUSY_BACKOFF * 2 ** (attempt - 1) * random.uniform(0.5, 1.5))
                try:
                    return service(*args, **kwargs)
                except Exception as e:
                    if not is_busy(e):
                        raise
            raise Busy()
        finally:
            _retrying.active = False

    return run


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
