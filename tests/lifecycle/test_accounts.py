"""Accounts: a login name is taken once (a sign-up racing another gets the same clear refusal); text that is not
text (half a character) is refused by every service clearly."""

from __future__ import annotations

import pytest

from pbp.errors import UserError
from pbp.models import User
from pbp.services import accounts, entries, rounds
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


def test_a_login_name_with_a_trailing_newline_is_refused(world) -> None:
    """`$` matches before a final newline: "gm\\n" would be a second account that looks like the GM's."""
    with pytest.raises(UserError, match="a user name is 2-40 letters"):
        accounts.create_user("gm\n", "password123", clock=world.clock)


def test_half_a_character_is_refused_clearly_not_a_traceback(world) -> None:
    """A lone surrogate (JSON's "\\ud800") cannot be hashed, stored or shown: each service says so in one error."""
    with pytest.raises(UserError, match="password"):
        accounts.create_user("bob", "pass\ud800word", clock=world.clock)
    assert accounts.authenticate("gm", "gm\ud800password") is None
    rid = world.new_round()
    with pytest.raises(UserError, match="half a character"):
        entries.save_entry(
            rid, world.characters[0], user_id=world.players[0], order=world.order(), prose="\ud800", clock=world.clock
        )
    with pytest.raises(UserError, match="half a character"):
        rounds.hold_round(rid, reason="\udfff", clock=world.clock)
