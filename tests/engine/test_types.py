"""The pool's TypedDicts (pbp/engine/pool/types.py) are the shapes the engine really reads and writes: every event a
battle emits, and every unit of the state it returns, holds each required key of its type and no key the type does
not name. mypy checks the code against the types; this checks the types against the output."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from pbp.engine import SeededDice, find_ruleset
from pbp.engine.pool import types
from pbp.engine.pool.encounters import encounter_for_scenario
from pbp.engine.pool.events import EVENT_TYPES
from pbp.packs import demo_pack
from tests.rules.pool_builders import (
    attack,
    blade,
    check,
    encounter,
    enemy,
    move,
    on_foot,
    order,
    pc,
    rifle,
    spit,
    vehicle,
)

POOL = find_ruleset("pool")
EVENT_SHAPES: dict[str, Any] = {
    typing.get_args(shape.__annotations__["type"])[0]: shape for shape in typing.get_args(types.Event)
}


def _problems(value: dict[str, Any], shape: Any, where: str) -> list[str]:
    keys = set(value)
    missing = shape.__required_keys__ - keys
    unknown = keys - shape.__required_keys__ - shape.__optional_keys__
    return [f"{where}: {shape.__name__} lacks {sorted(missing)}"] * bool(missing) + [
        f"{where}: {shape.__name__} does not name {sorted(unknown)}"
    ] * bool(unknown)


def test_the_event_union_names_every_event_type_once() -> None:
    assert len(EVENT_SHAPES) == len(typing.get_args(types.Event))
    assert set(EVENT_SHAPES) == set(EVENT_TYPES)


def _battles() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The demo battle played out on default tactics for both sides, and one option flipped, on several seeds."""
    data = demo_pack().data
    encounter = encounter_for_scenario(data, "tama_river", list(data["characters"].items()))
    runs = []
    for seed in range(6):
        state: dict[str, Any] = dict(encounter)  # type: ignore[arg-type]
        if seed % 2:
            state["options"] = {**state["options"], "destroyed_kills_pilot": False}
        for _ in range(5):
            orders = POOL.default_orders(state, {"orders": []}, ("pc", "enemy"))
            result = POOL.resolve(state, orders, SeededDice(f"types{seed}"))
            runs.append((result.state, result.events))
            state = result.state
    runs.append(_everything_once())
    return runs


def _everything_once() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A round where one of each kind of order is given: a setup ability, a charge into melee, a swap, a reload,
    a scene check with an item, a recovery, an ability inflicting a status, an evasion item."""
    rider = pc(
        vehicle=vehicle(weapons=[blade(slot="spare"), rifle()]),
        abilities=[
            {"id": "focus", "timing": "setup", "uses": 1, "effects": [{"kind": "dice", "value": 1, "skills": None}]},
            {"id": "mark", "timing": "major", "effects": [{"kind": "status", "id": "stun", "on": "target"}]},
        ],
    )
    walker = on_foot(pc("kai", position=[0, 50], items=[{"id": "kit", "dice": 1, "skills": ["情報処理", "回避"]}]))
    walker["statuses"] = [{"id": "system_down", "elapsed": 1}]
    scout = on_foot(pc("rin", position=[10, 50], items=[{"id": "lens", "successes": 1}]))
    oni = enemy(position=[40, 0], statuses=[{"id": "lock_on", "fires_at_round": 1}])
    oni2 = enemy("oni2", position=[500, 0])
    enc = encounter(
        rider, walker, scout, oni, oni2,
        gimmicks=[{"id": "fog", "timing": "round_start", "area": None,
                   "effects": [{"kind": "restore", "gauge": "injury", "value": 1, "on": "area"}]}],
    )  # fmt: skip
    orders = {
        "orders": [
            order("aoi", minor={"type": "swap", "weapon": "blade", "with": "rifle"}, major=attack("blade", "oni1"),
                  setup=["focus"]),
            order("kai", major={"type": "recover", "status": "system_down", "item": "kit"}, evade_item="kit"),
            order("rin", minor=move("oni2"), major=check("芸術", 1, item="lens")),
            order("oni1", minor=move("aoi"), major={"type": "ability", "id": "mark", "target": "aoi"}),
            order("oni2", minor={"type": "reload", "weapon": "spit"}, major=attack("spit", "kai")),
        ]
    }  # fmt: skip
    enc["units"][3]["abilities"] = rider["abilities"][1:]
    enc["units"][4]["vehicle"]["weapons"] = [spit()]
    result = POOL.resolve(enc, orders, SeededDice("everything"), rounds=2)
    return result.state, result.events


BATTLES = _battles()


def test_the_battles_cover_most_event_types() -> None:
    """The check below means something only if the battles emit a good share of the vocabulary."""
    seen = {event["type"] for _, events in BATTLES for event in events}
    assert set(EVENT_TYPES) - seen <= {"disengage"}


@pytest.mark.parametrize("run", range(len(BATTLES)))
def test_every_event_and_unit_has_the_shape_of_its_type(run: int) -> None:
    state, events = BATTLES[run]
    problems = []
    for i, event in enumerate(events):
        problems += _problems(event, EVENT_SHAPES[event["type"]], f"events[{i}]")
        for key, shape in (("attack_detail", types.CheckDetail), ("evade_detail", types.CheckDetail)):
            if event.get(key) is not None:
                problems += _problems(event[key], shape, f"events[{i}].{key}")
    for i, unit in enumerate(state["units"]):
        problems += _problems(unit, types.Unit, f"units[{i}]")
        problems += _problems(unit["injury"], types.Gauge, f"units[{i}].injury")
        for j, status in enumerate(unit.get("statuses") or []):
            problems += _problems(status, types.Status, f"units[{i}].statuses[{j}]")
        for j, modifier in enumerate(unit.get("modifiers") or []):
            problems += _problems(modifier, types.Modifier, f"units[{i}].modifiers[{j}]")
        vehicle = unit.get("vehicle")
        if vehicle:
            problems += _problems(vehicle, types.Vehicle, f"units[{i}].vehicle")
        for j, weapon in enumerate([*unit.get("weapons", []), *(vehicle or {}).get("weapons", [])]):
            problems += _problems(weapon, types.Weapon, f"units[{i}] weapon {j}")
    assert problems == []
