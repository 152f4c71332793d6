"""The GM's actions between rounds (pbp.engine.pool.gm_actions): each kind, its refusals with their paths, purity and
determinism, and a property: mutated actions give problems, never an exception."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.engine import find_ruleset
from pbp.engine.errors import Problem
from pbp.engine.pool.encounters import encounter_for_scenario, unit_from_enemy
from pbp.engine.pool.gm_actions import KINDS, MAP_LIMIT, apply_gm_actions
from pbp.engine.pool.schema import validate_encounter
from pbp.packs import demo_pack


@pytest.fixture(scope="module")
def pack() -> dict:
    return demo_pack().data


@pytest.fixture
def battle(pack: dict) -> dict:
    return encounter_for_scenario(pack, "tama_river", list(pack["characters"].items()))


@pytest.fixture(scope="module")
def shared(pack: dict) -> dict:
    """The battle for the properties: applying never changes its input, which they check too."""
    return encounter_for_scenario(pack, "tama_river", list(pack["characters"].items()))


def unit(encounter: dict, uid: str) -> dict:
    return next(u for u in encounter["units"] if u["id"] == uid)


def applied(encounter: dict, *actions: dict) -> dict:
    result = apply_gm_actions(encounter, list(actions))
    assert isinstance(result, dict), result
    assert validate_encounter(result) == []
    return result


def problems(encounter: dict, *actions: dict) -> list[str]:
    result = apply_gm_actions(encounter, list(actions))
    assert isinstance(result, list), "expected problems"
    return [str(p) for p in result]


def dead(encounter: dict, uid: str) -> dict:
    """`uid` as the battle leaves one whose 破壊 killed it (R-GAUGE-6): both gauges full, dead and removed."""
    u = unit(encounter, uid)
    u["injury"]["taken"] = list(u["injury"]["capacity"])
    u["vehicle"]["damage"]["taken"] = list(u["vehicle"]["damage"]["capacity"])
    u.update(dead=True, removed=True)
    return encounter


def test_a_reinforcement_from_the_pack_joins_the_battle(pack: dict, battle: dict) -> None:
    reinforcement = unit_from_enemy(pack, "kagachi", "kagachi9", [300, 0])
    after = applied(battle, {"kind": "add_unit", "unit": reinforcement, "reason": "the swarm grows"})
    assert unit(after, "kagachi9") == reinforcement
    assert len(after["units"]) == len(battle["units"]) + 1


def test_a_reinforcement_on_another_unit_or_off_the_map_is_refused(pack: dict, battle: dict) -> None:
    on_aoi = unit_from_enemy(pack, "kagachi", "kagachi9", [0, 0])
    assert problems(battle, {"kind": "add_unit", "unit": on_aoi}) == [
        "actions[0].unit.position: [0, 0] is on 'aoi', which stands at [0, 0]"
    ]
    off = unit_from_enemy(pack, "kagachi", "kagachi9", [MAP_LIMIT + 1, 0])
    assert "off the map" in problems(battle, {"kind": "add_unit", "unit": off})[0]
    twice = unit_from_enemy(pack, "kagachi", "kagachi1", [300, 0])
    assert problems(battle, {"kind": "add_unit", "unit": twice}) == [
        "actions[0].unit.id: a unit 'kagachi1' is already in the encounter"
    ]


def test_remove_takes_an_enemy_off_and_refuses_a_pc(battle: dict) -> None:
    after = applied(battle, {"kind": "remove_unit", "unit": "hayachi1"})
    assert "hayachi1" not in [u["id"] for u in after["units"]]
    assert "is a PC" in problems(battle, {"kind": "remove_unit", "unit": "aoi"})[0]


def test_retreat_leaves_the_battle_alive(battle: dict) -> None:
    after = applied(battle, {"kind": "retreat", "unit": "kagachi2"})
    assert unit(after, "kagachi2")["removed"] is True and not unit(after, "kagachi2").get("dead")
    assert problems(after, {"kind": "retreat", "unit": "kagachi2"}) == [
        "actions[0].unit: 'kagachi2' is out of the battle"
    ]


def test_an_unknown_unit_is_named(battle: dict) -> None:
    assert problems(battle, {"kind": "retreat", "unit": "nobody"}) == [
        "actions[0].unit: no unit 'nobody' in the encounter"
    ]


@pytest.mark.rule("R-GAUGE-1")
def test_set_gauge_fills_stages_in_order(battle: dict) -> None:
    after = applied(battle, {"kind": "set_gauge", "unit": "aoi", "gauge": "injury", "taken": [10, 4, 0, 0, 0]})
    assert unit(after, "aoi")["injury"]["taken"] == [10, 4, 0, 0, 0]
    assert problems(battle, {"kind": "set_gauge", "unit": "aoi", "gauge": "injury", "taken": [0, 4, 0, 0, 0]}) == [
        "actions[0].taken[1]: a stage holds damage only once the stage before it is full (R-GAUGE-1)"
    ]
    assert problems(battle, {"kind": "set_gauge", "unit": "aoi", "gauge": "damage", "taken": [99, 0, 0, 0, 0]})
    assert problems(battle, {"kind": "set_gauge", "unit": "aoi", "gauge": "injury", "taken": [1, 2]})
    assert problems(battle, {"kind": "set_gauge", "unit": "aoi", "gauge": "morale", "taken": [0] * 5})


@pytest.mark.rule("R-GAUGE-7")
def test_a_full_injury_gauge_kills_at_once(battle: dict) -> None:
    after = applied(battle, {"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken": [5, 5, 5, 5, 1]})
    assert unit(after, "kagachi1")["dead"] is True and unit(after, "kagachi1")["removed"] is True


@pytest.mark.rule("R-FIX-6")
def test_statuses_are_added_with_their_counters_and_removed(battle: dict) -> None:
    after = applied(
        battle,
        {"kind": "add_status", "unit": "aoi", "status": "stun"},
        {"kind": "add_status", "unit": "makoto", "status": "heat", "rounds": 2},
        {"kind": "add_status", "unit": "kagachi1", "status": "arm_damage"},
    )
    assert unit(after, "aoi")["statuses"] == [{"id": "stun", "rounds_left": 3}]
    assert unit(after, "makoto")["statuses"] == [{"id": "heat", "rounds_left": 2}]
    assert all(w["slot"] != "arm" for w in unit(after, "kagachi1")["vehicle"]["weapons"])  # moved to spare
    assert "do not stack" in problems(after, {"kind": "add_status", "unit": "aoi", "status": "stun"})[0]
    cleared = applied(after, {"kind": "remove_status", "unit": "aoi", "status": "stun"})
    assert unit(cleared, "aoi")["statuses"] == []
    assert "does not have" in problems(cleared, {"kind": "remove_status", "unit": "aoi", "status": "stun"})[0]
    assert problems(battle, {"kind": "add_status", "unit": "aoi", "status": "stun", "rounds": 0})


@pytest.mark.rule("R-ENG-1")
def test_set_position_moves_a_unit_out_of_its_engagement(battle: dict) -> None:
    unit(battle, "aoi")["engagement"] = "e1"
    unit(battle, "kagachi1").update(position=[0, 0], engagement="e1")
    after = applied(battle, {"kind": "set_position", "unit": "aoi", "position": [20, 20]})
    assert unit(after, "aoi")["position"] == [20, 20] and unit(after, "aoi")["engagement"] is None
    assert "is on 'kagachi1'" in problems(after, {"kind": "set_position", "unit": "kagachi2", "position": [0, 0]})[0]


@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.rule("R-GAUGE-6")
def test_revive_brings_a_dead_character_back_at_dying_on_foot(battle: dict) -> None:
    dead(battle, "aoi")
    after = applied(battle, {"kind": "revive", "unit": "aoi", "reason": "the medics"})
    aoi = unit(after, "aoi")
    assert not aoi["dead"] and not aoi["removed"]
    assert aoi["injury"]["taken"] == [10, 10, 10, 10, 0]  # 死亡 emptied: at 瀕死
    assert aoi["vehicle"] is None and aoi["dismounted"] is True  # its Savior was destroyed
    assert problems(after, {"kind": "revive", "unit": "aoi"}) == ["actions[0].unit: 'aoi' is not dead"]
    assert "revive it first" in problems(battle, {"kind": "set_position", "unit": "aoi", "position": [5, 5]})[0]


def test_a_failed_action_applies_nothing_and_later_actions_see_the_earlier(battle: dict) -> None:
    before = copy.deepcopy(battle)
    result = problems(
        battle,
        {"kind": "set_position", "unit": "kagachi1", "position": [300, 0]},
        {"kind": "set_position", "unit": "kagachi2", "position": [300, 0]},
    )
    assert result == ["actions[1].position: [300, 0] is on 'kagachi1', which stands at [300, 0]"]
    assert battle == before


def test_unknown_kinds_and_fields_are_named(battle: dict) -> None:
    assert problems(battle, {"kind": "smite", "unit": "aoi"})[0].startswith("actions[0].kind: 'smite' is not one of")
    assert problems(battle, {"kind": "retreat", "unit": "aoi", "speed": 3})[0].startswith("actions[0].speed: unknown")
    assert problems(battle, {"kind": "retreat", "unit": "aoi", "reason": 3}) == [
        "actions[0].reason: must be a string, got 3"
    ]


def test_same_input_same_bytes_and_the_input_untouched(pack: dict, battle: dict) -> None:
    actions = [
        {"kind": "add_unit", "unit": unit_from_enemy(pack, "hayachi", "hayachi2", [500, 500]), "reason": "r"},
        {"kind": "add_status", "unit": "aoi", "status": "lock_on"},
        {"kind": "set_position", "unit": "kagachi1", "position": [100, 100]},
    ]
    before = json.dumps([battle, actions], sort_keys=True)
    one = json.dumps(apply_gm_actions(battle, actions), ensure_ascii=False, sort_keys=True)
    two = json.dumps(find_ruleset("pool").apply_gm_actions(battle, actions), ensure_ascii=False, sort_keys=True)
    assert one == two
    assert json.dumps([battle, actions], sort_keys=True) == before


def test_no_actions_give_the_encounter_back_and_a_bad_encounter_is_a_problem(battle: dict) -> None:
    assert apply_gm_actions(battle, []) == battle

    def said(problems: list[Problem]) -> list[tuple[str, str]]:
        return [(p.path, p.message) for p in problems]

    assert said(apply_gm_actions({"units": "none"}, [])) == [("encounter.units", "must be a list, got str")]
    assert said(apply_gm_actions(battle, "retreat")) == [("actions", "must be a list, got str")]


def _on_foot(encounter: dict) -> dict:
    unit(encounter, "makoto")["vehicle"] = None
    return encounter


def _reinforcement(pack: dict, **changes: Any) -> dict:
    return {"kind": "add_unit", "unit": {**unit_from_enemy(pack, "kagachi", "kagachi9", [300, 0]), **changes}}


#: One refusal of each kind the GM's actions meet, with the English line the CLI prints (as before they became
#: templates): (the battle as the case needs it, the actions, the problem).
REFUSALS: list[tuple[Any, Any, str]] = [
    (None, lambda p: [{"kind": "retreat", "unit": "aoi", "speed": 3}],
     "actions[0].speed: unknown field for retreat (known: unit, reason)"),
    (None, lambda p: [{"kind": "retreat", "unit": "aoi", "reason": 3}], "actions[0].reason: must be a string, got 3"),
    (None, lambda p: [{"kind": "retreat", "unit": "nobody"}], "actions[0].unit: no unit 'nobody' in the encounter"),
    (None, lambda p: [{"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken": [5, 5, 5, 5, 1]},
                      {"kind": "retreat", "unit": "kagachi1"}],
     "actions[1].unit: 'kagachi1' is dead (revive it first, R-GAUGE-7)"),
    (None, lambda p: [{"kind": "retreat", "unit": "kagachi2"}, {"kind": "add_status", "unit": "kagachi2",
                                                                  "status": "stun"}],
     "actions[1].unit: 'kagachi2' is out of the battle"),
    (None, lambda p: [{"kind": "set_position", "unit": "aoi", "position": "here"}],
     "actions[0].position: must be a point [x, y] in metres, got 'here'"),
    (None, lambda p: [{"kind": "set_position", "unit": "aoi", "position": [MAP_LIMIT + 1, 0]}],
     "actions[0].position: [1000001, 0] is off the map (each coordinate within 1000000 metres of the origin)"),
    (None, lambda p: [{"kind": "set_position", "unit": "aoi", "position": [40, 0]}],
     "actions[0].position: [40, 0] is on 'makoto', which stands at [40, 0]"),
    (None, lambda p: [_reinforcement(p, id="hayachi1")],
     "actions[0].unit.id: a unit 'hayachi1' is already in the encounter"),
    (None, lambda p: [_reinforcement(p, side="pc")],
     "actions[0].unit.side: a reinforcement is an enemy (a PC joins through its player)"),
    (None, lambda p: [_reinforcement(p, removed=True)],
     "actions[0].unit: a reinforcement arrives in the battle: not removed, not dead, in no engagement"),
    (None, lambda p: [{"kind": "remove_unit", "unit": "aoi"}],
     "actions[0].unit: 'aoi' is a PC: it can retreat, not vanish (its player's entries name it)"),
    (_on_foot, lambda p: [{"kind": "set_gauge", "unit": "makoto", "gauge": "damage", "taken": [0] * 5}],
     "actions[0].gauge: 'makoto' rides no vehicle: it has no damage gauge"),
    (None, lambda p: [{"kind": "set_gauge", "unit": "aoi", "gauge": "injury", "taken": [1, 2]}],
     "actions[0].taken: must be 5 whole numbers (the damage in each stage), got [1, 2]"),
    (None, lambda p: [{"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken": [9, 0, 0, 0, 0]}],
     "actions[0].taken[0]: 9 is outside 0..5 (the stage's capacity)"),
    (None, lambda p: [{"kind": "set_gauge", "unit": "aoi", "gauge": "injury", "taken": [0, 4, 0, 0, 0]}],
     "actions[0].taken[1]: a stage holds damage only once the stage before it is full (R-GAUGE-1)"),
    (None, lambda p: [{"kind": "add_status", "unit": "aoi", "status": "stun"}] * 2,
     "actions[1].status: 'aoi' has 'stun' already (statuses do not stack, R-FIX-6)"),
    (None, lambda p: [{"kind": "remove_status", "unit": "aoi", "status": "stun"}],
     "actions[0].status: 'aoi' does not have 'stun'"),
    (None, lambda p: [{"kind": "revive", "unit": "aoi"}], "actions[0].unit: 'aoi' is not dead"),
]  # fmt: skip


@pytest.mark.rule("R-GAUGE-1")
@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.rule("R-FIX-6")
@pytest.mark.parametrize(("prepare", "actions", "line"), REFUSALS, ids=[line for _, _, line in REFUSALS])
def test_each_refusal_is_said_by_a_template_and_the_cli_line_is_unchanged(
    pack: dict, battle: dict, prepare: Any, actions: Any, line: str
) -> None:
    """The GM console says each refusal in its page's language (its template and parameters); the command line
    prints the same English as before."""
    result = apply_gm_actions(prepare(battle) if prepare else battle, actions(pack))
    assert isinstance(result, list) and [str(p) for p in result] == [line]
    assert result[0].template is not None and result[0].template % dict(result[0].params) == result[0].message


def test_a_bad_encounters_problems_keep_their_templates() -> None:
    """A problem of the encounter the actions start from is said as the schema said it, under `encounter.`."""
    (problem,) = apply_gm_actions({"units": "none"}, [])
    assert (problem.path, problem.template) == ("encounter.units", "must be a list, got %(type)s")


# ---- property: mutated actions give problems or an encounter, never an exception ------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
UNITS = st.sampled_from(["aoi", "makoto", "kagachi1", "kagachi2", "hayachi1", "nobody", "", 3])
FIELD_VALUES = st.one_of(
    JSON,
    UNITS,
    st.sampled_from(["injury", "damage", "stun", "lock_on", "arm_damage"]),
    st.lists(st.integers(-3, 12), min_size=5, max_size=5),
    st.lists(st.integers(-(10**7), 10**7), min_size=2, max_size=2),
)
ACTION = st.fixed_dictionaries(
    {"kind": st.sampled_from([*KINDS, "nonsense"])},
    optional={
        "unit": UNITS | FIELD_VALUES,
        "gauge": FIELD_VALUES,
        "taken": FIELD_VALUES,
        "status": FIELD_VALUES,
        "rounds": FIELD_VALUES,
        "position": FIELD_VALUES,
        "reason": FIELD_VALUES,
        "extra": JSON,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, max_size=4) | JSON)
def test_mutated_actions_only_ever_give_problems(shared: dict, actions: Any) -> None:
    before = json.dumps(shared, sort_keys=True)
    result = apply_gm_actions(shared, actions)
    assert json.dumps(shared, sort_keys=True) == before
    if isinstance(result, list):
        assert result and all(isinstance(p, Problem) for p in result)
    else:
        assert validate_encounter(result) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_reinforcement_gives_problems(pack: dict, shared: dict, data: st.DataObject) -> None:
    reinforcement: dict[str, Any] = unit_from_enemy(pack, "kagachi", "kagachi9", [300, 0])
    key = data.draw(st.sampled_from(sorted(reinforcement)))
    reinforcement[key] = data.draw(JSON)
    result = apply_gm_actions(shared, [{"kind": "add_unit", "unit": reinforcement}])
    assert isinstance(result, list) or validate_encounter(result) == []
