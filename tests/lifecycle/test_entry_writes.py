"""An entry's save as SQL written once (pbp.models.entry_writes), on SQLite and PostgreSQL: the rows it leaves are
the ones peewee writes for the same values, and a PostgreSQL re-save's one statement writes only while the round is
open, before its deadline and the site's version unchanged."""

from __future__ import annotations

from datetime import timedelta

import peewee
import pytest

from pbp.models import Entry, EntryRevision, Round, entry_writes, site
from pbp.services import entries, rounds
from pbp.services.clock import to_db

ORDER = {"major": {"targets": ["kagachi1"], "type": "attack", "weapon": "beam_rifle"}, "minor": None, "note": "照準"}


def _raw(db: peewee.Database, table: str, character: int) -> list[tuple]:
    columns = '"order", "prose", "receipt", "saved_at"'
    sql = f'SELECT {columns} FROM "{table}" WHERE "character_id" = {db.param} ORDER BY "id"'
    return list(db.execute_sql(sql, (character,)).fetchall())


def test_the_rows_are_the_ones_peewee_writes(world, db: peewee.Database) -> None:
    rid = world.new_round()
    mine, theirs = world.characters
    now = to_db(world.clock.now())
    with db.atomic():
        assert entry_writes.store_entry(db, rid, mine, ORDER, "撃つ。", "a" * 64, now) is False
        assert entry_writes.store_entry(db, rid, mine, ORDER, "もう一度。", "b" * 64, now) is True
        Entry.create(round=rid, character=theirs, order=ORDER, prose="もう一度。", receipt="b" * 64, saved_at=now)
        for action, prose, receipt in (("submit", "撃つ。", "a"), ("edit", "もう一度。", "b")):
            EntryRevision.create(
                round=rid, character=theirs, action=action, order=ORDER, prose=prose, receipt=receipt * 64, saved_at=now
            )
    assert _raw(db, "entry", mine) == _raw(db, "entry", theirs)  # byte for byte: the JSON text, the time's format
    assert _raw(db, "entry_revision", mine) == _raw(db, "entry_revision", theirs)
    assert [r.action for r in EntryRevision.select().where(EntryRevision.character == mine)] == ["submit", "edit"]
    stored = Entry.get(Entry.character == mine)
    assert (stored.order, stored.prose, stored.saved_at) == (ORDER, "もう一度。", now)


@pytest.fixture
def pg_only(db: peewee.Database) -> None:
    if isinstance(db, peewee.SqliteDatabase):
        pytest.skip("a re-save in one statement is PostgreSQL's (SQLite's write lock makes its round trips free)")


def _edit(world, db: peewee.Database, rid: int, prose: str, *, version: int | None = None, late: float = 0) -> bool:
    now = to_db(world.clock.now() + timedelta(seconds=late))
    seen = site.current(db) if version is None else version
    return entry_writes.edit_if_unchanged(db, rid, world.characters[0], ORDER, prose, "c" * 64, now, seen, rounds.OPEN)


def _proses() -> list[str]:
    return [r.prose for r in EntryRevision.select().order_by(EntryRevision.id)]


def test_a_re_save_writes_in_one_statement_only_while_nothing_changed(world, db: peewee.Database, pg_only) -> None:
    rid = world.new_round()
    assert not _edit(world, db, rid, "まだ無い。")  # no entry yet: the general path inserts it
    entries.save_entry(rid, world.characters[0], user_id=world.players[0], order=ORDER, prose="一。", clock=world.clock)
    assert _edit(world, db, rid, "二。")
    assert not _edit(world, db, rid, "古い版。", version=site.current(db) - 1)  # something watched changed since
    assert not _edit(world, db, rid, "遅い。", late=3600)  # at the deadline
    rounds.close_round(rid, clock=world.clock)
    assert not _edit(world, db, rid, "閉じた後。")
    assert _proses() == ["一。", "二。"]
    assert [r.action for r in EntryRevision.select().order_by(EntryRevision.id)] == ["submit", "edit"]
    assert Entry.get(Entry.round == rid).prose == "二。"


def test_the_locked_round_and_the_version_are_read_together(world, db: peewee.Database, pg_only) -> None:
    rid = world.new_round()
    with db.atomic():
        state, deadline, version = entry_writes.locked_round(db, rid)
        assert (state, deadline, version) == (rounds.OPEN, Round.get_by_id(rid).deadline, site.current(db))
        assert entry_writes.locked_round(db, rid + 1000) is None
