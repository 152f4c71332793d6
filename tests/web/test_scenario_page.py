"""A scenario's page: its public face only (never the GM's notes or a secret gimmick), who takes part and who waits,
the lottery, joining, leaving and the waitlist moving up, in Japanese and English."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Campaign, Character, Participation, User
from pbp.packs import demo_pack
from pbp.services import accounts, campaigns, characters, scenarios
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import START, World, build_world

NOW = START + timedelta(days=2, hours=1)  # build_world's open round takes entries


@pytest.fixture
def world(tmp_path) -> World:
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def app_for(world: World) -> Flask:
    return make_app(world.url, CLOCK=FixedClock(NOW), LOGIN_RATE_LIMIT="1000 per minute")


def client_of(app: Flask, name: str | None, lang: str = "ja") -> FlaskClient:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    if name:
        assert log_in(client, name).status_code == 303
    return client


def new_run(app: Flask, slug: str, *, slots: int, signup_in: timedelta | None = None) -> str:
    """Another run of the demo battle in the world, and each demo player's character again, free to sign up."""
    with pbp_db.using(database.of(app)):
        campaign = Campaign.get(Campaign.slug == "demo")
        deadline = NOW + signup_in if signup_in else None
        clock = FixedClock(NOW)
        campaigns.create_scenario(campaign.id, "tama_river", slug=slug, slots=slots, signup_deadline=deadline,
                                  clock=clock)  # fmt: skip
    return f"/campaigns/demo/scenarios/{slug}/"


def post(client: FlaskClient, url: str, action: str, character: int) -> int:
    data = {"csrf_token": csrf_token(client, url), "character": str(character)}
    return client.post(url + action, data=data).status_code


def statuses(app: Flask, slug: str) -> dict[int, str]:
    with pbp_db.using(database.of(app)):
        from pbp.models import Scenario

        run = Scenario.get(Scenario.slug == slug)
        return {p.character_id: p.status for p in Participation.select().where(Participation.scenario == run.id)}


PUBLIC_FACE = [
    ("ja", ("多摩川防衛戦", "川霧", "参加者")),
    ("en", ("The Battle of the Tama River", "River fog", "Taking part")),
]


@pytest.mark.parametrize(("lang", "words"), PUBLIC_FACE)
def test_the_page_shows_the_public_face_and_never_the_gms_notes(world, lang, words) -> None:
    app = app_for(world)
    html = client_of(app, None, lang).get("/campaigns/demo/scenarios/tama_river/").get_data(as_text=True)
    assert all(w in html for w in words)
    assert "<dt>川霧</dt>" in html or "<dt>River fog</dt>" in html  # the public gimmick, by name
    with pbp_db.using(database.of(app)):
        notes = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["tama_river"]["gm_notes"]
    assert all(line.strip() not in html for line in notes.splitlines() if line.strip())
    assert "古カガチ" not in html and "[1000, 300]" not in html
    # under way (round 1 is past): no invitation to take part beside "it takes no new characters"
    assert "第1ラウンドから進行中" in html or "Under way since round 1" in html
    assert "ログインして参加する" not in html and "Log in to take part" not in html
    fresh = client_of(app, None, lang).get("/campaigns/demo/scenarios/hangar_eve/").get_data(as_text=True)
    assert "ログインして参加する" in fresh or "Log in to take part" in fresh  # one that has not begun


def test_a_secret_gimmick_never_shows(world) -> None:
    app = app_for(world)
    with pbp_db.using(database.of(app)):
        campaign = Campaign.get(Campaign.slug == "demo")
        pack = campaign.pack
        pack["scenarios"]["tama_river"]["gimmicks"][0]["public"] = False
        Campaign.update(pack=pack).where(Campaign.id == campaign.id).execute()
    html = client_of(app, None).get("/campaigns/demo/scenarios/tama_river/").get_data(as_text=True)
    assert "<dt>川霧</dt>" not in html and "濃い川霧" not in html


def test_the_entry_form_is_linked_for_a_joined_character_with_an_open_round(world) -> None:
    html = client_of(app_for(world), "player1").get("/campaigns/demo/scenarios/tama_river/").get_data(as_text=True)
    assert f'href="/rounds/{world.open_round}/entry/{world.characters["aoi"]}"' in html
    assert f'/entry/{world.characters["makoto"]}"' not in html  # another player's


def test_join_full_waitlist_leave_and_the_waitlist_moves_up(world) -> None:
    app = app_for(world)
    url = new_run(app, "tama-solo", slots=1)
    one, two = client_of(app, "player1"), client_of(app, "player2", "en")
    aoi, makoto = world.characters["aoi"], world.characters["makoto"]
    assert post(one, url, "join", aoi) == 303
    html = two.get(url).get_data(as_text=True)
    assert "All slots are taken" in html
    assert post(two, url, "join", makoto) == 303
    assert statuses(app, "tama-solo") == {aoi: "joined", makoto: "waitlisted"}
    assert "place 1" in two.get(url).get_data(as_text=True)
    assert post(two, url, "leave", aoi) == 403  # not theirs
    assert post(one, url, "leave", aoi) == 303
    assert statuses(app, "tama-solo") == {makoto: "joined"}


def test_a_refused_sign_up_says_why_on_the_page(world) -> None:
    app = app_for(world)
    url = "/campaigns/demo/scenarios/tama_river/"
    client = client_of(app, "player1")
    response = client.post(url + "join", data={"csrf_token": csrf_token(client, url), "character": "x"})
    assert response.status_code == 422 and "キャラクターを選んでください" in response.get_data(as_text=True)
    response = client.post(url + "join", data={"csrf_token": csrf_token(client, url), "character": "1"})
    assert response.status_code == 409 and "すでに多摩川防衛戦に参加申し込み" in response.get_data(as_text=True)


def test_the_lottery_is_shown_with_its_seed_and_the_waitlist_in_order(world) -> None:
    app = app_for(world)
    url = new_run(app, "tama-lot", slots=1, signup_in=timedelta(hours=1))
    with pbp_db.using(database.of(app)):
        sheet = Campaign.get(Campaign.slug == "demo").pack["characters"]["makoto"]
        campaign = Campaign.get(Campaign.slug == "demo").id
        from pbp.models import Scenario

        run = Scenario.get(Scenario.slug == "tama-lot")
        for i in range(3):
            user = accounts.create_user(f"lot{i}", "lottery-password", clock=FixedClock(NOW))
            cid = characters.create_character(campaign, user.id, {**sheet, "ja": f"籤{i}", "en": f"Lot {i}"}).id
            scenarios.join_scenario(run.id, cid, user_id=user.id, clock=FixedClock(NOW))
        scenarios.close_signup(run.id, clock=FixedClock(NOW + timedelta(hours=1)))
        seed = Scenario.get_by_id(run.id).lottery_seed
        queue = [Character.get_by_id(c).sheet["en"] for c in scenarios.waitlist(Scenario.get_by_id(run.id))]
    html = client_of(app, None, "en").get(url).get_data(as_text=True)
    assert "Drawn by lottery at" in html and seed in html
    waitlist = html.split('<ol class="waitlist">', 1)[1].split("</ol>", 1)[0]
    assert [name for name in queue if name in waitlist] == queue
    assert waitlist.index(queue[0]) < waitlist.index(queue[1])
    assert User.select().count() >= 6


@pytest.mark.parametrize(
    ("lang", "create"), [("ja", "キャラクターを作って参加する"), ("en", "Create a character to take part")]
)
def test_a_player_without_a_character_is_led_to_make_one(world, lang, create) -> None:
    """A newcomer signed in on a scenario's page has nothing to sign up with: the page leads to the character sheet
    of the campaign instead of showing nothing; home offers it for every campaign. A player with a character free
    to sign up sees the form instead."""
    app = app_for(world)
    with pbp_db.using(database.of(app)):
        accounts.create_user("newcomer", "a-long-password")
    url = new_run(app, "run-new", slots=4)
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert log_in(client, "newcomer", "a-long-password").status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert f'<a class="button primary" href="/campaigns/demo/characters/new">{create}</a>' in page
    assert 'name="character"' not in page
    home = client.get("/").get_data(as_text=True)
    assert 'href="/campaigns/demo/characters/new">' in home
    player = client_of(app, "player1", lang).get(url).get_data(as_text=True)
    assert create not in player and 'id="join-character"' in player
    assert 'characters/new"' not in client_of(app, None, lang).get("/").get_data(as_text=True)


@pytest.mark.parametrize(("lang", "check"), [("ja", "ムラクモの関節を夜通し修理する (整備)"), ("en", "(Maintenance)")])
def test_a_scenes_checks_name_their_skill_in_the_pages_language(world, lang, check) -> None:
    page = client_of(app_for(world), None, lang).get("/campaigns/demo/scenarios/hangar_eve/").get_data(as_text=True)
    shown = re.sub(r"<[^>]+>", "", page)
    assert check in shown and (lang == "ja" or "(整備)" not in shown)
    # the pack's description in the page's language (`description_en` on English pages), so never marked Japanese
    hangar = demo_pack().data["scenarios"]["hangar_eve"]
    first_line = hangar["description_en" if lang == "en" else "description"].strip().splitlines()[0][:40]
    assert f'<div class="story"><p>{first_line}' in page
