"""Issue 31, deliverable 8, the audit log: each row said as a sentence in the page's language, naming rounds by
their number and scenario, characters and people by name, times in the campaign's zone; the action code and the
target as stored only on the row's details line; a row of an action without words keeps its code and detail."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Character, Scenario, User
from pbp.services import audit, campaign_settings, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import make_app, signed_in
from tests.web.world import START, World, world_with_rival

NOW = START + timedelta(hours=30)


@pytest.fixture
def world(tmp_path) -> World:
    built = world_with_rival(tmp_path)
    clock = FixedClock(NOW)
    with pbp_db.using(database.of(make_app(built.url))):
        demo = Campaign.get(Campaign.slug == "demo")
        gm = User.get(User.name == "gm").id
        campaign_settings.change(demo.id, actor_id=gm, clock=clock, publish_automatically=True, hold_share=0.25)
        rounds.hold_round(built.open_round, reason="道が<崩れた>", actor_id=gm, clock=clock)
        葵 = Character.get(Character.name == "葵")
        scenario = Scenario.get(Scenario.slug == "tama_river")
        audit.log(
            "scenario.roster", f"scenario:{scenario.id}", clock.now(), actor_id=gm, character=葵.id, move="remove"
        )
        audit.log("test.unworded", f"scenario:{scenario.id}", clock.now(), n=7, empty={})
    return built


def _sentences(world: World, lang: str) -> list[tuple[str, str]]:
    page = signed_in(world.url, "gm", lang=lang).get("/gm/demo/audit").get_data(as_text=True)
    cells = re.findall(r'<td class="audit-detail">(.*?)<br><span class="meta details"><code>(.*?)</code>', page)
    return [(unescape(said), unescape(code)) for said, code in cells]


def test_the_log_reads_as_sentences_in_english(world):
    said = _sentences(world, "en")
    sentences = [s for s, _code in said]
    assert "took 葵 off The Battle of the Tama River" in sentences
    assert "held round 2 of The Battle of the Tama River: 道が<崩れた>" in sentences
    assert "set the guard: a round is held when more than 25% of its entries are missing" in sentences
    assert "switched automatic publication on: rounds are published as soon as they are resolved" in sentences
    assert "opened round 2 of The Battle of the Tama River for entries" in sentences
    assert "created round 2 of The Battle of the Tama River, its deadline at 2026-12-03 09:00 (Asia/Tokyo)" in sentences
    worded = [s for s, code in said if not code.startswith("test.")]
    assert not [s for s in worded if re.search(r"\w+=|round:\d|\{'|\.(open|hold|publish)\b", s)]
    assert ("round.hold · round:2") in [code for _s, code in said]  # the codes stay, on the details line


def test_the_log_reads_as_sentences_in_japanese(world):
    sentences = [s for s, _code in _sentences(world, "ja")]
    assert "葵を「多摩川防衛戦」の参加者から外しました" in sentences
    assert "「多摩川防衛戦」第2ラウンドを保留にしました：道が<崩れた>" in sentences
    assert "自動公開をオンにしました：ラウンドは処理後すぐに公開されます" in sentences
    assert "「多摩川防衛戦」第2ラウンドのプレイング受付を始めました" in sentences


def test_an_action_without_words_keeps_its_code_and_detail(world):
    assert ("test.unworded", "test.unworded · scenario:2 · n=7") in _sentences(world, "en")  # `empty` left out
