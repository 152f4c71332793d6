"""Campaign packs under the `pool` ruleset: validate a parsed pack and character sheets, build encounter units.

Pure like the rest of the engine: the input is the parsed pack (`pbp.packs.Pack.data`, plain dicts from TOML)
and the output is plain data; `pbp.packs` reads the files. Every number the seed leaves open ([data] in
rules/pool.md) comes from the pack; the seed's own numbers stay in `rules`. The pack format is documented in
docs/campaign-packs.md.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from pbp.engine.checks import MAX_LEVEL, MIN_LEVEL
from pbp.engine.errors import BadInput, Problem
from pbp.engine.pool import rules
from pbp.engine.pool.schema import Checker
from pbp.engine.pool.schema import check_effects as check_effect_shapes

LEVEL_MIN, LEVEL_MAX = MIN_LEVEL, MAX_LEVEL  # R-CHECK-3
VEHICLE_KINDS = ("savior", "fighter", "yamatsukami")  # R-CHECK-6 names every vehicle kind
SIZES = ("large", "human")  # R-ROUGH-1: human-size units ignore rough ground
MOUNTS = ("vehicle", "personal")  # R-FIX-2: riders use vehicle weapons, units on foot personal ones
#: What a weapon sends or swings, for the story's verbs (a claw does not "fire"); no rule reads it.
WEAPON_KINDS = ("beam", "gun", "shell", "missile", "blade", "blunt", "claw", "breath", "voice")
SCENARIO_KINDS = ("scene", "battle")
#: Scenario keys that hold the GM's secrets: never published (design.md, "Dice you can verify").
SECRET_KEYS = frozenset({"gm_notes"})

#: The longest text a pack may hold, in characters, by kind: every page that shows one stays small and quick.
NAME_LIMIT = 80  # a ja/en name, an id, a player's name
TEXT_LIMIT = 4_000  # a description, what a check's success or failure means
NOTES_LIMIT = 20_000  # the GM's secret notes of a scenario
#: Every whole number of a pack lies within +-MAX_NUMBER: far beyond any game's numbers, well inside the
#: database's integers and what any JSON reader holds exactly.
MAX_NUMBER = 1_000_000
ENTRY_LIMIT_MAX = 10_000  # campaign.entry_limit: characters of prose in one entry
SLOTS_MAX = 100  # campaign.slots, a scenario's slots: player characters at one table

#: Every top-level key of a pack, with its meaning; anything else is a problem.
PACK_KEYS: dict[str, str] = {
    "campaign": "identity and settings: id, ja/en names, ruleset, time zone, entry limit, slots per scenario",
    "options": "the ruleset's options (clamp_successes, destroyed_kills_pilot)",
    "stats": "parent stats (親ステータス), keyed by their Japanese name",
    "skills": "skills (技能), keyed by their Japanese name, each under one parent stat",
    "gauges": "the injury and damage gauges: stage names and default injury capacities",
    "statuses": "the six bad statuses (バッドステータス) with names and descriptions",
    "growth": "growth-point (成長点) costs of raising a skill",
    "creation": "the character-creation budget",
    "character": "characters on foot: move in metres",
    "vehicles": "vehicle types (Savior, fighter, Yamatsukami)",
    "weapons": "weapons (兵装), vehicle-mounted and personal",
    "items": "items (アイテム) with their dice/successes effect",
    "abilities": "abilities (スキル) with timing, uses and effects",
    "enemies": "enemy types",
    "characters": "ready-made player characters (character sheets)",
    "scenarios": "scenes of checks and battles",
}
_REQUIRED_KEYS = ("campaign", "stats", "skills", "gauges", "statuses", "growth", "creation", "character", "weapons")

#: A field check: (checker, value, key path, pack) -> None; it reports through the checker.
FieldCheck = Callable[[Checker, Any, str, dict], None]
#: A table's fields: key -> (required, check).
Fields = dict[str, tuple[bool, FieldCheck]]


# ---- small field checks --------------------------------------------------------------------------------------
def _text(limit: int) -> FieldCheck:
    """A non-empty string of at most `limit` characters."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        if c.is_str(v, path) and len(v) > limit:
            c.bad(path, f"has {len(v)} characters, over the limit of {limit}")

    return check


_name, _prose, _notes = _text(NAME_LIMIT), _text(TEXT_LIMIT), _text(NOTES_LIMIT)


def _bool(c: Checker, v: Any, path: str, pack: dict) -> None:
    if not isinstance(v, bool):
        c.bad(path, f"must be true or false, got {v!r}")


def _int(lo: int = -MAX_NUMBER, hi: int = MAX_NUMBER) -> FieldCheck:
    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        c.is_int(v, path, lo, hi)

    return check


def _choice(choices: tuple[str, ...]) -> FieldCheck:
    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        c.one_of(v, choices, path)

    return check


def _sub(fields: Fields) -> FieldCheck:
    """A nested table with its own fields."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        _table(c, v, path, pack, fields)

    return check


def _ref(section: str | Collection[str], what: str) -> FieldCheck:
    """A reference to an entry of a section of the pack (by its name), or to one of a fixed set of ids."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        known = _tables(pack, section) if isinstance(section, str) else section
        if c.is_str(v, path) and v not in known:
            c.bad(path, f"unknown {what} {v!r}")

    return check


def _list_of(item: FieldCheck, *, min_len: int = 0) -> FieldCheck:
    """A list whose items each pass `item`; ids may not repeat (a unit's weapons and items are named by id)."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        if not c.is_list(v, path):
            return
        if len(v) < min_len:
            c.bad(path, f"must list at least {min_len}")
        for i, x in enumerate(v):
            item(c, x, f"{path}[{i}]", pack)
            if isinstance(x, str) and x in v[:i]:
                c.bad(f"{path}[{i}]", f"{x!r} is listed twice")

    return check


def _per_stage(what: str, item: FieldCheck) -> FieldCheck:
    """R-GAUGE-1: every gauge has five stages, so a list of one entry per stage."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        if not (isinstance(v, list) and len(v) == rules.STAGES):
            c.bad(path, f"must list {rules.STAGES} {what} (R-GAUGE-1), got {v!r}")
            return
        for i, x in enumerate(v):
            item(c, x, f"{path}[{i}]", pack)

    return check


_capacity = _per_stage("stage capacities in damage points", _int(1))


def _range(c: Checker, v: Any, path: str, pack: dict) -> None:
    if not (
        isinstance(v, list) and len(v) == 2 and all(_is_int(x) and 0 <= x <= MAX_NUMBER for x in v) and v[0] <= v[1]
    ):
        c.bad(path, f"must be [min, max] whole metres with 0 <= min <= max <= {MAX_NUMBER}, got {v!r}")


def _raise_costs(c: Checker, v: Any, path: str, pack: dict) -> None:
    n = LEVEL_MAX - LEVEL_MIN
    if not (isinstance(v, list) and len(v) == n):
        c.bad(path, f"must list {n} costs: raising a skill to level {LEVEL_MIN + 1}..{LEVEL_MAX}, got {v!r}")
        return
    for i, x in enumerate(v):
        c.is_int(x, f"{path}[{i}]", 0, MAX_NUMBER)


def _point(c: Checker, v: Any, path: str, pack: dict) -> None:
    """A point [x, y] in metres on the map, each within +-MAX_NUMBER (10**400 would overflow every distance)."""
    numbers = isinstance(v, list) and len(v) == 2 and all(type(x) in (int, float) for x in v)
    if numbers and not all(abs(x) <= MAX_NUMBER for x in v):  # before the engine's own (wider) bound
        c.bad(path, f"must lie within {MAX_NUMBER} metres of the origin on each axis, got {v!r}")
    else:
        c.point(v, path)


def _rect(c: Checker, v: Any, path: str, pack: dict) -> None:
    if not (isinstance(v, list) and len(v) == 2):
        c.bad(path, "must be [[x1, y1], [x2, y2]]")
        return
    for i, corner in enumerate(v):
        _point(c, corner, f"{path}[{i}]", pack)


def _rough(c: Checker, v: Any, path: str, pack: dict) -> None:
    if not (isinstance(v, int | float) and not isinstance(v, bool) and rules.MIN_ROUGH_FACTOR <= v <= 1):
        c.bad(path, f"must be a factor from {rules.MIN_ROUGH_FACTOR} to 1 (R-ROUGH-1), got {v!r}")


def _stat_map(*, every: bool, lo: int) -> FieldCheck:
    """Parent stat -> whole number; `every` demands all the pack's stats."""

    def check(c: Checker, v: Any, path: str, pack: dict) -> None:
        if not c.is_dict(v, path):
            return
        stats = _tables(pack, "stats")
        for stat, n in v.items():
            if stat not in stats:
                c.bad(f"{path}.{stat}", f"unknown parent stat {stat!r}")
            c.is_int(n, f"{path}.{stat}", lo, MAX_NUMBER)
        for stat in stats if every else ():
            if stat not in v:
                c.bad(f"{path}.{stat}", "missing")

    return check


def _skill_levels(c: Checker, v: Any, path: str, pack: dict) -> None:
    if not c.is_dict(v, path):
        return
    skills = _tables(pack, "skills")
    for skill, level in v.items():
        if skill not in skills:
            c.bad(f"{path}.{skill}", f"unknown skill {skill!r} (R-CHECK-4: every skill has a parent stat in the pack)")
        if _is_int(level) and not LEVEL_MIN <= level <= LEVEL_MAX:
            c.bad(f"{path}.{skill}", f"level {level} is outside {LEVEL_MIN}..{LEVEL_MAX} (R-CHECK-3)")
        else:
            c.is_int(level, f"{path}.{skill}")


def _effects(c: Checker, v: Any, path: str, pack: dict) -> None:
    """The engine's effect vocabulary (spec/engine-cli.md), with every skill and status it names known."""
    check_effect_shapes(c, v, path)
    if v == []:
        c.bad(path, "must list at least one effect")
    for i, e in enumerate(v if isinstance(v, list) else []):
        if not isinstance(e, dict):
            continue
        p = f"{path}[{i}]"
        for key in ("value", "rounds"):  # whole numbers: the shapes' check reports any other type
            if _is_int(e.get(key)) and abs(e[key]) > MAX_NUMBER:
                c.bad(f"{p}.{key}", f"{e[key]} is outside -{MAX_NUMBER}..{MAX_NUMBER}")
        if e.get("kind") in ("dice", "successes") and e.get("skills") is not None:
            _list_of(_ref("skills", "skill"))(c, e["skills"], f"{p}.skills", pack)
        if e.get("kind") in ("status", "cure", "restore") and "on" not in e:
            c.bad(f"{p}.on", "missing: say who it acts on (self, target or area)")
        if e.get("kind") in ("status", "cure") and isinstance(e.get("id"), str):
            _ref("statuses", "status")(c, e["id"], f"{p}.id", pack)


# ---- tables --------------------------------------------------------------------------------------------------
_NAMES: Fields = {"ja": (True, _name), "en": (True, _name)}
_DESCRIBED: Fields = {**_NAMES, "description": (False, _prose)}
_stages = _per_stage("stage names", _sub(_NAMES))  # R-GAUGE-2/3

_SECTIONS: dict[str, Fields] = {
    "stats": _DESCRIBED,
    "skills": {**_DESCRIBED, "stat": (True, _ref("stats", "parent stat"))},
    "statuses": {**_NAMES, "description": (True, _prose)},
    "vehicles": {
        **_DESCRIBED,
        "kind": (True, _choice(VEHICLE_KINDS)),
        "move": (True, _int(0)),
        "movement": (True, _choice(rules.MOVEMENTS)),
        "size": (True, _choice(SIZES)),
        "stat_mods": (False, _stat_map(every=False, lo=-MAX_NUMBER)),
        "damage": (True, _capacity),
        "weapons": (False, _list_of(_ref("weapons", "weapon"))),
        "playable": (False, _bool),
    },
    "weapons": {
        **_DESCRIBED,
        "skill": (True, _ref("skills", "skill")),
        "damage": (True, _int(0)),
        "range": (True, _range),
        "ammo": (False, _int(1)),
        "targets": (False, _int(1)),
        "slot": (True, _choice(rules.SLOTS)),
        "mount": (True, _choice(MOUNTS)),
        "gauge": (False, _choice(rules.GAUGES)),
        "inflicts": (False, _ref(rules.STATUSES, "bad status")),
        "cost": (True, _int(0)),
        "kind": (False, _choice(WEAPON_KINDS)),
    },
    "items": {
        **_DESCRIBED,
        "dice": (False, _int(0)),
        "successes": (False, _int(0)),
        "skills": (False, _list_of(_ref("skills", "skill"), min_len=1)),
        "cost": (True, _int(0)),
    },
    "abilities": {
        **_DESCRIBED,
        "timing": (True, _choice(rules.TIMINGS)),
        "uses": (False, _int(1)),
        "effects": (True, _effects),
    },
    "enemies": {
        **_DESCRIBED,
        "vehicle": (False, _ref("vehicles", "vehicle")),
        "stats": (True, _stat_map(every=True, lo=0)),
        "skills": (False, _skill_levels),
        "injury": (False, _capacity),
        "weapons": (False, _list_of(_ref("weapons", "weapon"))),
        "abilities": (False, _list_of(_ref("abilities", "ability"))),
        "move": (False, _int(0)),
        "public": (False, _bool),  # shown on the campaign's data pages; default false (the GM's secret)
    },
}
_SINGLES: dict[str, Fields] = {
    "campaign": {
        **_DESCRIBED,
        "id": (True, _name),
        "ruleset": (True, _choice(("pool",))),
        "time_zone": (True, _name),
        "entry_limit": (True, _int(1, ENTRY_LIMIT_MAX)),
        "slots": (True, _int(1, SLOTS_MAX)),
        "several_pcs_per_player": (False, _bool),  # R-FIX-18: default false, one character per player
    },
    "options": {key: (False, _bool) for key in rules.DEFAULT_OPTIONS},
    "gauges": {
        "injury": (True, _sub({**_NAMES, "stages": (True, _stages), "capacity": (True, _capacity)})),
        "damage": (True, _sub({**_NAMES, "stages": (True, _stages)})),
    },
    "growth": {"raise_costs": (True, _raise_costs)},
    "creation": {
        "stat_points": (True, _int(1)),
        "stat_min": (True, _int(0)),
        "stat_max": (True, _int(1)),
        "skill_points": (True, _int(0)),
        "growth_points": (True, _int(0)),
        "abilities": (True, _int(0)),
    },
    "character": {"move": (True, _int(0))},
}
_OUTCOME: Fields = {"ja": (True, _prose), "en": (True, _prose)}  # what a check's success or failure means
_CHECK: Fields = {
    **_NAMES,
    "id": (True, _name),
    "skill": (True, _ref("skills", "skill")),
    "need": (True, _int(1)),  # R-CHECK-2: N成功
    "success": (True, _sub(_OUTCOME)),
    "failure": (True, _sub(_OUTCOME)),
}
_PLACED_ENEMY: Fields = {
    "id": (True, _name),
    "type": (True, _ref("enemies", "enemy type")),
    "position": (True, _point),
    "name": (False, _name),
    "en": (False, _name),  # the name in English stories and pages (`name` is the Japanese)
}
_TERRAIN: Fields = {**_NAMES, "rect": (True, _rect), "rough": (True, _rough)}  # R-ROUGH-1
_GIMMICK: Fields = {  # R-PLAY-3
    **_DESCRIBED,
    "id": (True, _name),
    "timing": (True, _choice(rules.GIMMICK_TIMINGS)),
    "area": (False, _rect),
    "effects": (True, _effects),
    "public": (False, _bool),  # shown on the scenario's page and the data pages; default false (the GM's secret)
}
_SCENARIO: Fields = {
    **_DESCRIBED,
    "kind": (True, _choice(SCENARIO_KINDS)),
    "slots": (False, _int(1, SLOTS_MAX)),
    "gm_notes": (False, _notes),
    "checks": (False, _list_of(_sub(_CHECK), min_len=1)),
    "pc_starts": (False, _list_of(_point, min_len=1)),
    "enemies": (False, _list_of(_sub(_PLACED_ENEMY), min_len=1)),
    "terrain": (False, _list_of(_sub(_TERRAIN))),
    "gimmicks": (False, _list_of(_sub(_GIMMICK))),
}
_SCENE_ONLY, _BATTLE_ONLY = ("checks",), ("pc_starts", "enemies", "terrain", "gimmicks")

#: A character sheet (docs/campaign-packs.md, "Character sheet").
_SHEET: Fields = {
    **_DESCRIBED,
    "player": (False, _name),
    "stats": (True, _stat_map(every=True, lo=-MAX_NUMBER)),
    "skills": (False, _skill_levels),
    "vehicle": (False, _ref("vehicles", "vehicle")),
    "weapons": (False, _list_of(_ref("weapons", "weapon"))),
    "vehicle_weapons": (False, _list_of(_ref("weapons", "weapon"))),
    "items": (False, _list_of(_ref("items", "item"))),
    "abilities": (False, _list_of(_ref("abilities", "ability"))),
    "growth_points": (False, _int(0)),
}


def _table(c: Checker, v: Any, path: str, pack: dict, fields: Fields) -> bool:
    """Check one table against its fields: unknown keys, missing required keys, each value."""
    if not c.is_dict(v, path):
        return False
    for key in v:
        if key not in fields:
            c.bad(_join(path, key), f"unknown key (known: {', '.join(fields)})")
    for key, (required, check) in fields.items():
        if key in v:
            check(c, v[key], _join(path, key), pack)
        elif required:
            c.bad(_join(path, key), "missing")
    return True


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _tables(pack: dict, section: str) -> dict[str, dict]:
    """The entries of a section that are tables (others were reported where they stand)."""
    entries = pack.get(section)
    return {k: v for k, v in entries.items() if isinstance(v, dict)} if isinstance(entries, dict) else {}


def _get(pack: dict, section: str, key: str, default: Any = None) -> Any:
    table = pack.get(section)
    return table.get(key, default) if isinstance(table, dict) else default


# ---- the pack ------------------------------------------------------------------------------------------------
def validate_pack(data: dict[str, Any]) -> list[Problem]:
    """Every problem in a parsed pack: unknown or missing keys, references that do not resolve, numbers out of
    range, missing ja/en names. Paths are key paths such as `weapons.beam_rifle.range`."""
    c = Checker()
    if not c.is_dict(data, ""):
        return c.problems
    for key in data:
        if key not in PACK_KEYS:
            c.bad(key, f"unknown top-level key (known: {', '.join(PACK_KEYS)})")
    for key in _REQUIRED_KEYS:
        if key not in data:
            c.bad(key, "missing")
    for key, fields in _SINGLES.items():
        if key in data:
            _table(c, data[key], key, data, fields)
    for section, fields in [*_SECTIONS.items(), ("scenarios", _SCENARIO)]:
        if section in data and c.is_dict(data[section], section):
            for entry_id, entry in data[section].items():
                _table(c, entry, f"{section}.{entry_id}", data, fields)
    for section in [*_SECTIONS, "scenarios", "characters"]:  # an entry's id is shown and stored like a name
        for entry_id in map(str, data[section] if isinstance(data.get(section), dict) else ()):
            if len(entry_id) > NAME_LIMIT:
                c.bad(f"{section}.{entry_id}", f"the id has {len(entry_id)} characters, over the limit of {NAME_LIMIT}")
    _cross_checks(c, data)
    if "characters" in data and c.is_dict(data["characters"], "characters"):
        for sheet_id, sheet in data["characters"].items():
            c.problems += [
                Problem(_join(f"characters.{sheet_id}", p.path), p.message) for p in validate_character(data, sheet)
            ]
    return c.problems


def _cross_checks(c: Checker, data: dict) -> None:
    """What one field alone cannot tell: ids that are names, the six statuses, mounts, scenario shapes."""
    for section in ("stats", "skills"):
        for key, entry in _tables(data, section).items():
            if isinstance(entry.get("ja"), str) and entry["ja"] != key:
                c.bad(f"{section}.{key}.ja", f"must equal the id {key!r}: {section} are keyed by their Japanese name")
    statuses = _tables(data, "statuses")
    if "statuses" in data:
        for status in rules.STATUSES:
            if status not in statuses:
                c.bad(f"statuses.{status}", "missing: the pack names every bad status of the R-BS table")
    if not _tables(data, "stats") and "stats" in data:
        c.bad("stats", "must define at least one parent stat")
    weapons = _tables(data, "weapons")
    for vid, vehicle in _tables(data, "vehicles").items():
        for i, wid in enumerate(_list(vehicle, "weapons")):  # not a list: reported by its field check
            if isinstance(wid, str) and weapons.get(wid, {}).get("mount") == "personal":
                c.bad(f"vehicles.{vid}.weapons[{i}]", f"{wid!r} is a personal weapon, not one a vehicle mounts")
    for eid, enemy in _tables(data, "enemies").items():
        for i, wid in enumerate(_list(enemy, "weapons")):
            if isinstance(wid, str) and weapons.get(wid, {}).get("mount") == "vehicle":
                c.bad(f"enemies.{eid}.weapons[{i}]", f"{wid!r} is a vehicle weapon; list it on the vehicle")
    for iid, item in _tables(data, "items").items():
        if not item.get("dice") and not item.get("successes"):
            c.bad(f"items.{iid}", "has no effect: give dice and/or successes (R-CHECK-7)")
    mins, maxs = _get(data, "creation", "stat_min"), _get(data, "creation", "stat_max")
    if _is_int(mins) and _is_int(maxs) and mins > maxs:
        c.bad("creation.stat_max", f"is below stat_min ({maxs} < {mins})")
    for sid, scenario in _tables(data, "scenarios").items():
        _scenario_shape(c, data, f"scenarios.{sid}", scenario)


def _scenario_shape(c: Checker, data: dict, path: str, scenario: dict) -> None:
    kind = scenario.get("kind")
    if kind not in SCENARIO_KINDS:
        return
    wrong, needed = (_BATTLE_ONLY, _SCENE_ONLY) if kind == "scene" else (_SCENE_ONLY, ("pc_starts", "enemies"))
    for key in wrong:
        if key in scenario:
            c.bad(f"{path}.{key}", f"does not belong in a {kind} scenario")
    for key in needed:
        if key not in scenario:
            c.bad(f"{path}.{key}", f"missing: a {kind} scenario needs it")
    for key, id_key in (("checks", "id"), ("enemies", "id"), ("gimmicks", "id")):
        _unique_ids(c, f"{path}.{key}", scenario.get(key), id_key)
    slots = scenario.get("slots", _get(data, "campaign", "slots"))
    starts = scenario.get("pc_starts")
    if kind == "battle" and isinstance(starts, list) and _is_int(slots) and len(starts) < slots:
        c.bad(f"{path}.pc_starts", f"gives {len(starts)} start positions for {slots} slots")


def _unique_ids(c: Checker, path: str, entries: Any, id_key: str) -> None:
    seen: set[str] = set()
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        ident = entry.get(id_key) if isinstance(entry, dict) else None
        if not isinstance(ident, str):  # reported by the entry's field check; a list would not even hash
            continue
        if ident in seen:
            c.bad(f"{path}[{i}].{id_key}", f"id {ident!r} is used twice")
        seen.add(ident)


def _join(prefix: str, path: str) -> str:
    """`prefix.path`, either part possibly empty."""
    return f"{prefix}.{path}" if prefix and path else prefix or path


def skill_stats(data: dict[str, Any]) -> dict[str, str]:
    """R-CHECK-4: skill -> parent stat, for every skill of the pack (the engine's default `skill_stats`)."""
    return {skill: entry["stat"] for skill, entry in _tables(data, "skills").items() if "stat" in entry}


# ---- characters ----------------------------------------------------------------------------------------------
def growth_cost(data: dict[str, Any], skill: str, from_level: int, to_level: int) -> int:
    """Growth points (成長点) to raise `skill` from one level to a higher one (R-CHECK-3: at most 5)."""
    problems = []
    if skill not in _tables(data, "skills"):
        problems.append(Problem("skill", f"unknown skill {skill!r}"))
    if not (_is_int(from_level) and _is_int(to_level) and LEVEL_MIN <= from_level <= to_level <= LEVEL_MAX):
        problems.append(
            Problem(
                "level",
                f"cannot raise from {from_level!r} to {to_level!r}: levels go "
                f"{LEVEL_MIN}..{LEVEL_MAX} and only up (R-CHECK-3)",
            )
        )
    if problems:
        raise BadInput(problems)
    costs = data["growth"]["raise_costs"]
    return sum(costs[level - LEVEL_MIN - 1] for level in range(from_level + 1, to_level + 1))


def raise_cost(data: dict[str, Any], sheet: dict[str, Any], skills: dict[str, int]) -> int:
    """Growth points to raise a sheet's skills to the levels `skills` names (a growth request, 成長申請)."""
    levels = sheet.get("skills") if isinstance(sheet.get("skills"), dict) else {}
    return sum(growth_cost(data, skill, levels.get(skill, LEVEL_MIN), to) for skill, to in skills.items())


def budget(data: dict[str, Any], sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """What a sheet spends against each limit, as (spent, limit): stat points, skill points (creation points plus
    growth points), weapon cost (R-GEAR-2: 陳情 x 2), item cost (R-GEAR-2: 調達), abilities. Entries the sheet
    gets wrong count as nothing here; `validate_character` reports them."""
    creation = data.get("creation") or {}
    stats = sheet.get("stats") if isinstance(sheet.get("stats"), dict) else {}
    levels = _levels(data, sheet)
    skill_cost = sum(growth_cost(data, skill, LEVEL_MIN, level) for skill, level in levels.items())
    return {
        "stats": (sum(v for v in stats.values() if _is_int(v)), creation.get("stat_points", 0)),
        "skills": (skill_cost, creation.get("skill_points", 0) + _growth_points(sheet)),
        "weapons": (
            _cost(data, "weapons", _ids(sheet, "weapons") + _ids(sheet, "vehicle_weapons")),
            2 * levels.get("陳情", LEVEL_MIN),
        ),
        "items": (_cost(data, "items", _ids(sheet, "items")), levels.get("調達", LEVEL_MIN)),
        "abilities": (len(_ids(sheet, "abilities")), creation.get("abilities", 0)),
    }


def _levels(data: dict, sheet: dict) -> dict[str, int]:
    """Every skill's level, 1 where the sheet says nothing (R-CHECK-3); levels out of range count as 1."""
    given = sheet.get("skills") if isinstance(sheet.get("skills"), dict) else {}
    return {
        skill: level if _is_int(level) and LEVEL_MIN <= level <= LEVEL_MAX else LEVEL_MIN
        for skill in _tables(data, "skills")
        for level in [given.get(skill, LEVEL_MIN)]
    }


def _growth_points(sheet: dict) -> int:
    gp = sheet.get("growth_points", 0)
    return gp if _is_int(gp) and gp >= 0 else 0


def _list(table: dict, key: str) -> list:
    """`table[key]` when it is a list, else nothing (a wrong type is reported by the key's field check)."""
    v = table.get(key)
    return v if isinstance(v, list) else []


def _ids(sheet: dict, key: str) -> list[str]:
    return [x for x in sheet.get(key) or [] if isinstance(x, str)] if isinstance(sheet.get(key), list) else []


def _cost(data: dict, section: str, ids: Iterable[str]) -> int:
    entries = _tables(data, section)
    return sum(c for i in ids for c in [entries.get(i, {}).get("cost", 0)] if _is_int(c))


_BUDGET_RULES = {
    "stats": "parent stats total {spent}, more than the creation budget of {limit} points",
    "skills": "skill levels cost {spent} points, more than the {limit} available "
    "(creation skill points + growth points; raising to level n costs growth.raise_costs)",
    "weapons": "weapons cost {spent}, more than 陳情 level x 2 = {limit} (R-GEAR-2; built-in weapons are free, "
    "R-GEAR-3)",
    "items": "items cost {spent}, more than 調達 level = {limit} (R-GEAR-2)",
    "abilities": "{spent} abilities, more than the {limit} a character may know",
}


def _budget_rules_valid(data: dict) -> bool:
    """Whether the pack's growth costs and creation budget are sound enough to count against (else reported)."""
    c = Checker()
    _table(c, data.get("growth"), "growth", data, _SINGLES["growth"])
    _table(c, data.get("creation"), "creation", data, _SINGLES["creation"])
    return not c.problems


def validate_character(data: dict[str, Any], sheet: dict[str, Any]) -> list[Problem]:
    """Every problem in a character sheet under the pack: R-CHECK-3 levels, R-CHECK-4 known skills, the creation
    budget, R-GEAR-2 cost limits (R-GEAR-3: the vehicle's built-in weapons cost nothing). Paths are inside the
    sheet (`skills.射撃`)."""
    c = Checker()
    if not _table(c, sheet, "", data, _SHEET):
        return c.problems
    lo, hi = _get(data, "creation", "stat_min"), _get(data, "creation", "stat_max")
    for stat, value in (sheet.get("stats") or {}).items() if isinstance(sheet.get("stats"), dict) else ():
        if _is_int(value) and _is_int(lo) and _is_int(hi) and not lo <= value <= hi:
            c.bad(f"stats.{stat}", f"{value} is outside the creation limits {lo}..{hi}")
    vid = sheet.get("vehicle")  # not a string: reported by its field check (a list would not even hash)
    vehicle = _tables(data, "vehicles").get(vid) if isinstance(vid, str) else None
    if vehicle is not None and vehicle.get("playable") is False:
        c.bad("vehicle", f"{sheet['vehicle']!r} is not a vehicle player characters can ride")
    weapons = _tables(data, "weapons")
    for key, mount in (("weapons", "personal"), ("vehicle_weapons", "vehicle")):
        for i, wid in enumerate(_ids(sheet, key)):
            if weapons.get(wid, {}).get("mount") not in (mount, None):
                c.bad(f"{key}[{i}]", f"{wid!r} is not a {mount} weapon")
    built_in = _list(vehicle, "weapons") if vehicle else []
    for i, wid in enumerate(_ids(sheet, "vehicle_weapons")):
        if wid in built_in:
            c.bad(f"vehicle_weapons[{i}]", f"{wid!r} is already built into the vehicle (R-GEAR-3: free, not listed)")
    if _ids(sheet, "vehicle_weapons") and "vehicle" not in sheet:
        c.bad("vehicle_weapons", "a character without a vehicle cannot mount vehicle weapons")
    if not c.problems and _budget_rules_valid(data):  # budgets mean something only when every entry is known
        for key, (spent, limit) in budget(data, sheet).items():
            if spent > limit:
                c.bad(key, _BUDGET_RULES[key].format(spent=spent, limit=limit))
    return c.problems


# ---- units and encounters (ENCOUNTER.json of spec/engine-cli.md) ----------------------------------------------
def _weapon(data: dict, wid: str) -> dict[str, Any]:
    w = data["weapons"][wid]
    ammo = w.get("ammo")
    return {
        "id": wid,
        "skill": w["skill"],
        "damage": w["damage"],
        "ammo": ammo,
        "ammo_max": ammo,
        "range": list(w["range"]),
        "slot": w["slot"],
        "gauge": w.get("gauge"),
        "inflicts": w.get("inflicts"),
        "targets": w.get("targets", 1),
    }


def _effect(effect: dict) -> dict[str, Any]:
    """An effect with the engine's defaults filled in (skills null = any check, one round)."""
    if effect["kind"] in ("dice", "successes"):
        return {
            "kind": effect["kind"],
            "value": effect["value"],
            "skills": effect.get("skills"),
            "rounds": effect.get("rounds", 1),
        }
    return dict(effect)


def _ability(data: dict, aid: str) -> dict[str, Any]:
    a = data["abilities"][aid]
    return {"id": aid, "timing": a["timing"], "uses": a.get("uses"), "effects": [_effect(e) for e in a["effects"]]}


def _vehicle(data: dict, vid: str, extra_weapons: list[str]) -> dict[str, Any]:
    """A vehicle as a unit rides it: id = the pack's vehicle type (narration finds its names there)."""
    v = data["vehicles"][vid]
    return {
        "id": vid,
        "kind": v["kind"],
        "move": v["move"],
        "movement": v["movement"],
        "size": v["size"],
        "stat_mods": dict(v.get("stat_mods") or {}),
        "damage": {"capacity": list(v["damage"]), "taken": [0] * rules.STAGES},
        "weapons": [_weapon(data, w) for w in [*(v.get("weapons") or []), *extra_weapons]],
    }


def _unit(
    data: dict,
    source: dict,
    unit_id: str,
    side: str,
    position: list,
    *,
    name: str | None = None,
    vehicle_weapons: list[str] = (),
) -> dict[str, Any]:
    skills = _tables(data, "skills")
    given = source.get("skills") or {}
    return {
        "id": unit_id,
        "name": name or source["ja"],
        "side": side,
        "stats": dict(source["stats"]),
        "skills": {skill: given.get(skill, LEVEL_MIN) for skill in skills},  # R-CHECK-3: every skill, 1 at least
        "skill_stats": skill_stats(data),
        "injury": {
            "capacity": list(source.get("injury") or data["gauges"]["injury"]["capacity"]),
            "taken": [0] * rules.STAGES,
        },
        "weapons": [_weapon(data, w) for w in source.get("weapons") or []],
        "items": [
            {"id": i, "dice": it.get("dice", 0), "successes": it.get("successes", 0), "skills": it.get("skills")}
            for i in source.get("items") or []
            for it in [data["items"][i]]
        ],
        "vehicle": _vehicle(data, source["vehicle"], list(vehicle_weapons)) if source.get("vehicle") else None,
        "statuses": [],
        "position": list(position),
        "engagement": None,
        "move": source.get("move", data["character"]["move"]),  # R-FIX-8
        "abilities": [_ability(data, a) for a in source.get("abilities") or []],
    }


def unit_from_sheet(
    data: dict[str, Any], sheet: dict[str, Any], unit_id: str, side: str, position: list[int]
) -> dict[str, Any]:
    """A unit of ENCOUNTER.json from a character sheet; BadInput lists what is wrong with the sheet."""
    problems = validate_character(data, sheet)
    if problems:
        raise BadInput(problems)
    return _unit(data, sheet, unit_id, side, position, vehicle_weapons=sheet.get("vehicle_weapons") or [])


def unit_from_enemy(
    data: dict[str, Any], enemy_type: str, unit_id: str, position: list[int], *, name: str | None = None
) -> dict[str, Any]:
    """A unit of ENCOUNTER.json from an enemy type of the pack (side `enemy`)."""
    enemy = _tables(data, "enemies").get(enemy_type)
    if enemy is None:
        raise BadInput(Problem("enemy_type", f"unknown enemy type {enemy_type!r}"))
    return _unit(data, enemy, unit_id, "enemy", position, name=name)


def _scenario(data: dict, scenario_id: str, kind: str) -> dict[str, Any]:
    scenario = _tables(data, "scenarios").get(scenario_id)
    if scenario is None:
        raise BadInput(Problem("scenario", f"unknown scenario {scenario_id!r}"))
    if scenario.get("kind") != kind:
        raise BadInput(Problem("scenario", f"{scenario_id!r} is a {scenario.get('kind')}, not a {kind}"))
    return scenario


def encounter_for_scenario(
    data: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """The ENCOUNTER.json of a battle scenario: the PCs at its start positions in the order given, then its
    enemies, its rough ground and gimmicks, the campaign's options. `pcs` is [(unit id, character sheet)]."""
    scenario = _scenario(data, scenario_id, "battle")
    starts = scenario["pc_starts"]
    if len(pcs) > len(starts):
        raise BadInput(Problem("pcs", f"{len(pcs)} PCs but {scenario_id!r} has {len(starts)} start positions"))
    enemy_ids = {e["id"] for e in scenario["enemies"]}
    problems = [
        Problem(f"pcs[{i}]", f"unit id {uid!r} is used twice")
        for i, (uid, _) in enumerate(pcs)
        if uid in enemy_ids or uid in [u for u, _ in pcs[:i]]
    ]
    units = []
    for i, ((uid, sheet), start) in enumerate(zip(pcs, starts, strict=False)):
        try:
            units.append(unit_from_sheet(data, sheet, uid, "pc", start))
        except BadInput as e:
            problems += [Problem(_join(f"pcs[{i}]", p.path), p.message) for p in e.problems]
    if problems:
        raise BadInput(problems)
    units += [unit_from_enemy(data, e["type"], e["id"], e["position"], name=e.get("name")) for e in scenario["enemies"]]
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**rules.DEFAULT_OPTIONS, **(data.get("options") or {})},
        "units": units,
        "terrain": [{"rect": t["rect"], "rough": t["rough"]} for t in scenario.get("terrain") or []],
        "gimmicks": [
            {"id": g["id"], "timing": g["timing"], "area": g.get("area"), "effects": [_effect(e) for e in g["effects"]]}
            for g in scenario.get("gimmicks") or []
        ],
    }


def build_encounter(data: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The encounter a scenario's first round starts from: a battle's map (`encounter_for_scenario`), or for a scene
    the characters alone, since a scene only offers checks (R-GM-2)."""
    if _get(data, "scenarios", scenario_id, {}).get("kind") != "scene":
        return encounter_for_scenario(data, scenario_id, pcs)
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**rules.DEFAULT_OPTIONS, **(data.get("options") or {})},
        "units": [unit_from_sheet(data, sheet, uid, "pc", [0, 0]) for uid, sheet in pcs],
        "terrain": [],
        "gimmicks": [],
    }


def scene_checks(data: dict[str, Any], scenario_id: str) -> list[dict[str, Any]]:
    """R-GM-2: the checks a scene offers, each with its skill's parent stat (for the odds shown to players)."""
    stats = skill_stats(data)
    return [{**check, "stat": stats[check["skill"]]} for check in _scenario(data, scenario_id, "scene")["checks"]]


def public_scenario(data: dict[str, Any], scenario_id: str) -> dict[str, Any]:
    """A scenario without its GM secrets (SECRET_KEYS): what may be shown to players and published."""
    scenario = _tables(data, "scenarios").get(scenario_id)
    if scenario is None:
        raise BadInput(Problem("scenario", f"unknown scenario {scenario_id!r}"))
    return {k: v for k, v in scenario.items() if k not in SECRET_KEYS}
