"""Default orders for units without orders (pbp.engine.pool.tactics), on the demo battle."""

from __future__ import annotations

import pytest

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
