"""Character sheets under the pack's rules: levels, skills, the creation budget and gear limits."""

from __future__ import annotations

from typing import Any

import pytest

from pbp.engine import BadInput
from pbp.engine.pool.budgets import budget, growth_cost
from pbp.engine.pool.pack_checks import validate_character


def paths(demo: dict[str, Any], sheet: dict[str, Any]) -> dict[str, str]:
    return {p.path: p.message for p in validate_character(demo, sheet)}


def test_ready_made_sheets_are_valid(demo: dict[str, Any]) -> None:
    for sheet in demo["characters"].values():
        assert validate_character(demo, sheet) == []


def test_r_check_3_levels_outside_1_to_5_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["skills"] |= {"射撃": 6, "回避": 0}
    got = paths(demo, sheet)
    assert "R-CHECK-3" in got["skills.射撃"]
    assert "R-CHECK-3" in got["skills.回避"]


def test_r_check_3_unlisted_skills_are_level_1_and_cost_nothing(demo: dict[str, Any]) -> None:
    sheet = {"ja": "新兵", "en": "Recruit", "stats": {"肉体": 3, "感覚": 3, "理知": 3, "文化": 3}}
    assert validate_character(demo, sheet) == []
    assert budget(demo, sheet)["skills"] == (0, demo["creation"]["skill_points"])


def test_r_check_4_unknown_skill_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["skills"]["料理"] = 2
    assert "R-CHECK-4" in paths(demo, sheet)["skills.料理"]


def test_creation_budget_stats_and_skill_points(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["stats"]["肉体"] = 4  # 13 points of 12
    assert "13" in paths(demo, sheet)["stats"]
    sheet["stats"]["肉体"] = 3
    sheet["skills"]["白兵"] = 4  # 23 - 2 + 9 = 30 points of 24
    assert "30" in paths(demo, sheet)["skills"]
    sheet["growth_points"] = 6  # growth points raise the skill budget
    assert validate_character(demo, sheet) == []


def test_stat_outside_creation_limits_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["stats"] |= {"肉体": 6, "文化": 0}
    got = paths(demo, sheet)
    assert {"stats.肉体", "stats.文化"} <= set(got)


def test_r_gear_2_weapons_over_petition_budget_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]  # 陳情 3: weapons up to 6; pistol 1 + marker laser 4
    sheet["weapons"].append("anti_armor_rocket")  # + 3 = 8
    assert "R-GEAR-2" in paths(demo, sheet)["weapons"]
    sheet["skills"]["陳情"] = 4  # 8 <= 8, and the skill points still fit (23 + 4 = 27 of 24 + growth)
    sheet["growth_points"] = 3
    assert validate_character(demo, sheet) == []


def test_r_gear_2_items_over_procurement_budget_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]  # 調達 2: items up to 2; charm 1 + tablet 1
    sheet["items"].append("first_aid_kit")
    assert "R-GEAR-2" in paths(demo, sheet)["items"]
    assert budget(demo, sheet)["items"] == (3, 2)


def test_r_gear_3_built_in_weapons_cost_nothing(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["makoto"]  # 陳情 2: 4 points; the fighter's guns cost 2 + 4 but are built in
    assert budget(demo, sheet)["weapons"] == (1, 4)
    assert validate_character(demo, sheet) == []


def test_r_gear_3_built_in_weapon_listed_again_rejected(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["vehicle_weapons"].append("beam_rifle")
    assert "R-GEAR-3" in paths(demo, sheet)["vehicle_weapons[1]"]


def test_r_fix_2_mounts_personal_and_vehicle_weapons_apart(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]
    sheet["weapons"] = ["beam_rifle"]
    sheet["vehicle_weapons"] = ["pistol"]
    got = paths(demo, sheet)
    assert {"weapons[0]", "vehicle_weapons[0]"} <= set(got)


def test_vehicle_must_be_playable_and_known(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["makoto"]
    sheet["vehicle"] = "yamatsukami"
    assert "vehicle" in paths(demo, sheet)
    sheet["vehicle"] = "tank"
    assert "unknown" in paths(demo, sheet)["vehicle"]


def test_every_problem_at_once(demo: dict[str, Any]) -> None:
    sheet = {"ja": "", "stats": {"肉体": "three"}, "items": ["cake"], "hobby": "tea"}
    got = paths(demo, sheet)
    assert {"ja", "en", "stats.肉体", "stats.感覚", "items[0]", "hobby"} <= set(got)


def test_growth_cost_is_the_new_level(demo: dict[str, Any]) -> None:
    assert growth_cost(demo, "射撃", 1, 2) == 2
    assert growth_cost(demo, "射撃", 1, 5) == 2 + 3 + 4 + 5
    assert growth_cost(demo, "射撃", 3, 3) == 0


def test_r_check_3_growth_cost_refuses_beyond_5_and_unknown_skills(demo: dict[str, Any]) -> None:
    with pytest.raises(BadInput) as e:
        growth_cost(demo, "料理", 4, 6)
    assert {p.path for p in e.value.problems} == {"skill", "level"}
