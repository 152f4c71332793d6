"""A busy database (SQLite: another process holds the write lock) is a clear, retried condition, never a traceback:
each service's write path runs again from the start a few times with a growing pause, then says `Busy` ("the
database is busy, try again"), which the CLI prints on one line and the scheduler leaves for its next tick."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from pbp import db as pbp_db
from pbp.cli import main
from pbp.errors import UserError
from pbp.models import Round
from pbp.services import campaigns, rounds, schedule


@pytest.fixture
def other(db_url: str, db, monkeypatch: pytest.MonkeyPatch) -> Iterator[sqlite3.Connection]:
    """Another connection to the database (`BEGIN IMMEDIATE` on it holds the write lock); the waits and pauses made
    short."""
    if not db_url.startswith("sqlite"):
        pytest.skip("SQLite's write lock")
    monkeypatch.setattr(pbp_db, "SQLITE_TIMEOUT", 0.05)
    monkeypatch.setattr(pbp_db, "BUSY_BACKOFF", 0.01)
    holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    yield holder
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


def test_a_busy_database_is_one_line_from_the_command_line(world, other, capsys) -> None:
    rid = world.new_round()
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(SystemExit) as exit:
        main(["round", "hold", str(rid), "--reason", "a rules question"])
    assert (exit.value.code, capsys.readouterr().err) == (2, "pbp: the database is busy, try again\n")
    other.execute("ROLLBACK")
    assert other.execute("SELECT state FROM round WHERE id = ?", (rid,)).fetchone() == ("open",)


def test_a_busy_service_is_a_user_error_after_its_attempts(world, other, monkeypatch) -> None:
    rid = world.new_round()
    other.execute("BEGIN IMMEDIATE")
    attempts = []
    real = rounds.lock_round
    monkeypatch.setattr(rounds, "lock_round", lambda round_id: attempts.append(round_id) or real(round_id))
    begun = []
    real_begin = pbp_db.SqliteDatabase.begin
    monkeypatch.setattr(pbp_db.SqliteDatabase, "begin", lambda self, *a: begun.append(1) or real_begin(self, *a))
    with pytest.raises(pbp_db.Busy, match="^the database is busy, try again$") as error:
        rounds.hold_round(rid, reason="a rules question", clock=world.clock)
    assert isinstance(error.value, UserError)
    assert (len(begun), attempts) == (pbp_db.BUSY_ATTEMPTS, [])  # never got into the transaction


def test_a_busy_database_is_tried_again_and_the_change_goes_through_once_free(world, other, monkeypatch) -> None:
    rid = world.new_round()
    other.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(pbp_db, "SQLITE_TIMEOUT", 0)
    pauses = []

    class Paused:
        """The retry's pause: the other writer commits during it."""

        monotonic = staticmethod(pbp_db.time.monotonic)

        def sleep(self, seconds: float) -> None:
            pauses.append(seconds)
            if other.in_transaction:
                other.execute("COMMIT")

    monkeypatch.setattr(pbp_db, "time", Paused())
    assert rounds.hold_round(rid, reason="a rules question", clock=world.clock).state == "held"
    assert len(pauses) == 1


def test_the_scheduler_leaves_a_busy_round_due_for_its_next_tick(world, other) -> None:
    campaigns.set_hold_share(world.campaign, 1.0)  # no entries: the guard would hold it
    rid = world.new_round(deadline_in=60)
    other.execute("BEGIN IMMEDIATE")
    world.clock.advance(120)
    report = schedule.tick(clock=world.clock)
    assert [(o.round_id, o.status, o.message) for o in report.rounds] == [
        (rid, "busy", f"round {rid}: the database is busy, try again")
    ]
    other.execute("ROLLBACK")
    assert Round.get_by_id(rid).state == "open" and rounds.due_round_ids(clock=world.clock) == [rid]
    assert [(o.round_id, o.status) for o in schedule.tick(clock=world.clock).rounds] == [(rid, "resolved")]
