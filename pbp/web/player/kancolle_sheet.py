"""The kancolle character form: a ship girl copied from one of the pack's ships (K-SHEET-1), her names and
description, and her traits and gap marked on the personality grid drawn as the picture the rulebook prints (six
categories of rows 2..12, a gap column between each two): a picture you click (kancolle_grid.js: a cell cycles
—, ○ merit, × weakness; a gap column is blacked out), over a select per cell and a radio per gap, which the form
posts and which work without JavaScript.

A new ship girl sets her traits and gap; an existing one changes only her names, description and pronoun (her
traits change by discovery in play, K-BASE-8, and the GM's tools). The ruleset judges the sheet; each problem
stands beside its field (`traits[i]...` at the grid, `gap` at the gaps)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _

from pbp.engine import Problem
from pbp.engine.kancolle.grid import CATEGORIES, merged_grid
from pbp.web.i18n import problem_text
from pbp.web.player.sheets import NAME_NEEDED, PRONOUN, TEXTS, Fields

MARKS = {"merit": "○", "weakness": "×"}
#: The parts a player changes on an existing ship girl.
EDITABLE = (*TEXTS, PRONOUN)
CHOOSE_SHIP = _("Choose the ship she is.")


@dataclass(frozen=True)
class Cell:
    name: str
    label: str  # the name in the page's language


@dataclass
class Parsed:
    sheet: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)


def grid_rows(pack: dict[str, Any], locale: str) -> tuple[list[str], list[tuple[int, list[Cell | None]]]]:
    """The grid's category headings and its rows 2..12, each with the cell of every category (None: unnamed)."""
    names = {tuple(cell): name for name, cell in merged_grid(pack.get("grid")).items()}
    english = pack.get("grid_en") or {}
    heads = pack.get("grid_categories") or {}
    headings = [str((heads.get(str(c + 1)) or {}).get(locale) or CATEGORIES[c]) for c in range(6)]
    rows = []
    for r in range(2, 13):
        cells: list[Cell | None] = []
        for c in range(1, 7):
            name = names.get((c, r))
            label = str(english.get(name) or name) if locale != "ja" and name else name
            cells.append(Cell(name, label) if name else None)
        rows.append((r, cells))
    return headings, rows


def fields_of(sheet: dict[str, Any]) -> Fields:
    """The form's values for a stored sheet."""
    fields = Fields({key: [str(sheet.get(key) or "")] for key in TEXTS})
    if fields.value("en") == fields.value("ja"):
        fields["en"] = [""]
    if PRONOUN in sheet:
        fields[PRONOUN] = [str(sheet[PRONOUN])]
    fields["gap"] = [str(sheet.get("gap") or "")]
    for t in sheet.get("traits") or []:
        fields[f"trait.{t.get('name')}"] = [str(t.get("kind"))]
    return fields


def sheet_of(fields: Fields, pack: dict[str, Any], base: dict[str, Any] | None) -> Parsed:
    """The sheet the form describes: creating (`base` None), the chosen ship's template with the form's names,
    traits (in the grid's order) and gap; editing, the stored sheet with only its EDITABLE parts from the form."""
    ships = pack.get("characters") or {}
    errors: dict[str, str] = {}
    if base is None:
        ship = fields.value("ship")
        if ship not in ships:
            errors["ship"] = str(CHOOSE_SHIP)
        sheet = dict(ships.get(ship) or {})
        grid = merged_grid(pack.get("grid"))
        marked = [(grid[k[6:]], k[6:], fields.value(k)) for k in fields if k.startswith("trait.") and k[6:] in grid]
        sheet["traits"] = [{"name": n, "kind": kind} for _cell, n, kind in sorted(marked) if kind in MARKS]
        gap = fields.value("gap")
        sheet["gap"] = int(gap) if re.fullmatch(r"[1-5]", gap) else gap or None
    else:
        sheet = {k: v for k, v in base.items() if k not in EDITABLE}
    for key in TEXTS:
        if fields.value(key) or key == "ja":
            sheet[key] = fields.value(key)
    if not fields.value("ja").strip():
        errors["ja"] = str(NAME_NEEDED)
    elif not fields.value("en"):
        sheet["en"] = fields.value("ja")
    if fields.value(PRONOUN):
        sheet[PRONOUN] = fields.value(PRONOUN)
    return Parsed(sheet, errors)


def errors_of(problems: list[Problem]) -> dict[str, str]:
    """Each ruleset problem beside its field: the traits at the grid, the gap at the gaps, anything else above."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        head = re.split(r"[.\[]", p.path)[0]
        where = {"traits": "grid", "gap": "gap", "ja": "ja", "en": "en"}.get(head, "form")
        said = problem_text(p)
        errors.setdefault(where, []).append(said if where != "form" else f"{p.path}: {said}")
    return {k: " ".join(v) for k, v in errors.items()}
