"""A scene's pages show no battlefield (issue 29): its published report and the GM's review have no map, and its
entry form offers the scene's checks at once, without the battle's controls (move, full move, reload, the gauge to
take damage in, the map) or a radio button to open them behind; a battle's pages keep all of them."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Campaign, Character, User
from pbp.services import campaigns, entries, publishing, rounds, scenarios
from pbp.services.clock import FixedClock
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import START, World, build_world

#: The scene's rounds are played after build_world's: its open round closes at START + 2 days 12 hours.
CLOCK = FixedClock(START + timedelta(days=3))
SCENE = "eve"  # the slug of the demo's hangar_eve scene in this world
MAP = 'class="battlemap"'
#: The battle's controls on the entry form, by the field each one posts.
BATTLE_CONTROLS = ('name="minor"', 'name="major" value="full_move"', 'name="major" value="reload"', 'name="damage_to"')
PROSE = "【行動】\n格納庫で夜通し整備。\n【台詞】\n「明日はまっすぐ飛ぶはずや」\n【その他】\nアドリブ歓迎です。"


class SceneWorld(World):
    scene_published: int
    scene_open: int


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> SceneWorld:
    """The demo world (a battle round published, one open) and a scene of the demo's hangar: round 1 played with
    entries and published, round 2 open."""
    folder: Path = tmp_path_factory.mktemp("scene")
    built = build_world(f"sqlite:///{folder / 'pbp.sqlite3'}", published=1)
    with pbp_db.bind(built.url).connection_context():
        demo = Campaign.get(Campaign.slug == built.campaign)
        scene = campaigns.create_scenario(demo.id, "hangar_eve", slug=SCENE, clock=CLOCK)
        gm = User.get(User.name == "gm")
        cast = {}
        for name, check in (("player1", "repair"), ("player2", "concert")):
            user = User.get(User.name == name)
            character = Character.get(Character.owner == user, Character.campaign == demo.id)
            scenarios.join_scenario(scene.id, character.id, user_id=user.id, clock=CLOCK)
            cast[character.id] = (user.id, check)
        played = rounds.create_round(scene.id, CLOCK.now() + timedelta(hours=1), actor_id=gm.id, clock=CLOCK)
        rounds.open_round(played.id, actor_id=gm.id, clock=CLOCK)
        for character_id, (user_id, check) in cast.items():
            order = {"minor": None, "major": {"type": "check", "label": check, "item": None}}
            entries.save_entry(played.id, character_id, user_id=user_id, order=order, prose=PROSE, clock=CLOCK)
        later = FixedClock(CLOCK.now() + timedelta(hours=2))
        rounds.resolve_round(played.id, clock=later)
        publishing.publish_round(played.id, actor_id=gm.id, clock=later)
        after = FixedClock(later.now() + timedelta(hours=1))
        following = rounds.create_round(scene.id, after.now() + timedelta(hours=12), actor_id=gm.id, clock=after)
        rounds.open_round(following.id, actor_id=gm.id, clock=after)
    scene_world = SceneWorld(**vars(built))
    scene_world.scene_published, scene_world.scene_open = played.id, following.id
    return scene_world


def _client(world: World, name: str | None = None, lang: str = "ja", moment: FixedClock = CLOCK) -> FlaskClient:
    app = make_app(world.url, CLOCK=moment, LOGIN_RATE_LIMIT="1000 per minute")
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    if name:
        assert log_in(client, name).status_code == 303
    return client


def _page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def _entry_url(world: World, round_id: int, pc: str = "aoi") -> str:
    return f"/rounds/{round_id}/entry/{world.characters[pc]}"


WRITING = FixedClock(START + timedelta(days=3, hours=4))  # the scene's round 2 is open


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_scenes_report_has_no_map_and_a_battles_has_one(world, lang) -> None:
    client = _client(world, lang=lang)
    scene = _page(client, f"/blog/demo/{SCENE}/round-1/")
    battle = _page(client, f"/blog/demo/{world.scenario}/round-1/")
    assert MAP not in scene and 'class="battlefield"' not in scene
    assert MAP in battle and 'class="battlefield"' in battle
    assert "第三格納庫" in scene or "Hangar 3" in scene  # the scene told in its own setting


def test_the_gms_review_of_a_scene_has_no_map_and_of_a_battle_has_one(world) -> None:
    client = _client(world, "gm", lang="en")
    scene = _page(client, f"/gm/demo/rounds/{world.scene_published}/review")
    battle = _page(client, f"/gm/demo/rounds/{world.published[0]}/review")
    assert MAP not in scene and "The battlefield at the round's end" not in scene
    assert MAP in battle and "The battlefield at the round's end" in battle


@pytest.mark.parametrize(("lang", "legend"), [("ja", "シナリオの判定"), ("en", "The scenario's checks")])
def test_a_scenes_entry_form_offers_its_checks_at_once_and_no_battle_control(world, lang, legend) -> None:
    client = _client(world, "player1", lang=lang, moment=WRITING)
    form = _page(client, _entry_url(world, world.scene_open))
    assert legend in form
    assert MAP not in form and 'class="map"' not in form
    assert [c for c in BATTLE_CONTROLS if c in form] == []
    assert 'name="major"' not in form  # no radio button to open the checks behind
    offered = re.findall(r'name="check" value="(\w*)"', form)
    assert offered == ["", "repair", "petition", "procure", "analysis", "concert", "drill"]
    assert {"ja": "ムラクモの関節を夜通し修理する", "en": "Repair the Murakumo's joints through the night"}[
        lang
    ] in unescape(form)


def test_a_battles_entry_form_keeps_the_map_and_its_controls(world) -> None:
    client = _client(world, "player1", lang="en", moment=FixedClock(START + timedelta(days=2, hours=1)))
    form = _page(client, _entry_url(world, world.open_round))
    assert MAP in form
    assert all(c in form for c in ('name="minor"', 'name="major" value="attack"', 'name="major" value="full_move"'))
    assert 'name="check"' not in form


def test_a_check_chosen_on_the_scene_form_is_saved_as_the_rounds_action(world) -> None:
    client = _client(world, "player1", moment=WRITING)
    url = _entry_url(world, world.scene_open)
    data = {"csrf_token": csrf_token(client, url), "check": "analysis", "prose": "記録を洗い直す。"}
    assert client.post(url, data=data).status_code in (302, 303)
    form = _page(client, url)
    assert re.search(r'name="check" value="analysis" checked', form)
    data = {"csrf_token": csrf_token(client, url), "check": "", "prose": "今夜は何もしない。"}
    assert client.post(url, data=data).status_code in (302, 303)  # no check: the prose alone
    assert re.search(r'name="check" value="" checked', _page(client, url))
