"""Building the engine's input from a campaign pack: units from character sheets and enemy types, the encounter of
a scenario's first round (ENCOUNTER.json of spec/engine-cli.md), a scene's checks, a scenario without its secrets.

The pack has been validated (`pack_checks.validate_pack`); a character sheet is checked here before it becomes a
unit (BadInput lists its problems). `build_*` functions construct and report nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, cast

from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.pool import rules
from pbp.engine.pool.pack_checks import validate_character
from pbp.engine.pool.pack_data import LEVEL_MIN, PackData, join_path, skill_stats, tables, value_in
from pbp.engine.pool.types import Ability, Effect, Encounter, Gimmick, Item, Point, Terrain, Unit, Vehicle, Weapon

#: Scenario keys that hold the GM's secrets: never published (design.md, "Dice you can verify").
SECRET_KEYS = frozenset({"gm_notes"})


def build_weapon(data: PackData, wid: str) -> Weapon:
    """A weapon of the pack as a unit carries it: its ammunition full."""
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


def build_effect(effect: dict[str, Any]) -> Effect:
    """An effect with the engine's defaults filled in (skills null = any check, one round)."""
    if effect["kind"] in ("dice", "successes"):
        return {
            "kind": effect["kind"],
            "value": effect["value"],
            "skills": effect.get("skills"),
            "rounds": effect.get("rounds", 1),
        }
    return cast(Effect, dict(effect))  # the pack's status, cure and restore effects are the engine's (validated)


def build_gimmick(g: dict[str, Any]) -> Gimmick:
    """A scenario's gimmick as the encounter carries it (its names and description stay in the pack)."""
    effects = [build_effect(e) for e in g["effects"]]
    return {"id": g["id"], "timing": g["timing"], "area": g.get("area"), "effects": effects}


def build_ability(data: PackData, aid: str) -> Ability:
    a = data["abilities"][aid]
    return {
        "id": aid,
        "timing": a["timing"],
        "uses": a.get("uses"),
        "effects": [build_effect(e) for e in a["effects"]],
    }


def build_vehicle(data: PackData, vid: str, extra_weapons: Iterable[str]) -> Vehicle:
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
        "weapons": [build_weapon(data, w) for w in [*(v.get("weapons") or []), *extra_weapons]],
    }


def build_item(data: PackData, iid: str) -> Item:
    it = data["items"][iid]
    return {"id": iid, "dice": it.get("dice", 0), "successes": it.get("successes", 0), "skills": it.get("skills")}


def build_unit(
    data: PackData,
    source: dict[str, Any],
    unit_id: str,
    side: str,
    position: Point,
    *,
    name: str | None = None,
    vehicle_weapons: Iterable[str] = (),
) -> Unit:
    """A unit from a (valid) character sheet or enemy type `source`: every skill of the pack at its level (1 when
    the source says nothing, R-CHECK-3), gauges empty, ammunition full."""
    given = source.get("skills") or {}
    return {
        "id": unit_id,
        "name": name or source["ja"],
        "side": side,
        "stats": dict(source["stats"]),
        "skills": {skill: given.get(skill, LEVEL_MIN) for skill in tables(data, "skills")},
        "skill_stats": skill_stats(data),
        "injury": {
            "capacity": list(source.get("injury") or data["gauges"]["injury"]["capacity"]),
            "taken": [0] * rules.STAGES,
        },
        "weapons": [build_weapon(data, w) for w in source.get("weapons") or []],
        "items": [build_item(data, i) for i in source.get("items") or []],
        "vehicle": build_vehicle(data, source["vehicle"], vehicle_weapons) if source.get("vehicle") else None,
        "statuses": [],
        "position": list(position),
        "engagement": None,
        "move": source.get("move", data["character"]["move"]),  # R-FIX-8
        "abilities": [build_ability(data, a) for a in source.get("abilities") or []],
    }


def unit_from_sheet(data: PackData, sheet: PackData, unit_id: str, side: str, position: Point) -> Unit:
    """A unit of ENCOUNTER.json from a character sheet; BadInput lists what is wrong with the sheet."""
    problems = validate_character(data, sheet)
    if problems:
        raise BadInput(problems)
    return build_unit(data, sheet, unit_id, side, position, vehicle_weapons=sheet.get("vehicle_weapons") or [])


def unit_from_enemy(data: PackData, enemy_type: str, unit_id: str, position: Point, *, name: str | None = None) -> Unit:
    """A unit of ENCOUNTER.json from an enemy type of the pack (side `enemy`)."""
    enemy = tables(data, "enemies").get(enemy_type)
    if enemy is None:
        raise BadInput(Problem.said("enemy_type", N_("unknown enemy type %(value)r"), value=enemy_type))
    return build_unit(data, enemy, unit_id, "enemy", position, name=name)


#: A scenario of the other kind, one sentence per pair of kinds: a page says "battle" and "scene" in its language.
_WRONG_KIND: dict[tuple[str, str], str] = {
    ("battle", "scene"): N_("%(scenario)r is a battle, not a scene"),
    ("scene", "battle"): N_("%(scenario)r is a scene, not a battle"),
}


def _scenario(data: PackData, scenario_id: str, kind: str) -> dict[str, Any]:
    """The scenario `scenario_id`, which must be of `kind`; BadInput otherwise."""
    scenario = tables(data, "scenarios").get(scenario_id)
    if scenario is None:
        raise BadInput(Problem.said("scenario", N_("unknown scenario %(scenario)r"), scenario=scenario_id))
    actual = scenario.get("kind")
    if actual != kind:
        wrong = _WRONG_KIND.get((actual, kind)) if isinstance(actual, str) else None  # a list would not hash
        raise BadInput(
            Problem.said("scenario", wrong, scenario=scenario_id)
            if wrong is not None  # else a kind no pack check lets through (an unchecked pack's own word)
            else Problem.said(
                "scenario",
                N_("%(scenario)r is a %(kind)s, not a %(wanted)s"),
                scenario=scenario_id,
                kind=actual,
                wanted=kind,
            )
        )
    return scenario


def encounter_for_scenario(data: PackData, scenario_id: str, pcs: list[tuple[str, PackData]]) -> Encounter:
    """The ENCOUNTER.json of a battle scenario: the PCs at its start positions in the order given, then its
    enemies, its rough ground and gimmicks, the campaign's options. `pcs` is [(unit id, character sheet)]."""
    scenario = _scenario(data, scenario_id, "battle")
    starts = scenario["pc_starts"]
    if len(pcs) > len(starts):
        raise BadInput(
            Problem.said(
                "pcs",
                N_("%(count)s PCs but %(scenario)r has %(starts)s start positions"),
                count=len(pcs),
                scenario=scenario_id,
                starts=len(starts),
            )
        )
    enemy_ids = {e["id"] for e in scenario["enemies"]}
    problems = [
        Problem.said(f"pcs[{i}]", N_("unit id %(unit)r is used twice"), unit=uid)
        for i, (uid, _) in enumerate(pcs)
        if uid in enemy_ids or uid in [u for u, _ in pcs[:i]]
    ]
    units = []
    for i, ((uid, sheet), start) in enumerate(zip(pcs, starts, strict=False)):
        try:
            units.append(unit_from_sheet(data, sheet, uid, "pc", start))
        except BadInput as e:
            problems += [replace(p, path=join_path(f"pcs[{i}]", p.path)) for p in e.problems]
    if problems:
        raise BadInput(problems)
    units += [unit_from_enemy(data, e["type"], e["id"], e["position"], name=e.get("name")) for e in scenario["enemies"]]
    terrain: list[Terrain] = [{"rect": t["rect"], "rough": t["rough"]} for t in scenario.get("terrain") or []]
    gimmicks: list[Gimmick] = [
        {
            "id": g["id"],
            "timing": g["timing"],
            "area": g.get("area"),
            "effects": [build_effect(e) for e in g["effects"]],
        }
        for g in scenario.get("gimmicks") or []
    ]
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**rules.DEFAULT_OPTIONS, **(data.get("options") or {})},
        "units": units,
        "terrain": terrain,
        "gimmicks": gimmicks,
    }


def build_encounter(data: PackData, scenario_id: str, pcs: list[tuple[str, PackData]]) -> Encounter:
    """The encounter a scenario's first round starts from: a battle's map (`encounter_for_scenario`), or for a scene
    the characters alone, since a scene only offers checks (R-GM-2)."""
    if value_in(data, "scenarios", scenario_id, {}).get("kind") != "scene":
        return encounter_for_scenario(data, scenario_id, pcs)
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**rules.DEFAULT_OPTIONS, **(data.get("options") or {})},
        "units": [unit_from_sheet(data, sheet, uid, "pc", [0, 0]) for uid, sheet in pcs],
        "terrain": [],
        "gimmicks": [],
    }


def scene_checks(data: PackData, scenario_id: str) -> list[dict[str, Any]]:
    """R-GM-2: the checks a scene offers, each with its skill's parent stat (for the odds shown to players)."""
    stats = skill_stats(data)
    return [{**check, "stat": stats[check["skill"]]} for check in _scenario(data, scenario_id, "scene")["checks"]]


def public_scenario(data: PackData, scenario_id: str) -> dict[str, Any]:
    """A scenario without its GM secrets (SECRET_KEYS): what may be shown to players and published."""
    scenario = tables(data, "scenarios").get(scenario_id)
    if scenario is None:
        raise BadInput(Problem.said("scenario", N_("unknown scenario %(scenario)r"), scenario=scenario_id))
    return {k: v for k, v in scenario.items() if k not in SECRET_KEYS}
