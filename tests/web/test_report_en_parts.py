"""The GM's intro and outro on the English report page: the English story never carries them, so one written in
Japanese only is shown as it is, set apart (`lang="ja"`) with a line saying it is the GM's original, never dropped
without a word; an English one is shown beside the generated story, not beside the GM's own English story."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from pbp import db as pbp_db
from pbp.models import User
from pbp.services import publishing
from pbp.services.clock import FixedClock
from tests.web.conftest import make_app
from tests.web.world import START, World, build_world

EN_PAGE = "/blog/demo/tama_river/round-1/en/"
NOTE = "The GM's original, in Japanese (not translated):"
INTRO = "川霧の朝、第三小隊は堤防に集結した。**全機、無事に帰れ。**"
LATER = FixedClock(START + timedelta(days=5))


@pytest.fixture
def world(tmp_path) -> World:
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=1, open_after=False)


def _correct(world: World, **parts: str) -> None:
    with pbp_db.using(pbp_db.bind(world.url)):
        gm = User.get(User.name == "gm").id
        publishing.correct_report(world.published[0], "前書きと後書きを足した", actor_id=gm, clock=LATER, **parts)


def _english(world: World) -> str:
    client = make_app(world.url, CLOCK=LATER).test_client()
    response = client.get(EN_PAGE)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _section(html: str, name: str) -> str | None:
    found = re.search(rf'<section class="{name}[ "].*?</section>', html, re.S)
    return found[0] if found else None


def test_a_japanese_intro_is_shown_set_apart_as_the_gms_original(world: World) -> None:
    before = _english(world)
    assert _section(before, "intro") is None and NOTE not in before  # no intro: nothing said
    _correct(world, intro=INTRO, outro="Thank you for playing. See you at the levee.")
    html = _english(world)
    intro = _section(html, "intro")
    assert intro is not None and NOTE in intro
    assert re.search(
        r'<div lang="ja"><p>川霧の朝、第三小隊は堤防に集結した。<strong>全機、無事に帰れ。</strong></p>', intro
    )
    outro = _section(html, "outro")  # an English outro beside the generated story: shown plainly
    assert outro is not None and "See you at the levee." in outro and NOTE not in outro and 'lang="ja"' not in outro
    assert html.index("川霧の朝") < html.index("See you at the levee.")  # the intro before the story, the outro after


def test_beside_the_gms_own_english_story_only_the_japanese_parts_are_added(world: World) -> None:
    _correct(world, intro="A foggy morning on the Tama.", outro="川霧が晴れた。", story_en="The GM's own telling.")
    html = _english(world)
    assert "The GM's own telling." in html
    assert _section(html, "intro") is None and "A foggy morning" not in html  # the GM's English story has its own
    outro = _section(html, "outro")
    assert outro is not None and NOTE in outro and '<div lang="ja"><p>川霧が晴れた。</p>' in outro


def test_the_japanese_page_is_unchanged(world: World) -> None:
    _correct(world, intro=INTRO)
    client = make_app(world.url, CLOCK=LATER).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ja"
    html = client.get("/blog/demo/tama_river/round-1/").get_data(as_text=True)
    assert "川霧の朝" in html and NOTE not in html and "GMによる原文" not in html


def test_the_note_is_said_in_english_on_a_japanese_browser_too(world: World) -> None:
    """The English page is English whatever the browser asks for: its note too."""
    _correct(world, intro=INTRO)
    client = make_app(world.url, CLOCK=LATER).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ja"
    html = client.get(EN_PAGE).get_data(as_text=True)
    assert NOTE in html
