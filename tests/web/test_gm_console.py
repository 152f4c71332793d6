"""The GM console's front door: who reaches it, the campaign overview, and the owner's co-GMs (issue 10, item 1)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Campaign, User
from pbp.services import gms
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import World, world_with_rival


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test: these tests change who runs the campaign."""
    return world_with_rival(tmp_path)


def _as(world: World, name: str) -> FlaskClient:
    return signed_in(world.url, name)


def _user_id(world: World, name: str) -> int:
    with pbp_db.using(database.of(make_app(world.url))):
        return User.get(User.name == name).id


def test_a_gm_sees_only_the_campaigns_they_run(world):
    page = _as(world, "gm2").get("/gm/").get_data(as_text=True)
    assert "/gm/rival/" in page and "/gm/demo/" not in page
    assert _as(world, "gm2").get("/gm/demo/").status_code == 403


def test_the_overview_lists_scenarios_rounds_and_gms(world):
    page = _as(world, "gm").get("/gm/demo/").get_data(as_text=True)
    assert "tama_river" in page and "CoGM" in page
    assert page.count("<tr>") >= 3  # the header and both rounds of the demo scenario
    assert 'action="/gm/demo/gms"' in page  # the owner may add co-GMs


def test_the_header_links_the_console_for_gms_only(world):
    assert 'href="/gm/"' in _as(world, "cogm").get("/me").get_data(as_text=True)
    assert 'href="/gm/"' not in _as(world, "player1").get("/me").get_data(as_text=True)


def test_the_owner_adds_a_co_gm_who_then_reaches_the_console(world):
    owner = _as(world, "gm")
    response = owner.post("/gm/demo/gms", data={"user_name": "player2", "csrf_token": csrf_token(owner, "/gm/demo/")})
    assert response.status_code == 303 and response.headers["Location"].endswith("/gm/demo/?done=gm_added")
    assert "共同GMを追加しました" in owner.get(response.headers["Location"]).get_data(as_text=True)  # a Japanese page
    assert _as(world, "player2").get("/gm/demo/").status_code == 200
    with pbp_db.using(database.of(make_app(world.url))):
        assert AuditLog.select().where(AuditLog.action == "gm.add").count() == 2  # cogm by the world, player2 here


def test_an_unknown_user_is_named_beside_the_field_and_the_text_kept(world):
    owner = _as(world, "gm")
    data = {"user_name": "nobody-here", "csrf_token": csrf_token(owner, "/gm/demo/")}
    response = owner.post("/gm/demo/gms", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and 'value="nobody-here"' in page
    assert "ユーザー「nobody-here」は見つかりません" in page


def test_a_co_gm_may_not_add_or_remove_gms(world):
    cogm = _as(world, "cogm")
    page = cogm.get("/gm/demo/").get_data(as_text=True)
    assert 'action="/gm/demo/gms"' not in page
    token = csrf_token(cogm, "/gm/demo/")
    assert cogm.post("/gm/demo/gms", data={"user_name": "player2", "csrf_token": token}).status_code == 403
    cogm_id = _user_id(world, "cogm")
    assert cogm.post(f"/gm/demo/gms/{cogm_id}/remove", data={"csrf_token": token}).status_code == 403


def test_the_owner_removes_a_co_gm_who_then_is_refused(world):
    owner = _as(world, "gm")
    cogm_id = _user_id(world, "cogm")
    token = csrf_token(owner, "/gm/demo/")
    assert owner.post(f"/gm/demo/gms/{cogm_id}/remove", data={"csrf_token": token}).status_code == 303
    assert _as(world, "cogm").get("/gm/demo/").status_code == 403
    owner_id = _user_id(world, "gm")
    assert owner.post(f"/gm/demo/gms/{owner_id}/remove", data={"csrf_token": token}).status_code == 404


def test_a_co_gm_decides_growth_and_a_rival_gm_may_not(world):
    """The service checks too (not only the page): `is_gm` for co-GMs, refused for the GM of another campaign."""
    with pbp_db.using(database.of(make_app(world.url))):
        demo = Campaign.get(Campaign.slug == "demo")
        assert gms.is_gm(demo.id, User.get(User.name == "cogm").id)
        assert not gms.is_gm(demo.id, User.get(User.name == "gm2").id)
        assert gms.gm_ids(demo.id) == {User.get(User.name == n).id for n in ("gm", "cogm")}


NAMES = {
    "ja": ("ヤマツカミ迎撃戦線", "多摩川防衛戦"),
    "en": ("The Yamatsukami Interception Line", "The Battle of the Tama River"),
}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("url", "has_scenario"),
    [
        ("/gm/", False),
        ("/gm/demo/", True),
        ("/gm/demo/rounds/1/", True),
        ("/gm/demo/scenarios/tama_river/rounds/new", True),
    ],
)
def test_the_console_names_campaigns_and_scenarios_in_the_pages_language(world, url, has_scenario, lang):
    """The database holds the pack's Japanese names; an English page shows the pack's English ones, as the player's
    and the reader's pages do."""
    page = _as(world, "gm").get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    campaign, scenario = NAMES[lang]
    other = NAMES["ja" if lang == "en" else "en"]
    assert campaign in page and (scenario in page or not has_scenario)
    assert other[0] not in page and other[1] not in page


def test_the_report_page_is_titled_in_the_pages_language(world):
    """The report page holds the Japanese story too (its textarea), so only its title and heading are read."""
    page = _as(world, "gm").get("/gm/demo/rounds/1/report", headers={"Accept-Language": "en"}).get_data(as_text=True)
    title = page.split("<title>")[1].split("</title>")[0]
    assert "The Battle of the Tama River" in title and "多摩川" not in title
