"""The public game data of a kancolle campaign (its pack as loaded): the personality grid with its names in both
languages, the ships a ship girl is copied from (class, ratings, AP, equipment, traits) and the event tables of the
base phase. Enemies are shown only with `public = true`, as pool's are; GM notes and scenarios are never read.
The data search finds its traits, ships, pieces of equipment, event tables and events (`Fleet.search`)."""

from __future__ import annotations

import unicodedata
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
class Found:
    """A search result: what it is (trait, ship, equipment, event_table, event), its names and the anchor of the
    place on the data page that shows it (a piece is shown on its ship, an event in its table)."""

    kind: str
    names: Named
    anchor: str


def fold(text: str) -> str:
    """Case- and width-insensitive text: `ＢＥＡＭ` finds `Beam`."""
    return unicodedata.normalize("NFKC", text).casefold()


@dataclass(frozen=True)
class Fleet:
    categories: list[Named]
    grid: list[tuple[int, list[Named | None]]]  # rows 2..12, each with its six cells
    ships: list[Ship]
    tables: list[EventTable]

    def findable(self) -> list[Found]:
        """Everything the search looks at, in the page's order: the grid's traits, the ships and their pieces, the
        event tables and their events (each name once)."""
        out = [Found("trait", cell, f"trait-{cell.ja}") for _r, cells in self.grid for cell in cells if cell]
        for s in self.ships:
            out.append(Found("ship", s.names, f"ship-{s.id}"))
            out += [Found("equipment", p, f"ship-{s.id}") for p in s.equipment]
        for t in self.tables:
            out.append(Found("event_table", t.names, f"event-table-{t.id}"))
            out += [Found("event", event, f"event-table-{t.id}") for _roll, event, _trait in t.rows]
        first: dict[tuple[str, str], Found] = {}
        for f in out:  # a piece two ships carry is found once, on the first
            first.setdefault((f.kind, f.names.ja), f)
        return list(first.values())

    def search(self, query: str) -> list[Found]:
        """What has every word of `query` in its Japanese or English name (case and width folded)."""
        words = fold(query).split()
        if not words:
            return []
        return [f for f in self.findable() if all(w in fold(f"{f.names.ja} {f.names.en}") for w in words)]


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
