"""Default orders for units without orders (pbp.engine.pool.tactics), on the demo battle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.engine import SeededDice, find_ruleset
from pbp.engine.pool.encounters import encounter_for_scenario
from pbp.engine.pool.geometry import distance
from pbp.engine.pool.tactics import default_orders, order_for
from pbp.packs import demo_pack


@pytest.fixture(scope="module")
def pack() -> dict:
    return demo_pack().data


@pytest.fixture
def battle(pack: dict) -> dict:
    return encounter_for_scenario(pack, "tama_river", list(pack["characters"].items()))


def unit(encounter: dict, uid: str) -> dict:
    return next(u for u in encounter["units"] if u["id"] == uid)


def test_out_of_reach_enemies_run_toward_the_nearest_foe_as_they_measure_it(battle: dict) -> None:
    kagachi = unit(battle, "kagachi1")
    order = order_for(kagachi, battle["units"])
    assert order["major"]["type"] == "full_move"
    # The fighter (makoto) starts nearer on the map, but a ground unit sees a flying one at double (R-AIR-1).
    assert distance(kagachi, unit(battle, "makoto")) > distance(kagachi, unit(battle, "aoi"))
    assert order["major"]["toward"] == "aoi"


def test_a_foe_in_reach_is_attacked_with_the_most_damaging_ready_weapon(battle: dict) -> None:
    kagachi = unit(battle, "kagachi1")
    aoi = unit(battle, "aoi")
    kagachi["position"] = [aoi["position"][0] + 100, aoi["position"][1]]
    order = order_for(kagachi, battle["units"])
    assert order["major"]["type"] == "attack"
    assert order["major"]["targets"][0] == "aoi"
    ready = [w for w in kagachi["vehicle"]["weapons"] if w["slot"] != "spare" and w["range"][1] >= 100]
    chosen = next(w for w in kagachi["vehicle"]["weapons"] if w["id"] == order["major"]["weapon"])
    assert chosen["damage"] == max(w["damage"] for w in ready)


def test_units_with_orders_keep_them_and_pcs_are_left_alone(battle: dict) -> None:
    mine = {"unit": "kagachi1", "minor": None, "major": None}
    orders = default_orders(battle, {"orders": [mine]})
    by_unit = {o["unit"]: o for o in orders["orders"]}
    assert by_unit["kagachi1"] is mine
    assert "aoi" not in by_unit and "makoto" not in by_unit
    assert {"kagachi2", "hayachi1"} <= set(by_unit)


def test_system_down_and_dead_units_get_no_default_order(battle: dict) -> None:
    unit(battle, "kagachi1")["statuses"].append({"id": "system_down", "elapsed": 0})
    unit(battle, "kagachi2")["removed"] = True
    by_unit = {o["unit"] for o in default_orders(battle, {"orders": []})["orders"]}
    assert by_unit == {"hayachi1"}


def test_default_orders_are_valid_for_the_engine(pack: dict, battle: dict) -> None:
    pool = find_ruleset("pool")
    state = battle
    for _ in range(4):
        orders = default_orders(state, {"orders": []}, sides=("pc", "enemy"))
        assert pool.validate_orders(orders, state, pack) == []
        state = pool.resolve(state, orders, SeededDice("tactics"), pack=pack).state
    assert state["round"] == 5


@pytest.mark.parametrize("seed", [f"x{i}" for i in range(1, 7)])
def test_r_gauge_6_every_state_resolve_leaves_is_valid_input_for_the_next_round(pack: dict, battle: dict, seed: str):
    """A battle fought to its end round by round: each output state (destructions, deaths included) is accepted
    as the next round's encounter."""
    pool = find_ruleset("pool")
    state, dice = battle, SeededDice(seed)
    for _ in range(12):
        orders = pool.default_orders(state, {"orders": []}, sides=("pc", "enemy"))
        state = pool.resolve(state, orders, dice, pack=pack).state
        assert pool.validate_encounter(state, pack) == []
        if len({u["side"] for u in state["units"] if not u.get("removed")}) < 2:
            break


# ---- the grid index gives the brute-force choice (issue 12 §3) ------------------------------------------------------
def _brute_reaches(u: dict, w: dict, foe: dict) -> bool:
    lo, hi = w["range"]
    if hi == 0:
        return u.get("engagement") is not None and u.get("engagement") == foe.get("engagement")
    return lo <= distance(u, foe) <= hi


def brute_force_order(u: dict, units: list[dict]) -> dict | None:
    """The default order as tactics chose it before the index: every foe measured and sorted (stable)."""
    foes = [o for o in units if o["side"] != u["side"] and not o.get("removed")]
    if not foes:
        return None
    foes.sort(key=lambda o: distance(u, o))
    if any(s["id"] in ("arm_damage", "system_down") for s in u.get("statuses", [])):
        return None
    vehicle = u.get("vehicle")
    arsenal = vehicle.get("weapons", []) if vehicle else u.get("weapons", [])
    ready = [w for w in arsenal if w.get("slot", "arm") != "spare" and (w.get("ammo") is None or w["ammo"] > 0)]
    ready.sort(key=lambda w: -w["damage"])
    for foe in foes:
        for w in ready:
            if _brute_reaches(u, w, foe):
                targets = [o["id"] for o in foes if _brute_reaches(u, w, o)][: w.get("targets", 1)]
                if foe["id"] not in targets:
                    targets = [foe["id"], *targets[:-1]]
                major = {"type": "attack", "weapon": w["id"], "targets": targets, "item": None}
                return {"unit": u["id"], "minor": None, "major": major}
    held = u.get("engagement") is not None and any(o.get("engagement") == u["engagement"] for o in foes)
    if held or any(s["id"] == "leg_damage" for s in u.get("statuses", [])):
        return None
    return {"unit": u["id"], "minor": None, "major": {"type": "full_move", "toward": foes[0]["id"]}}


def _weapon(i: int, damage: int, lo: int, span: int, targets: int, slot: str, ammo: int | None) -> dict:
    weapon = {"id": f"w{i}", "skill": "射撃", "damage": damage, "range": [lo, lo + span], "slot": slot,
              "ammo": ammo, "ammo_max": None if ammo is None else 3}  # fmt: skip
    if targets > 1:
        weapon["targets"] = targets
    return weapon


_weapons = st.lists(
    st.builds(
        _weapon,
        st.just(0),
        st.integers(0, 12),
        st.sampled_from([0, 0, 20, 100, 300]),
        st.sampled_from([0, 50, 150, 400, 1000]),
        st.integers(1, 3),
        st.sampled_from(["arm", "arm", "torso", "spare"]),
        st.sampled_from([None, None, 0, 2]),
    ),
    max_size=4,
)


@st.composite
def battlefields(draw: st.DrawFn) -> list[dict]:
    """Units of both sides on a map whose size and coordinates vary (clustered or spread, whole or decimal,
    negative ones included), riding ground or air vehicles or on foot, some engaged, some removed."""
    n = draw(st.integers(1, 40))
    spread = draw(st.sampled_from([0, 3, 50, 400, 2000, 10**6]))
    coordinate = st.integers(-spread, spread) | st.floats(-spread, spread, allow_nan=False).map(lambda v: round(v, 1))
    units = []
    for k in range(n):
        weapons = [{**w, "id": f"w{j}"} for j, w in enumerate(draw(_weapons))]
        ride = draw(st.sampled_from(["ground", "air", None]))
        unit = {
            "id": f"u{k}", "side": draw(st.sampled_from(["pc", "enemy"])),
            "position": [draw(coordinate), draw(coordinate)],
            "engagement": draw(st.sampled_from([None, None, "e1", "e2"])),
            "statuses": [{"id": s} for s in draw(st.lists(st.sampled_from(["leg_damage", "arm_damage", "stun"]),
                                                          max_size=1))],
            "weapons": [] if ride else weapons,
            "vehicle": {"movement": ride, "weapons": weapons} if ride else None,
        }  # fmt: skip
        if draw(st.integers(0, 9)) == 0:
            unit["removed"] = True
        units.append(unit)
    return units


@settings(max_examples=200, deadline=None)
@given(battlefields())
def test_the_indexed_choice_is_the_brute_force_one_ties_included(units: list[dict]) -> None:
    """Default orders through the grid index equal the ones every foe measured and sorted gives (the nearest foe in
    reach, R-AIR-1 distances, ties to the unit listed first, R-ENG-5 melee, area weapons' targets)."""
    encounter = {"units": units}
    orders = default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))["orders"]
    expected = [
        o for u in units if not u.get("removed") and (o := brute_force_order(u, units)) is not None
    ]  # fmt: skip
    assert orders == expected
