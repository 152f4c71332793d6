"""The campaign's pack upgraded from its folder by its owner (validated, then tried against the campaign: nothing
changes on a refusal), and the audit log its GMs read (issue 10, items 2 and 8)."""

from __future__ import annotations

import shutil
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Campaign, Resolution, Round, Scenario
from pbp.paths import DEMO_PACK_DIR
from pbp.services import audit, campaigns
from pbp.web import database
from tests.scenario_toml import SCENE
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

PACK = "/gm/demo/pack"
AUDIT = "/gm/demo/audit"


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test whose demo pack is a copy under tmp_path/packs/demo (the console's PACKS_DIR)."""
    packs = tmp_path / "packs"
    shutil.copytree(DEMO_PACK_DIR, packs / "demo")
    return world_with_rival(tmp_path, pack_dir=packs / "demo")


@pytest.fixture
def folder(world: World, tmp_path):
    return tmp_path / "packs" / "demo"


def _as(world: World, name: str, tmp_path) -> FlaskClient:
    return signed_in(world.url, name, lang="en", PACKS_DIR=str(tmp_path / "packs"))  # English messages asserted


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _pack(world: World) -> dict:
    with _db(world):
        return Campaign.get(Campaign.slug == "demo").pack


def _upgrade(client: FlaskClient, action: str = "upgrade"):
    return client.post(PACK, data={"action": action, "csrf_token": csrf_token(client, PACK)})


def _rename_laser(folder) -> None:
    weapons = folder / "weapons.toml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("照準レーザー", "指示レーザー"), encoding="utf-8")


def test_the_owner_checks_then_upgrades_and_the_console_scenarios_stay(world, folder, tmp_path):
    gm = _as(world, "gm", tmp_path)
    imported = gm.post("/gm/demo/scenarios/import", data={"toml": SCENE, "csrf_token": csrf_token(gm, PACK)})
    assert imported.status_code == 303
    _rename_laser(folder)
    checked = _upgrade(gm, "check")
    assert checked.status_code == 200 and "can be upgraded" in checked.get_data(as_text=True)
    assert _pack(world)["weapons"]["marker_laser"]["ja"] == "照準レーザー"  # a check changes nothing
    assert _upgrade(gm).status_code == 303
    pack = _pack(world)
    assert pack["weapons"]["marker_laser"]["ja"] == "指示レーザー"
    assert "briefing" in pack["scenarios"] and "tama_river" in pack["scenarios"]
    with _db(world):
        logged = AuditLog.get(AuditLog.action == "campaign.upgrade")
        assert logged.actor.name == "gm" and logged.campaign.slug == "demo"


def _unknown_skill(folder) -> None:
    weapons = folder / "weapons.toml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace('skill = "射撃"', 'skill = "狙撃"', 1), "utf-8")


def test_a_pack_with_problems_is_refused_by_file_and_key(world, folder, tmp_path):
    before = _pack(world)
    _unknown_skill(folder)
    (folder / "oops.toml").write_text("[items\n", encoding="utf-8")
    response = _upgrade(_as(world, "gm", tmp_path))
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422 and "the pack has 2 problems" in page
    assert "weapons.beam_rifle.skill</code> unknown skill '狙撃'" in page
    assert "oops.toml" in page and "not valid TOML" in page
    assert _pack(world) == before


def test_a_packs_problem_is_said_in_the_pages_language(world, folder, tmp_path):
    """The ruleset's problems and the loader's own (a file that is not TOML, a table defined twice)."""
    _unknown_skill(folder)
    (folder / "oops.toml").write_text("[items\n", encoding="utf-8")
    (folder / "zz_again.toml").write_text("[weapons.beam_rifle]\n", encoding="utf-8")
    gm = signed_in(world.url, "gm", lang="ja", PACKS_DIR=str(tmp_path / "packs"))
    page = unescape(_upgrade(gm).get_data(as_text=True))
    assert "<code>weapons.beam_rifle.skill</code> 技能'狙撃'はありません" in page
    assert "oops.toml</code>: TOMLとして正しくありません: " in page
    assert "<code>weapons.beam_rifle</code> 二度定義されています（最初の定義は " in page


def _break_a_scenario_and_a_sheet(folder) -> None:
    """The new pack has no tama_river (a round of it is under way) and prices the targeting laser, on aoi's sheet,
    beyond her 陳情 (R-GEAR-2)."""
    (folder / "scenarios.toml").unlink()
    (folder / "characters.toml").unlink()  # the ready-made sheets would break the pack itself
    weapons = folder / "weapons.toml"
    text = weapons.read_text(encoding="utf-8")
    start = text.index("[weapons.marker_laser]")
    weapons.write_text(text[:start] + text[start:].replace("cost = 4", "cost = 40", 1), encoding="utf-8")


def test_the_trial_refuses_a_pack_that_breaks_a_running_scenario_or_a_sheet(world, folder, tmp_path):
    """A running scenario gone and a sheet over its budget (R-GEAR-2): refused, each listed, nothing changed."""
    before = _pack(world)
    _break_a_scenario_and_a_sheet(folder)
    response = _upgrade(_as(world, "gm", tmp_path))
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "scenario tama_river" in page and "the new pack has no scenario 'tama_river'" in page
    assert "the new pack would break 3 things" in page  # hangar_eve (not begun) is gone too
    assert "<code>character 葵 (1): weapons</code> weapons cost 41" in page and "R-GEAR-2" in page
    assert _pack(world) == before
    with _db(world):
        assert not AuditLog.select().where(AuditLog.action == "campaign.upgrade").exists()


def test_the_trials_sheet_problem_is_said_in_the_pages_language(world, folder, tmp_path):
    """The engine's problem with a character's sheet keeps its template under the character's path (R-GEAR-2); the
    scenario or character a problem is found in is named in the page's words too (its name and id as they are)."""
    _break_a_scenario_and_a_sheet(folder)
    gm = signed_in(world.url, "gm", lang="ja", PACKS_DIR=str(tmp_path / "packs"))
    page = unescape(_upgrade(gm).get_data(as_text=True))
    assert "<code>キャラクター 葵（1）: weapons</code> 武器の合計コスト41が、陳情レベル×2＝" in page
    assert "<code>シナリオ tama_river</code> 新しいパックにシナリオ「tama_river」がありません" in page


def _overfill_the_running_state(world: World) -> None:
    """tama_river's state as its last round left it, with damage beyond a stage's capacity on its first unit."""
    with _db(world):
        scenario = Scenario.get(Scenario.slug == "tama_river")
        last = Resolution.select().join(Round).where(Round.scenario == scenario.id).order_by(Round.number.desc()).get()
        state = last.state
        state["units"][0]["injury"]["taken"][0] = state["units"][0]["injury"]["capacity"][0] + 1
        Resolution.update(state=state).where(Resolution.id == last.id).execute()


@pytest.mark.rule("R-GAUGE-1")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "<code>シナリオ tama_river: units[0].injury.taken[0]</code> 11は、その段階の容量10を超えています"),
        ("en", "<code>scenario tama_river: units[0].injury.taken[0]</code> 11 is more than the stage's capacity 10"),
    ],
    ids=["ja", "en"],
)
def test_the_trial_says_a_running_states_problem_in_the_pages_language(world, folder, tmp_path, lang, said):
    """The encounter schema's check of a unit's gauge, met in a running scenario's state, is said by its template
    under the scenario's name in the page's words (the pack itself unchanged: the trial checks the state again)."""
    _overfill_the_running_state(world)
    gm = signed_in(world.url, "gm", lang=lang, PACKS_DIR=str(tmp_path / "packs"))
    response = _upgrade(gm, "check")
    assert response.status_code == 422 and said in unescape(response.get_data(as_text=True))


def test_the_trials_cli_line_stays_english(world, folder):
    """What the command line prints for a refused trial: each problem after its scenario or character, in English."""
    _break_a_scenario_and_a_sheet(folder)
    _overfill_the_running_state(world)
    with _db(world):
        demo = Campaign.get(Campaign.slug == "demo")
        with pytest.raises(campaigns.PackRefused) as refused:
            campaigns.upgrade_pack(demo.id, folder, actor_id=demo.gm_id, apply=False)
    lines = str(refused.value).split("; ")
    assert "scenario tama_river: the new pack has no scenario 'tama_river'" in lines
    over = "character 葵 (1): weapons: weapons cost 41, more than Petition (陳情) level x 2"
    assert any(line.startswith(over) for line in lines)


def test_the_pack_page_is_the_owners(world, tmp_path):
    cogm = _as(world, "cogm", tmp_path)
    assert cogm.get(PACK).status_code == 403
    assert cogm.post(PACK, data={"action": "upgrade", "csrf_token": csrf_token(cogm, "/gm/demo/")}).status_code == 403
    assert 'href="/gm/demo/pack"' not in cogm.get("/gm/demo/").get_data(as_text=True)
    assert 'href="/gm/demo/pack"' in _as(world, "gm", tmp_path).get("/gm/demo/").get_data(as_text=True)


def test_the_audit_log_is_the_campaigns_newest_first_and_paged(world, tmp_path):
    with _db(world):
        demo = Campaign.get(Campaign.slug == "demo")
        scenario = Scenario.get(Scenario.campaign == demo.id, Scenario.slug == "tama_river")
        later = START.replace(tzinfo=None) + timedelta(days=50)
        for i in range(audit.PAGE_SIZE + 5):
            audit.log("test.mark", f"scenario:{scenario.id}", later + timedelta(seconds=i), n=i, none=[], empty={})
        rival = Campaign.get(Campaign.slug == "rival")
        assert AuditLog.select().where(AuditLog.campaign == rival.id).exists()
    cogm = _as(world, "cogm", tmp_path)
    first = cogm.get(AUDIT).get_data(as_text=True)
    assert first.index(f"n={audit.PAGE_SIZE + 4}<") < first.index("n=5<")  # what is empty is left out
    assert "n=4<" not in first and 'href="/gm/demo/audit?page=2"' in first
    second = cogm.get(AUDIT + "?page=2").get_data(as_text=True)
    assert "n=4<" in second and "round.open" in second and "campaign.load" in second
    assert "rival" not in second.split("<main", 1)[1]  # the other campaign's load is not in this log
    assert cogm.get(AUDIT + "?page=99").status_code == 404 and cogm.get(AUDIT + "?page=x").status_code == 404
    assert _as(world, "gm2", tmp_path).get(AUDIT).status_code == 403
    assert _as(world, "player1", tmp_path).get(AUDIT).status_code == 403
