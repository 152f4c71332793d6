"""The blog's reader pages keep what a published round's page computes (pbp.web.blog.cache) and never show a stale
copy: a correction or an edited character sheet shows at once on the cached pages; the load test's bare `/hello`
is served only when its setting is on."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest

from pbp import db as pbp_db
from pbp.models import Character, User
from pbp.services import characters, publishing
from pbp.services.clock import FixedClock
from pbp.web.blog import queries
from tests.web.conftest import make_app
from tests.web.world import START, World, build_world

REPORT = "/blog/demo/tama_river/round-1/"


@pytest.fixture
def fresh(tmp_path) -> World:
    """A world of its own: these tests change its published report and characters."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=1, open_after=False)


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def test_the_hello_route_is_off_by_default(world):
    assert make_app(world.url).test_client().get("/hello").status_code == 404


def test_the_hello_route_answers_when_the_load_test_turns_it_on(world):
    response = make_app(world.url, LOADTEST_HELLO=True).test_client().get("/hello")
    assert response.status_code == 200 and response.get_data(as_text=True) == "hello"


def test_a_report_page_is_computed_once_then_served_from_the_cache(fresh):
    client = make_app(fresh.url, PAGE_CACHE_BYTES=0).test_client()  # the parts' cache, not the whole page's
    with mock.patch.object(queries, "_report_parts", wraps=queries._report_parts) as parts:
        first, second = page(client, REPORT), page(client, REPORT)
    assert first == second
    assert parts.call_count == 1


def test_a_correction_shows_at_once_on_the_cached_index_and_report_page(fresh):
    client = make_app(fresh.url).test_client()
    before_index, before_report = page(client, "/blog/"), page(client, REPORT)  # both cached now
    with pbp_db.bind(fresh.url).connection_context():
        gm = User.get(User.name == "gm")
        publishing.correct_report(
            fresh.published[0],
            "誤字を直しました。",
            "訂正後の物語、霧の多摩川にて。",
            actor_id=gm.id,
            clock=FixedClock(START + timedelta(days=3)),
        )
    index, report = page(client, "/blog/"), page(client, REPORT)
    assert "訂正後の物語、霧の多摩川にて。" in index and "訂正後の物語" not in before_index  # the card's excerpt
    assert '<meta name="description" content="訂正後の物語、霧の多摩川にて。">' in report
    assert "誤字を直しました。" in report and "誤字を直しました。" not in before_report


def test_an_edited_character_name_shows_at_once_on_the_cached_pages(fresh):
    client = make_app(fresh.url).test_client()
    page(client, "/blog/"), page(client, REPORT)
    with pbp_db.bind(fresh.url).connection_context():
        character = Character.get_by_id(fresh.characters["aoi"])
        sheet = {**character.sheet, "ja": "改名した葵"}
        characters.edit_character(character.id, character.owner_id, sheet, clock=FixedClock(START + timedelta(days=3)))
    assert "改名した葵" in page(client, "/blog/")
    assert "改名した葵" in page(client, REPORT)
