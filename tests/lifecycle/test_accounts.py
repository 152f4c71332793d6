"""Accounts: a login name is taken once, and a sign-up racing another for it gets the same clear refusal."""

from __future__ import annotations

import pytest

from pbp.errors import UserError
from pbp.models import User
from pbp.services import accounts
from pbp.services.clock import to_db


def test_a_name_taken_while_the_password_is_hashed_is_refused_clearly(world, monkeypatch) -> None:
    """The check before the slow hash is not the last word: another sign-up may take the name meanwhile."""
    hasher = accounts._HASHER

    class RacingHasher:
        def hash(self, password: str) -> str:
            User.create(name="alice", display_name="Alice", password_hash="x", created_at=to_db(world.clock.now()))
            return hasher.hash(password)

    monkeypatch.setattr(accounts, "_HASHER", RacingHasher())
    with pytest.raises(UserError, match="'alice' is taken") as refused:
        accounts.create_user("alice", "alice-password", clock=world.clock)
    assert refused.value.field == "name"
    assert [u.display_name for u in User.select().where(User.name == "alice")] == ["Alice"]


def test_a_name_taken_past_the_check_is_refused_clearly(world, monkeypatch) -> None:
    """On PostgreSQL two sign-ups for one name can both pass the check; the unique index refuses the second, and
    that reads like the check's refusal, not like a raw IntegrityError."""
    monkeypatch.setattr(accounts, "name_taken", lambda name: False)
    before = User.select().count()
    with pytest.raises(UserError, match="'player1' is taken"):
        accounts.create_user("player1", "another-password", clock=world.clock)
    assert User.select().count() == before
