"""What the kancolle demo's ship girls enter each deadline, as a player would from the form: the choices
`legal_actions` offers, the first of each (used by `pbp demo --campaign kancolle-demo` and the tests)."""

from __future__ import annotations

from typing import Any

#: The keyword a ship girl writes on her event card (K-BASE-2: at most 10 wide).
KEYWORD = "出撃準備"


def entry_for(legal: dict[str, Any]) -> dict[str, Any]:
    """An entry for the deadline `legal` (kancolle's `legal_actions` of one unit) describes: in the base phase a
    scene with the first friend and an event card of the first table, with supply from the first resource the
    ship girl can use; in a battle the first position, the first target for every attack offered, the night
    volunteered; after the battle the spoils' first resource."""
    order: dict[str, Any] = {}
    friends = legal.get("support") or []
    if "card" in legal:
        order["card"] = {"type": legal["card"]["types"][0], "keyword": KEYWORD}
        order["scene"] = {"partner": friends[0]} if friends else {}
        if legal.get("supply"):
            order["supply"] = {legal["supply"][0]: 1}
        return order
    if "spoils" in legal:
        return {"spoils": {"resource": "燃料"}}
    targets = legal.get("targets") or []
    if "formation" in legal:
        order["formation"] = {"position": legal["formation"]["positions"][0]}
    if not targets:
        return order
    for key in ("air", "opening_torpedo", "torpedo"):
        order[key] = [{"piece": piece, "targets": targets[:1]} for piece in legal.get(key) or []]
    if legal.get("shelling") and legal["shelling"]["pieces"]:
        order["shelling"] = {"targets": targets[:1], "chain": legal["shelling"]["pieces"][:1]}
    if legal.get("night") and legal["night"]["pieces"]:
        order["night"] = {"targets": targets[:1], "chain": legal["night"]["pieces"][:1]}
    if legal.get("night_volunteer"):
        order["night_volunteer"] = True
    return order
