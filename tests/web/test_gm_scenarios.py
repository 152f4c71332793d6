"""Scenarios in the GM's console (issue 10, item 2): written by form or imported from a scenario TOML (every
problem by its key, nothing stored on any), edited before the first round, the sign-up closed; a console scenario
plays like a pack scenario and its GM notes never reach a player's page or the blog. The pack upgrade with its
trial and the audit log are in tests/web/test_gm_pack_audit.py."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Campaign, Character, Round, Scenario, ScenarioSecret
from pbp.services import publishing, rounds, scenarios
from pbp.services.clock import FixedClock
from pbp.services.demo import PLAYERS, DemoPC, open_round_with_entries
from pbp.web import database
from tests.scenario_toml import SCENE
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

NEW = "/gm/demo/scenarios/new"
IMPORT = "/gm/demo/scenarios/import"
SECRET = "伏兵は北の堤防の陰に三体"

#: A battle as the form sends it: two enemies, rough ground, a timed-status gimmick.
BATTLE = {
    "slug": "night_raid",
    "ja": "夜襲",
    "en": "Night raid",
    "kind": "battle",
    "slots": "2",
    "description": "**夜**の河川敷。<script>alert(1)</script>",
    "gm_notes": SECRET,
    "pc_starts": "0, 0\n10, 0",
    "enemies-0-id": "e1",
    "enemies-0-type": "kagachi",
    "enemies-0-x": "40",
    "enemies-0-y": "0",
    "enemies-1-id": "e2",
    "enemies-1-type": "kagachi",
    "enemies-1-x": "45",
    "enemies-1-y": "10",
    "terrain-0-ja": "泥濘",
    "terrain-0-en": "Mud",
    "terrain-0-x1": "20",
    "terrain-0-y1": "-10",
    "terrain-0-x2": "30",
    "terrain-0-y2": "10",
    "terrain-0-rough": "0.5",
    "gimmicks-0-id": "smoke",
    "gimmicks-0-ja": "煙幕",
    "gimmicks-0-en": "Smoke",
    "gimmicks-0-timing": "round_start",
    "gimmicks-0-kind": "status",
    "gimmicks-0-status": "stun",
    "gimmicks-0-on": "area",
    "gimmicks-0-rounds": "1",
    "gimmicks-0-x1": "35",
    "gimmicks-0-y1": "-5",
    "gimmicks-0-x2": "50",
    "gimmicks-0-y2": "15",
}


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test (these tests add scenarios): one published round, one open."""
    return world_with_rival(tmp_path)


def _as(world: World, name: str) -> FlaskClient:
    return signed_in(world.url, name, lang="en")  # the assertions read the English messages


def _post(client: FlaskClient, url: str, data: dict[str, str], token_from: str | None = None):
    return client.post(url, data={**data, "csrf_token": csrf_token(client, token_from or url)})


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _scenario(world: World, slug: str) -> Scenario | None:
    with _db(world):
        return Scenario.get_or_none(Scenario.slug == slug)


def test_the_form_creates_a_battle_that_is_a_pack_scenario_in_all_but_its_source(world):
    gm = _as(world, "gm")
    assert gm.get(NEW).status_code == 200
    response = _post(gm, NEW, BATTLE)
    assert response.status_code == 303, response.get_data(as_text=True)
    with _db(world):
        made = Scenario.get(Scenario.slug == "night_raid")
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
        secret = ScenarioSecret.get(ScenarioSecret.scenario == made.id)
        logged = AuditLog.get(AuditLog.action == "scenario.create")
    assert (made.source, made.kind, made.slots, made.title) == ("console", "battle", 2, "夜襲")
    assert spec["enemies"][1] == {"id": "e2", "type": "kagachi", "position": [45, 10]}
    assert spec["terrain"] == [{"ja": "泥濘", "en": "Mud", "rect": [[20, -10], [30, 10]], "rough": 0.5}]
    assert spec["gimmicks"][0]["effects"] == [{"kind": "status", "id": "stun", "on": "area", "rounds": 1}]
    assert secret.gm_notes == SECRET and secret.setup == spec
    assert logged.campaign_id == made.campaign_id and logged.detail["source"] == "form"
    page = gm.get("/gm/demo/").get_data(as_text=True)
    assert "night_raid" in page and "/gm/demo/scenarios/night_raid/edit" in page


def test_a_refused_form_names_every_problem_beside_its_field_and_keeps_the_input(world):
    gm = _as(world, "gm")
    bad = {**BATTLE, "slug": "tama_river", "enemies-1-type": "", "terrain-0-rough": "2", "gimmicks-0-status": ""}
    response = _post(gm, NEW, bad)
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "enemies[1].type" in page and "terrain[0].rough" in page and "gimmicks[0].effects[0].id" in page
    assert "already has a scenario 'tama_river'" in page or "slug" in page
    assert 'value="夜襲"' in page and SECRET in page  # what was typed stays (the GM's own page)
    assert re.search(r'class="scen-cell invalid">\s*<label for="terrain-0-rough"', page)
    assert _scenario(world, "night_raid") is None


def test_a_taken_slug_is_refused(world):
    response = _post(_as(world, "gm"), NEW, {**BATTLE, "slug": "tama_river"})
    assert response.status_code == 422 and "already has a scenario" in unescape(response.get_data(as_text=True))


def test_a_slug_that_is_not_one_is_refused_with_the_rule_in_the_pages_language(world):
    """The slug rule is said in the page's language (it stood in English inside the Japanese sentence)."""
    gm = signed_in(world.url, "gm", lang="ja")
    page = unescape(_post(gm, NEW, {**BATTLE, "slug": "夜襲!"}).get_data(as_text=True))
    assert "半角英数字・「_」・「-」の1〜64文字" in page and "1-64 letters" not in page
    english = unescape(_post(_as(world, "gm"), NEW, {**BATTLE, "slug": "夜襲!"}).get_data(as_text=True))
    assert "1-64 letters, digits, '_' or '-'" in english


TOML_OK = (
    """
[scenarios.ambush]
ja = "待ち伏せ"
en = "Ambush"
kind = "battle"
slots = 2
description = "橋の上で。"
gm_notes = "増援は三ラウンド目に来る"
pc_starts = [[0, 0], [5, 0]]
[[scenarios.ambush.enemies]]
id = "k1"
type = "kagachi"
position = [30, 0]
"""
    + SCENE
)  # a battle, and the scene the command line's import tests use too

TOML_BAD = """
[scenarios.ambush]
ja = "待ち伏せ"
kind = "battle"
slots = 2
pc_starts = [[0, 0]]
[[scenarios.ambush.enemies]]
id = "k1"
type = "no_such_enemy"
position = [30, 0]

[scenarios.briefing]
ja = "作戦会議"
en = "Briefing"
kind = "scene"
pc_starts = [[0, 0]]

[weapons.x]
ja = "x"
"""


def test_a_toml_import_with_several_errors_lists_every_one_and_imports_nothing(world):
    gm = _as(world, "gm")
    with _db(world):
        before = (Scenario.select().count(), Campaign.get(Campaign.slug == "demo").pack)
    response = _post(gm, IMPORT, {"toml": TOML_BAD})
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    for key in (
        "weapons",  # not a scenario file's key
        "scenarios.ambush.en",  # missing
        "scenarios.ambush.enemies[0].type",  # unknown enemy type
        "scenarios.ambush.pc_starts",  # fewer starts than slots
        "scenarios.briefing.pc_starts",  # a battle key in a scene
        "scenarios.briefing.checks",  # a scene without checks
    ):
        assert f"<code>{key}</code>" in page, key
    assert TOML_BAD.strip()[:20] in page  # the text pasted stays
    with _db(world):
        assert (Scenario.select().count(), Campaign.get(Campaign.slug == "demo").pack) == before
        assert not AuditLog.select().where(AuditLog.action == "scenario.create").exists()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", ["<code>scenarios.ambush.en</code> 必須の項目がありません",
                "<code>scenarios.ambush.enemies[0].type</code> 敵の種類'no_such_enemy'はありません",
                "<code>scenarios.ambush.pc_starts</code> 開始位置が1箇所で、枠数2に足りません",
                "<code>scenarios.briefing.pc_starts</code> シーンシナリオには書けません",
                "<code>scenarios.briefing.checks</code> ありません：シーンシナリオには必須です"]),
        ("en", ["<code>scenarios.ambush.en</code> missing",
                "<code>scenarios.ambush.enemies[0].type</code> unknown enemy type 'no_such_enemy'",
                "<code>scenarios.ambush.pc_starts</code> gives 1 start positions for 2 slots",
                "<code>scenarios.briefing.pc_starts</code> does not belong in a scene scenario",
                "<code>scenarios.briefing.checks</code> missing: a scene scenario needs it"]),
    ],
)  # fmt: skip
def test_an_imports_problems_are_said_in_the_pages_language(world, lang, said):
    """The pack checks' words, each beside its key, in the page's language (R-GM-2: a scene offers checks)."""
    response = _post(signed_in(world.url, "gm", lang=lang), IMPORT, {"toml": TOML_BAD})
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422 and [line for line in said if line not in page] == []


@pytest.mark.parametrize(("lang", "said"), [("en", "not valid TOML: "), ("ja", "TOMLとして正しくありません: ")])
def test_a_toml_syntax_error_is_one_problem_in_the_pages_language(world, lang, said):
    response = _post(signed_in(world.url, "gm", lang=lang), IMPORT, {"toml": "[scenarios.x\nja = 1"})
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422 and page.count(said) == 1 and "line 1" in page  # the parser's own words


def test_a_toml_import_adds_every_scenario_uploaded_or_pasted(world):
    gm = _as(world, "gm")
    from io import BytesIO

    data = {"csrf_token": csrf_token(gm, IMPORT), "file": (BytesIO(TOML_OK.encode()), "s.toml")}
    response = gm.post(IMPORT, data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    with _db(world):
        made = {s.slug: s for s in Scenario.select().where(Scenario.source == "console")}
        assert set(made) == {"ambush", "briefing"} and made["briefing"].kind == "scene"
        assert ScenarioSecret.get(ScenarioSecret.scenario == made["ambush"].id).gm_notes == "増援は三ラウンド目に来る"
        assert scenarios.scenario_checks(made["briefing"])[0]["id"] == "plan"
    again = _post(gm, IMPORT, {"toml": TOML_OK})
    assert again.status_code == 422 and "already has a scenario" in again.get_data(as_text=True)


def test_gm_notes_never_reach_a_player_page_or_the_blog(world):
    gm = _as(world, "gm")
    assert _post(gm, NEW, BATTLE).status_code == 303
    player = _as(world, "player1")
    page = player.get("/campaigns/demo/scenarios/night_raid/").get_data(as_text=True)
    assert "Night raid" in page and "<strong>夜</strong>" in page  # the public text, as sanitised Markdown
    assert SECRET not in page and "<script>alert" not in page
    for url in ("/", "/blog/", "/blog/demo/", "/campaigns/demo/data/gimmicks/", "/campaigns/demo/data/search?q=伏兵"):
        assert SECRET not in player.get(url).get_data(as_text=True), url


def test_the_gm_notes_of_a_console_scenario_are_a_leak_the_check_refuses(world):
    gm = _as(world, "gm")
    assert _post(gm, NEW, BATTLE).status_code == 303
    with _db(world):
        rnd = Round.get(Round.state == "open")
        published = Round.get(Round.state == "published")
    from pbp.services import leaks

    with _db(world):
        finds = leaks.check(published.id, {"story": f"そして{SECRET}。"})
    assert finds and finds[0].secret.kind == "gm_notes" and finds[0].secret.source == "night_raid"
    assert rnd.id != published.id


def test_a_console_scenario_resolves_a_round_like_a_pack_scenario(world):
    """rounds.round_encounter builds round 1 from the console's entry; rounds.resolve_round resolves it."""
    gm = _as(world, "gm")
    assert _post(gm, NEW, {**BATTLE, "slug": "night_raid"}).status_code == 303
    clock = FixedClock(START + timedelta(days=10))
    with _db(world):
        campaign = Campaign.get(Campaign.slug == "demo")
        made = Scenario.get(Scenario.slug == "night_raid")
        pcs = []
        for pc, order in PLAYERS.values():
            character = Character.get_by_id(world.characters[pc])
            scenarios.join_scenario(made.id, character.id, user_id=character.owner_id, clock=clock)
            pcs.append(DemoPC(character.owner_id, character.id, pc, order))
        round_id = open_round_with_entries(made.id, campaign.gm_id, pcs, timedelta(hours=1), clock=clock)
        encounter = rounds.round_encounter(Round.get_by_id(round_id), made)
        assert [u["id"] for u in encounter["units"] if u["side"] == "enemy"] == ["e1", "e2"]
        assert encounter["terrain"] == [{"rect": [[20, -10], [30, 10]], "rough": 0.5}]
        assert encounter["gimmicks"][0]["id"] == "smoke"
        clock.advance(2 * 3600)
        outcome = rounds.resolve_round(round_id, clock=clock)
        assert Round.get_by_id(round_id).state == "resolved", outcome
        publishing.publish_round(round_id, actor_id=campaign.gm_id, clock=clock)
    blog = _as(world, "player2").get("/blog/demo/night_raid/round-1/").get_data(as_text=True)
    assert "Night raid" in blog and SECRET not in blog


def test_edit_before_the_first_round_then_refused_once_a_round_opened(world):
    gm = _as(world, "gm")
    assert _post(gm, NEW, BATTLE).status_code == 303
    edit = "/gm/demo/scenarios/night_raid/edit"
    page = gm.get(edit).get_data(as_text=True)
    assert 'value="e2"' in page and SECRET in page
    changed = {k: v for k, v in BATTLE.items() if k != "slug"} | {"ja": "夜襲・改", "enemies-1-x": "60"}
    assert _post(gm, edit, changed).status_code == 303
    with _db(world):
        made = Scenario.get(Scenario.slug == "night_raid")
        assert made.title == "夜襲・改"
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
        assert spec["enemies"][1]["position"] == [60, 10]
        rid = rounds.create_round(made.id, START + timedelta(days=30)).id
        rounds.open_round(rid)
    refused = _post(gm, edit, {**changed, "ja": "三度目"})
    assert refused.status_code == 409 and "its setup is fixed" in unescape(refused.get_data(as_text=True))
    assert _scenario(world, "night_raid").title == "夜襲・改"


def test_a_gimmick_for_some_skills_only_is_written_and_edited_in_the_form(world):
    """The river fog of the demo's battle (dice -1 to shooting and artillery only) is a form row, not a TOML-only
    gimmick: the chosen skills are stored with a dice or successes effect, shown chosen again, ignored by other
    kinds."""
    gm = _as(world, "gm")
    fog = {"gimmicks-1-id": "fog", "gimmicks-1-ja": "川霧", "gimmicks-1-en": "River fog", "gimmicks-1-timing": "setup",
           "gimmicks-1-kind": "dice", "gimmicks-1-value": "-1", "gimmicks-1-rounds": "2",
           "gimmicks-1-skills": ["射撃", "砲撃"], "gimmicks-0-skills": ["射撃"]}  # fmt: skip
    assert _post(gm, NEW, {**BATTLE, **fog}).status_code == 303
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["gimmicks"][0]["effects"] == [{"kind": "status", "id": "stun", "on": "area", "rounds": 1}]
    assert spec["gimmicks"][1]["effects"] == [{"kind": "dice", "value": -1, "rounds": 2, "skills": ["射撃", "砲撃"]}]
    edit = "/gm/demo/scenarios/night_raid/edit"
    page = gm.get(edit).get_data(as_text=True)
    assert "cannot show whole" not in page
    chosen = re.findall(
        r'<option selected value="([^"]+)">', page.split('name="gimmicks-1-skills"')[1].split("</select>")[0]
    )
    assert chosen == ["射撃", "砲撃"] and "Shooting (射撃)" in page
    assert '<option selected value="dice">dice on checks (dice)</option>' in page  # the select's words, then its id
    assert '<option selected value="setup">setup process (setup)</option>' in page
    changed = {k: v for k, v in {**BATTLE, **fog}.items() if k != "slug"} | {"gimmicks-1-skills": ["白兵"]}
    assert _post(gm, edit, changed).status_code == 303
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["gimmicks"][1]["effects"][0]["skills"] == ["白兵"]


def test_a_gimmick_with_several_effects_is_written_and_edited_in_the_form(world):
    """A gimmick's further effects are rows of their own naming it (a TOML's `effects` after the first): stored in
    order, shown again on the edit page, refused beside the row when they name no gimmick or hold a bad value."""
    gm = _as(world, "gm")
    more = {"effects-0-gimmick": "smoke", "effects-0-kind": "dice", "effects-0-value": "-1", "effects-0-rounds": "1",
            "effects-0-skills": ["射撃"]}  # fmt: skip
    assert _post(gm, NEW, {**BATTLE, **more}).status_code == 303
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["gimmicks"][0]["effects"] == [
        {"kind": "status", "id": "stun", "on": "area", "rounds": 1},
        {"kind": "dice", "value": -1, "rounds": 1, "skills": ["射撃"]},
    ]
    edit = "/gm/demo/scenarios/night_raid/edit"
    page = gm.get(edit).get_data(as_text=True)
    assert 'name="effects-0-gimmick" type="text" value="smoke"' in page and 'name="effects-1-gimmick"' in page
    changed = {k: v for k, v in {**BATTLE, **more}.items() if k != "slug"} | {"effects-0-value": "-2"}
    assert _post(gm, edit, changed).status_code == 303
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["gimmicks"][0]["effects"][1]["value"] == -2
    nowhere = _post(gm, edit, {**changed, "effects-0-gimmick": "fog"})
    assert nowhere.status_code == 422
    assert re.search(
        r'value="fog"><span class="error">No gimmick above has this id.</span>', nowhere.get_data(as_text=True)
    )
    bad = _post(gm, edit, {**changed, "effects-0-value": "lots"})
    html = unescape(bad.get_data(as_text=True))
    assert bad.status_code == 422 and "gimmicks[0].effects[1].value" in html
    assert re.search(
        r'name="effects-0-value" type="text" value="lots"><span class="error">must be a whole number', html
    )
    ja = signed_in(world.url, "gm", lang="ja")  # the checks' own words in the page's language
    said = unescape(_post(ja, edit, {**changed, "effects-0-value": "lots"}).get_data(as_text=True))
    assert "整数で指定してください（'lots'が指定されました）" in said
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["gimmicks"][0]["effects"][1]["value"] == -2  # nothing stored from a refused form


def test_a_pack_scenario_is_edited_in_its_folder_not_in_the_console(world):
    gm = _as(world, "gm")
    assert "change it in the pack" in gm.get("/gm/demo/scenarios/hangar_eve/edit").get_data(as_text=True)
    refused = _post(gm, "/gm/demo/scenarios/hangar_eve/edit", {"ja": "x", "en": "x", "kind": "scene"})
    assert refused.status_code == 409
    assert _scenario(world, "hangar_eve").title != "x"


def test_closing_the_sign_up_from_the_console(world):
    gm = _as(world, "gm")
    url = "/gm/demo/scenarios/hangar_eve/close-signup"
    assert _post(gm, url, {}, "/gm/demo/").status_code == 303
    assert _scenario(world, "hangar_eve").signup_closed_at is not None
    assert _post(gm, url, {}, "/gm/demo/").status_code == 409
    with _db(world):
        assert AuditLog.get(AuditLog.action == "scenario.signup_closed").actor.name == "gm"


def test_a_gm_of_another_campaign_or_a_player_changes_nothing(world):
    for name in ("gm2", "player1"):
        client = _as(world, name)
        token = csrf_token(client, "/me")
        assert client.post(NEW, data={**BATTLE, "csrf_token": token}).status_code == 403
        assert client.post(IMPORT, data={"toml": TOML_OK, "csrf_token": token}).status_code == 403
        assert client.post("/gm/demo/scenarios/hangar_eve/close-signup", data={"csrf_token": token}).status_code == 403
    assert _scenario(world, "night_raid") is None and _scenario(world, "ambush") is None
    assert _scenario(world, "hangar_eve").signup_closed_at is None


def test_the_services_check_the_gm_themselves(world):
    from pbp.errors import Forbidden
    from pbp.services import authoring

    with _db(world):
        campaign = Campaign.get(Campaign.slug == "demo")
        stranger = Character.get_by_id(1).owner_id  # player1
        with pytest.raises(Forbidden):
            authoring.import_scenarios(campaign.id, TOML_OK, actor_id=stranger)
        with pytest.raises(Forbidden):
            scenarios.close_signup(Scenario.get(Scenario.slug == "hangar_eve").id, actor_id=stranger)


def test_a_sign_up_deadline_in_the_past_or_checks_in_a_battle_are_refused(world):
    """The world's clock is the system's: 2020 is past. A battle's checks are reported, not silently dropped."""
    bad = {**BATTLE, "signup_deadline": "2020-01-01T09:00", "checks-0-id": "look", "checks-0-skill": "知覚"}
    response = _post(_as(world, "gm"), NEW, bad)
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "<code>signup_deadline</code> is in the past" in page
    assert "<code>checks</code> does not belong in a battle scenario" in page
    assert _scenario(world, "night_raid") is None


def test_a_sign_up_deadline_is_taken_in_the_campaigns_time_zone(world):
    response = _post(_as(world, "gm"), NEW, {**BATTLE, "signup_deadline": "2099-01-01T09:00"})
    assert response.status_code == 303
    assert str(_scenario(world, "night_raid").signup_deadline) == "2099-01-01 00:00:00"  # 09:00 in Asia/Tokyo


def test_an_expired_token_brings_the_form_back_with_everything_typed(world):
    """A long writing session: the form comes back (400) with what was typed and a fresh token; nothing saved."""
    gm = _as(world, "gm")
    gm.get(NEW)
    response = gm.post(NEW, data=BATTLE)  # no token: as if it had expired
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "security token expired" in page
    assert SECRET in page and 'value="e2"' in page and 'name="csrf_token"' in page
    imported = gm.post(IMPORT, data={"toml": TOML_OK})
    assert imported.status_code == 400 and "[scenarios.ambush]" in imported.get_data(as_text=True)
    assert _scenario(world, "night_raid") is None and _scenario(world, "ambush") is None


def test_english_descriptions_are_written_in_the_form_and_shown_on_english_pages(world):
    """A scenario's and a public gimmick's `description_en` (the pack's key) are form fields: stored, shown again on
    the edit page, and what the scenario's English page shows, its Japanese page the Japanese."""
    gm = _as(world, "gm")
    english = {"description_en": "The riverbank by **night**.", "gimmicks-0-description": "視界が煙に包まれる。",
               "gimmicks-0-description_en": "Smoke fills the air.", "gimmicks-0-public": "y"}  # fmt: skip
    assert _post(gm, NEW, {**BATTLE, **english}).status_code == 303
    with _db(world):
        spec = Campaign.get(Campaign.slug == "demo").pack["scenarios"]["night_raid"]
    assert spec["description_en"] == "The riverbank by **night**."
    assert spec["gimmicks"][0]["description_en"] == "Smoke fills the air."
    edit = unescape(gm.get("/gm/demo/scenarios/night_raid/edit").get_data(as_text=True))
    assert "The riverbank by **night**.</textarea>" in edit and "Smoke fills the air.</textarea>" in edit
    url = "/campaigns/demo/scenarios/night_raid/"
    en = gm.get(url).get_data(as_text=True)
    assert "The riverbank by <strong>night</strong>." in en and "Smoke fills the air." in en
    assert "河川敷" not in en and "煙に包まれる" not in en
    ja = signed_in(world.url, "gm", lang="ja").get(url).get_data(as_text=True)
    assert "<strong>夜</strong>の河川敷。" in ja and "視界が煙に包まれる。" in ja and "Smoke fills" not in ja
