"""Section 1 of the rules: checks (判定基準), R-CHECK-1..8, through scene checks and attacks."""

from __future__ import annotations

import pytest
from pool_builders import attack, check, encounter, enemy, gauge, on_foot, order, pc, run, spit

from pbp.engine import BadInput


def scene(u: dict, skill: str = "射撃", need: int | None = 1, item: str | None = None, dice=None, **enc_kw):
    """One unit (plus the default enemy, idle) rolls a scene check; returns (Run, its check event)."""
    r = run(encounter(u, enemy(), **enc_kw), [order(u["id"], major=check(skill, need, item))], dice)
    return r, r.one("check", unit=u["id"])


# R-CHECK-1 -----------------------------------------------------------------------------------------------------


def test_r_check_1_counts_dice_at_or_below_the_level() -> None:
    r, c = scene(pc(), "射撃", 2, dice=[1, 3, 4, 6])  # 感覚 4 dice, 射撃 level 3
    assert c["dice"] == [1, 3, 4, 6]
    assert c["successes"] == 2
    assert c["skill"] == "射撃"
    assert r.dice_left == 0


def test_r_check_1_level_5_counts_fives_not_sixes() -> None:
    r, c = scene(pc(skills_update={"射撃": 5}), "射撃", 1, dice=[5, 6, 5, 6])
    assert c["successes"] == 2


def test_r_check_1_zero_dice_pool_still_has_a_check_id() -> None:
    u = pc(stats_update={"感覚": 0})
    r, c = scene(u, "射撃", 1, dice=[])
    assert c["dice"] == [] and c["successes"] == 0 and c["success"] is False
    assert c["check"] == "r1-c1"


# R-CHECK-2 -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("need", "success"), [(1, True), (2, True), (3, False)])
def test_r_check_2_succeeds_when_successes_reach_need(need: int, success: bool) -> None:
    r, c = scene(pc(), "射撃", need, dice=[1, 3, 4, 6])
    assert c["need"] == need
    assert c["success"] is success


# R-CHECK-3 -----------------------------------------------------------------------------------------------------


def test_r_check_3_missing_skill_is_level_1() -> None:
    u = pc()
    assert "芸術" not in u["skills"]
    r, c = scene(u, "芸術", 1, dice=[1, 2])  # 文化 2 dice, level 1: only the 1 counts
    assert c["successes"] == 1


@pytest.mark.parametrize("level", [0, 6])
def test_r_check_3_level_outside_1_to_5_is_bad_input(level: int) -> None:
    with pytest.raises(BadInput, match="射撃"):
        run(encounter(pc(skills_update={"射撃": level}), enemy()), [], [])


# R-CHECK-4 -----------------------------------------------------------------------------------------------------


def test_r_check_4_parent_stat_comes_from_skill_stats() -> None:
    u = pc(skill_stats_update={"射撃": "理知"})  # 理知 2 instead of 感覚 4
    r, c = scene(u, "射撃", 1, dice=[1, 1])
    assert c["dice"] == [1, 1]
    assert r.dice_left == 0


# R-CHECK-5 -----------------------------------------------------------------------------------------------------


def test_r_check_5_only_the_named_item_applies() -> None:
    u = on_foot(pc())
    u["items"] = [
        {"id": "charm", "dice": 1, "successes": 0, "skills": ["射撃"]},
        {"id": "lucky", "dice": 0, "successes": 2, "skills": None},
    ]
    r, c = scene(u, "射撃", 1, item="charm", dice=[1, 1, 6, 6, 6])  # 4 + charm's 1 die; lucky not named
    assert c["dice"] == [1, 1, 6, 6, 6]
    assert c["successes"] == 2


# R-CHECK-6 -----------------------------------------------------------------------------------------------------


def test_r_check_6_r_fix_14_no_item_while_riding_check_goes_ahead_without_it() -> None:
    u = pc(items=[{"id": "charm", "dice": 1, "successes": 1, "skills": None}])
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1, "charm"))], [1, 1, 1, 1])
    ref = r.one("refused", unit="aoi")
    assert (ref["action"], ref["order"], ref["item"], ref["reason"]) == ("item", "item", "charm", "item_while_riding")
    c = r.one("check", unit="aoi")  # R-FIX-14: the check itself is carried out, without the item
    assert c["dice"] == [1, 1, 1, 1] and c["successes"] == 4 and "item" not in c
    assert r.index("refused", unit="aoi") < r.events.index(c)
    assert r.dice_left == 0


def test_r_check_6_no_evade_item_while_riding() -> None:
    u = pc(items=[{"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}])
    orders = [order("aoi", evade_item="charm"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [6, 6, 6, 6, 6, 6])  # oni 3 attack dice, aoi 3 evasion dice (no +1)
    a = r.one("attack", attacker="oni1")
    assert a["evade_dice"] == [6, 6, 6]
    assert r.dice_left == 0
    refused = r.ev("refused", unit="aoi")
    assert [x["reason"] for x in refused] == ["item_while_riding"]


def test_r_check_6_r_fix_14_no_item_on_a_riding_attack_which_goes_ahead() -> None:
    u = pc(items=[{"id": "charm", "dice": 1, "successes": 0, "skills": None}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1", item="charm"))], [6] * 6)
    ref = r.one("refused", unit="aoi")
    assert (ref["action"], ref["reason"]) == ("item", "item_while_riding")
    a = r.one("attack", attacker="aoi")
    assert len(a["attack_dice"]) == 4  # 感覚 4, no charm die
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 5
    assert r.dice_left == 0


# R-CHECK-7 -----------------------------------------------------------------------------------------------------


def test_r_check_7_item_adds_dice_and_successes() -> None:
    u = on_foot(pc())
    u["items"] = [{"id": "scope", "dice": 1, "successes": 1, "skills": ["射撃"]}]
    r, c = scene(u, "射撃", 2, item="scope", dice=[1, 6, 6, 6, 6])
    assert len(c["dice"]) == 5
    assert c["successes"] == 2  # 1 counted + 1 from the item
    assert c["success"] is True


def test_r_check_7_item_limited_to_listed_skills() -> None:
    u = on_foot(pc())
    u["items"] = [{"id": "boots", "dice": 2, "successes": 2, "skills": ["回避"]}]
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1, "boots"))], [1, 1, 6, 6])
    # pbp's reading (docs/rules/pool.md): the order is refused, nothing rolled, the item never applies
    assert r.one("refused", unit="aoi")["reason"] == "item_not_applicable"
    assert r.ev("check") == [] and r.dice_used == 0


# R-CHECK-8 -----------------------------------------------------------------------------------------------------


def pool_size(u: dict, skill: str = "射撃", **enc_kw) -> int:
    """How many dice `u` rolls for a scene check of `skill` (scripted with plenty of 6s, counted after)."""
    r = run(encounter(u, enemy(), **enc_kw), [order(u["id"], major=check(skill, 1))], [6] * 30)
    c = r.one("check", unit=u["id"])
    assert r.dice_used == len(c["dice"])
    return len(c["dice"])


def test_r_check_8_vehicle_stat_mods_add_dice() -> None:
    assert pool_size(pc(vehicle_update={"stat_mods": {"感覚": 1}})) == 5
    assert pool_size(pc(vehicle_update={"stat_mods": {"肉体": 2}})) == 4  # other stats unaffected


def test_r_check_8_vehicle_stat_mods_do_not_apply_on_foot() -> None:
    u = on_foot(pc(vehicle_update={"stat_mods": {"感覚": 1}}))
    assert pool_size(u) == 4


@pytest.mark.parametrize(
    ("taken", "dice"),
    [
        ([10, 10, 0, 0, 0], 4),  # 小破: nothing
        ([10, 10, 10, 0, 0], 5),  # 中破: +1
        ([10, 10, 10, 10, 0], 7),  # 大破: +3 (not +4: R-GAUGE-4)
    ],
)
def test_r_check_8_damage_gauge_bonus_while_riding(taken: list[int], dice: int) -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, taken)})
    assert pool_size(u) == dice


@pytest.mark.parametrize(("taken", "dice"), [([10, 10, 0, 0, 0], 4), ([10, 10, 10, 0, 0], 5), ([10, 10, 10, 10, 0], 7)])
def test_r_check_8_injury_gauge_bonus_on_foot(taken: list[int], dice: int) -> None:
    u = on_foot(pc(injury=gauge([10, 10, 10, 10, 1], taken)))
    assert pool_size(u) == dice


def test_r_check_8_injury_bonus_not_while_riding() -> None:
    assert pool_size(pc(injury=gauge([10, 10, 10, 10, 1], [10, 10, 10, 10, 0]))) == 4


def test_r_check_8_stun_multiplies_and_floors() -> None:
    stunned = [{"id": "stun", "rounds_left": 3}]
    assert pool_size(pc(statuses=stunned)) == 3  # floor(4 x 0.75)
    assert pool_size(pc(statuses=stunned), "回避") == 2  # floor(3 x 0.75) = 2
    # the modifier is added before the multiplier: floor((4 + 2) x 0.75) = 4
    assert pool_size(pc(statuses=stunned, vehicle_update={"stat_mods": {"感覚": 2}})) == 4
    # the gauge bonus too: floor((4 + 3) x 0.75) = 5
    assert pool_size(pc(statuses=stunned, vehicle_update={"damage": gauge([10] * 5, [10, 10, 10, 10, 0])})) == 5


def test_r_check_8_stun_applies_on_foot() -> None:
    assert pool_size(on_foot(pc(statuses=[{"id": "stun", "rounds_left": 2}]))) == 3


def test_r_check_8_item_dice_inside_the_multiplier() -> None:
    u = on_foot(pc(statuses=[{"id": "stun", "rounds_left": 3}]))
    u["items"] = [{"id": "scope", "dice": 2, "successes": 0, "skills": None}]
    r, c = scene(u, "射撃", 1, item="scope", dice=[6] * 10)
    assert len(c["dice"]) == 4  # floor((4 + 2) x 0.75)


ROUGH_HALF = [{"rect": [[-100, -100], [100, 100]], "rough": 0.5}]


def test_r_check_8_rough_ground_factor() -> None:
    assert pool_size(pc(), terrain=ROUGH_HALF) == 2  # floor(4 x 0.5)
    assert pool_size(pc(), "回避", terrain=ROUGH_HALF) == 1  # floor(3 x 0.5)


def test_r_check_8_multipliers_multiply_then_floor_once() -> None:
    stunned = [{"id": "stun", "rounds_left": 3}]
    assert pool_size(pc(statuses=stunned), terrain=ROUGH_HALF) == 1  # floor(4 x 0.75 x 0.5) = floor(1.5)
    rough_06 = [{"rect": [[-100, -100], [100, 100]], "rough": 0.6}]
    # floor(5 x 0.75 x 0.6) = floor(2.25) = 2; flooring after each step would give floor(3 x 0.6) = 1
    assert pool_size(pc(stats_update={"感覚": 5}, statuses=stunned), terrain=rough_06) == 2
    rough_quarter = [{"rect": [[-100, -100], [100, 100]], "rough": 0.25}]
    # floor(5 x 0.75 x 0.25) = floor(0.9375) = 0 dice
    assert pool_size(pc(stats_update={"感覚": 5}, statuses=stunned), terrain=rough_quarter) == 0


def test_r_check_8_never_below_zero_dice() -> None:
    u = pc(stats_update={"感覚": 1}, statuses=[{"id": "stun", "rounds_left": 3}])
    assert pool_size(u) == 0


def test_r_check_8_destroyed_adds_5_successes_while_riding() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r, c = scene(u, "射撃", 6, dice=[1, 6, 6, 6])
    assert len(c["dice"]) == 4  # the deepest stage is 破壊: its +5 successes replace 大破's +3 (R-GAUGE-4)
    assert c["successes"] == 6
    assert c["success"] is True


def test_r_check_8_leg_damage_minus_20_on_evasion_only() -> None:
    u = pc(statuses=[{"id": "leg_damage"}])
    r, c = scene(u, "射撃", 1, dice=[1, 6, 6, 6])
    assert c["successes"] == 1  # not an evasion: no -20
    orders = [order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [1, 1, 6, 1, 1, 1])
    a = r.one("attack", attacker="oni1")
    assert a["attack_successes"] == 2
    assert a["evade_successes"] == -17  # 3 - 20, clamp_successes false
    assert a["hit"] is True
    assert a["damage"] == 4 + 2 + 17


def test_r_check_8_clamp_successes_option() -> None:
    u = pc(statuses=[{"id": "leg_damage"}])
    orders = [order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy(), options={"clamp_successes": True}), orders, [1, 1, 6, 1, 1, 1])
    a = r.one("attack", attacker="oni1")
    assert a["evade_successes"] == 0
    assert a["damage"] == 4 + 2
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [6, 0, 0, 0, 0]


def test_r_check_8_unclamped_damage_flows_through_stages() -> None:
    u = pc(statuses=[{"id": "leg_damage"}])
    r = run(encounter(u, enemy()), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 6, 1, 1, 1])
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [10, 10, 3, 0, 0]


def test_r_check_8_negative_item_successes_clamped_or_not() -> None:
    u = on_foot(pc())
    u["items"] = [{"id": "cursed", "dice": 0, "successes": -3, "skills": None}]
    _, c = scene(u, "射撃", 1, item="cursed", dice=[1, 6, 6, 6])
    assert c["successes"] == -2
    _, c = scene(u, "射撃", 1, item="cursed", dice=[1, 6, 6, 6], options={"clamp_successes": True})
    assert c["successes"] == 0


def test_r_check_8_spit_attack_pool_sizes_for_reference() -> None:
    """Attack and evasion pools use the same formula (stun on the evader only here)."""
    u = pc(statuses=[{"id": "stun", "rounds_left": 3}])
    e = enemy(vehicle_update={"stat_mods": {"感覚": 1}, "weapons": [spit()]})
    r = run(encounter(u, e), [order("oni1", major=attack("spit", "aoi"))], [6] * 6)
    a = r.one("attack", attacker="oni1")
    assert len(a["attack_dice"]) == 4 and len(a["evade_dice"]) == 2
    assert r.dice_left == 0
