"""`legal_actions` and `refusals`: what the entry form offers a unit, and why the server refuses an order on save.

The laws (hypothesis, last): every action `legal_actions` offers has no refusal and the engine carries it out; and
an order `refusals` refuses is one the engine refuses when its turn comes (the other units standing still).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from pool_builders import (
    attack,
    blade,
    claw,
    encounter,
    enemy,
    on_foot,
    order,
    pc,
    rifle,
    spit,
    vehicle,
    weapon,
)

from pbp.engine import SeededDice, find_ruleset
from pbp.engine.pool.legal import legal_actions, pool_for_check, refusals

POOL = find_ruleset("pool")
SCENE_CHECKS = [{"id": "search", "skill": "情報処理", "need": 2}]


def reasons(enc: dict, o: dict, checks: list | None = None) -> list[str]:
    return [f"{p.path}: {p.message}" for p in refusals(enc, o, checks)]


def weapon_ids(la) -> list[str]:
    return [w.id for w in la.weapons]


def test_r_fix_2_a_rider_is_offered_its_vehicles_weapons_only() -> None:
    u = pc(weapons=[weapon("pistol", rng=(0, 600))])
    enc = encounter(u, enemy())
    la = legal_actions(enc, "aoi")
    assert weapon_ids(la) == ["rifle"]  # the blade does not reach oni1 500 m away; the pistol is in the hand
    [problem] = reasons(enc, order("aoi", major=attack("pistol", "oni1")))
    assert problem.startswith("major.weapon:") and "R-FIX-2" in problem


def test_r_fix_2_a_spare_weapon_needs_a_swap_first() -> None:
    u = pc(vehicle_update={"weapons": [rifle(), rifle(slot="spare") | {"id": "cannon"}]})
    enc = encounter(u, enemy())
    cannon = next(w for w in legal_actions(enc, "aoi").weapons if w.id == "cannon")
    assert cannon.needs_swap
    assert "swap" in reasons(enc, order("aoi", major=attack("cannon", "oni1")))[0]
    swapped = order("aoi", minor={"type": "swap", "weapon": "rifle", "with": "cannon"}, major=attack("cannon", "oni1"))
    assert reasons(enc, swapped) == []


def test_r_minor_1_an_empty_weapon_needs_a_reload_first() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=0, ammo_max=6)]})
    enc = encounter(u, enemy())
    [choice] = legal_actions(enc, "aoi").weapons
    assert choice.needs_reload and choice.ammo == 0
    assert "reload" in reasons(enc, order("aoi", major=attack("rifle", "oni1")))[0]
    assert reasons(enc, order("aoi", minor={"type": "reload", "weapon": "rifle"}, major=attack("rifle", "oni1"))) == []


def test_r_eng_5_a_target_out_of_range_is_not_offered_and_is_refused_with_the_distance() -> None:
    u = pc(vehicle_update={"weapons": [rifle(rng=(0, 300))], "move": 100})
    enc = encounter(u, enemy(position=[500, 0]))
    assert legal_actions(enc, "aoi").weapons == ()
    [problem] = reasons(enc, order("aoi", major=attack("rifle", "oni1")))
    assert "out of reach" in problem and "500 m" in problem


def test_r_eng_5_a_move_that_leaves_a_target_out_of_range_is_refused_with_the_distance_after_it() -> None:
    """In range where the unit stands, too close once it has moved: the refusal gives the distance the move leaves,
    not the one the form shows before it (which lies inside the weapon's range)."""
    u = pc(vehicle_update={"weapons": [rifle(rng=(450, 600))], "move": 100})
    enc = encounter(u, enemy(position=[500, 0]))
    assert reasons(enc, order("aoi", major=attack("rifle", "oni1"))) == []
    [problem] = reasons(enc, order("aoi", minor={"type": "move", "toward": "oni1"}, major=attack("rifle", "oni1")))
    assert "after the move" in problem and "400 m" in problem and "500 m" not in problem


def test_r_eng_5_a_minor_move_can_bring_a_target_into_range() -> None:
    u = pc(vehicle_update={"weapons": [rifle(rng=(0, 450))], "move": 100})
    enc = encounter(u, enemy(position=[500, 0]))
    assert legal_actions(enc, "aoi").weapons[0].targets == ("oni1",)
    assert reasons(enc, order("aoi", minor={"type": "move", "toward": "oni1"}, major=attack("rifle", "oni1"))) == []
    assert reasons(enc, order("aoi", major=attack("rifle", "oni1")))  # without the move it falls short


def test_r_eng_5_melee_reaches_only_inside_the_engagement_or_by_running_into_the_target() -> None:
    u = pc(vehicle_update={"weapons": [blade()], "move": 100})
    far = encounter(u, enemy(position=[500, 0]))
    assert legal_actions(far, "aoi").weapons == ()
    near = encounter(u, enemy(position=[80, 0]))
    assert legal_actions(near, "aoi").weapons[0].targets == ("oni1",)
    ran_in = order("aoi", minor={"type": "move", "toward": "oni1"}, major=attack("blade", "oni1"))
    assert reasons(near, ran_in) == []
    engaged = encounter(
        pc(vehicle_update={"weapons": [blade()]}, engagement="e1"), enemy(position=[0, 0], engagement="e1")
    )
    assert reasons(engaged, order("aoi", major=attack("blade", "oni1"))) == []


def test_r_check_6_no_item_while_riding() -> None:
    items = [{"id": "scope", "dice": 1, "successes": 0, "skills": ["射撃"]}]
    rider = encounter(pc(items=items), enemy())
    assert legal_actions(rider, "aoi").items == ()
    assert "R-CHECK-6" in reasons(rider, order("aoi", major=attack("rifle", "oni1", item="scope")))[0]
    walker = encounter(on_foot(pc(items=items), weapons=[weapon("pistol", rng=(0, 600))]), enemy())
    assert legal_actions(walker, "aoi").items == ("scope",)
    assert reasons(walker, order("aoi", major=attack("pistol", "oni1", item="scope"))) == []


def test_r_check_7_an_item_helps_only_its_skills() -> None:
    items = [{"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}]
    walker = encounter(on_foot(pc(items=items), weapons=[weapon("pistol", rng=(0, 600))]), enemy())
    assert legal_actions(walker, "aoi").evade_items == ("charm",)
    assert "R-CHECK-7" in reasons(walker, order("aoi", major=attack("pistol", "oni1", item="charm")))[0]


@pytest.mark.parametrize("status", ["system_down", "arm_damage"])
def test_r_bs_1_no_attack_under_system_down_or_arm_damage(status: str) -> None:
    enc = encounter(pc(statuses=[{"id": status, "elapsed": 0}]), enemy())
    la = legal_actions(enc, "aoi")
    assert "attack" not in la.major and la.weapons == ()
    assert status in reasons(enc, order("aoi", major=attack("rifle", "oni1")))[0]
    assert ("recover" in la.major) == (status == "system_down")


def test_r_bs_5_leg_damage_stops_every_move() -> None:
    enc = encounter(pc(statuses=[{"id": "leg_damage"}]), enemy())
    la = legal_actions(enc, "aoi")
    assert "move" not in la.minor and "full_move" not in la.major and la.move_toward == ()
    assert "leg_damage" in reasons(enc, order("aoi", minor={"type": "move", "toward": "oni1"}))[0]


def test_r_fix_7_an_engaged_unit_may_only_leave() -> None:
    enc = encounter(pc(engagement="e1"), enemy(position=[0, 0], engagement="e1"))
    la = legal_actions(enc, "aoi")
    assert "move" not in la.minor and "full_move" not in la.major and "leave" in la.major
    assert "R-FIX-7" in reasons(enc, order("aoi", major={"type": "full_move", "toward": [900, 0]}))[0]
    assert reasons(enc, order("aoi", major={"type": "leave", "toward": [900, 0]})) == []


def test_r_fix_7_running_into_an_enemy_holds_the_unit_for_its_major_action() -> None:
    enc = encounter(pc(), enemy(position=[50, 0]))
    o = order("aoi", minor={"type": "move", "toward": "oni1"}, major={"type": "full_move", "toward": [-900, 0]})
    assert "R-FIX-7" in reasons(enc, o)[0]


def test_r_fix_11_one_setup_action_and_only_before_round_1() -> None:
    abilities = [
        {"id": "focus", "timing": "setup", "uses": 1, "effects": []},
        {"id": "war_cry", "timing": "setup", "uses": 1, "effects": []},
    ]
    enc = encounter(pc(abilities=abilities), enemy())
    assert legal_actions(enc, "aoi").setup == ("focus", "war_cry")
    assert "R-FIX-11" in reasons(enc, order("aoi", setup=["focus", "war_cry"]))[0]
    assert reasons(enc, order("aoi", setup=["war_cry"])) == []
    later = {**enc, "round": 2}
    assert legal_actions(later, "aoi").setup == ()
    assert "R-SETUP-1" in reasons(later, order("aoi", setup=["focus"]))[0]


def test_r_gm_2_checks_come_from_the_scenario() -> None:
    enc = encounter(pc())
    assert "check" not in legal_actions(enc, "aoi").major
    la = legal_actions(enc, "aoi", SCENE_CHECKS)
    assert la.checks == ("search",) and "check" in la.major
    bad = order("aoi", major={"type": "check", "skill": "芸術", "need": 0, "label": "dance"})
    assert "R-GM-2" in reasons(enc, bad, SCENE_CHECKS)[0]


def test_r_dmg_2_a_unit_on_foot_takes_damage_in_its_injury_gauge_only() -> None:
    enc = encounter(on_foot(pc()), enemy())
    assert legal_actions(enc, "aoi").damage_to == ("injury",)
    assert reasons(enc, order("aoi", damage_to="damage"))
    assert legal_actions(encounter(pc(), enemy()), "aoi").damage_to == ("injury", "damage")


def test_r_gauge_7_a_removed_unit_may_order_nothing() -> None:
    gone = enemy(removed=True, dead=True)
    enc = encounter(pc(), gone)
    la = legal_actions(enc, "oni1")
    assert la.minor == () and la.major == ()
    assert "out of the battle" in reasons(enc, order("oni1", major=attack("spit", "aoi")))[0]
    assert "oni1" not in legal_actions(enc, "aoi").move_toward


def test_r_check_8_pool_for_check_is_the_engines_pool() -> None:
    """The odds a form shows come from the same pool the battle rolls: 感覚 4 + a +1 vehicle mod, 射撃 3; under
    stun x0.75 floored; evasion carries leg_damage's -20."""
    u = pc(vehicle_update={"stat_mods": {"感覚": 1}})
    assert pool_for_check(encounter(u, enemy()), "aoi", "射撃") == (5, 3, 0)
    stunned = pc(vehicle_update={"stat_mods": {"感覚": 1}}, statuses=[{"id": "stun", "rounds_left": 2}])
    assert pool_for_check(encounter(stunned, enemy()), "aoi", "射撃") == (3, 3, 0)
    lame = enemy(statuses=[{"id": "leg_damage"}])
    assert pool_for_check(encounter(pc(), lame), "oni1", "回避", evasion=True) == (2, 2, -20)


def test_legal_actions_do_not_change_the_encounter() -> None:
    enc = encounter(pc(), enemy())
    before = copy.deepcopy(enc)
    legal_actions(enc, "aoi", SCENE_CHECKS)
    refusals(enc, order("aoi", major=attack("rifle", "oni1")))
    pool_for_check(enc, "aoi", "射撃")
    assert enc == before


# ---- the laws ------------------------------------------------------------------------------------------------

_STATUS_SETS = st.sampled_from([[], [{"id": "stun", "rounds_left": 2}], [{"id": "leg_damage"}],
                                [{"id": "arm_damage"}], [{"id": "system_down", "elapsed": 1}]])  # fmt: skip
_POINTS = st.tuples(st.integers(-6, 6), st.integers(-6, 6)).map(lambda p: [p[0] * 70, p[1] * 70])


@st.composite
def battles(draw: st.DrawFn) -> dict:
    """A small valid battle: one PC (riding or on foot) against one or two enemies, apart or in an engagement,
    any statuses."""
    items = [{"id": "scope", "dice": 1, "successes": 0, "skills": ["射撃"]},
             {"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}]  # fmt: skip
    weapons = [
        rifle(rng=(0, draw(st.sampled_from([100, 300, 600]))), ammo=draw(st.sampled_from([0, 2])), ammo_max=2),
        blade(slot=draw(st.sampled_from(["arm", "spare"]))),
        spit(slot=draw(st.sampled_from(["torso", "spare"])), rng=(draw(st.sampled_from([0, 100])), 500)),
    ]
    move = draw(st.sampled_from([0, 60, 150]))
    hero = pc(items=items, statuses=draw(_STATUS_SETS), vehicle=vehicle(move=move, weapons=weapons))
    if draw(st.booleans()):
        hero = on_foot(hero, move=move, weapons=weapons)
    points = draw(st.lists(_POINTS, min_size=3, max_size=3, unique_by=tuple))
    hero["position"] = points[0]
    foes = [enemy("oni1", position=points[1], statuses=draw(_STATUS_SETS))]
    if draw(st.booleans()):  # already in a fight (R-ENG-1: both at one point)
        hero["engagement"] = foes[0]["engagement"] = "e1"
        foes[0]["position"] = list(hero["position"])
    if draw(st.booleans()):
        foes.append(enemy("oni2", position=points[2], vehicle=vehicle("yk2", weapons=[claw(), spit()])))
    return encounter(hero, *foes)


@st.composite
def orders_for_the_pc(draw: st.DrawFn, enc: dict) -> dict:
    """A schema-valid order for the PC: any action type over its weapons, items, units and points."""
    u = enc["units"][0]
    wids = [w["id"] for w in u["weapons"] + ((u.get("vehicle") or {}).get("weapons") or [])]
    others = [o["id"] for o in enc["units"][1:]]
    toward = st.one_of(st.sampled_from(others), _POINTS)
    item = st.sampled_from([None, None, "scope", "charm"])
    minor = st.one_of(
        st.none(),
        st.builds(lambda t: {"type": "move", "toward": t}, toward),
        st.builds(lambda w: {"type": "reload", "weapon": w}, st.sampled_from(wids)),
        st.builds(lambda a, b: {"type": "swap", "weapon": a, "with": b}, st.sampled_from(wids), st.sampled_from(wids)),
    )
    major = st.one_of(
        st.none(),
        st.builds(lambda w, t, i: attack(w, t, item=i), st.sampled_from(wids), st.sampled_from(others), item),
        st.builds(lambda t: {"type": "full_move", "toward": t}, toward),
        st.builds(lambda t: {"type": "leave", "toward": t}, st.one_of(st.none(), _POINTS)),
        st.builds(lambda w: {"type": "reload", "weapon": w}, st.sampled_from(wids)),
        st.builds(
            lambda s, i: {"type": "recover", "status": s, "item": i}, st.sampled_from(["system_down", "stun"]), item
        ),
    )
    return order("aoi", minor=draw(minor), major=draw(major))


def _brief(u: dict) -> dict:
    """What a failing example needs to show of a unit."""
    arsenal = (u.get("vehicle") or {}).get("weapons") or u["weapons"]
    return {"id": u["id"], "at": u["position"], "riding": bool(u.get("vehicle")), "statuses": u["statuses"],
            "move": (u.get("vehicle") or u).get("move"), "weapons": [(w["id"], w["slot"], w["ammo"], w["range"])
            for w in arsenal]}  # fmt: skip


def engine_refusals(enc: dict, o: dict) -> list[dict]:
    """The `refused` events of the PC's minor and major actions (and of an item named on them, R-FIX-14), the other
    units doing nothing."""
    res = POOL.resolve(enc, {"orders": [o]}, SeededDice("legal"))
    return [e for e in res.events if e["type"] == "refused" and e["unit"] == "aoi" and e["action"] != "evade_item"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_an_order_refused_on_save_is_refused_by_the_engine_and_no_other(data: st.DataObject) -> None:
    enc = data.draw(battles())
    o = data.draw(orders_for_the_pc(enc))
    assert POOL.validate_orders({"orders": [o]}, enc) == []
    saved = reasons(enc, o)
    engine = engine_refusals(enc, o)
    note(f"units: {[_brief(u) for u in enc['units']]}")
    assert bool(saved) == bool(engine), (o, saved, engine)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_every_offered_action_is_accepted(enc: dict) -> None:
    la = legal_actions(enc, "aoi")
    offered = []
    for w in la.weapons:
        minor = None
        if w.needs_swap:
            minor = {"type": "swap", "weapon": w.id, "with": next(b for a, b in la.swaps if a == w.id)}
        elif w.needs_reload:
            minor = {"type": "reload", "weapon": w.id}
        for target in w.targets:
            o = order("aoi", minor=minor, major=attack(w.id, target))
            if reasons(enc, o):  # reached only by a move toward it
                o = order("aoi", minor={"type": "move", "toward": target}, major=attack(w.id, target))
            offered.append(o)
    offered += [order("aoi", minor={"type": "move", "toward": t}) for t in la.move_toward]
    offered += [order("aoi", minor={"type": "reload", "weapon": w}) for w in la.reload]
    offered += [order("aoi", minor={"type": "swap", "weapon": a, "with": b}) for a, b in la.swaps]
    offered += [order("aoi", major={"type": "recover", "status": s}) for s in la.recover]
    if "full_move" in la.major:
        offered.append(order("aoi", major={"type": "full_move", "toward": [0, 900]}))
    offered += [order("aoi", evade_item=i) for i in la.evade_items]
    for o in offered:
        assert POOL.validate_orders({"orders": [o]}, enc) == []
        assert reasons(enc, o) == [], o
        assert engine_refusals(enc, o) == [], o
