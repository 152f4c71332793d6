"""Section 3: flying units (R-AIR-1), rough ground (R-ROUGH-1), R-FIX-9; R-FIX-2 (which weapons are ready).

R-GEAR-2/3 (gear budgets) are character-sheet validation: tests/packs/test_characters.py covers them with the
demo pack's sheets. R-GEAR-1 and R-GEAR-4 belong to the later web issues.
"""

from __future__ import annotations

import pytest
from pool_builders import attack, check, encounter, enemy, move, on_foot, order, pc, rifle, run, spit, vehicle, weapon

from pbp.engine import BadInput


def jet(**kw):
    return vehicle("f1", kind="fighter", movement="air", weapons=[rifle(rng=(0, 500), slot="torso")], **kw)


# R-AIR-1 / R-FIX-9 ---------------------------------------------------------------------------------------------


def test_r_air_1_ground_unit_sees_flying_unit_at_double_distance() -> None:
    e = enemy(position=[300, 0], vehicle_update={"weapons": [spit(rng=(0, 500))]})
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(pc(vehicle=jet()), e), orders, [6] * 6)
    # the flyer measures 300 m: in range
    assert r.one("attack", attacker="aoi")["target"] == "oni1"
    # the ground unit measures 600 m: out of its 500 m
    assert r.one("refused", unit="oni1")["reason"] == "out_of_range"
    assert r.dice_left == 0


def test_r_air_1_double_distance_within_range_still_hits() -> None:
    e = enemy(position=[250, 0], vehicle_update={"weapons": [spit(rng=(0, 500))]})
    r = run(encounter(pc(vehicle=jet()), e), [order("oni1", major=attack("spit", "aoi"))], [6] * 6)
    assert r.one("attack", attacker="oni1")["target"] == "aoi"  # 250 x 2 = 500


def test_r_air_1_flyer_to_flyer_is_not_doubled() -> None:
    e = enemy(position=[300, 0], vehicle=jet())
    e["vehicle"].update(id="f2", weapons=[spit(rng=(0, 500))])
    r = run(encounter(pc(vehicle=jet()), e), [order("oni1", major=attack("spit", "aoi"))], [6] * 6)
    assert r.one("attack", attacker="oni1")


def test_r_fix_9_round_before_doubling() -> None:
    # 250.29 m rounds to 250, doubled 500: in range (doubling first would give 500.58 -> 501: out of range)
    e = enemy(position=[250, 12], vehicle_update={"weapons": [spit(rng=(0, 500))]})
    r = run(encounter(pc(vehicle=jet()), e), [order("oni1", major=attack("spit", "aoi"))], [6] * 6)
    assert r.ev("refused") == []
    assert r.one("attack", attacker="oni1")


def test_r_fix_9_smallest_rough_factor_where_areas_overlap() -> None:
    terrain = [
        {"rect": [[-100, -100], [100, 100]], "rough": 0.5},
        {"rect": [[-10, -10], [10, 10]], "rough": 0.25},
        {"rect": [[-50, -50], [50, 50]], "rough": 0.75},
    ]
    r = run(encounter(pc(), enemy(), terrain=terrain), [order("aoi", major=check("射撃", 1))], [6] * 4)
    assert len(r.one("check", unit="aoi")["dice"]) == 1  # floor(4 x 0.25)


def test_r_fix_9_rough_taken_where_the_unit_is_when_it_acts() -> None:
    """aoi starts outside the rough area and moves into it with her minor action; her major check is rolled
    at her position when she acts. oni1, who stays outside, is unaffected."""
    terrain = [{"rect": [[50, -50], [150, 50]], "rough": 0.5}]
    orders = [order("aoi", minor=move([100, 0]), major=check("射撃", 1))]
    r = run(encounter(pc(), enemy(), terrain=terrain), orders, [6] * 4)
    assert len(r.one("check", unit="aoi")["dice"]) == 2  # rolled where she stands when the check is made
    r = run(encounter(pc(position=[100, 0]), enemy(), terrain=terrain), [order("aoi", major=check("射撃", 1))], [6] * 4)
    assert len(r.one("check", unit="aoi")["dice"]) == 2


# R-ROUGH-1 -----------------------------------------------------------------------------------------------------

ROUGH = [{"rect": [[-100, -100], [100, 100]], "rough": 0.5}]


def pool(u, skill="射撃", terrain=ROUGH) -> int:
    r = run(encounter(u, enemy(), terrain=terrain), [order(u["id"], major=check(skill, 1))], [6] * 10)
    return len(r.one("check", unit=u["id"])["dice"])


def test_r_rough_1_riding_ground_unit_halved() -> None:
    assert pool(pc()) == 2
    assert pool(pc(vehicle_update={"stat_mods": {"感覚": 2}})) == 3  # (4 + 2) x 0.5


def test_r_rough_1_rough_ground_slows_riders() -> None:
    r = run(encounter(pc(), enemy(position=[0, 3000]), terrain=ROUGH), [order("aoi", minor=move([1000, 0]))], [])
    assert r.unit("aoi")["position"] == [50, 0]


def test_r_rough_1_flying_units_ignore_it() -> None:
    assert pool(pc(vehicle=jet())) == 4
    r = run(
        encounter(pc(vehicle=jet()), enemy(position=[0, 3000]), terrain=ROUGH),
        [order("aoi", minor=move([1000, 0]))],
        [],
    )
    assert r.unit("aoi")["position"] == [100, 0]


def test_r_rough_1_human_size_units_ignore_it() -> None:
    assert pool(on_foot(pc())) == 4
    r = run(encounter(on_foot(pc(), move=10), enemy(), terrain=ROUGH), [order("aoi", minor=move([1000, 0]))], [])
    assert r.unit("aoi")["position"] == [10, 0]
    assert pool(pc(vehicle_update={"size": "human"})) == 4


def test_r_rough_1_outside_the_area_no_effect() -> None:
    assert pool(pc(position=[500, 500])) == 4


# R-FIX-2 -------------------------------------------------------------------------------------------------------


def test_r_fix_2_spare_weapon_is_not_ready() -> None:
    u = pc(vehicle_update={"weapons": [rifle(slot="spare")]})
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.one("refused", unit="aoi")["reason"] == "not_ready"
    assert r.ev("attack") == [] and r.dice_used == 0
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 6


def test_r_fix_2_on_foot_uses_personal_weapons() -> None:
    u = on_foot(pc(), weapons=[weapon("pistol", damage=5, ammo=6, rng=(0, 600))])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("pistol", "oni1"))], [1, 1, 6, 6, 6, 6])
    a = r.one("attack", attacker="aoi")
    assert a["weapon"] == "pistol" and a["damage"] == 5 + 2
    assert r.unit("aoi")["weapons"][0]["ammo"] == 5


def test_r_fix_2_rider_cannot_use_personal_weapon() -> None:
    u = pc(weapons=[weapon("pistol", damage=5, ammo=6, rng=(0, 600))])
    try:
        r = run(encounter(u, enemy()), [order("aoi", major=attack("pistol", "oni1"))], [6] * 6)
    except BadInput as e:  # an unknown weapon for a rider is bad input
        assert "pistol" in str(e)
        return
    assert r.ev("attack") == []
    assert r.one("refused", unit="aoi")["reason"] in ("not_ready", "unknown_weapon")
    assert r.unit("aoi")["weapons"][0]["ammo"] == 6


def test_r_fix_2_unit_on_foot_cannot_use_a_vehicle_weapon() -> None:
    u = on_foot(pc())
    with pytest.raises(BadInput, match="rifle"):
        run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)


def test_r_rough_1_factor_in_range_is_accepted() -> None:
    from pool_builders import problems

    assert problems(encounter(pc(), enemy(), terrain=[{"rect": [[0, 0], [9, 9]], "rough": 0.25}])) == []


def test_r_rough_1_factor_below_a_quarter_is_bad_input() -> None:
    from pool_builders import problems

    found = problems(encounter(pc(), enemy(), terrain=[{"rect": [[0, 0], [9, 9]], "rough": 0.1}]))
    assert any("rough" in p.path for p in found)
