"""The public game data of a kancolle campaign (its pack as loaded): the personality grid with its names in both
languages, the ships a ship girl is copied from (class, ratings, AP, equipment, traits) and the event tables of the
base phase. Enemies are shown only with `public = true`, as pool's are; GM notes and scenarios are never read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbp.engine.kancolle.grid import CATEGORIES, merged_grid


@dataclass(frozen=True)
class Named:
    """A name in both languages (the English the pack gives, else the Japanese)."""

    ja: str
    en: str

    def name(self, locale: str) -> str:
        return self.en if locale == "en" and self.en else self.ja


@dataclass(frozen=True)
class Ship:
    id: str
    names: Named
    ship_class: str
    ratings: dict[str, Any]
    ap_max: Any
    equipment: list[Named]
    traits: list[tuple[Named, str]]  # (the trait, merit or weakness)
    description: Named


@dataclass(frozen=True)
class EventTable:
    id: str
    names: Named
    rows: list[tuple[int, Named, Named]]  # (2d6, the event, its trait)


@dataclass(frozen=True)
class Fleet:
    categories: list[Named]
    grid: list[tuple[int, list[Named | None]]]  # rows 2..12, each with its six cells
    ships: list[Ship]
    tables: list[EventTable]


def _named(table: dict[str, Any], ja: str = "ja", en: str = "en") -> Named:
    return Named(str(table.get(ja) or table.get("name") or ""), str(table.get(en) or ""))


def fleet(pack: dict[str, Any]) -> Fleet:
    """What a kancolle pack shows its players."""
    english = pack.get("grid_en") or {}

    def trait(name: str) -> Named:
        return Named(name, str(english.get(name) or ""))

    heads = pack.get("grid_categories") or {}
    categories = [_named(heads.get(str(c + 1)) or {"ja": CATEGORIES[c]}) for c in range(6)]
    cells = {tuple(cell): name for name, cell in merged_grid(pack.get("grid")).items()}
    grid = [(r, [trait(cells[(c, r)]) if (c, r) in cells else None for c in range(1, 7)]) for r in range(2, 13)]
    ships = [
        Ship(
            sid, _named(s), str(s.get("class") or ""), dict(s.get("ratings") or {}), s.get("ap_max"),
            [_named(p) for p in s.get("equipment") or []],
            [(trait(str(t.get("name"))), str(t.get("kind"))) for t in s.get("traits") or []],
            _named(s, "description", "description_en"),
        )
        for sid, s in sorted((pack.get("characters") or {}).items())
    ]  # fmt: skip
    names = pack.get("event_table_names") or {}
    tables = [
        EventTable(tid, _named(names.get(tid) or {"ja": tid}),
                   [(r, _named(t[str(r)]), trait(str(t[str(r)].get("trait")))) for r in range(2, 13) if str(r) in t])
        for tid, t in sorted((pack.get("event_tables") or {}).items())
    ]  # fmt: skip
    return Fleet(categories, grid, ships, tables)
