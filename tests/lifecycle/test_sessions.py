"""Sessions, language and heartbeat at the service level (SQLite and PostgreSQL): ending a user's sessions and
changing the password bump the session version; a user's language is ja, en or the browser's; every scheduler
tick records its heartbeat; refusals are typed (NotFound, Forbidden, InvalidState, Conflict)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.errors import Conflict, Forbidden, InvalidState, NotFound, UserError
from pbp.models import User
from pbp.services import accounts, entries, rounds, schedule


def _version(user_id: int) -> int:
    return User.get_by_id(user_id).session_version


def test_end_sessions_bumps_the_version(world) -> None:
    user = world.players[0]
    before = _version(user)
    accounts.end_sessions(user)
    assert _version(user) == before + 1


def test_a_password_change_needs_the_current_one_and_bumps_the_version(world) -> None:
    user = world.players[0]
    before = _version(user)
    with pytest.raises(UserError, match="current password") as wrong:
        accounts.change_password(user, "not-it-at-all", "another-password")
    assert wrong.value.field == "current_password" and _version(user) == before
    with pytest.raises(UserError, match="8-200") as short:
        accounts.change_password(user, "player-password", "short")
    assert short.value.field == "new_password"
    accounts.change_password(user, "player-password", "another-password")
    assert _version(user) == before + 1
    assert accounts.authenticate("player1", "another-password") is not None
    assert accounts.authenticate("player1", "player-password") is None


def test_a_language_is_ja_en_or_none(world) -> None:
    user = world.players[0]
    assert accounts.set_locale(user, "en").locale == "en"
    assert accounts.set_locale(user, None).locale is None
    with pytest.raises(UserError, match="one of ja, en"):
        accounts.set_locale(user, "fr")


def test_every_tick_records_the_heartbeat(world) -> None:
    assert schedule.last_tick() is None
    schedule.tick(clock=world.clock)
    assert schedule.last_tick() == world.clock.now()
    world.clock.advance(60)
    schedule.tick(clock=world.clock)
    assert schedule.last_tick() == world.clock.now()


def test_work_is_due_once_a_deadline_passes(world) -> None:
    world.new_round(deadline_in=600)
    assert not schedule.work_is_due(clock=world.clock)
    world.clock.advance(601)
    assert schedule.work_is_due(clock=world.clock)


def test_refusals_are_typed(world) -> None:
    round_id = world.new_round()
    with pytest.raises(NotFound):
        rounds.close_round(10_000, clock=world.clock)
    with pytest.raises(Forbidden):  # player 2 writing for player 1's character
        entries.save_entry(
            round_id, world.characters[0], user_id=world.players[1], order=world.order(), prose="", clock=world.clock
        )
    with pytest.raises(InvalidState):
        rounds.open_round(round_id, clock=world.clock)
    with pytest.raises(Conflict):
        accounts.create_user("player1", "some-password", clock=world.clock)
    world.clock.advance(timedelta(hours=2).total_seconds())
    with pytest.raises(InvalidState):
        entries.save_entry(
            round_id, world.characters[0], user_id=world.players[0], order=world.order(), prose="", clock=world.clock
        )
