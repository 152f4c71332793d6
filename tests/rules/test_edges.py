"""Edge cases found while cross-checking the engine against the rules text (each names the rule it reads)."""

from __future__ import annotations

import pytest
from pool_builders import (
    attack,
    check,
    encounter,
    enemy,
    gauge,
    move,
    on_foot,
    order,
    pc,
    rifle,
    run,
    spit,
    weapon,
)

from pbp.engine import BadInput


@pytest.mark.parametrize(
    ("statuses", "weapons", "reason"),
    [
        ([{"id": "arm_damage"}], None, "arm_damage"),
        ([{"id": "system_down", "elapsed": 0}], None, "system_down"),
        ([], [rifle(slot="spare")], "not_ready"),
    ],
)
def test_r_fix_4_heat_stays_when_attack_refused_for_any_reason(statuses, weapons, reason) -> None:
    kw = {"vehicle_update": {"weapons": weapons}} if weapons else {}
    u = pc(statuses=[{"id": "heat"}, *statuses], **kw)
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [])
    assert r.one("refused", unit="aoi")["reason"] == reason
    assert r.status("aoi", "heat") == {"id": "heat"}
    assert r.ev("damage") == []


def test_r_gauge_7_heat_can_kill() -> None:
    u = on_foot(pc(statuses=[{"id": "heat"}], injury=gauge([1] * 5)), weapons=[weapon("pistol", rng=(0, 600))])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("pistol", "oni1"))], [])
    assert r.one("damage", unit="aoi", source="heat")["checked"] == [0, 1, 2, 3, 4]
    assert r.index("death", unit="aoi") < r.index("removed", unit="aoi") < r.index("cleanup", round=1)
    assert r.unit("aoi")["dead"] is True


def test_r_gauge_3_destroyed_mid_round_gives_plus_5_at_once() -> None:
    u = pc(stats_update={"感覚": 6})
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 5, 0])})
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, e), orders, [1] * 6 + [6] * 5 + [6, 6, 6] + [6, 6, 6])
    assert r.one("damage", unit="oni1")["checked"] == [4]
    a = r.one("attack", attacker="oni1")  # 破壊 now: 3 dice (no 大破 +3) and +5 successes
    assert len(a["attack_dice"]) == 3 and a["attack_successes"] == 5 and a["hit"] is True
    assert r.dice_left == 0


def test_r_gauge_6_surviving_pilot_is_not_dead() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = run(encounter(u, enemy(), options={"destroyed_kills_pilot": False}), [], [])
    aoi = r.unit("aoi")
    assert aoi["removed"] is True and not aoi.get("dead")
    assert aoi["injury"]["taken"] == [0] * 5
    assert r.one("removed", unit="aoi")["reason"] == "destroyed"


def test_r_gauge_6_options_default_to_the_literal_reading() -> None:
    enc = encounter(pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)}), enemy())
    del enc["options"]
    r = run(enc, [], [])
    assert r.unit("aoi")["dead"] is True and r.one("death", unit="aoi")["cause"] == "destroyed"


def test_r_fix_7_engaged_only_with_friends_may_move() -> None:
    units = [pc(engagement="e1"), pc("bob", engagement="e1"), enemy()]
    r = run(encounter(*units), [order("aoi", minor=move([0, 50]))], [])
    assert r.ev("refused") == []
    assert r.unit("aoi")["position"] == [0, 50]


def test_r_eng_1_contact_with_a_friend_also_engages() -> None:
    units = [pc(), pc("bob", position=[50, 0]), enemy()]
    r = run(encounter(*units), [order("aoi", minor=move("bob"))], [])
    assert r.unit("aoi")["engagement"] == r.unit("bob")["engagement"] == "e1"


def test_r_eng_1_full_move_into_contact_engages() -> None:
    r = run(encounter(pc(), enemy(position=[250, 0])), [order("aoi", major=move("oni1", "full_move"))], [])
    assert r.unit("aoi")["position"] == [250, 0]
    assert r.unit("aoi")["engagement"] == r.unit("oni1")["engagement"] == "e1"


def test_r_round_4_no_setup_process_after_round_1() -> None:
    g = {"id": "g", "timing": "setup", "area": None, "effects": [{"kind": "status", "id": "stun", "on": "area"}]}
    enc = encounter(pc(), enemy(), gimmicks=[g])
    enc["round"] = 2
    r = run(enc, [], [])
    assert r.ev("gimmick") == []
    assert r.status("aoi", "stun") is None
    assert r.state["round"] == 3


def test_r_setup_1_same_setup_ability_listed_twice_used_once() -> None:
    focus = {
        "id": "focus",
        "timing": "setup",
        "uses": None,
        "effects": [{"kind": "dice", "value": 2, "skills": None, "rounds": 1}],
    }
    r = run(
        encounter(pc(abilities=[focus]), enemy()),
        [order("aoi", setup=["focus", "focus"], major=check("射撃", 1))],
        [6] * 8,
    )
    assert len(r.ev("ability", unit="aoi")) == 1
    assert len(r.one("check", unit="aoi")["dice"]) == 6  # 4 + 2, once


def test_r_setup_1_minor_ability_listed_in_setup_refused() -> None:
    aim = {"id": "aim", "timing": "minor", "uses": None, "effects": []}
    r = run(encounter(pc(abilities=[aim]), enemy()), [order("aoi", setup=["aim"])], [])
    ref = r.one("refused", unit="aoi")
    assert ref["reason"] == "wrong_timing" and ref["action"] == "setup"
    assert r.ev("ability") == []


def test_r_minor_1_swap_needs_an_arm_slot() -> None:
    u = pc(vehicle_update={"weapons": [rifle(slot="torso"), weapon("bazooka", slot="spare")]})
    r = run(encounter(u, enemy()), [order("aoi", minor={"type": "swap", "weapon": "bazooka", "with": "rifle"})], [])
    assert r.one("refused", unit="aoi")["action"] == "minor"
    assert {w["id"]: w["slot"] for w in r.unit("aoi")["vehicle"]["weapons"]} == {"rifle": "torso", "bazooka": "spare"}


def test_r_hit_3_single_target_weapon_naming_two_targets_is_bad_input() -> None:
    with pytest.raises(BadInput, match="targets"):
        run(encounter(pc(), enemy(), enemy("oni2")), [order("aoi", major=attack("rifle", "oni1", "oni2"))], [6] * 8)


def test_r_gm_1_override_is_the_final_value_after_modifiers() -> None:
    u = pc(statuses=[{"id": "leg_damage"}])
    ov = [{"check": "r1-c2", "successes": 2, "reason": "the GM rules the legs held"}]
    r = run(encounter(u, enemy()), [order("oni1", major=attack("spit", "aoi"))], [1, 6, 6, 6, 6, 6], overrides=ov)
    a = r.one("attack", attacker="oni1")
    assert a["evade_successes"] == 2 and a["hit"] is False
    assert a["overrides"][0]["was"] == -20


def test_r_gm_1_checks_that_roll_nothing_cannot_be_overridden() -> None:
    u = pc(statuses=[{"id": "system_down", "elapsed": 0}])
    ov = [{"check": "r1-c2", "successes": 4, "reason": "no such check"}]
    r = run(encounter(u, enemy()), [order("oni1", major=attack("spit", "aoi"))], [6, 6, 6], overrides=ov)
    assert r.res.unused_overrides == ["r1-c2"]
    u = pc(statuses=[{"id": "system_down", "elapsed": 6}])
    ov = [{"check": "r1-c1", "successes": 0, "reason": "no roll"}]
    r = run(encounter(u, enemy()), [order("aoi", major={"type": "recover", "status": "system_down"})], [], overrides=ov)
    assert r.res.unused_overrides == ["r1-c1"]
    assert r.status("aoi", "system_down") is None


def test_r_check_1_zero_dice_evasion_still_has_an_id() -> None:
    u = pc(stats_update={"肉体": 1}, statuses=[{"id": "stun", "rounds_left": 3}])
    r = run(encounter(u, enemy()), [order("oni1", major=attack("spit", "aoi"))], [6, 6, 6])
    a = r.one("attack", attacker="oni1")
    assert a["evade_dice"] == [] and a["evade_check"] == "r1-c2" and a["evade_successes"] == 0


def test_r_check_8_negative_vehicle_modifier_floors_at_zero_dice() -> None:
    u = pc(vehicle_update={"stat_mods": {"感覚": -9}})
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [])
    assert r.one("check", unit="aoi")["dice"] == []


def test_ability_effect_lasts_its_rounds() -> None:
    aim = {
        "id": "aim",
        "timing": "minor",
        "uses": 1,
        "effects": [{"kind": "dice", "value": 2, "skills": None, "rounds": 2}],
    }
    orders = [order("aoi", minor={"type": "ability", "id": "aim", "target": None}, major=check("射撃", 1))]
    r = run(encounter(pc(abilities=[aim]), enemy()), orders, [6] * 16, rounds=3)
    assert [len(c["dice"]) for c in r.ev("check", unit="aoi")] == [6, 6, 4]


def test_r_fix_6_lock_on_on_foot_beam_goes_to_injury() -> None:
    u = on_foot(pc(statuses=[{"id": "lock_on", "fires_at_round": 1}], injury=gauge([50] * 5)))
    r = run(encounter(u, enemy()), [order("aoi", damage_to="damage")], [])
    d = r.one("damage", unit="aoi", source="lock_on")
    assert d["gauge"] == "injury" and d["amount"] == 30


def test_r_bs_1_system_down_applied_this_round_needs_6() -> None:
    e = enemy(stats_update={"感覚": 6}, vehicle_update={"weapons": [spit(inflicts="system_down")]})
    orders = [
        order("oni1", major=attack("spit", "aoi")),
        order("aoi", major={"type": "recover", "status": "system_down"}),
    ]
    r = run(encounter(pc(), e), orders, [1] * 6 + [6] * 3 + [1, 1])
    assert r.one("check", unit="aoi")["need"] == 6
    assert r.status("aoi", "system_down") == {"id": "system_down", "elapsed": 1}


def test_r_bs_3_stunned_walker_move_is_floored_whole_metres() -> None:
    """stun x0.75 on a walking move of 10: 7 m (floored, as R-CHECK-8 floors stats); a full move is 3 x 7."""
    u = on_foot(pc(statuses=[{"id": "stun", "rounds_left": 3}]), move=10)
    r = run(encounter(u, enemy()), [order("aoi", minor=move([100, 0]))], [])
    assert r.unit("aoi")["position"] == [7, 0]
    r = run(encounter(u, enemy()), [order("aoi", major=move([100, 0], "full_move"))], [])
    assert r.unit("aoi")["position"] == [21, 0]


def test_r_minor_1_swap_torso_into_arm() -> None:
    cannon = weapon("cannon", damage=10, ammo=2, rng=(0, 900), slot="torso")
    u = pc(vehicle_update={"weapons": [rifle(), cannon]})
    r = run(encounter(u, enemy()), [order("aoi", minor={"type": "swap", "weapon": "cannon", "with": "rifle"})], [])
    s = r.one("swap", unit="aoi")
    assert (s["weapon"], s["slot"], s["with"], s["with_slot"]) == ("cannon", "arm", "rifle", "torso")
    assert {w["id"]: w["slot"] for w in r.unit("aoi")["vehicle"]["weapons"]} == {"rifle": "torso", "cannon": "arm"}


def test_r_fix_6_lock_on_from_an_ability_fires_next_round() -> None:
    mark = {
        "id": "mark",
        "timing": "major",
        "uses": None,
        "effects": [{"kind": "status", "id": "lock_on", "on": "target"}],
    }
    e = enemy(vehicle_update={"damage": gauge([50] * 5)})
    r = run(
        encounter(pc(abilities=[mark]), e),
        [order("aoi", major={"type": "ability", "id": "mark", "target": "oni1"})],
        [],
    )
    assert r.status("oni1", "lock_on") == {"id": "lock_on", "fires_at_round": 2}


def test_r_fix_6_lock_on_from_a_cleanup_gimmick_fires_at_the_next_cleanup() -> None:
    beacon = {
        "id": "beacon",
        "timing": "cleanup",
        "area": None,
        "effects": [{"kind": "status", "id": "lock_on", "on": "area"}],
    }
    u = pc(vehicle_update={"damage": gauge([50] * 5)})
    r = run(encounter(u, enemy(vehicle_update={"damage": gauge([50] * 5)}), gimmicks=[beacon]), [], [], rounds=2)
    beams = r.ev("damage", unit="aoi", source="lock_on")
    assert [b["round"] for b in beams] == [2]
    assert r.status("aoi", "lock_on") == {"id": "lock_on", "fires_at_round": 3}


def test_restore_never_below_zero() -> None:
    rep = {
        "id": "repair",
        "timing": "major",
        "uses": None,
        "effects": [{"kind": "restore", "gauge": "damage", "value": 100, "on": "self"}],
    }
    u = pc(abilities=[rep], vehicle_update={"damage": gauge([10] * 5, [10, 5, 0, 0, 0])})
    r = run(encounter(u, enemy()), [order("aoi", major={"type": "ability", "id": "repair", "target": None})], [])
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [0] * 5
    assert r.one("restore", unit="aoi")["amount"] == 15
