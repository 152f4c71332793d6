"""Valid JSON of the wrong type is bad input, reported by validation with its field path, never an exception from
inside the battle (spec/engine-cli.md: "Bad input ...: exit 2 ... Never a traceback")."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pool_builders import attack, check, encounter, enemy, gauge, move, on_foot, order, pc, run

from pbp.engine import BadInput, SeededDice, find_ruleset
from pbp.engine.ruleset import Resolution

NAN, INF = float("nan"), float("inf")


def _base() -> tuple[dict, dict, list]:
    """A valid encounter, orders and overrides touching every input the battle reads."""
    u = pc(
        items=[{"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]}],
        abilities=[
            {"id": "focus", "timing": "setup", "uses": 1, "effects": [{"kind": "dice", "value": 1, "skills": ["射撃"],
                                                                       "rounds": 1}]},
            {"id": "mark", "timing": "minor", "uses": None,
             "effects": [{"kind": "status", "id": "stun", "on": "target"}]},
        ],
        statuses=[{"id": "stun", "rounds_left": 3}],
        modifiers=[{"kind": "successes", "value": 1, "skills": None, "rounds_left": 1, "source": "focus"}],
    )  # fmt: skip
    walker = on_foot(pc("kai", position=[0, 50], items=[{"id": "kit", "dice": 1, "skills": ["情報処理"]}]))
    walker["statuses"] = [{"id": "system_down", "elapsed": 1}]
    e = enemy(statuses=[{"id": "lock_on", "fires_at_round": 2}])
    enc = encounter(
        u, walker, e,
        terrain=[{"rect": [[0, 0], [100, 100]], "rough": 0.5}],
        gimmicks=[{"id": "fog", "timing": "round_start", "area": [[0, 0], [10, 10]],
                   "effects": [{"kind": "restore", "gauge": "damage", "value": 1, "on": "area"}]}],
    )  # fmt: skip
    orders = {
        "orders": [
            order("aoi", minor={"type": "ability", "id": "mark", "target": "oni1"},
                  major=attack("rifle", "oni1"), setup=["focus"], damage_to="damage"),
            order("kai", minor=move([0, 60]), major={"type": "recover", "status": "system_down", "item": "kit"},
                  evade_item="kit"),
            order("oni1", minor={"type": "reload", "weapon": "spit"}, major=check("射撃", 1)),
        ]
    }  # fmt: skip
    overrides = [{"check": "r1-c1", "successes": 2, "reason": "the GM says so"}]
    return enc, orders, overrides


def _resolve(enc: Any, orders: Any, overrides: Any = None, rounds: int = 1) -> Resolution:
    return find_ruleset("pool").resolve(enc, orders, SeededDice("types"), rounds=rounds, overrides=overrides)


def test_the_base_inputs_are_valid() -> None:
    enc, orders, overrides = _base()
    res = _resolve(enc, orders, overrides, rounds=2)
    assert res.events


def _unit0(enc: dict) -> dict:
    return enc["units"][0]


# (what is wrong, the input it is in, the field path reported, how to break the base inputs)
CASES: list[tuple[str, str, str, Callable[[dict, dict, list], Any]]] = [
    ("terrain a number", "encounter", "terrain", lambda e, o, v: e.update(terrain=5)),
    ("gimmicks a number", "encounter", "gimmicks", lambda e, o, v: e.update(gimmicks=5)),
    ("terrain point NaN", "encounter", "terrain[0].rect[0]",
     lambda e, o, v: e["terrain"][0].update(rect=[[NAN, 0], [1, 1]])),
    ("unit id a list", "encounter", "units[0].id", lambda e, o, v: _unit0(e).update(id=["a"])),
    ("skill_stats a list", "encounter", "units[0].skill_stats", lambda e, o, v: _unit0(e).update(skill_stats=["x"])),
    ("skill_stats value a list", "encounter", "units[0].skill_stats.射撃",
     lambda e, o, v: _unit0(e)["skill_stats"].update({"射撃": ["感覚"]})),
    ("abilities a number", "encounter", "units[0].abilities", lambda e, o, v: _unit0(e).update(abilities=5)),
    ("stun rounds_left a string", "encounter", "units[0].statuses[0].rounds_left",
     lambda e, o, v: _unit0(e).update(statuses=[{"id": "stun", "rounds_left": "x"}])),
    ("rounds_left of an unlisted status null", "encounter", "units[0].statuses[0].rounds_left",
     lambda e, o, v: _unit0(e).update(statuses=[{"id": "smoke", "rounds_left": None}])),
    ("fires_at_round a decimal", "encounter", "units[2].statuses[0].fires_at_round",
     lambda e, o, v: e["units"][2].update(statuses=[{"id": "lock_on", "fires_at_round": 1.5}])),
    ("fires_at_round a string", "encounter", "units[2].statuses[0].fires_at_round",
     lambda e, o, v: e["units"][2].update(statuses=[{"id": "lock_on", "fires_at_round": "2"}])),
    ("elapsed a string", "encounter", "units[1].statuses[0].elapsed",
     lambda e, o, v: e["units"][1].update(statuses=[{"id": "system_down", "elapsed": "1"}])),
    ("elapsed null", "encounter", "units[1].statuses[0].elapsed",
     lambda e, o, v: e["units"][1].update(statuses=[{"id": "system_down", "elapsed": None}])),
    ("gauge stage a string beside a NaN", "encounter", "units[0].injury.capacity[0]",
     lambda e, o, v: _unit0(e).update(injury={"capacity": ["", 1, 1, 1, 1], "taken": [0, NAN, 0, 0, 0]})),
    ("position NaN", "encounter", "units[0].position", lambda e, o, v: _unit0(e).update(position=[NAN, 0])),
    ("position Infinity", "encounter", "units[0].position", lambda e, o, v: _unit0(e).update(position=[0, -INF])),
    ("item skills a number", "encounter", "units[0].items[0].skills",
     lambda e, o, v: _unit0(e)["items"][0].update(skills=5)),
    ("modifiers a number", "encounter", "units[0].modifiers", lambda e, o, v: _unit0(e).update(modifiers=5)),
    ("modifier value a string", "encounter", "units[0].modifiers[0].value",
     lambda e, o, v: _unit0(e)["modifiers"][0].update(value="1")),
    ("removed a string", "encounter", "units[0].removed", lambda e, o, v: _unit0(e).update(removed="no")),
    ("effect skills a string", "encounter", "units[0].abilities[0].effects[0].skills",
     lambda e, o, v: _unit0(e)["abilities"][0]["effects"][0].update(skills="射撃")),
    ("order unit a list", "orders", "orders[0].unit", lambda e, o, v: o["orders"][0].update(unit=["aoi"])),
    ("setup a number", "orders", "orders[0].setup", lambda e, o, v: o["orders"][0].update(setup=5)),
    ("target a list", "orders", "orders[0].major.targets[0]",
     lambda e, o, v: o["orders"][0]["major"].update(targets=[["oni1"]])),
    ("item a list", "orders", "orders[0].major.item", lambda e, o, v: o["orders"][0]["major"].update(item=["x"])),
    ("ability target a list", "orders", "orders[0].minor.target",
     lambda e, o, v: o["orders"][0]["minor"].update(target=["oni1"])),
    ("toward NaN", "orders", "orders[1].minor.toward", lambda e, o, v: o["orders"][1]["minor"].update(toward=[NAN, 0])),
    ("check label a list", "orders", "orders[2].major.label",
     lambda e, o, v: o["orders"][2]["major"].update(label=[1])),
    ("override check a list", "overrides", "overrides[0].check", lambda e, o, v: v[0].update(check=["r1-c1"])),
]  # fmt: skip


@pytest.mark.parametrize(("file", "path", "breaks"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_wrong_type_is_bad_input_naming_its_path(file: str, path: str, breaks: Callable) -> None:
    enc, orders, overrides = _base()
    breaks(enc, orders, overrides)
    with pytest.raises(BadInput) as err:
        _resolve(enc, orders, overrides)
    where = [(p.file, p.path) for p in err.value.problems]
    assert (file, path) in where, where


def test_modifiers_null_means_none() -> None:
    """`modifiers` (what abilities leave on a unit; the returned state carries it) may be null like other optional
    lists: a dice effect then starts the list instead of failing."""
    enc, orders, _ = _base()
    _unit0(enc)["modifiers"] = None
    res = _resolve(enc, orders)
    focus = [m for m in res.state["units"][0]["modifiers"] if m["source"] == "focus"]
    assert focus == [] and any(e["type"] == "ability" and e["id"] == "focus" for e in res.events)


# R-GAUGE-2/7: a full injury gauge means 死亡, and the dead are removed at once ----------------------------------------


@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.parametrize("riding", [False, True])
def test_r_gauge_2_a_full_injury_gauge_on_a_unit_still_in_battle_is_bad_input(riding: bool) -> None:
    """Such a unit would have died the moment 死亡 was checked; on foot, an attack on it had no gauge to go to."""
    u = pc(injury=gauge([10, 10, 10, 10, 1], [10, 10, 10, 10, 1]))
    u = u if riding else on_foot(u)
    with pytest.raises(BadInput) as err:
        run(encounter(u, enemy(position=[50, 0])), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 1, 6, 6, 6])
    assert [p.path for p in err.value.problems] == ["units[0].injury.taken"]
    assert "R-GAUGE-2" in str(err.value)


@pytest.mark.rule("R-GAUGE-7")
def test_r_gauge_2_the_dead_stay_in_the_state_and_it_resolves_again() -> None:
    """A unit killed through its injury gauge leaves `dead` and `removed`; that state is valid input for the next
    round (the full gauge is allowed on a removed unit), and the removed unit takes no part."""
    u = on_foot(pc(stats_update={"感覚": 2}, injury=gauge([1, 1, 1, 1, 1], [1, 1, 0, 0, 0])))
    orders = [order("oni1", major=attack("spit", "aoi"))]
    first = run(encounter(u, enemy(position=[50, 0])), orders, [1, 6, 6, 6, 6, 6])
    dead = first.unit("aoi")
    assert dead["dead"] is True and dead["removed"] is True and dead["injury"]["taken"] == [1] * 5
    again = run(first.state, [order("aoi", major=attack("pistol", "oni1"))], [])
    assert again.one("initiative")["order"] == ["oni1"]
    assert again.ev("attack") == [] and again.ev("damage") == []
    assert again.unit("aoi")["injury"]["taken"] == [1] * 5


# a safety net: any value anywhere gives a result or BadInput ---------------------------------------------------------


def _slots(node: Any, trail: tuple = ()) -> list[tuple]:
    """Every (container path, key) in a JSON-shaped tree."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((*trail, k))
            out.extend(_slots(v, (*trail, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((*trail, i))
            out.extend(_slots(v, (*trail, i)))
    return out


_ODD = st.one_of(
    st.integers(-3, 300),
    st.sampled_from(["", "x", "aoi", "oni1", "rifle", "stun", "injury", "射撃", "r1-c1", "attack", "setup"]),
    st.lists(st.one_of(st.integers(-1, 3), st.text(max_size=2)), max_size=2),
    st.none(),
    st.booleans(),
    st.sampled_from([NAN, INF, -INF, 0.5, -1.5]),
    st.dictionaries(st.sampled_from(["id", "x"]), st.integers(0, 2), max_size=1),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_anywhere_resolves_or_is_bad_input(data: st.DataObject) -> None:
    enc, orders, overrides = _base()
    inputs = {"encounter": enc, "orders": orders, "overrides": overrides}
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        slots = _slots(inputs)
        slot = data.draw(st.sampled_from(slots), label="where")
        parent = inputs
        for k in slot[:-1]:
            parent = parent[k]
        if len(slot) > 1 and isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
            del parent[slot[-1]]
        else:
            parent[slot[-1]] = data.draw(_ODD, label="value")
    try:
        res = _resolve(inputs["encounter"], inputs["orders"], inputs["overrides"], rounds=2)
    except BadInput as e:
        assert e.problems
        return
    assert isinstance(res, Resolution)
    for u in res.state["units"]:  # every position the engine wrote back is a real point
        assert all(math.isfinite(x) for x in u["position"])


def test_a_coordinate_beyond_any_map_is_bad_input_not_an_overflow(tmp_path) -> None:
    """10**400 passed validation and overflowed the first distance (a traceback); now it is bad input, exit 2."""
    import json
    import subprocess
    import sys

    from pool_builders import encounter, enemy, pc

    enc = encounter(pc(position=[10**400, 0]), enemy())
    (tmp_path / "e.json").write_text(json.dumps(enc))
    (tmp_path / "o.json").write_text(json.dumps({"orders": []}))
    run = subprocess.run(
        [sys.executable, "-m", "pbp", "engine", "resolve", str(tmp_path / "e.json"), "--orders",
         str(tmp_path / "o.json"), "--seed", "x"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 2 and "units[0].position" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
