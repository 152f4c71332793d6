"""A re-save takes the site's version as its worker last read it (`site.assume`, `database.assumes_reading`): one
statement on PostgreSQL, which checks that version itself. Whatever moved the version meanwhile in another worker (a
logout, a closed round, a sheet edited) is found before anything is answered or written, and the request is made
again as if nothing had been assumed. Two apps on one database are two gunicorn workers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Entry, Round, User
from pbp.services import accounts, rounds
from pbp.services.clock import FixedClock
from pbp.services.entry_desk import entry_desk
from pbp.web import database
from pbp.web.player import entries as entries_view
from tests.lifecycle.conftest import BACKENDS, empty_database
from tests.web.conftest import csrf_token, log_in, log_out, make_app
from tests.web.world import START, World, build_world

WRITING = START + timedelta(hours=1)
ATTACK = {"minor": "", "major": "attack", "weapon": "beam_rifle", "targets": "kagachi1"}


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path) -> Iterator[World]:
    with empty_database(request.param, tmp_path) as url:
        yield build_world(url, published=0)


def worker(world: World) -> Flask:
    return make_app(world.url, CLOCK=FixedClock(WRITING), LOGIN_RATE_LIMIT="1000 per minute")


def path(world: World) -> str:
    return f"/rounds/{world.open_round}/entry/{world.characters['aoi']}"


def save(client: FlaskClient, world: World, prose: str, token: str, **more: str) -> tuple[int, str]:
    response = client.post(path(world), data={"csrf_token": token, "prose": prose, **ATTACK, **more})
    return response.status_code, response.headers.get("Location", "")


def stored(app: Flask, world: World) -> str:
    with pbp_db.using(database.of(app)):
        return Entry.get(Entry.round == world.open_round, Entry.character == world.characters["aoi"]).prose


def saved_once(world: World, app: Flask, prose: str) -> tuple[FlaskClient, str]:
    """player1 signed in to `app` and saved `prose` once (the worker has read the version since): the client and
    its CSRF token."""
    client = app.test_client()
    assert log_in(client, "player1").status_code == 303
    token = csrf_token(client, path(world))
    assert save(client, world, prose, token)[0] == 303
    return client, token


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch):
    """`statements(app)`: the SQL the app's database runs from now on, in order."""

    def watch(app: Flask) -> list[str]:
        db, seen = database.of(app), []
        real = db.execute_sql
        monkeypatch.setattr(db, "execute_sql", lambda sql, *a, **kw: seen.append(sql) or real(sql, *a, **kw))
        return seen

    return watch


def test_a_re_save_reads_nothing_before_its_write(world, statements) -> None:
    app = worker(world)
    client, token = saved_once(world, app, "一度目")
    watched = statements(app)
    assert save(client, world, "二度目", token)[0] == 303
    sql = list(watched)
    assert stored(app, world) == "二度目"
    if "postgresql" in world.url:  # the signed-in user, the round and the version: all in the one statement
        assert len(sql) == 1 and sql[0].startswith("WITH still AS")
    else:  # SQLite: the version is read once, under the write lock
        reads = [i for i, s in enumerate(sql) if "site_version" in s]
        assert len(reads) == 1 and any(s.startswith(("INSERT", "UPDATE")) for s in sql[reads[0] :])
        assert not any(s.startswith(("SELECT", "WITH")) for s in sql[: reads[0]] if "site_version" not in s)


def test_a_logout_in_another_worker_refuses_the_next_save_and_stores_nothing(world) -> None:
    here, there = worker(world), worker(world)
    client, token = saved_once(world, here, "ログアウト前")
    elsewhere = there.test_client()
    elsewhere.set_cookie("session", client.get_cookie("session").value)
    log_out(elsewhere)
    status, location = save(client, world, "ログアウト後", token)
    assert status == 303 and location.startswith("/login") and "kept=1" in location  # the text parked, not saved
    assert stored(here, world) == "ログアウト前"


def test_a_preview_after_a_logout_elsewhere_shows_nothing(world) -> None:
    """A page made on an assumed reading is thrown away when the reading was wrong: the login page, not the entry."""
    here, there = worker(world), worker(world)
    client, token = saved_once(world, here, "見える")
    with pbp_db.using(database.of(there)):
        accounts.end_sessions(User.get(User.name == "player1").id)
    status, location = save(client, world, "プレビュー", token, preview="1")
    assert status == 303 and location.startswith("/login")  # its text kept for after the login


def test_a_round_closed_in_another_worker_refuses_the_save_with_the_form(world) -> None:
    here = worker(world)
    client, token = saved_once(world, here, "締切前")
    with pbp_db.using(database.of(worker(world))):
        rounds.close_round(world.open_round, clock=FixedClock(WRITING))
    response = client.post(path(world), data={"csrf_token": token, "prose": "閉じた後", **ATTACK})
    assert response.status_code == 422 and "閉じた後" in response.get_data(as_text=True)
    assert stored(here, world) == "締切前"


def test_a_change_elsewhere_that_leaves_the_order_valid_lets_the_save_through(world) -> None:
    """The version moved (another player renamed): the save is checked again as it is now, and stored."""
    here = worker(world)
    client, token = saved_once(world, here, "一度目")
    with pbp_db.using(database.of(worker(world))):
        User.update(display_name="改名").where(User.name == "player2").execute()
    assert save(client, world, "改名の後", token)[0] == 303
    assert stored(here, world) == "改名の後"


def test_a_late_refusal_on_a_wrong_assumption_builds_no_form(world, monkeypatch) -> None:
    """A late save whose worker's reading is out of date (another player renamed meanwhile): the refusal's page is
    made from the posted form alone (issue 33: a deadline's refusals cost next to nothing), so no entry desk is
    built at all, on the assumed reading or a fresh one; nothing is stored."""
    here = worker(world)
    client, token = saved_once(world, here, "締切前")
    with pbp_db.using(database.of(worker(world))):
        User.update(display_name="改名").where(User.name == "player2").execute()
        deadline = Round.get_by_id(world.open_round).deadline
    here.config["CLOCK"] = FixedClock(deadline.replace(tzinfo=UTC) + timedelta(seconds=1))
    made = []
    monkeypatch.setattr(entries_view, "entry_desk", lambda *a, **kw: made.append(1) or entry_desk(*a, **kw))
    response = client.post(path(world), data={"csrf_token": token, "prose": "締切後", **ATTACK})
    assert response.status_code == 422 and "締切後" in response.get_data(as_text=True)
    assert made == [] and stored(here, world) == "締切前"
