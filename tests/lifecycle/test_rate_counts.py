"""The login limits' storage in the database (pbp.web.ratelimit), on SQLite and PostgreSQL: a fixed window per key,
counted atomically, ended windows starting again and pruned, keys of any length."""

from __future__ import annotations

import peewee
import pytest

from pbp.models import RateCount
from pbp.web import ratelimit
from pbp.web.ratelimit import DatabaseStorage


@pytest.fixture
def storage(db: peewee.Database) -> DatabaseStorage:
    return DatabaseStorage("pbp-database://")


def test_a_window_counts_then_starts_again_when_it_ended(storage, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: now[0])
    assert [storage.incr("login/a", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.get("login/a") == 3 and storage.get_expiry("login/a") == 1_000_060.0
    assert storage.incr("login/b", 60, amount=2) == 2  # another key counts apart
    now[0] += 61
    assert storage.get("login/a") == 0
    assert storage.incr("login/a", 60) == 1 and storage.get_expiry("login/a") == 1_000_121.0
    assert RateCount.select().count() == 1  # the ended window of login/b was pruned


def test_clear_and_reset(storage):
    storage.incr("x", 60)
    storage.incr("y", 60)
    storage.clear("x")
    assert storage.get("x") == 0 and storage.get("y") == 1
    assert storage.reset() == 1 and storage.get("y") == 0


def test_a_key_longer_than_a_column_is_counted_under_its_hash(storage):
    key = "account:" + "名" * 5000
    assert [storage.incr(key, 60) for _ in range(2)] == [1, 2]
    assert storage.get(key) == 2
    assert all(len(row.key) <= ratelimit.KEY_LIMIT for row in RateCount.select())
