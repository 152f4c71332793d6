"""Units and encounters built from the pack have the shape of ENCOUNTER.json (spec/engine-cli.md)."""

from __future__ import annotations

import gettext
from typing import Any

import pytest

from pbp.engine import BadInput, SeededDice, find_ruleset
from pbp.engine.pool import rules
from pbp.engine.pool.encounters import (
    SECRET_KEYS,
    encounter_for_scenario,
    public_scenario,
    scene_checks,
    unit_from_enemy,
    unit_from_sheet,
)
from pbp.engine.pool.pack_data import skill_stats
from pbp.paths import PROJECT_ROOT

JA_MO = PROJECT_ROOT / "pbp" / "translations" / "ja" / "LC_MESSAGES" / "messages.mo"
UNIT_KEYS = {
    "id",
    "name",
    "side",
    "stats",
    "skills",
    "skill_stats",
    "injury",
    "weapons",
    "items",
    "vehicle",
    "statuses",
    "position",
    "engagement",
    "move",
    "abilities",
}
WEAPON_KEYS = {"id", "skill", "damage", "ammo", "ammo_max", "range", "slot", "gauge", "inflicts", "targets"}


def battle(demo: dict[str, Any]) -> dict[str, Any]:
    pcs = [("aoi", demo["characters"]["aoi"]), ("makoto", demo["characters"]["makoto"])]
    return encounter_for_scenario(demo, "tama_river", pcs)


def test_r_check_4_skill_stats_maps_every_skill(demo: dict[str, Any]) -> None:
    stats = skill_stats(demo)
    assert set(stats) == set(demo["skills"])
    assert stats["回避"] == "肉体"


def test_unit_from_sheet_has_the_contract_shape(demo: dict[str, Any]) -> None:
    u = unit_from_sheet(demo, demo["characters"]["aoi"], "aoi", "pc", [0, 0])
    assert set(u) == UNIT_KEYS
    assert u["skills"]["射撃"] == 3 and u["skills"]["芸術"] == 1  # R-CHECK-3: every skill, 1 at least
    assert set(u["skill_stats"]) == set(u["skills"])
    assert u["injury"] == {"capacity": [10, 10, 10, 10, 1], "taken": [0] * rules.STAGES}
    assert u["move"] == demo["character"]["move"]  # R-FIX-8
    assert [w["id"] for w in u["weapons"]] == ["pistol"]
    assert u["items"][0] == {"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}
    v = u["vehicle"]
    assert (v["id"], v["kind"], v["movement"], v["size"]) == ("savior", "savior", "ground", "large")
    assert v["damage"]["taken"] == [0] * rules.STAGES
    assert [w["id"] for w in v["weapons"]] == ["beam_rifle", "hf_knife", "marker_laser"]
    for w in u["weapons"] + v["weapons"]:
        assert set(w) == WEAPON_KEYS
        assert w["ammo"] == w["ammo_max"]
    knife = v["weapons"][1]
    assert (knife["range"], knife["ammo"]) == ([0, 0], None)
    assert u["abilities"] == [
        {
            "id": "focus",
            "timing": "setup",
            "uses": 1,
            "effects": [{"kind": "dice", "value": 2, "skills": ["射撃", "砲撃"], "rounds": 1}],
        }
    ]


def test_unit_from_sheet_refuses_an_invalid_sheet(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["items"].append("binoculars")
    with pytest.raises(BadInput) as e:
        unit_from_sheet(demo, sheet, "aoi", "pc", [0, 0])
    assert [p.path for p in e.value.problems] == ["items"]


def test_unit_from_enemy(demo: dict[str, Any]) -> None:
    u = unit_from_enemy(demo, "hayachi", "h1", [5, 5])
    assert set(u) == UNIT_KEYS
    assert (u["side"], u["name"], u["vehicle"]["movement"]) == ("enemy", "ハヤチ", "air")
    assert u["injury"]["capacity"] == [5, 5, 5, 5, 1]
    shriek = next(w for w in u["vehicle"]["weapons"] if w["id"] == "shriek")
    assert (shriek["targets"], shriek["gauge"], shriek["inflicts"]) == (4, "injury", "stun")
    with pytest.raises(BadInput):
        unit_from_enemy(demo, "godzilla", "g1", [0, 0])


def test_encounter_for_the_demo_battle(demo: dict[str, Any]) -> None:
    enc = battle(demo)
    assert (enc["ruleset"], enc["round"]) == ("pool", 1)
    assert enc["options"] == {"clamp_successes": False, "destroyed_kills_pilot": True}
    assert [(u["id"], u["side"], u["position"]) for u in enc["units"]] == [
        ("aoi", "pc", [0, 0]),
        ("makoto", "pc", [40, 0]),
        ("kagachi1", "enemy", [600, 100]),
        ("kagachi2", "enemy", [650, -50]),
        ("hayachi1", "enemy", [800, 400]),
    ]
    assert enc["terrain"][0] == {"rect": [[200, -200], [500, 300]], "rough": 0.5}  # R-ROUGH-1
    assert enc["gimmicks"][0]["id"] == "river_fog"
    assert "gm_notes" not in str(enc)


def test_demo_battle_passes_the_engine_and_resolves(demo: dict[str, Any]) -> None:
    pool = find_ruleset("pool")
    enc = battle(demo)
    assert pool.validate_encounter(enc, demo) == []
    orders = {
        "orders": [
            {"unit": "aoi", "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"], "item": None}}
        ]
    }
    result = pool.resolve(enc, orders, SeededDice("demo"), pack=demo)
    assert any(e["type"] == "attack" and e["attacker"] == "aoi" for e in result.events)


def test_encounter_refuses_clashing_ids_and_too_many_pcs(demo: dict[str, Any]) -> None:
    aoi = demo["characters"]["aoi"]
    with pytest.raises(BadInput) as e:
        encounter_for_scenario(demo, "tama_river", [("kagachi1", aoi), ("x", aoi)])
    assert [p.path for p in e.value.problems] == ["pcs[0]"]
    with pytest.raises(BadInput):
        encounter_for_scenario(demo, "tama_river", [(f"p{i}", aoi) for i in range(5)])
    with pytest.raises(BadInput):
        encounter_for_scenario(demo, "hangar_eve", [])


def test_building_refusals_are_said_by_templates_and_the_cli_english_is_unchanged(demo: dict[str, Any]) -> None:
    """A page says each in its language (the GM's reinforcement form, the pack upgrade's trial), a sheet's problem
    under its PC's path included (R-GEAR-2); the command line prints the English."""
    aoi = demo["characters"]["aoi"]
    bad_sheet = {**aoi, "items": [*aoi["items"], "binoculars"]}
    calls = [
        lambda: unit_from_enemy(demo, "godzilla", "g1", [0, 0]),
        lambda: public_scenario(demo, "nowhere"),
        lambda: scene_checks(demo, "tama_river"),
        lambda: encounter_for_scenario(demo, "tama_river", [(f"p{i}", aoi) for i in range(5)]),
        lambda: encounter_for_scenario(demo, "tama_river", [("kagachi1", aoi), ("x", bad_sheet)]),
    ]
    said = []
    for call in calls:
        with pytest.raises(BadInput) as e:
            call()
        said += e.value.problems
    assert [str(p) for p in said] == [
        "enemy_type: unknown enemy type 'godzilla'",
        "scenario: unknown scenario 'nowhere'",
        "scenario: 'tama_river' is a battle, not a scene",
        "pcs: 5 PCs but 'tama_river' has 4 start positions",
        "pcs[0]: unit id 'kagachi1' is used twice",
        "pcs[1].items: items cost 4, more than Procurement (調達) level = 2 (R-GEAR-2)",
    ]
    assert all(p.template is not None and p.template % dict(p.params) == p.message for p in said)


@pytest.mark.parametrize(
    ("call", "english", "japanese"),
    [
        (lambda d: scene_checks(d, "tama_river"), "scenario: 'tama_river' is a battle, not a scene",
         "'tama_river'は戦闘シナリオで、シーンシナリオではありません"),
        (lambda d: encounter_for_scenario(d, "hangar_eve", []), "scenario: 'hangar_eve' is a scene, not a battle",
         "'hangar_eve'はシーンシナリオで、戦闘シナリオではありません"),
    ],
    ids=["battle", "scene"],
)  # fmt: skip
def test_a_scenario_of_the_other_kind_names_both_kinds_in_the_pages_words(
    demo: dict[str, Any], call: Any, english: str, japanese: str
) -> None:
    """One sentence per pair of kinds: a page translates "battle" and "scene" with the sentence (a parameter would
    leave the TOML's keyword in English); the command line's English is unchanged."""
    with pytest.raises(BadInput) as e:
        call(demo)
    (problem,) = e.value.problems
    assert str(problem) == english
    with JA_MO.open("rb") as f:
        assert gettext.GNUTranslations(f).gettext(problem.template) % dict(problem.params) == japanese


def test_r_gm_2_scene_checks(demo: dict[str, Any]) -> None:
    checks = scene_checks(demo, "hangar_eve")
    assert len(checks) >= 3
    repair = checks[0]
    assert (repair["id"], repair["skill"], repair["stat"], repair["need"]) == ("repair", "整備", "理知", 3)
    assert repair["success"]["ja"] and repair["failure"]["en"]
    with pytest.raises(BadInput):
        scene_checks(demo, "tama_river")


def test_public_scenario_hides_gm_notes(demo: dict[str, Any]) -> None:
    for sid, scenario in demo["scenarios"].items():
        assert "gm_notes" in scenario
        public = public_scenario(demo, sid)
        assert not SECRET_KEYS & set(public)
        assert public["ja"] == scenario["ja"]
