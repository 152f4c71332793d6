"""The site's version (pbp.models.site, migration 0012), on SQLite and PostgreSQL: every table is watched or not by
decision, a committed write to a watched table moves the version (once per transaction), a rolled-back one and a
write to an unwatched table do not; a deadline rush's saves leave it alone, a publication moves it."""

from __future__ import annotations

import peewee
import pytest

from pbp import db as pbp_db
from pbp.models import ALL_MODELS, Character, Entry, site
from pbp.services import entries, publishing, rounds


def _version(db: peewee.Database) -> int:
    return site.current(db)


def test_every_table_is_watched_or_not_by_decision():
    tables = {model._meta.table_name for model in ALL_MODELS}
    assert set(site.WATCHED) | set(site.UNWATCHED) == tables
    assert not set(site.WATCHED) & set(site.UNWATCHED)


def test_every_watched_table_and_no_other_has_its_trigger(db: peewee.Database):
    if pbp_db.is_sqlite():
        rows = db.execute_sql("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'site_changed%'")
        triggered = [row[0] for row in rows]
        assert sorted(triggered) == sorted(site.WATCHED * 3)  # insert, update, delete
    else:
        # This test's own schema only: pg_trigger is the whole database's, where another run may have its schema
        # (running beside this one, or left by a run that was killed).
        rows = db.execute_sql(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname = 'site_changed' AND c.relnamespace = current_schema()::regnamespace"
        )
        assert sorted(row[0] for row in rows) == sorted(site.WATCHED)


def test_a_committed_write_moves_the_version_once_and_a_rolled_back_one_not_at_all(world, db: peewee.Database):
    before = _version(db)
    with pbp_db.write_transaction():
        Character.update(name=Character.name).execute()  # every character: several rows, one transaction
        Character.update(name=Character.name).where(Character.id == world.characters[0]).execute()
    after = _version(db)
    if pbp_db.is_sqlite():
        assert after > before  # a trigger per row: SQLite has one writer, so how far it moves costs nothing
    else:
        assert after == before + 1  # deferred to the commit, once per transaction
    with pytest.raises(RuntimeError), pbp_db.write_transaction():
        Character.update(name="消える名").execute()
        raise RuntimeError("rolled back")
    assert _version(db) == after


def test_saves_leave_it_alone_and_a_publication_moves_it(world, db: peewee.Database):
    rid = world.new_round()
    opened = _version(db)
    for uid, cid in zip(world.players, world.characters, strict=True):
        for prose in ("撃つ。", "もう一度撃つ。"):
            entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose=prose, clock=world.clock)
    entries.withdraw_entry(rid, world.characters[1], user_id=world.players[1], clock=world.clock)
    assert Entry.select().count() == 1
    assert _version(db) == opened
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    resolved = _version(db)
    assert resolved > opened
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert _version(db) > resolved
