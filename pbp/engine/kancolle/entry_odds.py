"""The exact odds of the behaviour checks one ship girl's entry can lead to this deadline (the entry form shows
them beside each choice): which held trait each designated trait falls back to, its DC, and P(success), P(special)
and P(fumble) of the single roll over the 36 faces (`odds.check_odds`). Re-challenges and support come after a roll
and are the player's standing policies, so they are not in these numbers; neither is a target's interference (an
enemy's 回避 is the GM's), which the form says."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pbp.engine.kancolle import schema
from pbp.engine.kancolle.grid import merged_grid, pick_trait
from pbp.engine.kancolle.odds import check_odds

#: The battle's checks whose designated trait is the seed's own label (K-CHECK-12..14), by what leads to them.
BUILT_IN_CHECKS = {"air": "航空戦", "torpedo": "魚雷", "recon": "索敵", "retreat": "退却", "night": "夜戦"}


def _one(
    unit: dict[str, Any], grid: dict[str, tuple[int, int]], allow: bool, designated: str, **flags: Any
) -> dict[str, Any]:
    used, distance, dc = pick_trait(unit["traits"], unit.get("gap"), designated, grid, None, allow)
    weak = any(t["name"] == used and t["kind"] == "weakness" for t in unit["traits"])
    odds: dict[str, Fraction] = check_odds(dc, **flags)
    return {"designated": designated, "used": used, "weakness": weak, "distance": distance, "dc": dc, **odds}


def entry_odds(encounter: dict[str, Any], unit_id: str) -> dict[str, dict[str, Any]]:
    """Each check a ship girl's entry may lead to at the encounter's next deadline, by what leads to it: `piece:ID`
    (a hit with that piece: its designated trait, 命中 added; at night `night:ID`), `air`, `torpedo`, `recon`,
    `retreat`, `night` (the night check) in a battle; `event:TABLE:ROW` (each row's event check) in the base phase."""
    enc = schema.with_defaults(encounter)
    unit = next(u for u in enc["units"] if u["id"] == unit_id)
    if unit["side"] != "pc":
        return {}
    grid = merged_grid(enc["grid"])
    allow = bool(enc["options"]["allow_farther_substitute"])
    out: dict[str, dict[str, Any]] = {}
    if enc["mode"] == "base":
        for name, table in enc["event_tables"].items():
            for row in range(2, 13):
                out[f"event:{name}:{row}"] = _one(unit, grid, allow, table[str(row)]["trait"], kind="event")
        return out
    if enc["mode"] != "battle":
        return out
    hit = unit["ratings"]["命中"]
    for piece in unit["equipment"]:
        if piece["range"] and piece["trait"]:
            out[f"piece:{piece['id']}"] = _one(unit, grid, allow, piece["trait"], kind="hit", rating=hit)
            out[f"night:{piece['id']}"] = _one(unit, grid, allow, piece["trait"], kind="hit", rating=hit, night=True)
    for key, trait in BUILT_IN_CHECKS.items():
        out[key] = _one(unit, grid, allow, trait, kind=key)
    return out
