"""Default orders for units nobody gave orders to: the GM's enemies unless the GM writes their orders.

Deterministic and simple on purpose: a reader can predict what an enemy does from the map. Each unit attacks the
nearest foe it can reach with its most damaging ready weapon (an area weapon names as many foes in reach as it
may), and otherwise runs (full move) toward the nearest foe, or stays put when a foe holds it in an engagement.
"""

from __future__ import annotations

from pbp.engine.pool.geometry import distance
from pbp.engine.pool.types import Action, Encounter, Order, Orders, Unit, Weapon


def _ready_weapons(u: Unit) -> list[Weapon]:
    """R-FIX-2: a rider's vehicle weapons, else its own; not spare, not empty; most damaging first."""
    vehicle = u.get("vehicle")
    arsenal = vehicle.get("weapons", []) if vehicle else u.get("weapons", [])
    ready = [w for w in arsenal if w.get("slot", "arm") != "spare" and ((ammo := w.get("ammo")) is None or ammo > 0)]
    return sorted(ready, key=lambda w: -w["damage"])  # stable: the unit's own order breaks ties


def _reaches(u: Unit, w: Weapon, foe: Unit) -> bool:
    lo, hi = w["range"]
    if hi == 0:  # R-ENG-5: melee only inside the attacker's own engagement
        return u.get("engagement") is not None and u.get("engagement") == foe.get("engagement")
    return lo <= distance(u, foe) <= hi


def order_for(u: Unit, units: list[Unit]) -> Order | None:
    """The default order of one unit, or None when it has nothing to do."""
    foes = [o for o in units if o["side"] != u["side"] and not o.get("removed")]
    if not foes:
        return None
    foes.sort(key=lambda o: distance(u, o))
    if any(s["id"] in ("arm_damage", "system_down") for s in u.get("statuses", [])):
        return None
    for foe in foes:
        for w in _ready_weapons(u):
            if _reaches(u, w, foe):
                targets = [o["id"] for o in foes if _reaches(u, w, o)][: w.get("targets", 1)]
                if foe["id"] not in targets:
                    targets = [foe["id"], *targets[:-1]]
                major: Action = {"type": "attack", "weapon": w["id"], "targets": targets, "item": None}
                return {"unit": u["id"], "minor": None, "major": major}
    held = u.get("engagement") is not None and any(o.get("engagement") == u["engagement"] for o in foes)
    if held or any(s["id"] == "leg_damage" for s in u.get("statuses", [])):
        return None
    return {"unit": u["id"], "minor": None, "major": {"type": "full_move", "toward": foes[0]["id"]}}


def default_orders(encounter: Encounter, orders: Orders, sides: tuple[str, ...] = ("enemy",)) -> Orders:
    """`orders` completed with default orders for every living unit of `sides` that has none."""
    given = {o["unit"] for o in orders.get("orders", [])}
    units = encounter["units"]
    extra = [
        o for u in units
        if u["side"] in sides and u["id"] not in given and not u.get("removed")
        and (o := order_for(u, units)) is not None
    ]  # fmt: skip
    return {"orders": [*orders.get("orders", []), *extra]}
