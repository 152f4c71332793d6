"""The home page a player lands on after logging in: first the entries they may write now, each a link to its form,
in the page's language; nobody else's, and none once the deadline has passed."""

from __future__ import annotations

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Character
from pbp.packs import demo_pack
from pbp.services.clock import FixedClock
from pbp.services.entries import withdraw_entry
from pbp.web import database
from tests.web.test_entries import LATE, WRITING, app_at, page, signed_in, url
from tests.web.world import World, build_world


@pytest.fixture
def world(tmp_path) -> World:
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def _due(html: str) -> str:
    """The page's "your entries" section, or "" when it has none."""
    start = html.find('<section class="due-entries"')
    return html[start : html.index("</section>", start)] if start >= 0 else ""


@pytest.mark.parametrize(
    ("lang", "edit", "saved"),
    [("ja", "葵のプレイングを編集する", "に保存"), ("en", "Edit the entry of Aoi", "saved at ")],
)
def test_a_saved_entry_is_offered_for_editing_with_its_deadline(world: World, lang, edit, saved) -> None:
    due = _due(page(signed_in(app_at(world, WRITING), lang=lang), "/"))
    assert f'<a class="button" href="{url(world)}">{edit}</a>' in due and saved in due
    assert 'class="countdown" datetime="2026-12-04T00:00:00Z"' in due
    assert "真琴" not in due and "Makoto" not in due  # another player's character


@pytest.mark.parametrize(
    ("lang", "write", "missing"),
    [("ja", "葵のプレイングを書く", "未提出"), ("en", "Write the entry of Aoi", "not written yet")],
)
def test_an_entry_not_written_is_the_pages_first_call(world: World, lang, write, missing) -> None:
    app = app_at(world, WRITING)
    with pbp_db.using(database.of(app)):
        owner = Character.get_by_id(world.characters["aoi"]).owner_id
        withdraw_entry(world.open_round, world.characters["aoi"], user_id=owner, clock=FixedClock(WRITING))
    due = _due(page(signed_in(app, lang=lang), "/"))
    assert f'<a class="button primary" href="{url(world)}">{write}</a>' in due and f"<strong>{missing}</strong>" in due


def test_nothing_is_due_after_the_deadline_or_for_a_reader_who_is_shown_the_game_data(world: World) -> None:
    assert _due(page(signed_in(app_at(world, LATE)), "/")) == ""
    assert _due(page(app_at(world, WRITING).test_client(), "/")) == ""
    home = page(app_at(world, WRITING).test_client(), "/")
    assert "<h1>キャンペーン</h1>" in home and '<a href="/campaigns/demo/data/">ゲームデータ</a>' in home


@pytest.mark.parametrize(
    ("lang", "how"), [("ja", "参加受付中のシナリオに参加しましょう"), ("en", "sign it up for a scenario")]
)
def test_a_visitor_is_told_how_to_take_part_and_what_each_campaign_is_about(world: World, lang, how) -> None:
    """Someone who has never been here learns what the site is and how to join, and each campaign's premise (the
    pack's description, as its blog page shows it); a signed-in player is not told again."""
    client = app_at(world, WRITING).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    visitor = page(client, "/")
    about = demo_pack().data["campaign"]
    premise = '<p class="lead premise">' + about["description_en" if lang == "en" else "description"].strip()[:12]
    assert how in visitor and premise in visitor
    player = page(signed_in(app_at(world, WRITING), lang=lang), "/")
    assert how not in player and premise in player


def test_a_premise_without_english_is_marked_japanese_on_an_english_page(world: World) -> None:
    """A pack that gives no `description_en` shows its Japanese on English pages, marked so that the browser picks
    Japanese glyphs."""
    with pbp_db.using(database.of(app_at(world, WRITING))):
        campaign = Campaign.get(Campaign.slug == "demo")
        del campaign.pack["campaign"]["description_en"]
        campaign.save()
    client = app_at(world, WRITING).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert '<p class="lead premise" lang="ja">二〇三X年、関東平野。' in page(client, "/")
