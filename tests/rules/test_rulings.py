"""Section 6: the rulings after the first build (R-FIX-11..17; R-FIX-18 is a sign-up rule, tested with the services
in tests/lifecycle/test_scenarios.py)."""

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
    problems,
    run,
)

from pbp.engine.pool.geometry import round_half_up, step_toward


def ability(aid: str, timing: str = "setup", effects: list | None = None) -> dict:
    return {"id": aid, "timing": timing, "uses": None, "effects": effects or []}


def focus(aid: str = "focus", value: int = 2) -> dict:
    return ability(aid, effects=[{"kind": "dice", "value": value, "skills": None, "rounds": 1}])


# R-FIX-11: one setup action per character ------------------------------------------------------------------------


def test_r_fix_11_one_setup_action_in_all_the_rest_refused() -> None:
    u = pc(abilities=[focus("focus", 2), focus("guard", 1)])
    r = run(encounter(u, enemy()), [order("aoi", setup=["focus", "guard"], major=check("射撃", 1))], [6] * 6)
    assert [a["id"] for a in r.ev("ability", unit="aoi")] == ["focus"]
    ref = r.one("refused", unit="aoi")
    assert (ref["action"], ref["order"], ref["reason"]) == ("setup", "ability", "one_setup_action")
    assert len(r.one("check", unit="aoi")["dice"]) == 6  # 感覚 4 + focus's 2; guard's die never came
    assert r.dice_left == 0


def test_r_fix_11_the_same_ability_listed_twice_is_one_setup_action() -> None:
    r = run(encounter(pc(abilities=[focus()]), enemy()), [order("aoi", setup=["focus", "focus"])], [])
    assert len(r.ev("ability", unit="aoi")) == 1
    assert r.one("refused", unit="aoi")["reason"] == "one_setup_action"


def test_r_fix_11_a_refused_setup_entry_takes_no_setup_action() -> None:
    """An entry that could not be used (a minor ability) is not the unit's setup action: the next one is."""
    u = pc(abilities=[ability("aim", "minor"), focus()])
    r = run(encounter(u, enemy()), [order("aoi", setup=["aim", "focus"])], [])
    assert r.one("refused", unit="aoi")["reason"] == "wrong_timing"
    assert [a["id"] for a in r.ev("ability", unit="aoi")] == ["focus"]


def test_r_fix_11_setup_gimmicks_all_fire_beside_each_units_one_action() -> None:
    gimmicks = [
        {"id": "smoke", "timing": "setup", "area": None, "effects": [{"kind": "dice", "value": 1, "on": "area"}]},
        {"id": "flare", "timing": "setup", "area": None, "effects": [{"kind": "dice", "value": 1, "on": "area"}]},
    ]
    units = [pc(abilities=[focus("focus"), focus("guard")]), pc("bob", abilities=[focus("focus")]), enemy()]
    orders = [order("aoi", setup=["focus", "guard"]), order("bob", setup=["focus"])]
    r = run(encounter(*units, gimmicks=gimmicks), orders, [])
    assert [g["id"] for g in r.ev("gimmick")] == ["smoke", "flare"]
    assert [(a["unit"], a["id"]) for a in r.ev("ability")] == [("aoi", "focus"), ("bob", "focus")]
    assert [x["unit"] for x in r.ev("refused")] == ["aoi"]


# R-FIX-12: the overflow of a full engagement shares one new engagement ----------------------------------------


def full_engagement() -> list[dict]:
    return [pc(f"p{i}", engagement="e1") for i in range(5)] + [
        enemy(f"o{i}", position=[0, 0], engagement="e1") for i in range(5)
    ]


def test_r_fix_12_units_eleven_to_twenty_share_one_new_engagement() -> None:
    late = [enemy(f"late{i}", position=[50 + i, 0]) for i in range(11)]
    orders = [order(u["id"], minor=move("p0")) for u in late]
    r = run(encounter(*full_engagement(), *late), orders, [])
    assert [r.unit(f"late{i}")["engagement"] for i in range(11)] == ["e2"] * 10 + ["e3"]
    assert r.one("engage", unit="late1")["with"] == ["late0"]
    assert r.one("engage", unit="late9")["with"] == [f"late{i}" for i in range(9)]
    assert r.one("engage", unit="late10")["with"] == []  # e1 and e2 full: only now a new one
    assert sum(u["engagement"] == "e1" for u in r.state["units"]) == 10


def test_r_fix_12_the_overflow_engagement_is_joined_when_it_is_not_the_one_moved_toward() -> None:
    """The twelfth unit moves toward a member of the full e1; the overflow's e2 stands there too and has room."""
    units = [*full_engagement(), enemy("o10", position=[0, 0], engagement="e2"), enemy("late", position=[60, 0])]
    r = run(encounter(*units), [order("late", minor=move("o0"))], [])
    assert r.unit("late")["engagement"] == "e2"
    assert r.one("engage", unit="late")["with"] == ["o10"]


# R-FIX-13: rounds_left on any status ------------------------------------------------------------------------------


@pytest.mark.parametrize("sid", ["heat", "leg_damage", "arm_damage", "system_down", "lock_on"])
def test_r_fix_13_a_table_status_with_rounds_left_ends_at_zero(sid: str) -> None:
    status = {"id": sid, "rounds_left": 2}
    if sid == "lock_on":
        status["fires_at_round"] = 9  # would fire far later: the count ends it first
    r = run(encounter(pc(statuses=[status]), enemy()), [], [], rounds=2)
    first, second = r.ev("cleanup")
    ended = r.one("status", unit="aoi", id=sid, change="ended")
    assert r.events.index(second) < r.events.index(ended)
    assert r.status("aoi", sid) is None


def test_r_fix_13_rounds_left_counts_down_at_each_cleanup() -> None:
    r = run(encounter(pc(statuses=[{"id": "leg_damage", "rounds_left": 3}]), enemy()), [], [])
    assert r.status("aoi", "leg_damage") == {"id": "leg_damage", "rounds_left": 2}


def test_r_fix_13_system_down_with_rounds_left_still_counts_elapsed() -> None:
    r = run(encounter(pc(statuses=[{"id": "system_down", "elapsed": 1, "rounds_left": 2}]), enemy()), [], [])
    assert r.status("aoi", "system_down") == {"id": "system_down", "elapsed": 2, "rounds_left": 1}


def test_r_fix_13_a_status_effect_gives_rounds_left() -> None:
    hobble = ability("hobble", "major", [{"kind": "status", "id": "leg_damage", "on": "target", "rounds": 1}])
    u = pc(abilities=[hobble])
    r = run(encounter(u, enemy()), [order("aoi", major={"type": "ability", "id": "hobble", "target": "oni1"})], [])
    applied = r.one("status", unit="oni1", id="leg_damage", change="applied")
    ended = r.one("status", unit="oni1", id="leg_damage", change="ended")
    assert r.events.index(applied) < r.index("cleanup") < r.events.index(ended)
    assert r.status("oni1", "leg_damage") is None


def test_r_fix_13_a_status_effect_sets_stuns_rounds() -> None:
    daze = ability("daze", "major", [{"kind": "status", "id": "stun", "on": "target", "rounds": 1}])
    r = run(
        encounter(pc(abilities=[daze]), enemy()),
        [order("aoi", major={"type": "ability", "id": "daze", "target": "oni1"})],
        [],
    )
    assert r.one("status", unit="oni1", id="stun", change="ended")


def test_r_fix_13_without_rounds_left_the_table_and_r_bs_4_decide() -> None:
    statuses = [{"id": "leg_damage"}, {"id": "stun"}, {"id": "dazzled"}]
    r = run(encounter(pc(statuses=statuses), enemy()), [], [])
    assert r.status("aoi", "leg_damage") == {"id": "leg_damage"}  # never by itself
    assert r.status("aoi", "stun") == {"id": "stun", "rounds_left": 2}  # its 3 rounds
    assert r.status("aoi", "dazzled") is None  # outside the table: the next cleanup


def test_r_fix_13_a_rounds_left_is_never_silently_ignored() -> None:
    """A misspelt counter or a status effect's `rounds` below 1 is bad input, not a status that never ends."""
    bad = problems(encounter(pc(statuses=[{"id": "leg_damage", "round_left": 1}]), enemy()))
    assert [p.path for p in bad] == ["units[0].statuses[0].round_left"]
    hobble = ability("hobble", "major", [{"kind": "status", "id": "leg_damage", "on": "self", "rounds": 0}])
    bad = problems(encounter(pc(abilities=[hobble]), enemy()))
    assert [p.path for p in bad] == ["units[0].abilities[0].effects[0].rounds"]


# R-FIX-14: an item named while riding is refused on its own ----------------------------------------------------


def test_r_fix_14_recover_while_riding_goes_ahead_without_the_item() -> None:
    u = pc(
        items=[{"id": "manual", "dice": 2, "successes": 0, "skills": ["情報処理"]}],
        statuses=[{"id": "system_down", "elapsed": 4}],
    )
    orders = [order("aoi", major={"type": "recover", "status": "system_down", "item": "manual"})]
    r = run(encounter(u, enemy()), orders, [1, 1])
    assert r.one("refused", unit="aoi")["action"] == "item"
    c = r.one("check", unit="aoi")
    assert len(c["dice"]) == 2 and c["success"] is True  # 理知 2, no manual dice; needs 6 - 4
    assert r.status("aoi", "system_down") is None


def test_r_fix_14_evade_item_while_riding_names_the_item_once() -> None:
    u = pc(items=[{"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}])
    orders = [order("aoi", evade_item="charm"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [6] * 6)
    ref = r.one("refused", unit="aoi")
    assert (ref["action"], ref["item"], ref["reason"]) == ("evade_item", "charm", "item_while_riding")


def test_r_fix_14_on_foot_the_item_applies_and_nothing_is_refused() -> None:
    u = on_foot(pc(items=[{"id": "charm", "dice": 1, "successes": 0, "skills": None}]))
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1, "charm"))], [6] * 5)
    assert r.ev("refused") == []
    assert r.one("check", unit="aoi")["item"] == "charm"


# R-FIX-15: rounding half up is floor(x + 0.5), negatives included -------------------------------------------------


@pytest.mark.parametrize(("x", "whole"), [(-0.5, 0), (-2.5, -2), (-1.5, -1), (0.5, 1), (2.5, 3), (-2.6, -3)])
def test_r_fix_15_round_half_up_is_floor_of_x_plus_half(x: float, whole: int) -> None:
    assert round_half_up(x) == whole


@pytest.mark.parametrize(("start", "goal", "end"), [(2.5, -8.5, 0), (0.5, -10.5, -2)])
def test_r_fix_15_a_partial_move_ending_on_a_negative_half_rounds_up(start: float, goal: float, end: int) -> None:
    assert step_toward([start, 0], [goal, 0], 3) == ([end, 0], 3)  # 3 metres west of start: -0.5 / -2.5
    u = on_foot(pc(position=[start, 0]), move=3)
    r = run(encounter(u, enemy()), [order("aoi", minor=move([goal, 0]))], [])
    assert r.unit("aoi")["position"] == [end, 0]


# R-FIX-16: 破壊 kills the pilot: the injury gauge shows it --------------------------------------------------------


def test_r_fix_16_destroyed_pilot_has_the_whole_injury_gauge_checked_and_dies_of_destroyed() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)}, injury=gauge([10, 10, 10, 10, 1], [3, 0, 0, 0, 0]))
    r = run(encounter(u, enemy()), [], [])
    aoi = r.unit("aoi")
    assert aoi["injury"]["taken"] == aoi["injury"]["capacity"] == [10, 10, 10, 10, 1]
    assert r.one("death", unit="aoi")["cause"] == "destroyed"
    assert aoi["dead"] is True and aoi["removed"] is True


# R-FIX-17: kept readings -----------------------------------------------------------------------------------------


def test_r_fix_17_destroyed_gives_plus_5_successes_and_no_stat_bonus() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [6, 6, 6, 6])
    c = r.one("check", unit="aoi")
    assert len(c["dice"]) == 4  # 感覚 4: no 大破 +3 (R-GAUGE-4: the deepest stage's effect only)
    assert c["successes"] == 5
    assert c["detail"]["mods"] == [] and c["detail"]["bonus"] == [["破壊", 5]]


def test_r_fix_17_engaged_with_no_living_enemy_moves_out_without_leave() -> None:
    units = [pc(engagement="e1"), enemy(position=[0, 0], engagement="e1", dead=True, removed=True)]
    r = run(encounter(*units), [order("aoi", minor=move([50, 0]))], [])
    assert r.ev("refused") == []
    assert r.unit("aoi")["position"] == [50, 0] and r.unit("aoi")["engagement"] is None
    assert r.one("disengage", unit="aoi")["engagement"] == "e1"


def test_r_fix_17_engaged_with_a_living_enemy_still_needs_leave() -> None:
    units = [pc(engagement="e1"), enemy(position=[0, 0], engagement="e1")]
    r = run(encounter(*units), [order("aoi", minor=move([50, 0]))], [])
    assert r.one("refused", unit="aoi")["reason"] == "engaged"
