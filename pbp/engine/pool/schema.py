"""Validation of encounters and orders: every problem at once, each with its field path.

Checking is separate from doing: `resolve` calls these first and trusts its input afterwards (as the shapes of
`types`). The idiom is `pbp.engine.checker`'s: each `check_*` states its rules once, tests a value inline and
builds a field path only when the value is wrong (a 200-unit encounter is validated on every resolve).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeGuard

from pbp.engine.checker import Checker
from pbp.engine.errors import N_, Problem
from pbp.engine.pool import geometry, rules
from pbp.engine.pool.types import Encounter, Unit

__all__ = ["MAX_METRES", "Checker", "check_effects", "effective_skill_stats", "validate_encounter", "validate_orders"]

#: The largest distance or coordinate an input may hold, in metres: far beyond any map, and small enough that the
#: distance arithmetic never overflows (a coordinate of 10**400 was an OverflowError traceback, not bad input).
MAX_METRES = 10**9
#: Status fields cleanup counts with, and their least value: the rounds left of any status (stun's 3 by default,
#: R-FIX-13), system_down's elapsed rounds, the round a lock-on beam fires in.
STATUS_COUNTERS = (("rounds_left", 0), ("elapsed", 0), ("fires_at_round", 1))


# ---- numbers, points, names -------------------------------------------------------------------------------------
def is_number(v: Any) -> bool:
    """A whole or finite decimal number within MAX_METRES (Python's json reads NaN and Infinity, which no position or
    factor may be)."""
    return (type(v) is int or (type(v) is float and math.isfinite(v))) and -MAX_METRES <= v <= MAX_METRES


def is_point(v: Any) -> TypeGuard[list[float]]:
    """A point [x, y] in metres, each within ±MAX_METRES."""
    if type(v) is not list or len(v) != 2:
        return False
    x, y = v
    if type(x) is int and type(y) is int:  # the usual point, without two calls per point of 200 units
        return -MAX_METRES <= x <= MAX_METRES and -MAX_METRES <= y <= MAX_METRES
    return is_number(x) and is_number(y)


def check_point(c: Checker, value: Any, path: str) -> bool:
    """A point [x, y] in metres, each within ±MAX_METRES."""
    if is_point(value):
        return True
    c.said(
        path, N_("must be a point [x, y] in metres (each within ±%(max)s), got %(value)r"), max=MAX_METRES, value=value
    )
    return False


def check_rect(c: Checker, value: Any, path: str) -> None:
    """A rectangle [[x1, y1], [x2, y2]]."""
    if not (isinstance(value, list) and len(value) == 2):
        c.said(path, N_("must be [[x1, y1], [x2, y2]]"))
        return
    check_point(c, value[0], f"{path}[0]")
    check_point(c, value[1], f"{path}[1]")


def check_rough(c: Checker, value: Any, path: str) -> None:
    """R-ROUGH-1: rough ground multiplies by a factor "down to 0.25"."""
    if not (is_number(value) and rules.MIN_ROUGH_FACTOR <= value <= 1):
        c.said(
            path,
            N_("must be a factor from %(min)s to 1 (R-ROUGH-1), got %(value)r"),
            min=rules.MIN_ROUGH_FACTOR,
            value=value,
        )


def check_names(c: Checker, value: Any, path: str) -> None:
    """A list of non-empty strings (skill names)."""
    if c.check_list(value, path) and not all(type(v) is str and v for v in value):
        for i, v in enumerate(value):
            c.check_str(v, f"{path}[{i}]")


def _are_whole(values: Any, lo: int = -(2**63), hi: int = 2**63) -> bool:
    return all(type(v) is int and lo <= v <= hi for v in values)


#: An id used twice, one sentence per kind of item (a page translates the noun too); the unit's is the one
#: building an encounter says of a PC's id (`encounters.py`).
_USED_TWICE = {"unit": N_("unit id %(unit)r is used twice"), "weapon": N_("weapon id %(weapon)r is used twice")}


def check_each_unique(
    c: Checker, items: list[Any], path: str, what: str, check: Callable[[Any, str], None], seen: set[str]
) -> None:
    """Check each item of a list and report an id used twice (ids already in `seen` count too); `what` is the kind
    of item ("unit" or "weapon")."""
    for i, item in enumerate(items):
        check(item, f"{path}[{i}]")
        key = item.get("id") if isinstance(item, dict) else None
        if type(key) is not str:  # reported by `check`; a list id would not even hash
            continue
        if key in seen:
            c.said(f"{path}[{i}].id", _USED_TWICE[what], **{what: key})
        seen.add(key)


# ---- gauges, weapons, effects -------------------------------------------------------------------------------------
def check_gauge(c: Checker, gauge: Any, path: str) -> bool:
    """R-GAUGE-1: five stages, each a capacity of at least 1 holding 0..capacity damage, filled in order. True when
    the gauge is sound."""
    if type(gauge) is not dict:
        c.said(path, N_("must be an object, got %(type)s"), type=type(gauge).__name__)
        return False
    ok = True
    for name, lo in (("capacity", 1), ("taken", 0)):
        values = gauge.get(name)
        if type(values) is not list or len(values) != rules.STAGES:
            c.said(
                f"{path}.{name}",
                N_("must list %(count)s stages (R-GAUGE-1), got %(value)r"),
                count=rules.STAGES,
                value=values,
            )
            return False
        for v in values:
            if type(v) is not int or v < lo:
                ok = c.check_ints(values, f"{path}.{name}", lo)
                break
    capacity, taken = gauge["capacity"], gauge["taken"]
    if not ok and not all(type(v) is int for v in capacity + taken):
        return False  # reported above; the rules below compare numbers
    for i in range(rules.STAGES):
        if taken[i] > capacity[i]:
            c.said(
                f"{path}.taken[{i}]",
                N_("%(taken)s is more than the stage's capacity %(capacity)s"),
                taken=taken[i],
                capacity=capacity[i],
            )
            ok = False
    for i in range(1, rules.STAGES):
        if taken[i] and any(taken[j] < capacity[j] for j in range(i)):
            c.said(f"{path}.taken[{i}]", N_("holds damage while an earlier stage is not full (stages fill in order)"))
            return False
    return ok


def check_weapon(c: Checker, weapon: Any, path: str, skill_stats: dict[str, str]) -> None:
    """A weapon of spec/engine-cli.md; its skill has a parent stat."""
    if type(weapon) is not dict:
        c.said(path, N_("must be an object, got %(type)s"), type=type(weapon).__name__)
        return
    get = weapon.get
    wid, skill, damage, rng, slot = get("id"), get("skill"), get("damage"), get("range"), get("slot", "arm")
    ammo, ammo_max, gauge, inflicts = get("ammo"), get("ammo_max"), get("gauge"), get("inflicts")
    if type(wid) is not str or not wid:
        c.check_str(wid, f"{path}.id")
    if (type(skill) is not str or skill not in skill_stats) and c.check_str(skill, f"{path}.skill"):
        c.said(
            f"{path}.skill", N_("skill %(skill)r has no parent stat (add it to skill_stats or the pack)"), skill=skill
        )
    if type(damage) is not int or damage < 0:
        c.check_int(damage, f"{path}.damage", 0)
    if ammo is not None and (type(ammo) is not int or ammo < 0):
        c.check_int(ammo, f"{path}.ammo", 0)
    if ammo_max is not None and (type(ammo_max) is not int or ammo_max < 0):
        c.check_int(ammo_max, f"{path}.ammo_max", 0)
    if (ammo is None) != (ammo_max is None):
        c.said(f"{path}.ammo", N_("ammo and ammo_max must both be null (no ammunition) or both be numbers"))
    if not (is_point(rng) and 0 <= rng[0] <= rng[1]):
        c.said(f"{path}.range", N_("must be [min, max] metres with 0 <= min <= max, got %(value)r"), value=rng)
    if slot not in rules.SLOTS:
        c.check_one_of(slot, rules.SLOTS, f"{path}.slot")
    if gauge is not None and gauge not in rules.GAUGES:
        c.check_one_of(gauge, rules.GAUGES, f"{path}.gauge")
    if inflicts is not None and inflicts not in rules.STATUSES:
        c.check_one_of(inflicts, rules.STATUSES, f"{path}.inflicts")
    if "targets" in weapon:
        c.check_key_int(weapon, "targets", path, 1)


def check_effects(c: Checker, effects: Any, path: str) -> None:
    """The effects of an ability or a gimmick (spec/engine-cli.md, "Abilities and gimmicks")."""
    if not c.check_list(effects, path):
        return
    for i, effect in enumerate(effects):
        p = f"{path}[{i}]"
        if not c.check_dict(effect, p) or not c.check_one_of(effect.get("kind"), rules.EFFECT_KINDS, f"{p}.kind"):
            continue
        kind = effect["kind"]
        if kind in ("dice", "successes", "restore"):
            # restore removes damage: a negative value would fill a gauge past its capacities (R-GAUGE-1)
            c.check_int(effect.get("value"), f"{p}.value", 0 if kind == "restore" else None)
        if kind in ("dice", "successes", "status") and effect.get("rounds") is not None:
            c.check_int(effect["rounds"], f"{p}.rounds", 1)  # a status's rounds become its rounds_left (R-FIX-13)
        if kind in ("dice", "successes") and effect.get("skills") is not None:
            check_names(c, effect["skills"], f"{p}.skills")
        if kind in ("status", "cure"):
            c.check_str(effect.get("id"), f"{p}.id")
        if kind == "restore":
            c.check_one_of(effect.get("gauge"), rules.GAUGES, f"{p}.gauge")
        if effect.get("on") is not None:
            c.check_one_of(effect["on"], rules.EFFECT_TARGETS, f"{p}.on")


# ---- a unit, part by part --------------------------------------------------------------------------------------
def effective_skill_stats(unit: Unit, pack_skill_stats: dict[str, str] | None) -> dict[str, str]:
    """The unit's skill -> parent stat map; the pack fills what the unit omits (R-CHECK-4). Validation has checked
    that the unit's own map is an object of names (`check_skill_stats` merges only the well-formed part before
    reporting)."""
    merged = dict(pack_skill_stats or {})
    merged.update(unit.get("skill_stats") or {})
    return merged


def check_stats(c: Checker, unit: dict[str, Any], path: str) -> dict[str, Any]:
    """Parent stats: whole numbers from 0. Returns them (empty when they are not an object)."""
    stats = unit.get("stats")
    if type(stats) is not dict:
        c.check_dict(stats, f"{path}.stats")
        return {}
    if not _are_whole(stats.values(), 0):
        c.check_ints(stats, f"{path}.stats", 0)
    return stats


def check_skill_stats(
    c: Checker, unit: dict[str, Any], path: str, stats: dict[str, Any], pack_skill_stats: dict[str, str] | None
) -> tuple[dict[str, Any], dict[str, str]]:
    """The unit's own skill -> parent stat map names its stats (the pack's may name stats it never uses). Returns
    the own map and the effective one (`effective_skill_stats` of its well-formed part)."""
    own = unit.get("skill_stats") or {}
    if type(own) is not dict:
        c.check_dict(own, f"{path}.skill_stats")
        own = {}
    for skill, stat in own.items():
        if type(stat) is not str or stat not in stats:
            c.said(f"{path}.skill_stats.{skill}", N_("parent stat %(stat)r is not among the unit's stats"), stat=stat)
    if own and not all(type(stat) is str for stat in own.values()):
        own = {k: v for k, v in own.items() if type(v) is str}  # the rest is reported above
    return own, ({**pack_skill_stats, **own} if pack_skill_stats else own)


def check_skills(
    c: Checker, unit: dict[str, Any], path: str, stats: dict[str, Any], own: dict[str, Any], skill_stats: dict[str, str]
) -> None:
    """R-CHECK-3 levels 1..5; R-CHECK-4: every skill has a parent stat the unit has."""
    skills = unit.get("skills", {})
    if type(skills) is not dict:
        c.check_dict(skills, f"{path}.skills")
        return
    if not _are_whole(skills.values(), 1, 5):
        c.check_ints(skills, f"{path}.skills", 1, 5)
    for skill in skills:
        if skill not in skill_stats:
            c.said(
                f"{path}.skills.{skill}",
                N_("skill %(skill)r has no parent stat (skill_stats or the pack)"),
                skill=skill,
            )
        elif skill not in own and skill_stats[skill] not in stats:
            c.said(
                f"{path}.stats",
                N_("has no %(stat)r, the parent stat of skill %(skill)r"),
                stat=skill_stats[skill],
                skill=skill,
            )


def check_life(c: Checker, unit: dict[str, Any], path: str) -> None:
    """The injury gauge, and the flags of a unit out of the battle (R-GAUGE-2, R-GAUGE-7)."""
    injury: Any = unit.get("injury")
    if (
        check_gauge(c, injury, f"{path}.injury")
        and injury["taken"][rules.DEATH_STAGE] >= injury["capacity"][rules.DEATH_STAGE]
        and not unit.get("removed")
    ):
        # R-GAUGE-2/R-GAUGE-7: a character dies the moment 死亡 is checked and is removed at once, so a full injury
        # gauge on a unit still in the battle is a state the rules never produce. Rejected here rather than
        # resolved: attacked on foot, its damage would have no gauge left at all (R-DMG-2: only the injury gauge).
        c.said(
            f"{path}.injury.taken", N_("死亡 is checked (the gauge is full) but the unit is not removed (R-GAUGE-2/7)")
        )
    for flag in ("removed", "dead"):
        if flag in unit and type(unit[flag]) is not bool:
            c.check_bool(unit[flag], f"{path}.{flag}")
    if unit.get("dead") is True and not unit.get("removed"):  # R-GAUGE-7: the dead leave the battle at once
        c.said(f"{path}.removed", N_("a dead unit is removed (R-GAUGE-7): it cannot stay in the battle"))


def check_vehicle(c: Checker, vehicle: Any, path: str) -> list[Any] | None:
    """The vehicle a unit rides; returns its weapons to check (None when they are not a list)."""
    if not c.check_dict(vehicle, path):
        return None
    c.check_key_int(vehicle, "move", path, 0)
    c.check_key_one_of(vehicle, "movement", rules.MOVEMENTS, path, "ground")
    mods = vehicle.get("stat_mods", {})
    if type(mods) is not dict:
        c.check_dict(mods, f"{path}.stat_mods")
    elif not _are_whole(mods.values()):
        c.check_ints(mods, f"{path}.stat_mods")
    check_gauge(c, vehicle.get("damage"), f"{path}.damage")
    weapons = vehicle.get("weapons", [])
    return weapons if c.check_list(weapons, f"{path}.weapons") else None


def check_arsenals(c: Checker, unit: dict[str, Any], path: str, skill_stats: dict[str, str]) -> None:
    """The unit's own weapons and its vehicle (with the vehicle's weapons); weapon ids are unique across both."""
    weapons = unit.get("weapons", [])
    if type(weapons) is not list:
        c.check_list(weapons, f"{path}.weapons")
        weapons = []
    arsenals = [("weapons", weapons)]
    vehicle = unit.get("vehicle")
    if vehicle is not None:
        vehicle_weapons = check_vehicle(c, vehicle, f"{path}.vehicle")
        if vehicle_weapons is not None:
            arsenals.append(("vehicle.weapons", vehicle_weapons))
    ids: set[str] = set()

    def check(weapon: Any, p: str) -> None:
        check_weapon(c, weapon, p, skill_stats)

    for key, arsenal in arsenals:
        check_each_unique(c, arsenal, f"{path}.{key}", "weapon", check, ids)


def check_items(c: Checker, unit: dict[str, Any], path: str) -> None:
    items = unit.get("items", [])
    if type(items) is not list:
        c.check_list(items, f"{path}.items")
        return
    for i, item in enumerate(items):
        p = f"{path}.items[{i}]"
        if c.check_dict(item, p):
            c.check_key_str(item, "id", p)
            if "dice" in item:
                c.check_key_int(item, "dice", p)
            if "successes" in item:
                c.check_key_int(item, "successes", p)
            if item.get("skills") is not None:  # R-CHECK-7: the skills the item is limited to
                check_names(c, item["skills"], f"{p}.skills")


def check_statuses(c: Checker, unit: dict[str, Any], path: str) -> None:
    """Bad statuses: each once (R-FIX-6), with only the counters cleanup knows (a misspelt one would never count)."""
    statuses = unit.get("statuses", [])
    if type(statuses) is not list:
        c.check_list(statuses, f"{path}.statuses")
        return
    for i, status in enumerate(statuses):
        if type(status) is not dict or type(status.get("id")) is not str:
            c.said(f"{path}.statuses[{i}]", N_("must be an object with a status id, got %(value)r"), value=status)
        elif any(type(o) is dict and o.get("id") == status["id"] for o in statuses[:i]):
            c.said(
                f"{path}.statuses[{i}]",
                N_("status %(status)r is listed twice (statuses do not stack, R-FIX-6)"),
                status=status["id"],
            )
        elif len(status) > 1:  # the counters cleanup advances (R-BS-1, R-BS-3, R-FIX-6, R-BS-4, R-FIX-13)
            for key, lo in STATUS_COUNTERS:
                if key in status:
                    c.check_key_int(status, key, f"{path}.statuses[{i}]", lo)
            known = [k for k, _ in STATUS_COUNTERS]
            for key in sorted(status.keys() - {"id", *known}):
                c.said(
                    f"{path}.statuses[{i}].{key}",
                    N_("unknown status field (known: id, %(known)s)"),
                    known=", ".join(known),
                )


def check_abilities(c: Checker, unit: dict[str, Any], path: str) -> None:
    abilities = unit.get("abilities")
    if abilities is None or not c.check_list(abilities, f"{path}.abilities"):
        return
    for i, ability in enumerate(abilities):
        p = f"{path}.abilities[{i}]"
        if c.check_dict(ability, p):
            c.check_key_str(ability, "id", p)
            c.check_key_one_of(ability, "timing", rules.TIMINGS, p)
            if ability.get("uses") is not None:
                c.check_key_int(ability, "uses", p, 0)
            check_effects(c, ability.get("effects", []), f"{p}.effects")


def check_modifiers(c: Checker, mods: Any, path: str) -> None:
    """Dice/success modifiers an ability or gimmick left on a unit (the state `resolve` returns carries them)."""
    if not c.check_list(mods, path):
        return
    for i, mod in enumerate(mods):
        p = f"{path}[{i}]"
        if not c.check_dict(mod, p):
            continue
        c.check_key_one_of(mod, "kind", ("dice", "successes"), p)
        c.check_key_int(mod, "value", p)
        c.check_key_int(mod, "rounds_left", p, 1)
        c.check_key_str(mod, "source", p)
        if mod.get("skills") is not None:
            check_names(c, mod["skills"], f"{p}.skills")
        elif "skills" not in mod:
            c.said(f"{p}.skills", N_("is required: a list of skills or null (every skill)"))


def check_unit(c: Checker, unit: Any, path: str, pack_skill_stats: dict[str, str] | None) -> None:
    """One unit of ENCOUNTER.json (spec/engine-cli.md)."""
    if not c.check_dict(unit, path):
        return
    c.check_key_str(unit, "id", path)
    c.check_key_one_of(unit, "side", rules.SIDES, path)
    stats = check_stats(c, unit, path)
    own, skill_stats = check_skill_stats(c, unit, path, stats, pack_skill_stats)
    check_skills(c, unit, path, stats, own, skill_stats)
    check_life(c, unit, path)
    if unit.get("move") is not None:
        c.check_key_int(unit, "move", path, 0)
    check_arsenals(c, unit, path, skill_stats)
    check_items(c, unit, path)
    check_statuses(c, unit, path)
    check_abilities(c, unit, path)
    if unit.get("modifiers") is not None:
        check_modifiers(c, unit["modifiers"], f"{path}.modifiers")
    if not is_point(unit.get("position")):
        check_point(c, unit.get("position"), f"{path}.position")
    if unit.get("engagement") is not None:
        c.check_key_str(unit, "engagement", path)


def check_engagements(c: Checker, units: list[Unit]) -> None:
    """An engagement's members stand at distance 0 (R-ENG-1), on the ground (R-ENG-2), ten at most (R-ENG-3)."""
    first: dict[str, Unit] = {}
    count: dict[str, int] = {}
    for i, unit in enumerate(units):
        engagement = unit.get("engagement")
        if engagement is None or unit.get("removed"):
            continue
        path = f"units[{i}].engagement"
        if geometry.movement(unit) == "air":
            c.said(
                path, N_("a flying unit cannot be in an engagement (%(engagement)r, R-ENG-2)"), engagement=engagement
            )
            continue
        count[engagement] = count.get(engagement, 0) + 1
        if count[engagement] > rules.ENGAGEMENT_CAP:
            c.said(
                path,
                N_("%(engagement)r already holds %(count)s units (R-ENG-3)"),
                engagement=engagement,
                count=rules.ENGAGEMENT_CAP,
            )
        head = first.setdefault(engagement, unit)
        apart = geometry.metres(head["position"], unit["position"]) if head is not unit else 0
        if apart != 0:
            c.said(
                path,
                N_("%(engagement)r but %(metres)s m from %(unit)r (R-ENG-1)"),
                engagement=engagement,
                metres=apart,
                unit=head["id"],
            )


# ---- the encounter -----------------------------------------------------------------------------------------------
def validate_encounter(encounter: Any, pack_skill_stats: dict[str, str] | None = None) -> list[Problem]:
    """Every problem in an ENCOUNTER.json (spec/engine-cli.md)."""
    c = Checker()
    if not c.check_dict(encounter, ""):
        return c.problems
    if encounter.get("ruleset", "pool") != "pool":
        c.said("ruleset", N_("%(value)r is not this ruleset ('pool')"), value=encounter.get("ruleset"))
    c.check_int(encounter.get("round", 1), "round", 1)
    options = encounter.get("options", {})
    if c.check_dict(options, "options"):
        for key, value in options.items():
            if key not in rules.DEFAULT_OPTIONS:
                c.said(
                    f"options.{key}", N_("unknown option (known: %(known)s)"), known=", ".join(rules.DEFAULT_OPTIONS)
                )
            else:
                c.check_bool(value, f"options.{key}")
    units = encounter.get("units")
    if c.check_list(units, "units"):

        def check(unit: Any, path: str) -> None:
            check_unit(c, unit, path, pack_skill_stats)

        check_each_unique(c, units, "units", "unit", check, set())
        if not c.problems:
            check_engagements(c, units)
    terrain, gimmicks = encounter.get("terrain"), encounter.get("gimmicks")
    if terrain is not None and not c.check_list(terrain, "terrain"):
        terrain = None
    if gimmicks is not None and not c.check_list(gimmicks, "gimmicks"):
        gimmicks = None
    for i, area in enumerate(terrain or []):
        p = f"terrain[{i}]"
        if c.check_dict(area, p):
            check_rect(c, area.get("rect"), f"{p}.rect")
            check_rough(c, area.get("rough", 1), f"{p}.rough")
    for i, gimmick in enumerate(gimmicks or []):
        p = f"gimmicks[{i}]"
        if c.check_dict(gimmick, p):
            c.check_str(gimmick.get("id"), f"{p}.id")
            c.check_one_of(gimmick.get("timing"), rules.GIMMICK_TIMINGS, f"{p}.timing")
            if gimmick.get("area") is not None:
                check_rect(c, gimmick["area"], f"{p}.area")
            check_effects(c, gimmick.get("effects", []), f"{p}.effects")
    return c.problems


# ---- orders ------------------------------------------------------------------------------------------------------
# An order's problems a player can meet on the entry form are worded by marked templates (`N_`), so the page says
# them in the player's language.
_NO_WEAPON = N_("unit %(unit)r has no weapon %(weapon)r")
_NO_ITEM = N_("unit %(unit)r has no item %(item)r")
_NO_ABILITY = N_("unit %(unit)r has no ability %(ability)r")


def _find(items: list[Any], value: Any) -> dict[str, Any] | None:
    """The entry of `items` whose id is `value`."""
    return next((x for x in items if isinstance(x, dict) and x.get("id") == value), None)


def _all_weapons(unit: Unit) -> list[Any]:
    vehicle = unit.get("vehicle")
    return list(unit.get("weapons") or []) + list(vehicle.get("weapons") or [] if vehicle else [])


def check_toward(c: Checker, action: dict[str, Any], path: str, unit_ids: dict[str, Unit], required: bool) -> None:
    """Where a move goes: a unit id or a point."""
    toward = action.get("toward")
    if toward is None:
        if required:
            c.said(f"{path}.toward", N_("is required: a unit id or a point [x, y]"))
    elif isinstance(toward, str):
        if toward not in unit_ids:
            c.said(f"{path}.toward", N_("unknown unit %(unit)r"), unit=toward)
    else:
        check_point(c, toward, f"{path}.toward")


def check_attack(c: Checker, action: dict[str, Any], path: str, unit: Unit, units: dict[str, Unit]) -> None:
    """An attack names a weapon of the unit and its targets, as many as the weapon takes, each once."""
    weapon = _find(_all_weapons(unit), action.get("weapon"))
    if weapon is None:
        c.said(f"{path}.weapon", _NO_WEAPON, unit=unit["id"], weapon=action.get("weapon"))
    targets = action.get("targets")
    if not (isinstance(targets, list) and targets):
        c.said(f"{path}.targets", N_("must name at least one target unit"))
        return
    for i, target in enumerate(targets):
        if type(target) is not str or target not in units:
            c.said(f"{path}.targets[{i}]", N_("unknown unit %(unit)r"), unit=target)
    if all(type(target) is str for target in targets) and len(set(targets)) != len(targets):
        c.said(f"{path}.targets", N_("names a target twice"))
    if weapon is not None and len(targets) > weapon.get("targets", 1):
        c.said(
            f"{path}.targets",
            N_("weapon %(weapon)r takes at most %(count)s target(s)"),
            weapon=weapon["id"],
            count=weapon.get("targets", 1),
        )


def check_action(
    c: Checker,
    action: Any,
    path: str,
    slot: str,
    unit: Unit,
    units: dict[str, Unit],
    pack_skill_stats: dict[str, str] | None,
) -> None:
    """A minor or major action (`slot`) of `unit`'s order: its type, and what that type names."""
    if action is None or not c.check_dict(action, path):
        return
    types = rules.MINOR_TYPES if slot == "minor" else rules.MAJOR_TYPES
    if not c.check_one_of(action.get("type"), types, f"{path}.type"):
        return
    kind = action["type"]
    weapons = _all_weapons(unit) if kind in ("reload", "swap") else []
    if kind in ("move", "full_move", "leave"):
        check_toward(c, action, path, units, required=kind != "leave")
    elif kind == "reload":
        if _find(weapons, action.get("weapon")) is None:
            c.said(f"{path}.weapon", _NO_WEAPON, unit=unit["id"], weapon=action.get("weapon"))
    elif kind == "swap":
        for key in ("weapon", "with"):
            if _find(weapons, action.get(key)) is None:
                c.said(f"{path}.{key}", _NO_WEAPON, unit=unit["id"], weapon=action.get(key))
    elif kind == "attack":
        check_attack(c, action, path, unit, units)
    elif kind == "recover":
        c.check_str(action.get("status"), f"{path}.status")
    elif kind == "ability":
        if _find(unit.get("abilities") or [], action.get("id")) is None:
            c.said(f"{path}.id", _NO_ABILITY, unit=unit["id"], ability=action.get("id"))
        target = action.get("target")
        if target is not None and (type(target) is not str or target not in units):
            c.said(f"{path}.target", N_("unknown unit %(unit)r"), unit=target)
    elif kind == "check":
        skill_stats = effective_skill_stats(unit, pack_skill_stats)
        if c.check_str(action.get("skill"), f"{path}.skill") and action["skill"] not in skill_stats:
            c.said(f"{path}.skill", N_("skill %(skill)r has no parent stat"), skill=action["skill"])
        c.check_int(action.get("need"), f"{path}.need")
        if action.get("label") is not None:
            c.check_str(action["label"], f"{path}.label")
    item = action.get("item")
    if item is not None and (type(item) is not str or _find(unit.get("items") or [], item) is None):
        c.said(f"{path}.item", _NO_ITEM, unit=unit["id"], item=item)


def validate_orders(orders: Any, encounter: Encounter, pack_skill_stats: dict[str, str] | None = None) -> list[Problem]:
    """Every problem in an ORDERS.json against its (valid) encounter."""
    c = Checker()
    if not c.check_dict(orders, "") or not c.check_list(orders.get("orders", []), "orders"):
        return c.problems
    units = {unit["id"]: unit for unit in encounter["units"]}
    seen: set[str] = set()
    for i, order in enumerate(orders.get("orders", [])):
        p = f"orders[{i}]"
        if not c.check_dict(order, p):
            continue
        uid = order.get("unit")
        if type(uid) is not str or uid not in units:
            c.said(f"{p}.unit", N_("unknown unit %(unit)r"), unit=uid)
            continue
        if uid in seen:
            c.said(f"{p}.unit", N_("unit %(unit)r has two orders"), unit=uid)
        seen.add(uid)
        unit = units[uid]
        check_action(c, order.get("minor"), f"{p}.minor", "minor", unit, units, pack_skill_stats)
        check_action(c, order.get("major"), f"{p}.major", "major", unit, units, pack_skill_stats)
        if order.get("damage_to") is not None:
            c.check_one_of(order["damage_to"], rules.GAUGES, f"{p}.damage_to")
        if order.get("evade_item") is not None and _find(unit.get("items") or [], order["evade_item"]) is None:
            c.said(f"{p}.evade_item", _NO_ITEM, unit=uid, item=order["evade_item"])
        setup = order.get("setup")
        if setup is not None and not c.check_list(setup, f"{p}.setup"):
            setup = None
        for j, ability in enumerate(setup or []):
            if _find(unit.get("abilities") or [], ability) is None:
                c.said(f"{p}.setup[{j}]", _NO_ABILITY, unit=uid, ability=ability)
    return c.problems
