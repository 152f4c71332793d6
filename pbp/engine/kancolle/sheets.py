"""Campaign packs and ship-girl sheets (K-SHEET-*, §16): the grid's 66 names, sheet validation, what a sheet spends
against its limits, and encounters built from a pack's scenario."""

from __future__ import annotations

from typing import Any

from pbp.engine.checker import is_whole
from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.kancolle import schema
from pbp.engine.kancolle.grid import merged_grid


def validate_pack(pack: dict[str, Any]) -> list[Problem]:
    """The grid (cells in range, no cell named twice), the options, the ready-made sheets, the enemies and the event
    tables, each checked as an encounter's would be (paths are key paths inside the pack)."""
    c = schema._Check()
    grid = pack.get("grid") or {}
    if c.check_dict(grid, "grid"):
        cells: dict[tuple[int, int], str] = {}
        for name, cell in grid.items():
            ok = isinstance(cell, list) and len(cell) == 2 and all(is_whole(x) for x in cell)
            if not ok or not (1 <= cell[0] <= 6 and 2 <= cell[1] <= 12):
                c.said(f"grid.{name}", N_("must be a cell [category 1..6, row 2..12], got %(value)r"), value=cell)
            elif (cell[0], cell[1]) in cells:
                c.said(f"grid.{name}", N_("the cell is %(other)r's too"), other=cells[(cell[0], cell[1])])
            else:
                cells[(cell[0], cell[1])] = name
    if c.problems:
        return c.problems
    known = merged_grid(grid)
    schema._options(c, c.opt_dict(pack, "options", "") or {})
    for type_, table in (c.opt_dict(pack, "event_tables", "") or {}).items():
        schema._table(c, table, f"event_tables.{type_}", known)
    for eid, data in (c.opt_dict(pack, "enemies", "") or {}).items():
        if c.check_dict(data, f"enemies.{eid}"):
            enemy = {"ap": data.get("ap_max"), **data, "id": eid, "side": "enemy"}
            schema._unit(c, enemy, f"enemies.{eid}", known, set(), 6)
    characters = c.opt_dict(pack, "characters", "") or {}
    problems = schema._strip(c.problems)
    for cid, sheet in characters.items():
        problems += [Problem(f"characters.{cid}.{p.path}", p.message) for p in validate_character(pack, sheet)]
    return problems


def validate_character(pack: dict[str, Any], sheet: dict[str, Any]) -> list[Problem]:
    """K-SHEET-15 on one sheet, as an encounter's PC is checked."""
    c = schema._Check()
    if not c.check_dict(sheet, ""):
        return c.problems
    grid = merged_grid(pack.get("grid"))
    max_traits = (pack.get("options") or {}).get("max_traits", 6)
    schema._unit(c, {"id": "sheet", "side": "pc", "ap": sheet.get("ap_max"), **sheet}, "", grid, set(), max_traits)
    return schema._strip(c.problems)


def budget(pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Traits against max_traits, pieces against 装備力, items against 2 (K-SHEET-7/9/10)."""
    max_traits = (pack.get("options") or {}).get("max_traits", 6)
    slots = (sheet.get("ratings") or {}).get("装備力", 0)
    return {
        "traits": (len(sheet.get("traits") or []), max_traits),
        "equipment": (len(sheet.get("equipment") or []), slots),
        "items": (len(sheet.get("items") or []), 2),
    }


def enemy_unit(pack: dict[str, Any], enemy_type: str, unit_id: str, position: int) -> dict[str, Any]:
    """A unit of the pack's enemy type (K-SHEET-13)."""
    enemies = pack.get("enemies") or {}
    if enemy_type not in enemies:
        raise BadInput(Problem("enemy", f"the pack has no enemy {enemy_type!r}"))
    data = enemies[enemy_type]
    return {**data, "id": unit_id, "side": "enemy", "ap": data.get("ap_max", data.get("ap", 0)), "position": position}


def build_encounter(pack: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The scenario's encounter (its mode, options, battle and enemies) with the given ship girls."""
    scenarios = pack.get("scenarios") or {}
    if scenario_id not in scenarios:
        raise BadInput(Problem("scenario", f"the pack has no scenario {scenario_id!r}"))
    sc = scenarios[scenario_id]
    # A ship girl starts at position 1 until her formation entry names another (K-FORM-3 (1)).
    units = [
        {"position": 1, **sheet, "id": uid, "side": "pc", "ap": sheet.get("ap", sheet.get("ap_max", 0))}
        for uid, sheet in pcs
    ]
    for i, e in enumerate(sc.get("enemies") or []):
        unit = enemy_unit(pack, e["type"], e.get("id", f"e{i + 1}"), e.get("position", 1))
        units.append({**unit, **{k: e[k] for k in ("name", "flagship") if k in e}})  # the scenario's own name, flagship
    return {
        "ruleset": "kancolle", "mode": sc.get("mode", "battle"), "round": 1, "options": sc.get("options") or {},
        "grid": pack.get("grid") or {}, "base": sc.get("base") or {}, "battle": sc.get("battle"),
        "event_tables": pack.get("event_tables") or {}, "units": units, "checks": [],
    }  # fmt: skip
