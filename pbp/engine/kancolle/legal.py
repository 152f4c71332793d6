"""What a unit may order now (K-PLAY-7): the entry form offers exactly this, and the server refuses the rest."""

from __future__ import annotations

from typing import Any

from pbp.engine.errors import Problem
from pbp.engine.kancolle import schema
from pbp.engine.kancolle.battle import RANGES
from pbp.engine.kancolle.grid import merged_grid


def legal_actions(encounter: dict[str, Any], unit_id: str) -> dict[str, Any]:
    """The fields of the unit's entry for the encounter's next deadline, each with its choices."""
    enc = schema.with_defaults(encounter)
    unit = next(u for u in enc["units"] if u["id"] == unit_id)
    foes = [u["id"] for u in enc["units"] if u["side"] != unit["side"] and not u["removed"]]
    friends = [u["id"] for u in enc["units"] if u["side"] == "pc" and u["id"] != unit_id and not u.get("lost")]
    mode = enc["mode"]
    out: dict[str, Any] = {"unit": unit_id, "mode": mode, "round": enc["round"]}
    policies = {"rechallenge": True, "support": friends if unit["side"] == "pc" else []}
    if mode == "battle":
        battle = enc["battle"]
        eq = unit["equipment"]
        rnd = enc["round"]
        out.update(policies)
        if battle["outcome"] is not None:
            sunk = [u["id"] for u in enc["units"] if u["side"] == "pc" and u["steps"] >= 4 and u["id"] != unit_id]
            out.update(salvage=sunk, spoils={"resource": True, "emotion_to": friends})
            return out
        if not battle["started"]:
            recon = any(p["recon"] is not None for p in eq)
            out["formation"] = {"positions": list(range(1, 7)), "recon": foes if recon else []}
        out["targets"] = foes
        if rnd == 1:
            out["air"] = [p["id"] for p in eq if p["air"] > 0]
            out["opening_torpedo"] = [p["id"] for p in eq if p["kind"] == "torpedo" and p["opening"]]
        if rnd in (1, 2):
            out["shelling"] = {"pieces": [p["id"] for p in eq if p["range"]], "passes": list(RANGES)}
        if rnd == 3:
            out["torpedo"] = [p["id"] for p in eq if p["kind"] == "torpedo"]
            out["night_volunteer"] = unit["side"] == "pc"
        if rnd == 4:
            out["night"] = {"pieces": [p["id"] for p in eq if p["range"] and not p["carrier_aircraft"]]}
        if rnd <= 3:
            out["retreat"] = True
        out["anti_air"] = any(p["anti_air"] > 0 for p in eq)
    elif mode == "base" and unit["side"] == "pc":
        out.update(policies)
        out["card"] = {"types": list(enc["event_tables"]), "traits": sorted(merged_grid(enc["grid"]))}
        out["scene"] = {"partner": friends, "appearing": friends, "sub": ["discovery", "dock"]}
        out["supply"] = [r for r, mark in unit["affinity"].items() if mark in ("○", "△")]
    elif mode == "end" and unit["side"] == "pc":
        out["end"] = {"drop": [t["name"] for t in unit["traits"]], "trim": list(unit["emotions"]),
                      "scrap": [p["id"] for p in enc["base"]["store"]]}  # fmt: skip
    return out


def refusals(encounter: dict[str, Any], order: dict[str, Any]) -> list[Problem]:
    """Every reason this one entry is bad input against the encounter (as `resolve` would say it)."""
    key = "cycle" if encounter.get("mode") == "base" else "orders"
    return [p for p in schema.validate_orders({key: [order]}, encounter) if p.path.startswith(f"{key}[0]")]


def default_orders(
    encounter: dict[str, Any], orders: dict[str, Any], sides: tuple[str, ...] = ("enemy",)
) -> dict[str, Any]:
    """Enemies need no entry (K-ENEMY-1 runs inside the engine); a PC asked for gets a plain shelling order at the
    first enemy still in the battle, with its default chain."""
    if "pc" not in sides or encounter.get("mode") != "battle":
        return orders
    have = {e.get("unit") for e in orders.get("orders") or []}
    foes = [u["id"] for u in encounter["units"] if u["side"] == "enemy" and not u.get("removed")]
    added = [
        {"unit": u["id"], "shelling": {"targets": foes}, "torpedo": [], "night": {"targets": foes}}
        for u in encounter["units"] if u["side"] == "pc" and u["id"] not in have and foes
    ]  # fmt: skip
    return {**orders, "orders": [*(orders.get("orders") or []), *added]}
