"""The security suite's world: the demo (tests/web/world.py) with a rival campaign and its GM (`gm2`), a co-GM, and
the states that show every form of the site: a run with free places and a character not yet signed up (the
sign-up form), a growth request waiting for the GM (the decision form), a scenario written in the console (its edit
form), a run whose first round is resolved and not published (the override form, and an ad-hoc check: its remove
form) and a run whose first round has a GM action (its delete form), and an account whose password the reset
form's tests set (`forgetful`)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask

from pbp import db as pbp_db
from pbp.models import Campaign, Character, User
from pbp.services import accounts, authoring, campaigns, characters, judging, rounds, scenarios, shaping
from pbp.services.clock import FixedClock
from pbp.services.demo import SCENARIO
from tests.web.conftest import _cheap_password_hashes, make_app  # noqa: F401 - the fixture applies here too
from tests.web.world import START, World, add_rival_campaign, build_world

OPEN_RUN = "tama-open"  # a run with free places: player1's second character may sign up
CONSOLE_SCENE = "console-scene"  # written in the console: its edit form
RESOLVED_ROUND = 4  # the first round of the run `tama-resolved`: resolved, not published (the override form)
PRISTINE = "pristine.sqlite3"  # the world as built, beside it (`pristine`)
SHAPED_ROUND = 5  # the first round of the run `tama-shaped`: a draft with one GM action (its delete form)
FORGETFUL = "forgetful"  # an account only the reset form's tests set passwords for


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    db = f"sqlite:///{tmp_path_factory.mktemp('security-db') / 'pbp.sqlite3'}"
    built = build_security_world(db, tmp_path_factory.mktemp("packs"))
    _copy(_file(built), _file(built).with_name(PRISTINE))
    return built


def build_security_world(url: str, packs: Path) -> World:
    """The security suite's world (this module's docstring) on the empty database `url` (SQLite or PostgreSQL)."""
    built = build_world(url)
    add_rival_campaign(built, packs)
    clock = FixedClock(START)
    with pbp_db.bind(built.url).connection_context():
        campaign = Campaign.get(Campaign.slug == "demo")
        # A webhook (never reached: nothing delivers the outbox here), so the settings page shows its test form.
        Campaign.update(webhook_url="http://127.0.0.1:9/hook").where(Campaign.id == campaign.id).execute()
        accounts.create_user(FORGETFUL, "a-forgotten-password", clock=clock)
        campaigns.create_scenario(campaign.id, SCENARIO, slug=OPEN_RUN, slots=4, clock=clock)
        player1 = User.get(User.name == "player1")
        sheet = {**campaign.pack["characters"]["aoi"], "ja": "予備機", "en": "Spare"}
        characters.create_character(campaign.id, player1.id, sheet, clock=clock)
        makoto = built.characters["makoto"]
        gm = User.get(User.name == "gm")
        characters.grant_growth_points(makoto, 10, reason="for the test", actor_id=gm.id, clock=clock)
        player2 = User.get(User.name == "player2")
        characters.request_growth(makoto, player2.id, {"射撃": 4}, note="<b>please</b>", clock=clock)
        # the points are gone again: the GM's approval is refused and the request stays pending for every test
        sheet = Character.get_by_id(makoto).sheet
        Character.update(sheet={**sheet, "growth_points": 0}).where(Character.id == makoto).execute()
        check = {"id": "plan", "skill": "知覚", "need": 2, "ja": "地図を読む", "en": "Read the map"}
        outcomes = {"success": {"ja": "抜け道", "en": "A way round"}, "failure": {"ja": "なし", "en": "Nothing"}}
        spec = {"ja": "作戦会議", "en": "Briefing", "kind": "scene", "checks": [{**check, **outcomes}]}
        authoring.create_scenario(campaign.id, CONSOLE_SCENE, spec, actor_id=gm.id, clock=clock)
        for run in ("tama-resolved", "tama-shaped"):
            scenario = campaigns.create_scenario(campaign.id, SCENARIO, slug=run, slots=4, clock=clock)
            for pc, name in (("aoi", "player1"), ("makoto", "player2")):
                user = User.get(User.name == name).id
                scenarios.join_scenario(scenario.id, built.characters[pc], user_id=user, clock=clock)
            first = rounds.create_round(scenario.id, START.replace(year=2027), actor_id=gm.id, clock=clock)
            if run == "tama-resolved":
                rounds.open_round(first.id, actor_id=gm.id, clock=clock)
                rounds.resolve_round(first.id, actor_id=gm.id, clock=clock)
                assert first.id == RESOLVED_ROUND
                # an ad-hoc check, so that the review shows the form that takes it away
                judging.add_adhoc_check(first.id, built.characters["aoi"], skill="情報処理", need=1,
                                        reason="listening in", actor_id=gm.id, clock=clock)  # fmt: skip
            else:
                shaping.record_action(first.id, "retreat", {"unit": "kagachi2"}, reason="the river", actor_id=gm.id)
                assert first.id == SHAPED_ROUND
    return built


def _copy(source: Path, target: Path) -> None:
    """A SQLite database copied whole (the backup API: what is still in the WAL comes too)."""
    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        old.backup(new)


def _file(world: World) -> Path:
    return Path(world.url.removeprefix("sqlite:///"))


@pytest.fixture
def pristine(world: World, tmp_path: Path) -> World:
    """A copy of the security world as it was built, for a test that must find every page as made: the session's
    world is changed by the tests that send forms (hypothesis may close a sign-up or withdraw an entry)."""
    return pristine_copy(world, tmp_path)


def pristine_copy(world: World, folder: Path) -> World:
    """`pristine`'s copy in `folder` (a module's tests that read it and change nothing share one)."""
    copy = folder / "pbp.sqlite3"
    _copy(_file(world).with_name(PRISTINE), copy)
    return replace(world, url=f"sqlite:///{copy}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/security/" in str(item.fspath):
            item.add_marker(pytest.mark.security)


def security_app(world: World) -> Flask:
    """The app under test; the login limit out of the way (its own test sets it low)."""
    return make_app(world.url, LOGIN_RATE_LIMIT="100000 per minute", MAIL=True)  # the reset form is shown
