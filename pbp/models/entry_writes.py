"""An entry's save as SQL written once per database kind, not rebuilt by peewee at every call: building a query's
SQL was a quarter of a save at a deadline rush. The rows they leave are the ones peewee's writes leave, byte for byte
(tests/lifecycle/test_entry_writes.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import peewee

from pbp.engine import canonical
from pbp.models.rounds import Entry, Round


@dataclass(frozen=True)
class _Statements:
    update: str
    insert: str
    revision: str
    locked_round: str  # PostgreSQL only, as is edit_if_unchanged
    edit_if_unchanged: str


@cache
def _statements(kind: type[peewee.Database]) -> _Statements:
    """The statements in `kind`'s dialect: its parameter mark, and SQLite's json() around a JSON value (as peewee
    stores one there)."""
    p = "?" if issubclass(kind, peewee.SqliteDatabase) else "%s"
    j = f"json({p})" if p == "?" else p
    return _Statements(
        update=f'UPDATE "entry" SET "order" = {j}, "prose" = {p}, "prose_en" = {p}, "receipt" = {p}, "saved_at" = {p} '
        f'WHERE "round_id" = {p} AND "character_id" = {p}',
        insert=f'INSERT INTO "entry" ("round_id", "character_id", "order", "prose", "prose_en", "receipt", "saved_at") '
        f"VALUES ({p}, {p}, {j}, {p}, {p}, {p}, {p})",
        revision=f'INSERT INTO "entry_revision" ("round_id", "character_id", "action", "order", "prose", "prose_en", '
        f'"receipt", "saved_at") VALUES ({p}, {p}, {p}, {j}, {p}, {p}, {p}, {p})',
        locked_round=f'SELECT "state", "deadline", (SELECT "n" FROM "site_version" WHERE "id" = 1) FROM "round" '
        f'WHERE "id" = {p} FOR SHARE OF "round"',
        edit_if_unchanged="""WITH still AS (
    SELECT 1 FROM "round" WHERE "id" = %(round)s AND "state" = %(open)s AND "deadline" > %(now)s
    AND (SELECT "n" FROM "site_version" WHERE "id" = 1) = %(version)s FOR SHARE
), edited AS (
    UPDATE "entry" SET "order" = %(order)s, "prose" = %(prose)s, "prose_en" = %(prose_en)s, "receipt" = %(receipt)s,
    "saved_at" = %(now)s
    WHERE "round_id" = %(round)s AND "character_id" = %(character)s AND EXISTS (SELECT 1 FROM still)
    RETURNING 1
)
INSERT INTO "entry_revision" ("round_id", "character_id", "action", "order", "prose", "prose_en", "receipt",
    "saved_at")
SELECT %(round)s, %(character)s, 'edit', %(order)s, %(prose)s, %(prose_en)s, %(receipt)s, %(now)s FROM edited""",
    )


def _json(db: peewee.Database, value: Any) -> Any:
    """A JSON value as the column takes it: canonical text for SQLite's json(), psycopg's Jsonb for PostgreSQL."""
    return canonical.dumps(value) if isinstance(db, peewee.SqliteDatabase) else Entry.order.db_value(value)


def store_entry(
    db: peewee.Database,
    round_id: int,
    character_id: int,
    order: Any,
    prose: str,
    receipt: str,
    saved_at: datetime,
    prose_en: str | None = None,
) -> bool:
    """The entry written (updated, or inserted when it is the first) and its revision appended, inside the caller's
    write transaction: True when it was an edit. `prose_en`: the player's English version (None: not written)."""
    sql = _statements(type(db))
    stored, when = _json(db, order), Entry.saved_at.db_value(saved_at)
    edited = db.execute_sql(sql.update, (stored, prose, prose_en, receipt, when, round_id, character_id)).rowcount > 0
    if not edited:
        db.execute_sql(sql.insert, (round_id, character_id, stored, prose, prose_en, receipt, when))
    action = "edit" if edited else "submit"
    db.execute_sql(sql.revision, (round_id, character_id, action, stored, prose, prose_en, receipt, when))
    return edited


def locked_round(db: peewee.PostgresqlDatabase, round_id: int) -> tuple[str, datetime, int] | None:
    """PostgreSQL, inside a save's write transaction, in one round trip: the round's state and deadline, locked FOR
    SHARE (a close waits for the save), and the site's version (`pbp.models.site`) as the statement began."""
    row = db.execute_sql(_statements(type(db)).locked_round, (round_id,)).fetchone()
    if row is None:
        return None
    state, deadline, version = row
    return state, Round.deadline.python_value(deadline), int(version or 0)


def edit_if_unchanged(
    db: peewee.PostgresqlDatabase,
    round_id: int,
    character_id: int,
    order: Any,
    prose: str,
    receipt: str,
    saved_at: datetime,
    version: int,
    open_state: str,
    prose_en: str | None = None,
) -> bool:
    """PostgreSQL, a re-save in one statement (one round trip, its own transaction outside a caller's): the round
    locked FOR SHARE while it is still `open_state`, before its deadline and the site's version still `version`,
    then the entry updated and the revision appended. False, nothing written, when any of that does not hold or
    there is no entry yet: the caller then takes the general path, which says why or inserts."""
    params = {
        "round": round_id,
        "character": character_id,
        "order": _json(db, order),
        "prose": prose,
        "prose_en": prose_en,
        "receipt": receipt,
        "now": Entry.saved_at.db_value(saved_at),
        "version": version,
        "open": open_state,
    }
    return db.execute_sql(_statements(type(db)).edit_if_unchanged, params).rowcount == 1
