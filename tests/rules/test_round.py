"""Section 2.1: the round (R-ROUND-*, R-SETUP-1, R-MINOR-1, R-MAJOR-1, R-CLEAN-1) and initiative (R-FIX-1)."""

from __future__ import annotations

from pool_builders import (
    attack,
    blade,
    encounter,
    enemy,
    gauge,
    move,
    on_foot,
    order,
    pc,
    rifle,
    run,
    vehicle,
    weapon,
)


def initiative(r, rnd: int = 1) -> list[str]:
    return r.one("initiative", round=rnd)["order"]


def idle(*ids: str) -> list[dict]:
    return [order(i) for i in ids]


# R-ROUND-1 / R-ROUND-2 / R-FIX-1 -------------------------------------------------------------------------------


def test_r_round_1_descending_effective_sense() -> None:
    units = [
        pc("aoi"),  # 感覚 4
        pc("bob", stats_update={"感覚": 2}),
        enemy("oni1"),  # 感覚 3
        enemy("oni2", stats_update={"感覚": 5}),
    ]
    r = run(encounter(*units), idle("aoi", "bob", "oni1", "oni2"), [])
    assert initiative(r) == ["oni2", "aoi", "oni1", "bob"]


def test_r_round_2_ties_pcs_first_then_encounter_order() -> None:
    units = [
        enemy("oni2", stats_update={"感覚": 3}),
        pc("bob", stats_update={"感覚": 3}),
        enemy("oni1", stats_update={"感覚": 3}),
        pc("aoi", stats_update={"感覚": 3}),
    ]
    r = run(encounter(*units), idle("aoi", "bob", "oni1", "oni2"), [])
    assert initiative(r) == ["bob", "aoi", "oni2", "oni1"]


def test_r_round_2_tie_pc_acts_first_in_dice_order() -> None:
    """aoi (PC) and oni1 tie at 感覚 3: aoi's attack rolls first."""
    u = pc(stats_update={"感覚": 3})
    orders = [order("oni1", major=attack("spit", "aoi")), order("aoi", major=attack("rifle", "oni1"))]
    # aoi: 3 attack dice + oni1's 2 evasion dice; then oni1: 3 attack dice + aoi's 3 evasion dice
    r = run(encounter(u, enemy()), orders, [1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 6])
    attacks = r.ev("attack")
    assert [a["attacker"] for a in attacks] == ["aoi", "oni1"]
    assert attacks[0]["attack_dice"] == [1, 1, 1] and attacks[0]["evade_dice"] == [6, 6]
    assert attacks[1]["attack_dice"] == [6, 6, 6] and attacks[1]["evade_dice"] == [6, 6, 6]
    assert r.dice_left == 0


def test_r_fix_1_initiative_floors_like_a_pool() -> None:
    """oni1's 感覚 5 stunned is floor(3.75) = 3: a tie with aoi's 3, which the PC wins."""
    u = pc(stats_update={"感覚": 3})
    e = enemy(stats_update={"感覚": 5}, statuses=[{"id": "stun", "rounds_left": 3}])
    r = run(encounter(e, u), idle("aoi", "oni1"), [])
    assert initiative(r) == ["aoi", "oni1"]


def test_r_fix_1_vehicle_mod_and_gauge_bonus_count() -> None:
    e = enemy(stats_update={"感覚": 4})
    # aoi 感覚 3 + vehicle 感覚 +1 = 4 ties with oni1 and acts first; without the modifier she would act second
    a = pc(stats_update={"感覚": 3}, vehicle_update={"stat_mods": {"感覚": 1}})
    assert initiative(run(encounter(e, a), idle("aoi", "oni1"), [])) == ["aoi", "oni1"]
    # 中破 while riding: 3 + 1 = 4
    a = pc(stats_update={"感覚": 3}, vehicle_update={"damage": gauge([10] * 5, [10, 10, 10, 0, 0])})
    assert initiative(run(encounter(e, a), idle("aoi", "oni1"), [])) == ["aoi", "oni1"]
    # rough ground halves the riding pool: 4 x 0.5 = 2 < oni1's 4 (oni1 stands outside the rough area)
    terrain = [{"rect": [[-10, -10], [10, 10]], "rough": 0.5}]
    a = pc(stats_update={"感覚": 4})
    assert initiative(run(encounter(e, a, terrain=terrain), idle("aoi", "oni1"), [])) == ["oni1", "aoi"]


def test_r_fix_1_items_do_not_count_for_initiative() -> None:
    e = enemy(stats_update={"感覚": 4})
    a = on_foot(pc(stats_update={"感覚": 3}))
    a["items"] = [{"id": "scope", "dice": 3, "successes": 3, "skills": None}]
    r = run(encounter(e, a), [order("aoi", evade_item="scope"), order("oni1")], [])
    assert initiative(r) == ["oni1", "aoi"]


# R-ROUND-3 -----------------------------------------------------------------------------------------------------


def test_r_round_3_minor_then_major_reload_then_attack() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=0, ammo_max=6), blade()]})
    orders = [order("aoi", minor={"type": "reload", "weapon": "rifle"}, major=attack("rifle", "oni1"))]
    r = run(encounter(u, enemy()), orders, [6, 6, 6, 6, 6, 6])
    assert r.index("reload", unit="aoi") < r.index("attack", attacker="aoi")
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 5
    assert r.dice_left == 0


def test_r_round_3_minor_move_then_major_melee() -> None:
    e = enemy(position=[80, 0])
    orders = [order("aoi", minor=move("oni1"), major=attack("blade", "oni1"))]
    # blade: 白兵 2 with 肉体 3 dice; oni1 evades with 肉体 2
    r = run(encounter(pc(), e), orders, [1, 1, 6, 6, 6])
    assert r.unit("aoi")["position"] == [80, 0]
    assert r.index("move", unit="aoi") < r.index("attack", attacker="aoi")
    a = r.one("attack", attacker="aoi")
    assert a["hit"] is True and a["damage"] == 12 + 2
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [5, 5, 4, 0, 0]


def test_r_round_3_either_action_may_be_skipped() -> None:
    r = run(encounter(pc(), enemy()), [order("aoi", minor=move([0, 50]))], [])
    assert r.unit("aoi")["position"] == [0, 50]
    r = run(encounter(pc(), enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert len(r.ev("attack")) == 1 and r.dice_left == 0


# R-ROUND-4 / R-SETUP-1 -----------------------------------------------------------------------------------------


def test_r_round_4_setup_once_then_cleanup_after_every_round() -> None:
    fog = {
        "id": "repair_drone",
        "timing": "setup",
        "area": [[-10, -10], [10, 10]],
        "effects": [{"kind": "restore", "gauge": "damage", "value": 3, "on": "area"}],
    }
    u = pc(vehicle_update={"damage": gauge([10] * 5, [5, 0, 0, 0, 0])})
    r = run(encounter(u, enemy(), gimmicks=[fog]), idle("aoi"), [], rounds=2)
    g = r.one("gimmick", id="repair_drone")
    assert r.events.index(g) < r.index("initiative", round=1)
    assert len(r.ev("cleanup")) == 2
    assert [e["round"] for e in r.ev("cleanup")] == [1, 2]
    assert r.index("cleanup", round=1) < r.index("initiative", round=2)
    assert r.state["round"] == 3
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [2, 0, 0, 0, 0]


def test_r_setup_1_setup_ability_used_once() -> None:
    focus = {
        "id": "focus",
        "timing": "setup",
        "uses": 1,
        "effects": [{"kind": "dice", "value": 2, "skills": ["射撃"], "rounds": 1}],
    }
    u = pc(abilities=[focus])
    orders = [order("aoi", major=attack("rifle", "oni1"), setup=["focus"])]
    r = run(encounter(u, enemy()), orders, [6] * 8 + [6] * 6, rounds=2)
    ab = r.one("ability", unit="aoi")
    assert ab["id"] == "focus"
    assert r.events.index(ab) < r.index("initiative", round=1)
    a1, a2 = r.ev("attack")
    assert len(a1["attack_dice"]) == 6  # 4 + 2 in round 1
    assert len(a2["attack_dice"]) == 4  # the effect lasted one round
    assert r.dice_left == 0


def test_r_setup_1_setup_ability_not_usable_as_minor() -> None:
    focus = {"id": "focus", "timing": "setup", "uses": None, "effects": []}
    r = run(encounter(pc(abilities=[focus]), enemy()), [order("aoi", minor={"type": "ability", "id": "focus"})], [])
    assert r.one("refused", unit="aoi")["reason"] == "wrong_timing"
    assert r.ev("ability") == []


# R-MINOR-1 -----------------------------------------------------------------------------------------------------


def test_r_minor_1_combat_move_up_to_move_once() -> None:
    r = run(encounter(pc(), enemy(position=[2000, 0])), [order("aoi", minor=move([300, 400]))], [])
    m = r.one("move", unit="aoi")
    assert m["to"] == [60, 80] and m["distance"] == 100
    assert m["kind"] == "move" and m["action"] == "minor"
    assert r.unit("aoi")["position"] == [60, 80]


def test_r_minor_1_partial_move_rounds_half_up() -> None:
    r = run(encounter(pc(), enemy(position=[2000, 0])), [order("aoi", minor=move([100, 100]))], [])
    assert r.unit("aoi")["position"] == [71, 71]  # 100 m along the diagonal: (70.71, 70.71)


def test_r_minor_1_move_stops_at_its_goal() -> None:
    r = run(encounter(pc(), enemy(position=[2000, 0])), [order("aoi", minor=move([30, 40]))], [])
    assert r.unit("aoi")["position"] == [30, 40]
    assert r.one("move", unit="aoi")["distance"] == 50


def test_r_minor_1_reload() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=1, ammo_max=6), blade()]})
    r = run(encounter(u, enemy()), [order("aoi", minor={"type": "reload", "weapon": "rifle"})], [])
    assert r.one("reload", unit="aoi")["ammo"] == 6
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 6


def test_r_minor_1_swap_arm_with_spare() -> None:
    bazooka = weapon("bazooka", damage=15, ammo=2, rng=(0, 600), slot="spare")
    u = pc(vehicle_update={"weapons": [rifle(), blade(), bazooka]})
    orders = [
        order("aoi", minor={"type": "swap", "weapon": "bazooka", "with": "rifle"}, major=attack("bazooka", "oni1"))
    ]
    r = run(encounter(u, enemy()), orders, [6] * 6)
    slots = {w["id"]: w["slot"] for w in r.unit("aoi")["vehicle"]["weapons"]}
    assert slots == {"bazooka": "arm", "rifle": "spare", "blade": "arm"}
    assert r.index("swap", unit="aoi") < r.index("attack", attacker="aoi")
    assert r.one("attack", attacker="aoi")["weapon"] == "bazooka"
    assert {w["id"]: w["ammo"] for w in r.unit("aoi")["vehicle"]["weapons"]}["bazooka"] == 1


def test_r_minor_1_fighter_swaps_torso_for_arm() -> None:
    gun = weapon("gun", damage=6, ammo=10, rng=(0, 800), slot="torso")
    missile = weapon("missile", damage=14, ammo=2, rng=(0, 1500), slot="spare")
    jet = vehicle("f1", kind="fighter", movement="air", weapons=[gun, missile])
    u = pc(vehicle=jet)
    orders = [order("aoi", minor={"type": "swap", "weapon": "missile", "with": "gun"})]
    r = run(encounter(u, enemy()), orders, [])
    slots = {w["id"]: w["slot"] for w in r.unit("aoi")["vehicle"]["weapons"]}
    assert slots == {"missile": "torso", "gun": "spare"}


# R-MAJOR-1 -----------------------------------------------------------------------------------------------------


def test_r_major_1_full_move_three_times_move() -> None:
    r = run(encounter(pc(), enemy(position=[0, 2000])), [order("aoi", major=move([1000, 0], "full_move"))], [])
    m = r.one("move", unit="aoi")
    assert m["kind"] == "full_move" and m["action"] == "major"
    assert m["distance"] == 300
    assert r.unit("aoi")["position"] == [300, 0]


def test_r_major_1_attack_spends_one_round_of_ammo() -> None:
    r = run(encounter(pc(), enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 5
    assert r.unit("aoi")["vehicle"]["weapons"][1]["ammo"] is None  # the blade needs none


def test_r_major_1_melee_spends_no_ammo() -> None:
    e = enemy(position=[0, 0], engagement="e1")
    r = run(encounter(pc(engagement="e1"), e), [order("aoi", major=attack("blade", "oni1"))], [6] * 5)
    assert r.one("attack", attacker="aoi")["weapon"] == "blade"
    assert r.unit("aoi")["vehicle"]["weapons"][1]["ammo"] is None


def test_r_major_1_reload_as_major() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=0, ammo_max=6), blade()]})
    r = run(encounter(u, enemy()), [order("aoi", major={"type": "reload", "weapon": "rifle"})], [])
    assert r.one("reload", unit="aoi")["action"] == "major"
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 6


def test_r_major_1_no_ammo_refused() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=0, ammo_max=6), blade()]})
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.one("refused", unit="aoi")["reason"] == "no_ammo"
    assert r.ev("attack") == [] and r.dice_used == 0


# R-CLEAN-1 -----------------------------------------------------------------------------------------------------


def test_r_clean_1_order_beams_then_statuses_then_removal() -> None:
    u = pc(
        statuses=[{"id": "lock_on", "fires_at_round": 1}, {"id": "stun", "rounds_left": 1}, {"id": "blind"}],
        vehicle_update={"damage": gauge([10] * 5, [10, 10, 10, 10, 0])},
    )
    r = run(encounter(u, enemy()), idle("aoi"), [])
    i_clean = r.index("cleanup", round=1)
    i_fired = r.index("status", unit="aoi", id="lock_on", change="fired")
    i_beam = r.index("damage", unit="aoi", source="lock_on")
    i_stun = r.index("status", unit="aoi", id="stun", change="ended")
    i_blind = r.index("status", unit="aoi", id="blind", change="ended")
    i_removed = r.index("removed", unit="aoi")
    assert i_clean < i_fired < i_stun < i_removed
    assert i_fired <= i_beam + 1 and i_beam < i_removed
    assert i_blind < i_removed
    beam = r.events[i_beam]
    assert beam["amount"] == 30 and beam["gauge"] == "damage" and beam["checked"] == [4]
    aoi = r.unit("aoi")
    assert aoi["removed"] is True
    assert aoi.get("statuses") in ([], None) or all(
        s["id"] not in ("lock_on", "stun", "blind") for s in aoi["statuses"]
    )
    assert r.dice_used == 0


def test_r_round_1_initiative_recomputed_every_round() -> None:
    """oni1 starts at 中破 (感覚 3 + 1 = 4, ties aoi, acts second); aoi's hit puts it at 大破 (3 + 3 = 6): it leads
    round 2."""
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 0, 0])})
    orders = [order("aoi", major=attack("rifle", "oni1"))]
    # round 1: aoi 4 dice (1 success) vs oni1's 2 + 1 evasion dice (0): 9 damage -> 大破; round 2: aoi misses
    r = run(encounter(pc(), e), orders, [1, 6, 6, 6, 6, 6, 6] + [6] * 4 + [6] * 5, rounds=2)
    assert initiative(r, 1) == ["aoi", "oni1"]
    assert initiative(r, 2) == ["oni1", "aoi"]
    assert r.dice_left == 0
