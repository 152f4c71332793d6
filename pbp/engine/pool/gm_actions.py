"""The GM's hand between rounds: actions that change the encounter a round starts from (issue 10, item 3).

A reinforcement arrives, a unit retreats or is taken off the map, a gauge, a status or a position is set, a dead
character is revived (R-GAUGE-7). Each action is plain JSON (`{"kind": ..., "reason": ...}`), applied in order to
the round's starting state; the result is what the engine resolves from. Applying is pure and deterministic, so
`verify` re-applies a published round's actions to its published start and must get its encounter back.

Bad actions are never raised: every problem comes back with its path (`actions[2].position`), in the idiom of
`pbp.engine.checker`, and nothing is applied.

- `add_unit` `{unit}`: a whole unit (the service builds it from the pack's enemy type), side `enemy`, a new id, on
  the map and not on another unit, in no engagement.
- `remove_unit` `{unit}`: an enemy taken off the encounter altogether (as if it had never been there).
- `retreat` `{unit}`: a unit still in the battle leaves it (`removed`, not dead; any side).
- `set_gauge` `{unit, gauge, taken}`: a gauge's damage per stage; stages fill in order (R-GAUGE-1). A full injury
  gauge kills (R-GAUGE-2/7: dead and removed at once); a full damage gauge is left to cleanup (R-GAUGE-6).
- `add_status` `{unit, status, rounds?}` and `remove_status` `{unit, status}` (statuses do not stack, R-FIX-6).
- `set_position` `{unit, position}`: on the map and not on another unit; the unit leaves its engagement (R-ENG-1).
- `revive` `{unit}`: a dead unit comes back where it fell, out of any engagement, its 死亡 stage emptied (so at
  瀕死, R-GAUGE-2); a rider whose vehicle was destroyed (破壊, R-GAUGE-6) comes back on foot, dismounted.
- `bonus` `{unit, dice, successes}`: the GM's プレイングボーナス for a PC's entry: +dice and +successes on every check
  the PC rolls this round, as modifiers of source `playing_bonus` lasting one round (the cleanup ends them). The
  campaign's cap is the service's; here each is a whole number from 0 to BONUS_MAX, at least one above 0.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from pbp.engine.checker import Checker, is_whole
from pbp.engine.errors import N_, Problem
from pbp.engine.pool import geometry, rules, schema
from pbp.engine.pool.battle import new_status, unequip_arms
from pbp.engine.pool.types import Encounter, Unit

#: The map: every coordinate within this many metres of the origin (the pack's bound on map coordinates).
MAP_LIMIT = 1_000_000
#: The most rounds a status the GM sets may last.
STATUS_ROUNDS_MAX = 99
#: The most dice or successes one プレイングボーナス may add (a campaign caps it lower).
BONUS_MAX = 5
#: The modifier source a プレイングボーナス leaves on a unit (the dice log names it).
BONUS_SOURCE = "playing_bonus"
#: The keys each kind takes beside `kind` and `reason`.
FIELDS: dict[str, frozenset[str]] = {
    "add_unit": frozenset({"unit"}),
    "remove_unit": frozenset({"unit"}),
    "retreat": frozenset({"unit"}),
    "set_gauge": frozenset({"unit", "gauge", "taken"}),
    "add_status": frozenset({"unit", "status", "rounds"}),
    "remove_status": frozenset({"unit", "status"}),
    "set_position": frozenset({"unit", "position"}),
    "revive": frozenset({"unit"}),
    "bonus": frozenset({"unit", "dice", "successes"}),
}
KINDS = tuple(FIELDS)


def apply_gm_actions(encounter: Any, actions: Any) -> Encounter | list[Problem]:
    """The encounter after the GM's `actions`, in order (a new object; the arguments are untouched), or every
    problem found (paths `encounter...` and `actions[i]...`). Never raises on any JSON input."""
    problems = [replace(p, path=_prefixed("encounter", p.path)) for p in schema.validate_encounter(encounter)]
    c = Checker()
    if not c.check_list(actions, "actions"):
        return problems + c.problems
    if problems:
        return problems
    state: Encounter = marshal.loads(marshal.dumps(encounter))  # JSON-shaped (validated): an exact deep copy
    for i, action in enumerate(actions):
        _apply(c, state, action, f"actions[{i}]")
        if c.problems:
            return c.problems  # later actions read the state the failed one would have left
    after = schema.validate_encounter(state)
    if after:  # a state the checks above should have refused: reported, never passed on
        return [Problem("actions", f"the result is not a valid encounter: {p}") for p in after]
    return state


def _prefixed(prefix: str, path: str) -> str:
    return f"{prefix}.{path}" if path else prefix


def _apply(c: Checker, state: Encounter, action: Any, path: str) -> None:
    """Check one action against the state as the earlier actions left it and, when sound, apply it."""
    if not c.check_dict(action, path) or not c.check_one_of(action.get("kind"), KINDS, f"{path}.kind"):
        return
    kind = action["kind"]
    for key in sorted(action.keys() - FIELDS[kind] - {"kind", "reason"}, key=str):
        known = ", ".join(sorted(FIELDS[kind]))
        c.said(f"{path}.{key}", N_("unknown field for %(kind)s (known: %(known)s, reason)"), kind=kind, known=known)
    if "reason" in action and type(action["reason"]) is not str:
        c.said(f"{path}.reason", N_("must be a string, got %(value)r"), value=action["reason"])
    if c.problems:
        return
    if kind == "add_unit":
        _add_unit(c, state, action.get("unit"), f"{path}.unit")
        return
    unit = _unit(c, state, action, path)
    if unit is not None:
        APPLY[kind](c, state, unit, action, path)


def _unit(c: Checker, state: Encounter, action: dict[str, Any], path: str) -> Unit | None:
    if not c.check_key_str(action, "unit", path):
        return None
    found = next((u for u in state["units"] if u["id"] == action["unit"]), None)
    if found is None:
        c.said(f"{path}.unit", N_("no unit %(unit)r in the encounter"), unit=action["unit"])
    return found


def _in_battle(c: Checker, unit: Unit, path: str) -> bool:
    if unit.get("removed"):
        if unit.get("dead"):
            c.said(f"{path}.unit", N_("%(unit)r is dead (revive it first, R-GAUGE-7)"), unit=unit["id"])
        else:
            c.said(f"{path}.unit", N_("%(unit)r is out of the battle"), unit=unit["id"])
        return False
    return True


def _placed(c: Checker, state: Encounter, point: Any, path: str, moving: str | None) -> bool:
    """A point on the map, not on a unit still in the battle (other than `moving`)."""
    if not schema.is_point(point):
        c.said(path, N_("must be a point [x, y] in metres, got %(point)r"), point=point)
        return False
    if any(abs(x) > MAP_LIMIT for x in point):
        c.said(
            path,
            N_("%(point)r is off the map (each coordinate within %(limit)s metres of the origin)"),
            point=point,
            limit=MAP_LIMIT,
        )
        return False
    for other in state["units"]:
        if other["id"] != moving and not other.get("removed") and geometry.metres(other["position"], point) == 0:
            c.said(
                path,
                N_("%(point)r is on %(unit)r, which stands at %(position)r"),
                point=point,
                unit=other["id"],
                position=other["position"],
            )
            return False
    return True


def _add_unit(c: Checker, state: Encounter, unit: Any, path: str) -> None:
    before = len(c.problems)
    schema.check_unit(c, unit, path, None)
    if len(c.problems) > before:
        return
    if any(u["id"] == unit["id"] for u in state["units"]):
        c.said(f"{path}.id", N_("a unit %(unit)r is already in the encounter"), unit=unit["id"])
    if unit["side"] != "enemy":
        c.said(f"{path}.side", N_("a reinforcement is an enemy (a PC joins through its player)"))
    if unit.get("removed") or unit.get("dead") or unit.get("engagement") is not None:
        c.said(path, N_("a reinforcement arrives in the battle: not removed, not dead, in no engagement"))
    if len(c.problems) == before and _placed(c, state, unit["position"], f"{path}.position", None):
        state["units"].append(cast(Unit, marshal.loads(marshal.dumps(unit))))


def _remove_unit(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if unit["side"] != "enemy":
        c.said(
            f"{path}.unit",
            N_("%(unit)r is a PC: it can retreat, not vanish (its player's entries name it)"),
            unit=unit["id"],
        )
        return
    state["units"] = [u for u in state["units"] if u is not unit]


def _retreat(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if _in_battle(c, unit, path):
        unit["removed"] = True
        unit["engagement"] = None


def _set_gauge(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if not _in_battle(c, unit, path) or not c.check_key_one_of(action, "gauge", rules.GAUGES, path):
        return
    vehicle = unit.get("vehicle")
    if action["gauge"] == "damage" and not vehicle:
        c.said(f"{path}.gauge", N_("%(unit)r rides no vehicle: it has no damage gauge"), unit=unit["id"])
        return
    gauge = vehicle["damage"] if vehicle and action["gauge"] == "damage" else unit["injury"]
    taken = action.get("taken")
    p = f"{path}.taken"
    if not (type(taken) is list and len(taken) == rules.STAGES and all(is_whole(t) for t in taken)):
        c.said(
            p,
            N_("must be %(stages)s whole numbers (the damage in each stage), got %(taken)r"),
            stages=rules.STAGES,
            taken=taken,
        )
        return
    for i, (t, cap) in enumerate(zip(taken, gauge["capacity"], strict=True)):
        if not 0 <= t <= cap:
            c.said(
                f"{p}[{i}]", N_("%(value)s is outside 0..%(capacity)s (the stage's capacity)"), value=t, capacity=cap
            )
            return
        if t and i and taken[i - 1] < gauge["capacity"][i - 1]:
            c.said(f"{p}[{i}]", N_("a stage holds damage only once the stage before it is full (R-GAUGE-1)"))
            return
    gauge["taken"] = list(taken)
    if action["gauge"] == "injury" and taken[rules.DEATH_STAGE] >= gauge["capacity"][rules.DEATH_STAGE]:
        unit["dead"] = True  # R-GAUGE-2/7: 死亡 checked, dead and removed at once
        unit["removed"] = True
        unit["engagement"] = None


def _add_status(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if not _in_battle(c, unit, path) or not c.check_key_str(action, "status", path):
        return
    rounds = action.get("rounds")
    if rounds is not None and not c.check_int(rounds, f"{path}.rounds", 1, STATUS_ROUNDS_MAX):
        return
    statuses = unit.setdefault("statuses", [])
    if any(s["id"] == action["status"] for s in statuses):
        c.said(
            f"{path}.status",
            N_("%(unit)r has %(status)r already (statuses do not stack, R-FIX-6)"),
            unit=unit["id"],
            status=action["status"],
        )
        return
    statuses.append(new_status(action["status"], state.get("round", 1), rounds))
    if action["status"] == "arm_damage":
        unequip_arms(unit)


def _remove_status(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if not _in_battle(c, unit, path) or not c.check_key_str(action, "status", path):
        return
    statuses = unit.get("statuses") or []
    if not any(s["id"] == action["status"] for s in statuses):
        c.said(f"{path}.status", N_("%(unit)r does not have %(status)r"), unit=unit["id"], status=action["status"])
        return
    unit["statuses"] = [s for s in statuses if s["id"] != action["status"]]


def _set_position(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if _in_battle(c, unit, path) and _placed(c, state, action.get("position"), f"{path}.position", unit["id"]):
        unit["position"] = list(action["position"])
        unit["engagement"] = None


def _revive(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if not unit.get("dead"):
        c.said(f"{path}.unit", N_("%(unit)r is not dead"), unit=unit["id"])
        return
    unit["dead"] = False
    unit["removed"] = False
    unit["engagement"] = None
    unit["injury"]["taken"][rules.DEATH_STAGE] = 0
    vehicle = unit.get("vehicle")
    if vehicle and vehicle["damage"]["taken"][rules.DEATH_STAGE] >= vehicle["damage"]["capacity"][rules.DEATH_STAGE]:
        unit["vehicle"] = None  # R-GAUGE-6: its vehicle is destroyed; it comes back on foot
        unit["dismounted"] = True


def _bonus(c: Checker, state: Encounter, unit: Unit, action: dict[str, Any], path: str) -> None:
    if not _in_battle(c, unit, path):
        return
    if unit["side"] != "pc":
        c.said(f"{path}.unit", N_("%(unit)r is not a PC: a bonus rewards a player's entry"), unit=unit["id"])
        return
    dice, successes = action.get("dice", 0), action.get("successes", 0)
    dice_ok = c.check_int(dice, f"{path}.dice", 0, BONUS_MAX)
    if not (c.check_int(successes, f"{path}.successes", 0, BONUS_MAX) and dice_ok):
        return
    if not dice and not successes:
        c.said(f"{path}.dice", N_("a bonus adds at least one die or one success"))
        return
    modifiers = unit.get("modifiers") or []
    for kind, value in (("dice", dice), ("successes", successes)):
        if value:
            modifiers.append({"kind": kind, "value": value, "skills": None, "rounds_left": 1, "source": BONUS_SOURCE})
    unit["modifiers"] = modifiers


APPLY: dict[str, Callable[[Checker, Encounter, Unit, dict[str, Any], str], None]] = {
    "remove_unit": _remove_unit,
    "retreat": _retreat,
    "set_gauge": _set_gauge,
    "add_status": _add_status,
    "remove_status": _remove_status,
    "set_position": _set_position,
    "revive": _revive,
    "bonus": _bonus,
}
