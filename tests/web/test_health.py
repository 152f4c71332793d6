"""`/healthz`: 200 while the database answers, 503 when it does not; `degraded` when the scheduler's last tick is
stale, or missing while something is due."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbp import db as pbp_db
from pbp.models import Scenario
from pbp.services import rounds, scenarios, schedule
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import make_app
from tests.web.world import build_world


def _world_app(tmp_path, **config):
    """An app on a world of its own, and a way to call services on its database."""
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)
    app = make_app(world.url, **config)
    return app, lambda: pbp_db.using(database.of(app))


def test_a_fresh_tick_is_ok(tmp_path):
    app, db = _world_app(tmp_path)
    with db():
        schedule.record_tick(clock=FixedClock(datetime.now(UTC) - timedelta(seconds=30)))
    response = app.test_client().get("/healthz")
    body = response.get_json()
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    assert body["status"] == "ok" and body["db"] == "ok"
    assert 30 <= body["scheduler"]["age_s"] < 600
    assert datetime.strptime(body["scheduler"]["last_tick"], "%Y-%m-%dT%H:%M:%SZ")


def test_a_stale_tick_is_degraded_but_answers_200(tmp_path):
    app, db = _world_app(tmp_path, SCHEDULER_STALE_AFTER=300)
    with db():
        schedule.record_tick(clock=FixedClock(datetime.now(UTC) - timedelta(minutes=10)))
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_json()["status"] == "degraded" and response.get_json()["scheduler"]["age_s"] >= 600


def test_no_tick_is_ok_while_nothing_is_due_and_degraded_once_something_is(tmp_path):
    app, db = _world_app(tmp_path)
    client = app.test_client()
    assert client.get("/healthz").get_json() == {
        "status": "ok",
        "db": "ok",
        "scheduler": {"last_tick": None, "age_s": None},
        "overdue_rounds": [],
    }
    now = datetime.now(UTC)
    with db():  # a sign-up whose deadline passed an hour ago and that no tick closed
        scenario = Scenario.get(Scenario.slug == "hangar_eve")
        scenarios.set_signup_deadline(scenario.id, now - timedelta(hours=1), clock=FixedClock(now - timedelta(hours=2)))
    assert client.get("/healthz").get_json()["status"] == "degraded"
    with db():
        schedule.tick()  # closes it, and records the tick
    assert client.get("/healthz").get_json()["status"] == "ok"


def test_a_database_that_does_not_answer_is_503(tmp_path):
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    response = make_app(f"sqlite:///{broken}").test_client().get("/healthz")
    body = response.get_json()
    assert response.status_code == 503
    assert body == {"status": "degraded", "db": "error: file is not a database", "scheduler": body["scheduler"]}
    assert body["scheduler"] == {"last_tick": None, "age_s": None}


def test_a_round_overdue_is_listed_and_degraded(tmp_path):
    """A round still open more than ROUND_OVERDUE_AFTER past its deadline: the scheduler is not keeping up
    (degraded, the round listed); once it is dealt with (here: a new deadline), ok again."""
    app, db = _world_app(tmp_path, ROUND_OVERDUE_AFTER=600)
    client = app.test_client()
    now = datetime.now(UTC)
    with db():  # a round whose deadline passed 20 minutes ago, still open
        past = FixedClock(now - timedelta(hours=1))
        scenario = Scenario.get(Scenario.slug == "tama_river")
        rid = rounds.create_round(scenario.id, now - timedelta(minutes=20), clock=past).id
        rounds.open_round(rid, clock=past)
        schedule.record_tick()
    body = client.get("/healthz").get_json()
    assert body["status"] == "degraded" and body["overdue_rounds"] == [rid]
    with db():
        rounds.extend_round(rid, now + timedelta(hours=1))
    body = client.get("/healthz").get_json()
    assert body["status"] == "ok" and body["overdue_rounds"] == []
