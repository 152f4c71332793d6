"""Issue 31, deliverable 1, through the test client: the 要対応 panel at the top of `/gm/` and of a campaign's page
lists what needs the GM with its link, in ja and en, and nothing of a campaign the GM does not run."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Character, User
from pbp.services import campaigns, entries, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import make_app, signed_in
from tests.web.world import START, World, world_with_rival

NOW = START + timedelta(hours=30)  # six hours before the open round's deadline


@pytest.fixture
def world(tmp_path) -> World:
    return world_with_rival(tmp_path)


def _panel(world: World, url: str, *, user: str = "gm", lang: str = "en") -> str:
    page = signed_in(world.url, user, lang=lang, CLOCK=FixedClock(NOW)).get(url).get_data(as_text=True)
    found = re.search(r'<section class="desk".*?</section>', page, re.S)
    assert found, f"no panel on {url}"
    return unescape(re.sub(r"\s+", " ", found[0]))


def _withdraw(world: World, pc: str) -> None:
    with pbp_db.using(database.of(make_app(world.url))):
        character = Character.get_by_id(world.characters[pc])
        entries.withdraw_entry(world.open_round, character.id, user_id=character.owner_id, clock=FixedClock(NOW))


def test_a_calm_console_says_nothing_needs_the_gm(world):
    assert "Nothing needs you now." in _panel(world, "/gm/")
    assert "今、対応の必要なものはありません。" in _panel(world, "/gm/demo/", lang="ja")


def test_missing_entries_near_the_deadline_show_on_both_pages_with_the_rounds_link(world):
    _withdraw(world, next(iter(world.characters)))
    link = f'href="/gm/demo/rounds/{world.open_round}/"'
    for url in ("/gm/", "/gm/demo/"):
        panel = _panel(world, url)
        assert "Round 2 of" in panel and "1 of 2 entries missing" in panel and link in panel
    ja = _panel(world, "/gm/", lang="ja")
    assert "締切間近" in ja and "2人中1人のプレイングが未提出" in ja and link in ja
    assert "1 of 2" not in _panel(world, "/gm/", user="gm2")  # the rival's GM runs another campaign


def test_a_held_round_comes_first_with_its_release_link(world):
    with pbp_db.using(database.of(make_app(world.url))):
        gm = User.get(User.name == "gm").id
        rounds.hold_round(world.open_round, reason="待って", actor_id=gm, clock=FixedClock(NOW))
    panel = _panel(world, "/gm/demo/")
    assert re.search(r'<li class="desk-held">.*Held.*waits for your release', panel)
    assert f'href="/gm/demo/rounds/{world.open_round}/"' in panel
    assert "保留中" in _panel(world, "/gm/demo/", lang="ja")


def test_two_runs_of_one_scenario_are_told_apart_by_their_slugs(world):
    with pbp_db.using(database.of(make_app(world.url))):
        gm = User.get(User.name == "gm").id
        clock = FixedClock(NOW)
        rounds.hold_round(world.open_round, reason="待って", actor_id=gm, clock=clock)
        demo = Campaign.get(Campaign.slug == "demo").id
        again = campaigns.create_scenario(demo, "tama_river", slug="tama-again", clock=clock)
        second = rounds.create_round(again.id, NOW + timedelta(hours=2), actor_id=gm, clock=clock)
        rounds.hold_round(second.id, reason="待って", actor_id=gm, clock=clock)
    panel = _panel(world, "/gm/demo/")
    assert "(tama_river)" in panel and "(tama-again)" in panel
