"""Validation of encounters, orders and overrides: every problem at once, each with its field path.

Checking is separate from doing: `resolve` calls these first and trusts its input afterwards.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pbp.engine.errors import Problem
from pbp.engine.pool import geometry, rules


class Checker:
    """Collects problems under field paths such as `units[2].skills.射撃`."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def is_int(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> bool:
        if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
            return True
        if not isinstance(value, int) or isinstance(value, bool):
            self.bad(path, f"must be a whole number, got {value!r}")
            return False
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = f"{lo if lo is not None else '-∞'}..{hi if hi is not None else '∞'}"
            self.bad(path, f"{value} is outside {rng}")
            return False
        return True

    def ints(self, values: Any, path: str, lo: int | None = None, hi: int | None = None) -> None:
        """Check every value of a dict (or list) of whole numbers; paths are built only for the bad ones."""
        items = values.items() if isinstance(values, dict) else enumerate(values)
        lo_, hi_ = -(2**63) if lo is None else lo, 2**63 if hi is None else hi
        if all(type(v) is int and lo_ <= v <= hi_ for _, v in items):
            return
        for k, v in values.items() if isinstance(values, dict) else enumerate(values):
            self.is_int(v, f"{path}.{k}" if isinstance(values, dict) else f"{path}[{k}]", lo, hi)

    def key_int(self, obj: dict, key: str, path: str, lo: int | None = None, hi: int | None = None) -> bool:
        """`obj[key]` is a whole number in range; the field path is formatted only when it is not."""
        v = obj.get(key)
        if type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi):
            return True
        return self.is_int(v, f"{path}.{key}", lo, hi)

    def key_str(self, obj: dict, key: str, path: str) -> bool:
        v = obj.get(key)
        return (type(v) is str and v != "") or self.is_str(v, f"{path}.{key}")

    def key_one_of(self, obj: dict, key: str, choices: tuple, path: str, default: Any = None) -> bool:
        v = obj.get(key, default)
        return v in choices or self.one_of(v, choices, f"{path}.{key}")

    def is_dict(self, value: Any, path: str) -> bool:
        if not isinstance(value, dict):
            self.bad(path, f"must be an object, got {type(value).__name__}")
            return False
        return True

    def is_list(self, value: Any, path: str) -> bool:
        if not isinstance(value, list):
            self.bad(path, f"must be a list, got {type(value).__name__}")
            return False
        return True

    def is_str(self, value: Any, path: str) -> bool:
        if not isinstance(value, str) or not value:
            self.bad(path, f"must be a non-empty string, got {value!r}")
            return False
        return True

    def one_of(self, value: Any, choices: tuple, path: str) -> bool:
        if value not in choices:
            self.bad(path, f"{value!r} is not one of {', '.join(map(str, choices))}")
            return False
        return True

    def point(self, value: Any, path: str) -> bool:
        if not (isinstance(value, list) and len(value) == 2 and all(_is_num(v) for v in value)):
            self.bad(path, f"must be a point [x, y] in metres (each within ±{MAX_METRES}), got {value!r}")
            return False
        return True

    def rect(self, value: Any, path: str) -> None:
        if not (isinstance(value, list) and len(value) == 2):
            self.bad(path, "must be [[x1, y1], [x2, y2]]")
            return
        self.point(value[0], f"{path}[0]")
        self.point(value[1], f"{path}[1]")


#: The largest distance or coordinate an input may hold, in metres: far beyond any map, and small enough that the
#: distance arithmetic never overflows (a coordinate of 10**400 was an OverflowError traceback, not bad input).
MAX_METRES = 10**9


def _is_num(v: Any) -> bool:
    """A whole or finite decimal number within MAX_METRES (Python's json reads NaN and Infinity, which no position or
    factor may be)."""
    return (type(v) is int or (type(v) is float and math.isfinite(v))) and -MAX_METRES <= v <= MAX_METRES


def effective_skill_stats(unit: dict, pack_skill_stats: dict[str, str] | None) -> dict[str, str]:
    """The unit's skill -> parent stat map; the pack fills what the unit omits (R-CHECK-4). Validation has checked
    that the unit's own map is an object of names (`_unit` merges only the well-formed part before reporting)."""
    merged = dict(pack_skill_stats or {})
    merged.update(unit.get("skill_stats") or {})
    return merged


def _gauge_ok(g: Any) -> bool:
    """R-GAUGE-1 in one pass: five stages, each a positive capacity holding 0..capacity, filled in order."""
    if type(g) is not dict:
        return False
    cap, taken = g.get("capacity"), g.get("taken")
    if type(cap) is not list or type(taken) is not list or len(cap) != rules.STAGES or len(taken) != rules.STAGES:
        return False
    earlier_full = True
    for t, k in zip(taken, cap, strict=True):
        if type(t) is not int or type(k) is not int or k < 1 or not 0 <= t <= k or (t and not earlier_full):
            return False
        earlier_full = t == k
    return True


def _gauge(c: Checker, g: Any, parent: str, key: str) -> bool:
    """Report what breaks R-GAUGE-1 (`_gauge_ok` accepts a valid gauge at once: validation runs every resolve);
    true when the gauge is well formed."""
    if _gauge_ok(g):
        return True
    path = f"{parent}.{key}"
    if not c.is_dict(g, path):
        return False
    cap, taken = g.get("capacity"), g.get("taken")
    for name, arr, lo in (("capacity", cap, 1), ("taken", taken, 0)):
        if not (isinstance(arr, list) and len(arr) == rules.STAGES):
            c.bad(f"{path}.{name}", f"must list {rules.STAGES} stages (R-GAUGE-1), got {arr!r}")
            return False
        c.ints(arr, f"{path}.{name}", lo)
    if not all(type(v) is int for v in cap + taken):
        return False  # reported above; the checks below compare numbers
    for i, (t, k) in enumerate(zip(taken, cap, strict=True)):
        if t > k:
            c.bad(f"{path}.taken[{i}]", f"{t} is more than the stage's capacity {k}")
    for i in range(1, rules.STAGES):
        if taken[i] and any(taken[j] < cap[j] for j in range(i)):
            c.bad(f"{path}.taken[{i}]", "holds damage while an earlier stage is not full (stages fill in order)")
            return False
    return False


def _weapon_ok(w: Any, stats: dict) -> bool:
    """A well-formed weapon, accepted in one expression (validation runs on every resolve; `_weapon` explains)."""
    if type(w) is not dict:
        return False
    get = w.get
    wid, skill, dmg, ammo, ammo_max, rng = (
        get("id"),
        get("skill"),
        get("damage"),
        get("ammo"),
        get("ammo_max"),
        get("range"),
    )
    targets = get("targets", 1)
    return (
        type(wid) is str and wid != "" and type(skill) is str and skill in stats and type(dmg) is int and dmg >= 0
        and ((ammo is None and ammo_max is None)
             or (type(ammo) is int and type(ammo_max) is int and ammo >= 0 and ammo_max >= 0))
        and type(rng) is list and len(rng) == 2 and _is_num(rng[0]) and _is_num(rng[1]) and 0 <= rng[0] <= rng[1]
        and get("slot", "arm") in rules.SLOTS
        and (get("gauge") is None or get("gauge") in rules.GAUGES)
        and (get("inflicts") is None or get("inflicts") in rules.STATUSES)
        and type(targets) is int and targets >= 1
    )  # fmt: skip


def _weapon(c: Checker, w: Any, path: str, stats: dict) -> None:
    if _weapon_ok(w, stats):
        return
    if type(w) is not dict:
        c.is_dict(w, path)
        return
    get = w.get
    c.key_str(w, "id", path)
    skill = get("skill")
    if (type(skill) is not str or skill not in stats) and c.is_str(skill, f"{path}.skill"):
        c.bad(f"{path}.skill", f"skill {skill!r} has no parent stat (add it to skill_stats or the pack)")
    c.key_int(w, "damage", path, 0)
    ammo, ammo_max = get("ammo"), get("ammo_max")
    if ammo is not None:
        c.key_int(w, "ammo", path, 0)
    if ammo_max is not None:
        c.key_int(w, "ammo_max", path, 0)
    if (ammo is None) != (ammo_max is None):
        c.bad(f"{path}.ammo", "ammo and ammo_max must both be null (no ammunition) or both be numbers")
    rng = get("range")
    if not (type(rng) is list and len(rng) == 2 and _is_num(rng[0]) and _is_num(rng[1]) and 0 <= rng[0] <= rng[1]):
        c.bad(f"{path}.range", f"must be [min, max] metres with 0 <= min <= max, got {rng!r}")
    if get("slot", "arm") not in rules.SLOTS:
        c.key_one_of(w, "slot", rules.SLOTS, path, "arm")
    gauge, inflicts = get("gauge"), get("inflicts")
    if gauge is not None and gauge not in rules.GAUGES:
        c.key_one_of(w, "gauge", rules.GAUGES, path)
    if inflicts is not None and inflicts not in rules.STATUSES:
        c.key_one_of(w, "inflicts", rules.STATUSES, path)
    if "targets" in w:
        c.key_int(w, "targets", path, 1)


def check_effects(c: Checker, effects: Any, path: str) -> None:
    if not c.is_list(effects, path):
        return
    for i, e in enumerate(effects):
        p = f"{path}[{i}]"
        if not c.is_dict(e, p) or not c.one_of(e.get("kind"), rules.EFFECT_KINDS, f"{p}.kind"):
            continue
        kind = e["kind"]
        if kind in ("dice", "successes", "restore"):
            # restore removes damage: a negative value would fill a gauge past its capacities (R-GAUGE-1)
            c.is_int(e.get("value"), f"{p}.value", 0 if kind == "restore" else None)
        if kind in ("dice", "successes", "status") and e.get("rounds") is not None:
            c.is_int(e["rounds"], f"{p}.rounds", 1)  # a status's rounds become its rounds_left (R-FIX-13)
        if kind in ("dice", "successes") and e.get("skills") is not None:
            _names(c, e["skills"], f"{p}.skills")
        if kind in ("status", "cure"):
            c.is_str(e.get("id"), f"{p}.id")
        if kind == "restore":
            c.one_of(e.get("gauge"), rules.GAUGES, f"{p}.gauge")
        if e.get("on") is not None:
            c.one_of(e["on"], rules.EFFECT_TARGETS, f"{p}.on")


def _each_unique(c: Checker, items: list, path: str, what: str, check: Callable[[Any, str], None], seen: set) -> None:
    """Validate each item of a list and report an id used twice (ids already in `seen` count too)."""
    for i, item in enumerate(items):
        check(item, f"{path}[{i}]")
        key = item.get("id") if isinstance(item, dict) else None
        if type(key) is not str:  # reported by `check`; a list id would not even hash
            continue
        if key in seen:
            c.bad(f"{path}[{i}].id", f"{what} id {key!r} is used twice")
        seen.add(key)


def _all_ints(values: Any, lo: int = -(2**63), hi: int = 2**63) -> bool:
    return all(type(v) is int and lo <= v <= hi for v in values)


def _unit(c: Checker, u: Any, path: str, pack_skill_stats: dict | None) -> None:
    # Paths are formatted only on failure: a 200-unit encounter is validated on every resolve.
    if not c.is_dict(u, path):
        return
    c.key_str(u, "id", path)
    c.key_one_of(u, "side", rules.SIDES, path)
    stats = u.get("stats")
    if type(stats) is not dict:
        c.is_dict(stats, f"{path}.stats")
        stats = {}
    elif not _all_ints(stats.values(), 0):
        c.ints(stats, f"{path}.stats", 0)
    own = u.get("skill_stats") or {}
    if type(own) is not dict:
        c.is_dict(own, f"{path}.skill_stats")
        own = {}
    for skill, stat in own.items():  # the pack's map may name stats this unit never uses
        if type(stat) is not str or stat not in stats:
            c.bad(f"{path}.skill_stats.{skill}", f"parent stat {stat!r} is not among the unit's stats")
    if own and not all(type(stat) is str for stat in own.values()):
        own = {k: v for k, v in own.items() if type(v) is str}  # the rest is reported above
    skill_stats = {**pack_skill_stats, **own} if pack_skill_stats else own  # effective_skill_stats, well-formed part
    skills = u.get("skills", {})
    if type(skills) is not dict:
        c.is_dict(skills, f"{path}.skills")
    else:
        if not _all_ints(skills.values(), 1, 5):
            c.ints(skills, f"{path}.skills", 1, 5)  # R-CHECK-3
        for k in skills:
            if k not in skill_stats:
                c.bad(f"{path}.skills.{k}", f"skill {k!r} has no parent stat (skill_stats or the pack)")
            elif k not in own and skill_stats[k] not in stats:
                c.bad(f"{path}.stats", f"has no {skill_stats[k]!r}, the parent stat of skill {k!r}")
    injury = u.get("injury")
    if (
        _gauge(c, injury, path, "injury")
        and injury["taken"][rules.DEATH_STAGE] >= injury["capacity"][rules.DEATH_STAGE]
        and not u.get("removed")
    ):
        # R-GAUGE-2/R-GAUGE-7: a character dies the moment 死亡 is checked and is removed at once, so a full injury
        # gauge on a unit still in the battle is a state the rules never produce. Rejected here rather than
        # resolved: attacked on foot, its damage would have no gauge left at all (R-DMG-2: only the injury gauge).
        c.bad(f"{path}.injury.taken", "死亡 is checked (the gauge is full) but the unit is not removed (R-GAUGE-2/7)")
    for flag in ("removed", "dead"):
        if flag in u and type(u[flag]) is not bool:
            c.bad(f"{path}.{flag}", f"must be true or false, got {u[flag]!r}")
    if u.get("dead") is True and not u.get("removed"):  # R-GAUGE-7: the dead leave the battle at once
        c.bad(f"{path}.removed", "a dead unit is removed (R-GAUGE-7): it cannot stay in the battle")
    if u.get("move") is not None:
        c.key_int(u, "move", path, 0)
    ids: set[str] = set()  # weapon ids are unique across the unit's own and its vehicle's
    weapons = u.get("weapons", [])
    if type(weapons) is not list:
        c.is_list(weapons, f"{path}.weapons")
        weapons = []
    arsenals = [("weapons", weapons)]
    vehicle = u.get("vehicle")
    if vehicle is not None and c.is_dict(vehicle, f"{path}.vehicle"):
        vp = f"{path}.vehicle"
        c.key_int(vehicle, "move", vp, 0)
        c.key_one_of(vehicle, "movement", rules.MOVEMENTS, vp, "ground")
        mods = vehicle.get("stat_mods", {})
        if type(mods) is not dict:
            c.is_dict(mods, f"{vp}.stat_mods")
        elif not _all_ints(mods.values()):
            c.ints(mods, f"{vp}.stat_mods")
        _gauge(c, vehicle.get("damage"), vp, "damage")
        vweapons = vehicle.get("weapons", [])
        if c.is_list(vweapons, f"{vp}.weapons"):
            arsenals.append(("vehicle.weapons", vweapons))
    for key, arsenal in arsenals:
        _each_unique(c, arsenal, f"{path}.{key}", "weapon", lambda w, p: _weapon(c, w, p, skill_stats), ids)
    items = u.get("items", [])
    if type(items) is not list:
        c.is_list(items, f"{path}.items")
    else:
        for i, it in enumerate(items):
            p = f"{path}.items[{i}]"
            if c.is_dict(it, p):
                c.key_str(it, "id", p)
                if "dice" in it:
                    c.key_int(it, "dice", p)
                if "successes" in it:
                    c.key_int(it, "successes", p)
                if it.get("skills") is not None:  # R-CHECK-7: the skills the item is limited to
                    _names(c, it["skills"], f"{p}.skills")
    statuses = u.get("statuses", [])
    if type(statuses) is not list:
        c.is_list(statuses, f"{path}.statuses")
    else:
        for i, s in enumerate(statuses):
            if type(s) is not dict or type(s.get("id")) is not str:
                c.bad(f"{path}.statuses[{i}]", f"must be an object with a status id, got {s!r}")
            elif any(type(o) is dict and o.get("id") == s["id"] for o in statuses[:i]):
                c.bad(f"{path}.statuses[{i}]", f"status {s['id']!r} is listed twice (statuses do not stack, R-FIX-6)")
            elif len(s) > 1:  # the counters cleanup advances (R-BS-1, R-BS-3, R-FIX-6, R-BS-4, R-FIX-13)
                for key, lo in _STATUS_COUNTERS:
                    if key in s:
                        c.key_int(s, key, f"{path}.statuses[{i}]", lo)
                known = [k for k, _ in _STATUS_COUNTERS]
                for key in sorted(s.keys() - {"id", *known}):  # a misspelt counter would never count (R-FIX-13)
                    c.bad(f"{path}.statuses[{i}].{key}", f"unknown status field (known: id, {', '.join(known)})")
    abilities = u.get("abilities")
    if abilities is not None and not c.is_list(abilities, f"{path}.abilities"):
        abilities = None
    for i, ab in enumerate(abilities or []):
        p = f"{path}.abilities[{i}]"
        if c.is_dict(ab, p):
            c.key_str(ab, "id", p)
            c.key_one_of(ab, "timing", rules.TIMINGS, p)
            if ab.get("uses") is not None:
                c.key_int(ab, "uses", p, 0)
            check_effects(c, ab.get("effects", []), f"{p}.effects")
    if u.get("modifiers") is not None:
        _modifiers(c, u["modifiers"], f"{path}.modifiers")
    pos = u.get("position")
    if not (type(pos) is list and len(pos) == 2 and _is_num(pos[0]) and _is_num(pos[1])):
        c.point(pos, f"{path}.position")
    if u.get("engagement") is not None:
        c.key_str(u, "engagement", path)


#: Status fields cleanup counts with, and their least value: the rounds left of any status (stun's 3 by default,
#: R-FIX-13), system_down's elapsed rounds, the round a lock-on beam fires in.
_STATUS_COUNTERS = (("rounds_left", 0), ("elapsed", 0), ("fires_at_round", 1))


def _names(c: Checker, value: Any, path: str) -> None:
    """A list of non-empty strings (skill names)."""
    if c.is_list(value, path) and not all(type(v) is str and v for v in value):
        for i, v in enumerate(value):
            c.is_str(v, f"{path}[{i}]")


def _modifiers(c: Checker, mods: Any, path: str) -> None:
    """Dice/success modifiers an ability or gimmick left on a unit (the state `resolve` returns carries them)."""
    if not c.is_list(mods, path):
        return
    for i, m in enumerate(mods):
        p = f"{path}[{i}]"
        if not c.is_dict(m, p):
            continue
        c.key_one_of(m, "kind", ("dice", "successes"), p)
        c.key_int(m, "value", p)
        c.key_int(m, "rounds_left", p, 1)
        c.key_str(m, "source", p)
        if m.get("skills") is not None:
            _names(c, m["skills"], f"{p}.skills")
        elif "skills" not in m:
            c.bad(f"{p}.skills", "is required: a list of skills or null (every skill)")


def validate_encounter(encounter: Any, pack_skill_stats: dict[str, str] | None = None) -> list[Problem]:
    """Every problem in an ENCOUNTER.json (spec/engine-cli.md)."""
    c = Checker()
    if not c.is_dict(encounter, ""):
        return c.problems
    if encounter.get("ruleset", "pool") != "pool":
        c.bad("ruleset", f"{encounter.get('ruleset')!r} is not this ruleset ('pool')")
    c.is_int(encounter.get("round", 1), "round", 1)
    options = encounter.get("options", {})
    if c.is_dict(options, "options"):
        for k, v in options.items():
            if k not in rules.DEFAULT_OPTIONS:
                c.bad(f"options.{k}", f"unknown option (known: {', '.join(rules.DEFAULT_OPTIONS)})")
            elif not isinstance(v, bool):
                c.bad(f"options.{k}", f"must be true or false, got {v!r}")
    units = encounter.get("units")
    if c.is_list(units, "units"):
        _each_unique(c, units, "units", "unit", lambda u, p: _unit(c, u, p, pack_skill_stats), set())
        if not c.problems:
            _engagements(c, units)
    terrain, gimmicks = encounter.get("terrain"), encounter.get("gimmicks")
    if terrain is not None and not c.is_list(terrain, "terrain"):
        terrain = None
    if gimmicks is not None and not c.is_list(gimmicks, "gimmicks"):
        gimmicks = None
    for i, t in enumerate(terrain or []):
        p = f"terrain[{i}]"
        if c.is_dict(t, p):
            c.rect(t.get("rect"), f"{p}.rect")
            r = t.get("rough", 1)
            if not (_is_num(r) and rules.MIN_ROUGH_FACTOR <= r <= 1):  # R-ROUGH-1: "down to 0.25"
                c.bad(f"{p}.rough", f"must be a factor from {rules.MIN_ROUGH_FACTOR} to 1, got {r!r}")
    for i, g in enumerate(gimmicks or []):
        p = f"gimmicks[{i}]"
        if c.is_dict(g, p):
            c.is_str(g.get("id"), f"{p}.id")
            c.one_of(g.get("timing"), rules.GIMMICK_TIMINGS, f"{p}.timing")
            if g.get("area") is not None:
                c.rect(g["area"], f"{p}.area")
            check_effects(c, g.get("effects", []), f"{p}.effects")
    return c.problems


def _engagements(c: Checker, units: list[dict]) -> None:
    """An engagement's members stand at distance 0 (R-ENG-1), on the ground (R-ENG-2), ten at most (R-ENG-3)."""
    first: dict[str, dict] = {}
    count: dict[str, int] = {}
    for i, u in enumerate(units):
        e = u.get("engagement")
        if e is None or u.get("removed"):
            continue
        path = f"units[{i}].engagement"
        if geometry.movement(u) == "air":
            c.bad(path, f"a flying unit cannot be in an engagement ({e!r}, R-ENG-2)")
            continue
        count[e] = count.get(e, 0) + 1
        if count[e] > rules.ENGAGEMENT_CAP:
            c.bad(path, f"{e!r} already holds {rules.ENGAGEMENT_CAP} units (R-ENG-3)")
        head = first.setdefault(e, u)
        if head is not u and geometry.metres(head["position"], u["position"]) != 0:
            c.bad(path, f"{e!r} but {geometry.metres(head['position'], u['position'])} m from {head['id']!r} (R-ENG-1)")


def _find(items: list, key: str, value: Any) -> dict | None:
    return next((x for x in items if isinstance(x, dict) and x.get(key) == value), None)


def _all_weapons(u: dict) -> list[dict]:
    return list(u.get("weapons") or []) + list((u.get("vehicle") or {}).get("weapons") or [])


def _toward(c: Checker, act: dict, path: str, unit_ids: set, required: bool) -> None:
    t = act.get("toward")
    if t is None:
        if required:
            c.bad(f"{path}.toward", "is required: a unit id or a point [x, y]")
    elif isinstance(t, str):
        if t not in unit_ids:
            c.bad(f"{path}.toward", f"unknown unit {t!r}")
    else:
        c.point(t, f"{path}.toward")


def _action(c: Checker, act: Any, path: str, kind: str, u: dict, units: dict, skill_stats: dict) -> None:
    if act is None or not c.is_dict(act, path):
        return
    types = rules.MINOR_TYPES if kind == "minor" else rules.MAJOR_TYPES
    if not c.one_of(act.get("type"), types, f"{path}.type"):
        return
    t = act["type"]
    weapons = _all_weapons(u)
    item_ids = {it.get("id") for it in u.get("items") or []}
    if t in ("move", "full_move", "leave"):
        _toward(c, act, path, set(units), required=t != "leave")
    elif t == "reload":
        if _find(weapons, "id", act.get("weapon")) is None:
            c.bad(f"{path}.weapon", f"unit {u['id']!r} has no weapon {act.get('weapon')!r}")
    elif t == "swap":
        for key in ("weapon", "with"):
            if _find(weapons, "id", act.get(key)) is None:
                c.bad(f"{path}.{key}", f"unit {u['id']!r} has no weapon {act.get(key)!r}")
    elif t == "attack":
        w = _find(weapons, "id", act.get("weapon"))
        if w is None:
            c.bad(f"{path}.weapon", f"unit {u['id']!r} has no weapon {act.get('weapon')!r}")
        targets = act.get("targets")
        if not (isinstance(targets, list) and targets):
            c.bad(f"{path}.targets", "must name at least one target unit")
        else:
            for i, tid in enumerate(targets):
                if type(tid) is not str or tid not in units:
                    c.bad(f"{path}.targets[{i}]", f"unknown unit {tid!r}")
            if all(type(tid) is str for tid in targets) and len(set(targets)) != len(targets):
                c.bad(f"{path}.targets", "names a target twice")
            if w is not None and len(targets) > w.get("targets", 1):
                c.bad(f"{path}.targets", f"weapon {w['id']!r} takes at most {w.get('targets', 1)} target(s)")
    elif t == "recover":
        c.is_str(act.get("status"), f"{path}.status")
    elif t == "ability":
        if _find(u.get("abilities") or [], "id", act.get("id")) is None:
            c.bad(f"{path}.id", f"unit {u['id']!r} has no ability {act.get('id')!r}")
        target = act.get("target")
        if target is not None and (type(target) is not str or target not in units):
            c.bad(f"{path}.target", f"unknown unit {target!r}")
    elif t == "check":
        if c.is_str(act.get("skill"), f"{path}.skill") and act["skill"] not in skill_stats:
            c.bad(f"{path}.skill", f"skill {act['skill']!r} has no parent stat")
        c.is_int(act.get("need"), f"{path}.need")
        if act.get("label") is not None:
            c.is_str(act["label"], f"{path}.label")
    item = act.get("item")
    if item is not None and (type(item) is not str or item not in item_ids):
        c.bad(f"{path}.item", f"unit {u['id']!r} has no item {item!r}")


def validate_orders(orders: Any, encounter: dict, pack_skill_stats: dict[str, str] | None = None) -> list[Problem]:
    """Every problem in an ORDERS.json against its (valid) encounter."""
    c = Checker()
    if not c.is_dict(orders, "") or not c.is_list(orders.get("orders", []), "orders"):
        return c.problems
    units = {u["id"]: u for u in encounter["units"]}
    seen: set[str] = set()
    for i, o in enumerate(orders.get("orders", [])):
        p = f"orders[{i}]"
        if not c.is_dict(o, p):
            continue
        uid = o.get("unit")
        if type(uid) is not str or uid not in units:
            c.bad(f"{p}.unit", f"unknown unit {uid!r}")
            continue
        if uid in seen:
            c.bad(f"{p}.unit", f"unit {uid!r} has two orders")
        seen.add(uid)
        u = units[uid]
        skill_stats = effective_skill_stats(u, pack_skill_stats)
        _action(c, o.get("minor"), f"{p}.minor", "minor", u, units, skill_stats)
        _action(c, o.get("major"), f"{p}.major", "major", u, units, skill_stats)
        if o.get("damage_to") is not None:
            c.one_of(o["damage_to"], rules.GAUGES, f"{p}.damage_to")
        if o.get("evade_item") is not None and _find(u.get("items") or [], "id", o["evade_item"]) is None:
            c.bad(f"{p}.evade_item", f"unit {uid!r} has no item {o['evade_item']!r}")
        setup = o.get("setup")
        if setup is not None and not c.is_list(setup, f"{p}.setup"):
            setup = None
        for j, ab in enumerate(setup or []):
            if _find(u.get("abilities") or [], "id", ab) is None:
                c.bad(f"{p}.setup[{j}]", f"unit {uid!r} has no ability {ab!r}")
    return c.problems
