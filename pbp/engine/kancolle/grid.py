"""The personality grid (K-SHEET-5/6, K-CHECK-2..5): where each trait sits, and which held trait a check uses.

A cell is (category c = 1..6, row r = 2..12). The grid's names come from the pack and the encounter; the seed's own
labels are built in (C-7).
"""

from __future__ import annotations

from typing import Any

#: The seed's own labels (C-7): every run knows them, pack or not.
BUILTIN_GRID: dict[str, tuple[int, int]] = {
    "索敵": (5, 4),
    "退却": (6, 8),
    "魚雷": (6, 10),
    "夜戦": (6, 12),
    "航空戦": (6, 4),
}
CATEGORIES = ("背景", "魅力", "性格", "趣味", "航海", "戦闘")
#: The base DC of a behaviour check (K-CHECK-2).
BASE_DC = 5


def merged_grid(*grids: Any) -> dict[str, tuple[int, int]]:
    """The built-in labels, then each given `{"name": [c, r]}` in turn (later ones add to and override)."""
    out = dict(BUILTIN_GRID)
    for grid in grids:
        if isinstance(grid, dict):
            for name, cell in grid.items():
                out[name] = (cell[0], cell[1])
    return out


def distance(a: tuple[int, int], b: tuple[int, int], gap: int | None) -> int:
    """K-CHECK-4's closed form: rows and categories apart, plus each gap column between them not blacked out."""
    (c1, r1), (c2, r2) = a, b
    lo, hi = (c1, c2) if c1 < c2 else (c2, c1)
    blacked = 1 if gap is not None and lo <= gap < hi else 0
    return abs(r1 - r2) + 2 * (hi - lo) - blacked


def pick_trait(
    traits: list[dict[str, Any]],
    gap: int | None,
    designated: str | None,
    grid: dict[str, tuple[int, int]],
    substitute: str | None = None,
    allow_farther: bool = False,
) -> tuple[str | None, int | None, int]:
    """(used trait, distance, DC) of a PC's check designating `designated` (K-CHECK-2/3/5/14).

    A named `substitute` wins when it is held at the least distance, or at any distance under `allow_farther`;
    otherwise ties go to a merit, then the lower category, then the lower row. One pass over the held traits (it
    runs on every check)."""
    if designated is None:
        return None, None, BASE_DC
    target = grid[designated]
    best: tuple[int, bool, int, int] | None = None
    best_name = None
    named = None
    for t in traits:
        name = t["name"]
        if name == designated:
            return designated, 0, BASE_DC
        cell = grid[name]
        d = distance(cell, target, gap)
        if name == substitute:
            named = d
        key = (d, t["kind"] != "merit", cell[0], cell[1])
        if best is None or key < best:
            best, best_name = key, name
    if best is None:
        return None, None, BASE_DC
    if named is not None and (named == best[0] or allow_farther):
        return substitute, named, BASE_DC + named
    return best_name, best[0], BASE_DC + best[0]


def keyword_width(text: str) -> int:
    """K-BASE-2: East Asian Wide and Fullwidth characters count 2, the others 1."""
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)
