"""Campaign packs under the `pool` ruleset: validate a parsed pack and its character sheets.

Pure like the rest of the engine: the input is the parsed pack (`pbp.packs.Pack.data`, plain dicts from TOML);
`pbp.packs` reads the files. Every number the seed leaves open ([data] in rules/pool.md) comes from the pack; the
seed's own numbers stay in `rules`. The pack format is documented in docs/campaign-packs.md.

The idiom is the encounter's (`pbp.engine.checker`): `check_*` functions report every problem they find to a
`Checker` under its key path; a table's fields are declared once, each with the check of its value (`Fields`), and
the field checks that take a parameter are built by `*_field(...)`. Rules an encounter states too (effects, points,
rough ground) are the encounter's own checks (`schema`), called from here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from pbp.engine.checker import Checker
from pbp.engine.errors import N_, Problem
from pbp.engine.pool import rules
from pbp.engine.pool.budgets import budget
from pbp.engine.pool.pack_data import (
    LEVEL_MAX,
    LEVEL_MIN,
    PackData,
    ids_in,
    is_whole,
    join_path,
    list_in,
    tables,
    value_in,
)
from pbp.engine.pool.schema import check_effects as check_effect_shapes
from pbp.engine.pool.schema import check_point, check_rough

VEHICLE_KINDS = ("savior", "fighter", "yamatsukami")  # R-CHECK-6 names every vehicle kind
SIZES = ("large", "human")  # R-ROUGH-1: human-size units ignore rough ground
MOUNTS = ("vehicle", "personal")  # R-FIX-2: riders use vehicle weapons, units on foot personal ones
#: What a weapon sends or swings, for the story's verbs (a claw does not "fire"); no rule reads it.
WEAPON_KINDS = ("beam", "gun", "shell", "missile", "blade", "blunt", "claw", "breath", "voice")
SCENARIO_KINDS = ("scene", "battle")
#: A character's pronoun in English stories (absent: `they`); no rule reads it, the narrator does.
PRONOUNS = ("she", "he", "they")

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

#: The refusals of a reference that several fields make (`ref_field`).
UNKNOWN_SKILL = N_("unknown skill %(value)r")
UNKNOWN_WEAPON = N_("unknown weapon %(value)r")
UNKNOWN_VEHICLE = N_("unknown vehicle %(value)r")
UNKNOWN_ABILITY = N_("unknown ability %(value)r")

#: A field check: (checker, value, key path, pack) -> None; it reports through the checker.
FieldCheck = Callable[[Checker, Any, str, PackData], None]
#: A table's fields: key -> (required, check).
Fields = dict[str, tuple[bool, FieldCheck]]


# ---- small field checks --------------------------------------------------------------------------------------
def text_field(limit: int) -> FieldCheck:
    """A non-empty string of at most `limit` characters."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        if c.check_str(v, path) and len(v) > limit:
            c.said(path, N_("has %(count)d characters, over the limit of %(limit)d"), count=len(v), limit=limit)

    return check


check_name, check_prose, check_notes = text_field(NAME_LIMIT), text_field(TEXT_LIMIT), text_field(NOTES_LIMIT)


def check_bool(c: Checker, v: Any, path: str, pack: PackData) -> None:
    c.check_bool(v, path)


def int_field(lo: int = -MAX_NUMBER, hi: int = MAX_NUMBER) -> FieldCheck:
    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        c.check_int(v, path, lo, hi)

    return check


def choice_field(choices: tuple[str, ...]) -> FieldCheck:
    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        c.check_one_of(v, choices, path)

    return check


def table_field(fields: Fields) -> FieldCheck:
    """A nested table with its own fields."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        check_table(c, v, path, pack, fields)

    return check


def ref_field(section: str | Collection[str], unknown: str) -> FieldCheck:
    """A reference to an entry of a section of the pack (by its name), or to one of a fixed set of ids; `unknown`
    is the whole template of its refusal (`N_("unknown skill %(value)r")`), so a page translates what is named."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        known = tables(pack, section) if isinstance(section, str) else section
        if c.check_str(v, path) and v not in known:
            c.said(path, unknown, value=v)

    return check


def list_field(item: FieldCheck, *, min_len: int = 0) -> FieldCheck:
    """A list whose items each pass `item`; ids may not repeat (a unit's weapons and items are named by id)."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        if not c.check_list(v, path):
            return
        if len(v) < min_len:
            c.said(path, N_("must list at least %(count)s"), count=min_len)
        for i, x in enumerate(v):
            item(c, x, f"{path}[{i}]", pack)
            if isinstance(x, str) and x in v[:i]:
                c.said(f"{path}[{i}]", N_("%(value)r is listed twice"), value=x)

    return check


def per_stage_field(wrong: str, item: FieldCheck) -> FieldCheck:
    """R-GAUGE-1: every gauge has five stages, so a list of one entry per stage; `wrong` is the template of the
    refusal of another list (`%(stages)s` and `%(value)r`)."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        if not (isinstance(v, list) and len(v) == rules.STAGES):
            c.said(path, wrong, stages=rules.STAGES, value=v)
            return
        for i, x in enumerate(v):
            item(c, x, f"{path}[{i}]", pack)

    return check


check_capacities = per_stage_field(
    N_("must list %(stages)s stage capacities in damage points (R-GAUGE-1), got %(value)r"), int_field(1)
)


def check_range(c: Checker, v: Any, path: str, pack: PackData) -> None:
    if not (
        isinstance(v, list) and len(v) == 2 and all(is_whole(x) and 0 <= x <= MAX_NUMBER for x in v) and v[0] <= v[1]
    ):
        c.said(
            path,
            N_("must be [min, max] whole metres with 0 <= min <= max <= %(max)s, got %(value)r"),
            max=MAX_NUMBER,
            value=v,
        )


def check_raise_costs(c: Checker, v: Any, path: str, pack: PackData) -> None:
    n = LEVEL_MAX - LEVEL_MIN
    if not (isinstance(v, list) and len(v) == n):
        c.said(
            path,
            N_("must list %(count)s costs: raising a skill to level %(lo)s..%(hi)s, got %(value)r"),
            count=n,
            lo=LEVEL_MIN + 1,
            hi=LEVEL_MAX,
            value=v,
        )
        return
    for i, x in enumerate(v):
        c.check_int(x, f"{path}[{i}]", 0, MAX_NUMBER)


def check_pack_point(c: Checker, v: Any, path: str, pack: PackData) -> None:
    """A point [x, y] in metres on the map, each within +-MAX_NUMBER (10**400 would overflow every distance)."""
    numbers = isinstance(v, list) and len(v) == 2 and all(type(x) in (int, float) for x in v)
    if numbers and not all(abs(x) <= MAX_NUMBER for x in v):  # before the engine's own (wider) bound
        c.said(
            path,
            N_("must lie within %(max)s metres of the origin on each axis, got %(value)r"),
            max=MAX_NUMBER,
            value=v,
        )
    else:
        check_point(c, v, path)


def check_pack_rect(c: Checker, v: Any, path: str, pack: PackData) -> None:
    if not (isinstance(v, list) and len(v) == 2):
        c.said(path, N_("must be [[x1, y1], [x2, y2]]"))
        return
    for i, corner in enumerate(v):
        check_pack_point(c, corner, f"{path}[{i}]", pack)


def check_pack_rough(c: Checker, v: Any, path: str, pack: PackData) -> None:
    check_rough(c, v, path)


def stat_map_field(*, every: bool, lo: int) -> FieldCheck:
    """Parent stat -> whole number; `every` demands all the pack's stats."""

    def check(c: Checker, v: Any, path: str, pack: PackData) -> None:
        if not c.check_dict(v, path):
            return
        stats = tables(pack, "stats")
        for stat, n in v.items():
            if stat not in stats:
                c.said(f"{path}.{stat}", N_("unknown parent stat %(value)r"), value=stat)
            c.check_int(n, f"{path}.{stat}", lo, MAX_NUMBER)
        for stat in stats if every else ():
            if stat not in v:
                c.said(f"{path}.{stat}", N_("missing"))

    return check


def check_skill_levels(c: Checker, v: Any, path: str, pack: PackData) -> None:
    if not c.check_dict(v, path):
        return
    skills = tables(pack, "skills")
    for skill, level in v.items():
        if skill not in skills:
            c.said(
                f"{path}.{skill}",
                N_("unknown skill %(skill)r (R-CHECK-4: every skill has a parent stat in the pack)"),
                skill=skill,
            )
        if is_whole(level) and not LEVEL_MIN <= level <= LEVEL_MAX:
            c.said(
                f"{path}.{skill}",
                N_("level %(level)s is outside %(lo)s..%(hi)s (R-CHECK-3)"),
                level=level,
                lo=LEVEL_MIN,
                hi=LEVEL_MAX,
            )
        else:
            c.check_int(level, f"{path}.{skill}")


def check_pack_effects(c: Checker, v: Any, path: str, pack: PackData) -> None:
    """The engine's effect vocabulary (spec/engine-cli.md), with every skill and status it names known."""
    check_effect_shapes(c, v, path)
    if v == []:
        c.said(path, N_("must list at least one effect"))
    for i, e in enumerate(v if isinstance(v, list) else []):
        if not isinstance(e, dict):
            continue
        p = f"{path}[{i}]"
        for key in ("value", "rounds"):  # whole numbers: the shapes' check reports any other type
            if is_whole(e.get(key)) and abs(e[key]) > MAX_NUMBER:
                c.said(f"{p}.{key}", N_("%(value)s is outside -%(max)s..%(max)s"), value=e[key], max=MAX_NUMBER)
        if e.get("kind") in ("dice", "successes") and e.get("skills") is not None:
            list_field(ref_field("skills", UNKNOWN_SKILL))(c, e["skills"], f"{p}.skills", pack)
        if e.get("kind") in ("status", "cure", "restore") and "on" not in e:
            c.said(f"{p}.on", N_("missing: say who it acts on (self, target or area)"))
        if e.get("kind") in ("status", "cure") and isinstance(e.get("id"), str):
            ref_field("statuses", N_("unknown status %(value)r"))(c, e["id"], f"{p}.id", pack)


# ---- tables --------------------------------------------------------------------------------------------------
_NAMES: Fields = {"ja": (True, check_name), "en": (True, check_name)}
#: `description` is the pack's own language (Japanese); `description_en` what English pages show instead, if given.
_DESCRIBED: Fields = {**_NAMES, "description": (False, check_prose), "description_en": (False, check_prose)}
check_stage_names = per_stage_field(  # R-GAUGE-2/3
    N_("must list %(stages)s stage names (R-GAUGE-1), got %(value)r"), table_field(_NAMES)
)

_SECTIONS: dict[str, Fields] = {
    "stats": _DESCRIBED,
    "skills": {**_DESCRIBED, "stat": (True, ref_field("stats", N_("unknown parent stat %(value)r")))},
    "statuses": {**_DESCRIBED, "description": (True, check_prose)},
    "vehicles": {
        **_DESCRIBED,
        "kind": (True, choice_field(VEHICLE_KINDS)),
        "move": (True, int_field(0)),
        "movement": (True, choice_field(rules.MOVEMENTS)),
        "size": (True, choice_field(SIZES)),
        "stat_mods": (False, stat_map_field(every=False, lo=-MAX_NUMBER)),
        "damage": (True, check_capacities),
        "weapons": (False, list_field(ref_field("weapons", UNKNOWN_WEAPON))),
        "playable": (False, check_bool),
    },
    "weapons": {
        **_DESCRIBED,
        "skill": (True, ref_field("skills", UNKNOWN_SKILL)),
        "damage": (True, int_field(0)),
        "range": (True, check_range),
        "ammo": (False, int_field(1)),
        "targets": (False, int_field(1)),
        "slot": (True, choice_field(rules.SLOTS)),
        "mount": (True, choice_field(MOUNTS)),
        "gauge": (False, choice_field(rules.GAUGES)),
        "inflicts": (False, ref_field(rules.STATUSES, N_("unknown bad status %(value)r"))),
        "cost": (True, int_field(0)),
        "kind": (False, choice_field(WEAPON_KINDS)),
    },
    "items": {
        **_DESCRIBED,
        "dice": (False, int_field(0)),
        "successes": (False, int_field(0)),
        "skills": (False, list_field(ref_field("skills", UNKNOWN_SKILL), min_len=1)),
        "cost": (True, int_field(0)),
    },
    "abilities": {
        **_DESCRIBED,
        "timing": (True, choice_field(rules.TIMINGS)),
        "uses": (False, int_field(1)),
        "effects": (True, check_pack_effects),
    },
    "enemies": {
        **_DESCRIBED,
        "vehicle": (False, ref_field("vehicles", UNKNOWN_VEHICLE)),
        "stats": (True, stat_map_field(every=True, lo=0)),
        "skills": (False, check_skill_levels),
        "injury": (False, check_capacities),
        "weapons": (False, list_field(ref_field("weapons", UNKNOWN_WEAPON))),
        "abilities": (False, list_field(ref_field("abilities", UNKNOWN_ABILITY))),
        "move": (False, int_field(0)),
        "public": (False, check_bool),  # shown on the campaign's data pages; default false (the GM's secret)
    },
}
_SINGLES: dict[str, Fields] = {
    "campaign": {
        **_DESCRIBED,
        "id": (True, check_name),
        "ruleset": (True, choice_field(("pool",))),
        "time_zone": (True, check_name),
        "entry_limit": (True, int_field(1, ENTRY_LIMIT_MAX)),
        "slots": (True, int_field(1, SLOTS_MAX)),
        "several_pcs_per_player": (False, check_bool),  # R-FIX-18: default false, one character per player
    },
    "options": {key: (False, check_bool) for key in rules.DEFAULT_OPTIONS},
    "gauges": {
        "injury": (
            True,
            table_field({**_NAMES, "stages": (True, check_stage_names), "capacity": (True, check_capacities)}),
        ),
        "damage": (True, table_field({**_NAMES, "stages": (True, check_stage_names)})),
    },
    "growth": {"raise_costs": (True, check_raise_costs)},
    "creation": {
        "stat_points": (True, int_field(1)),
        "stat_min": (True, int_field(0)),
        "stat_max": (True, int_field(1)),
        "skill_points": (True, int_field(0)),
        "growth_points": (True, int_field(0)),
        "abilities": (True, int_field(0)),
    },
    "character": {"move": (True, int_field(0))},
}
_OUTCOME: Fields = {"ja": (True, check_prose), "en": (True, check_prose)}  # what a check's success or failure means
_CHECK: Fields = {
    **_NAMES,
    "id": (True, check_name),
    "skill": (True, ref_field("skills", UNKNOWN_SKILL)),
    "need": (True, int_field(1)),  # R-CHECK-2: N成功
    "success": (True, table_field(_OUTCOME)),
    "failure": (True, table_field(_OUTCOME)),
}
_PLACED_ENEMY: Fields = {
    "id": (True, check_name),
    "type": (True, ref_field("enemies", N_("unknown enemy type %(value)r"))),
    "position": (True, check_pack_point),
    "name": (False, check_name),
    "en": (False, check_name),  # the name in English stories and pages (`name` is the Japanese)
}
_TERRAIN: Fields = {**_NAMES, "rect": (True, check_pack_rect), "rough": (True, check_pack_rough)}  # R-ROUGH-1
_GIMMICK: Fields = {  # R-PLAY-3
    **_DESCRIBED,
    "id": (True, check_name),
    "timing": (True, choice_field(rules.GIMMICK_TIMINGS)),
    "area": (False, check_pack_rect),
    "effects": (True, check_pack_effects),
    "public": (False, check_bool),  # shown on the scenario's page and the data pages; default false (the GM's secret)
}
#: Where and when a scenario is told (its place, time of day, weather), each `{ ja, en }`: both kinds' stories open
#: on them, so a hangar at night is never told as a riverbank at noon.
_SETTING_KEYS = ("setting", "time", "weather")
_SCENARIO: Fields = {
    **_DESCRIBED,
    **{key: (False, table_field(_NAMES)) for key in _SETTING_KEYS},
    "kind": (True, choice_field(SCENARIO_KINDS)),
    "slots": (False, int_field(1, SLOTS_MAX)),
    "gm_notes": (False, check_notes),
    "checks": (False, list_field(table_field(_CHECK), min_len=1)),
    "pc_starts": (False, list_field(check_pack_point, min_len=1)),
    "enemies": (False, list_field(table_field(_PLACED_ENEMY), min_len=1)),
    "terrain": (False, list_field(table_field(_TERRAIN))),
    "gimmicks": (False, list_field(table_field(_GIMMICK))),
}
_SCENE_ONLY, _BATTLE_ONLY = ("checks",), ("pc_starts", "enemies", "terrain", "gimmicks")
#: A scenario's key of the other kind, and one its kind needs, by kind (each its own sentence to translate).
_NOT_IN = {"scene": N_("does not belong in a scene scenario"), "battle": N_("does not belong in a battle scenario")}
_NEEDED_IN = {"scene": N_("missing: a scene scenario needs it"), "battle": N_("missing: a battle scenario needs it")}

#: A character sheet (docs/campaign-packs.md, "Character sheet").
_SHEET: Fields = {
    **_DESCRIBED,
    "player": (False, check_name),
    "stats": (True, stat_map_field(every=True, lo=-MAX_NUMBER)),
    "skills": (False, check_skill_levels),
    "vehicle": (False, ref_field("vehicles", UNKNOWN_VEHICLE)),
    "weapons": (False, list_field(ref_field("weapons", UNKNOWN_WEAPON))),
    "vehicle_weapons": (False, list_field(ref_field("weapons", UNKNOWN_WEAPON))),
    "items": (False, list_field(ref_field("items", N_("unknown item %(value)r")))),
    "abilities": (False, list_field(ref_field("abilities", UNKNOWN_ABILITY))),
    "growth_points": (False, int_field(0)),
    "pronoun": (False, choice_field(PRONOUNS)),
}


def check_table(c: Checker, v: Any, path: str, pack: PackData, fields: Fields) -> bool:
    """Check one table against its fields: unknown keys, missing required keys, each value."""
    if not c.check_dict(v, path):
        return False
    for key in v:
        if key not in fields:
            c.said(join_path(path, key), N_("unknown key (known: %(known)s)"), known=", ".join(fields))
    for key, (required, check) in fields.items():
        if key in v:
            check(c, v[key], join_path(path, key), pack)
        elif required:
            c.said(join_path(path, key), N_("missing"))
    return True


# ---- the pack ------------------------------------------------------------------------------------------------
def validate_pack(data: PackData) -> list[Problem]:
    """Every problem in a parsed pack: unknown or missing keys, references that do not resolve, numbers out of
    range, missing ja/en names. Paths are key paths such as `weapons.beam_rifle.range`."""
    c = Checker()
    if not c.check_dict(data, ""):
        return c.problems
    for key in data:
        if key not in PACK_KEYS:
            c.said(key, N_("unknown top-level key (known: %(known)s)"), known=", ".join(PACK_KEYS))
    for key in _REQUIRED_KEYS:
        if key not in data:
            c.said(key, N_("missing"))
    for key, fields in _SINGLES.items():
        if key in data:
            check_table(c, data[key], key, data, fields)
    for section, fields in [*_SECTIONS.items(), ("scenarios", _SCENARIO)]:
        if section in data and c.check_dict(data[section], section):
            for entry_id, entry in data[section].items():
                check_table(c, entry, f"{section}.{entry_id}", data, fields)
    for section in [*_SECTIONS, "scenarios", "characters"]:  # an entry's id is shown and stored like a name
        for entry_id in map(str, data[section] if isinstance(data.get(section), dict) else ()):
            if len(entry_id) > NAME_LIMIT:
                c.said(
                    f"{section}.{entry_id}",
                    N_("the id has %(count)s characters, over the limit of %(limit)s"),
                    count=len(entry_id),
                    limit=NAME_LIMIT,
                )
    check_cross_references(c, data)
    if "characters" in data and c.check_dict(data["characters"], "characters"):
        for sheet_id, sheet in data["characters"].items():
            c.problems += [
                replace(p, path=join_path(f"characters.{sheet_id}", p.path)) for p in validate_character(data, sheet)
            ]
    return c.problems


def check_cross_references(c: Checker, data: PackData) -> None:
    """What one field alone cannot tell: ids that are names, the six statuses, mounts, scenario shapes."""
    for section in ("stats", "skills"):
        for key, entry in tables(data, section).items():
            if isinstance(entry.get("ja"), str) and entry["ja"] != key:
                c.said(
                    f"{section}.{key}.ja",
                    N_("must equal the id %(id)r: %(section)s are keyed by their Japanese name"),
                    id=key,
                    section=section,
                )
    statuses = tables(data, "statuses")
    if "statuses" in data:
        for status in rules.STATUSES:
            if status not in statuses:
                c.said(f"statuses.{status}", N_("missing: the pack names every bad status of the R-BS table"))
    if not tables(data, "stats") and "stats" in data:
        c.said("stats", N_("must define at least one parent stat"))
    weapons = tables(data, "weapons")
    for vid, vehicle in tables(data, "vehicles").items():
        for i, wid in enumerate(list_in(vehicle, "weapons")):  # not a list: reported by its field check
            if isinstance(wid, str) and weapons.get(wid, {}).get("mount") == "personal":
                c.said(
                    f"vehicles.{vid}.weapons[{i}]",
                    N_("%(weapon)r is a personal weapon, not one a vehicle mounts"),
                    weapon=wid,
                )
    for eid, enemy in tables(data, "enemies").items():
        for i, wid in enumerate(list_in(enemy, "weapons")):
            if isinstance(wid, str) and weapons.get(wid, {}).get("mount") == "vehicle":
                c.said(
                    f"enemies.{eid}.weapons[{i}]",
                    N_("%(weapon)r is a vehicle weapon; list it on the vehicle"),
                    weapon=wid,
                )
    for iid, item in tables(data, "items").items():
        if not item.get("dice") and not item.get("successes"):
            c.said(f"items.{iid}", N_("has no effect: give dice and/or successes (R-CHECK-7)"))
    mins, maxs = value_in(data, "creation", "stat_min"), value_in(data, "creation", "stat_max")
    if is_whole(mins) and is_whole(maxs) and mins > maxs:
        c.said("creation.stat_max", N_("is below stat_min (%(max)s < %(min)s)"), max=maxs, min=mins)
    for sid, scenario in tables(data, "scenarios").items():
        check_scenario_shape(c, data, f"scenarios.{sid}", scenario)


def check_scenario_shape(c: Checker, data: PackData, path: str, scenario: dict[str, Any]) -> None:
    kind = scenario.get("kind")
    if kind not in SCENARIO_KINDS:
        return
    wrong, needed = (_BATTLE_ONLY, _SCENE_ONLY) if kind == "scene" else (_SCENE_ONLY, ("pc_starts", "enemies"))
    for key in wrong:
        if key in scenario:
            c.said(f"{path}.{key}", _NOT_IN[kind])
    for key in needed:
        if key not in scenario:
            c.said(f"{path}.{key}", _NEEDED_IN[kind])
    for key, id_key in (("checks", "id"), ("enemies", "id"), ("gimmicks", "id")):
        check_unique_ids(c, f"{path}.{key}", scenario.get(key), id_key)
    slots = scenario.get("slots", value_in(data, "campaign", "slots"))
    starts = scenario.get("pc_starts")
    if kind == "battle" and isinstance(starts, list) and is_whole(slots) and len(starts) < slots:
        c.said(
            f"{path}.pc_starts",
            N_("gives %(count)s start positions for %(slots)s slots"),
            count=len(starts),
            slots=slots,
        )


def check_unique_ids(c: Checker, path: str, entries: Any, id_key: str) -> None:
    seen: set[str] = set()
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        ident = entry.get(id_key) if isinstance(entry, dict) else None
        if not isinstance(ident, str):  # reported by the entry's field check; a list would not even hash
            continue
        if ident in seen:
            c.said(f"{path}[{i}].{id_key}", N_("id %(id)r is used twice"), id=ident)
        seen.add(ident)


# ---- characters ----------------------------------------------------------------------------------------------
_BUDGET_RULES = {
    "stats": N_("stats total %(spent)s points, more than the creation budget of %(limit)s"),
    "skills": N_(
        "skill levels cost %(spent)s points, more than the %(limit)s available (the skill points for creating a "
        "character and the growth points; what each level costs is on the game data's growth page)"
    ),
    "weapons": N_(
        "weapons cost %(spent)s, more than Petition (陳情) level x 2 = %(limit)s (R-GEAR-2; a vehicle's built-in "
        "weapons are free, R-GEAR-3)"
    ),
    "items": N_("items cost %(spent)s, more than Procurement (調達) level = %(limit)s (R-GEAR-2)"),
    "abilities": N_("%(spent)s abilities, more than the %(limit)s a character may know"),
}


def is_budget_sound(data: PackData) -> bool:
    """Whether the pack's growth costs and creation budget are sound enough to count against (else reported)."""
    c = Checker()
    check_table(c, data.get("growth"), "growth", data, _SINGLES["growth"])
    check_table(c, data.get("creation"), "creation", data, _SINGLES["creation"])
    return not c.problems


def validate_character(data: PackData, sheet: PackData) -> list[Problem]:
    """Every problem in a character sheet under the pack: R-CHECK-3 levels, R-CHECK-4 known skills, the creation
    budget, R-GEAR-2 cost limits (R-GEAR-3: the vehicle's built-in weapons cost nothing). Paths are inside the
    sheet (`skills.射撃`)."""
    c = Checker()
    if not check_table(c, sheet, "", data, _SHEET):
        return c.problems
    lo, hi = value_in(data, "creation", "stat_min"), value_in(data, "creation", "stat_max")
    for stat, value in (sheet.get("stats") or {}).items() if isinstance(sheet.get("stats"), dict) else ():
        if is_whole(value) and is_whole(lo) and is_whole(hi) and not lo <= value <= hi:
            c.said(
                f"stats.{stat}",
                N_("%(value)s is outside the creation limits %(lo)s..%(hi)s"),
                value=value,
                lo=lo,
                hi=hi,
            )
    vid = sheet.get("vehicle")  # not a string: reported by its field check (a list would not even hash)
    vehicle = tables(data, "vehicles").get(vid) if isinstance(vid, str) else None
    if vehicle is not None and vehicle.get("playable") is False:
        c.said("vehicle", N_("'%(vehicle)s' is not a vehicle player characters can ride"), vehicle=sheet["vehicle"])
    weapons = tables(data, "weapons")
    for key, mount in (("weapons", "personal"), ("vehicle_weapons", "vehicle")):
        for i, wid in enumerate(ids_in(sheet, key)):
            if weapons.get(wid, {}).get("mount") not in (mount, None):
                wrong = (
                    N_("'%(weapon)s' is not a personal weapon")
                    if mount == "personal"
                    else N_("'%(weapon)s' is not a vehicle weapon")
                )
                c.said(f"{key}[{i}]", wrong, weapon=wid)
    built_in = list_in(vehicle, "weapons") if vehicle else []
    for i, wid in enumerate(ids_in(sheet, "vehicle_weapons")):
        if wid in built_in:
            c.said(
                f"vehicle_weapons[{i}]",
                N_("'%(weapon)s' is already built into the vehicle (R-GEAR-3: free, not listed)"),
                weapon=wid,
            )
    if ids_in(sheet, "vehicle_weapons") and "vehicle" not in sheet:
        c.said("vehicle_weapons", N_("a character without a vehicle cannot mount vehicle weapons"))
    if not c.problems and is_budget_sound(data):  # budgets mean something only when every entry is known
        for key, (spent, limit) in budget(data, sheet).items():
            if spent > limit:
                c.said(key, _BUDGET_RULES[key], spent=spent, limit=limit)
    return c.problems
