"""Character sheets under the pack's rules: levels, skills, the creation budget and gear limits."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbp.engine import BadInput
from pbp.engine.pool.budgets import budget, growth_cost, raise_cost, raise_cost_table, skill_levels
from pbp.engine.pool.pack_checks import validate_character
from pbp.engine.pool.pack_data import LEVEL_MAX, LEVEL_MIN


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


def test_r_check_3_raise_cost_table_prices_each_level_from_the_sheets_own(demo: dict[str, Any]) -> None:
    sheet = demo["characters"]["aoi"]  # 射撃 3
    table = raise_cost_table(demo, sheet)
    assert set(table) == set(demo["skills"])
    assert table["射撃"] == {3: 0, 4: 4, 5: 4 + 5}
    assert table["整備"] == {1: 0, 2: 2, 3: 2 + 3, 4: 2 + 3 + 4, 5: 2 + 3 + 4 + 5}  # not listed: level 1
    unsound = raise_cost_table(demo, {"skills": {"射撃": 6, "回避": "2"}})
    assert unsound["射撃"] == unsound["回避"] == {}  # not a level: nothing to raise from


#: A pack's skills and growth costs as `check_raise_costs` allows them, and a sheet's levels, sound or not.
_SKILLS = st.lists(st.sampled_from(["射撃", "回避", "陳情", "調達", "白兵"]), min_size=1, unique=True)
_STEPS = st.lists(st.integers(0, 1_000_000), min_size=LEVEL_MAX - LEVEL_MIN, max_size=LEVEL_MAX - LEVEL_MIN)
_LEVEL = st.one_of(st.integers(LEVEL_MIN - 1, LEVEL_MAX + 1), st.just("2"), st.just(True), st.none())


@given(skills=_SKILLS, steps=_STEPS, data=st.data())
def test_r_check_3_raise_cost_table_is_raise_cost_for_every_skill_and_level(
    skills: list[str], steps: list[int], data: st.DataObject
) -> None:
    """The law: a level is in the table exactly when `raise_cost` prices it, at the same cost."""
    pack = {"skills": {s: {"stat": "肉体"} for s in skills}, "growth": {"raise_costs": steps}}
    sheet = {"skills": data.draw(st.dictionaries(st.sampled_from(skills), _LEVEL))}
    table = raise_cost_table(pack, sheet)
    assert set(table) == set(skills)
    for skill in skills:
        for level in range(LEVEL_MIN - 1, LEVEL_MAX + 2):
            try:
                cost = raise_cost(pack, sheet, {skill: level})
            except BadInput:
                assert level not in table[skill]
            else:
                assert table[skill][level] == cost


@given(skills=_SKILLS, steps=_STEPS, data=st.data())
def test_r_check_3_budget_skill_points_are_the_growth_costs_from_level_1(
    skills: list[str], steps: list[int], data: st.DataObject
) -> None:
    """What `budget` counts is each skill's `growth_cost` from level 1 (a level out of range counting as 1)."""
    pack = {"skills": {s: {"stat": "肉体"} for s in skills}, "growth": {"raise_costs": steps}}
    sheet = {"skills": data.draw(st.dictionaries(st.sampled_from(skills), _LEVEL))}
    levels = skill_levels(pack, sheet)
    assert budget(pack, sheet)["skills"][0] == sum(growth_cost(pack, s, LEVEL_MIN, v) for s, v in levels.items())


def test_budget_of_a_pack_without_skills_needs_no_growth_costs() -> None:
    assert budget({}, {})["skills"] == (0, 0)
