"""Default orders for units nobody gave orders to: the GM's enemies unless the GM writes their orders.

Deterministic and simple on purpose: a reader can predict what an enemy does from the map. Each unit attacks the
nearest foe it can reach with its most damaging ready weapon (an area weapon names as many foes in reach as it
may), and otherwise runs (full move) toward the nearest foe, or stays put when a foe holds it in an engagement.
"Nearest" is the distance as the unit measures it (R-AIR-1), ties going to the foe listed first in the encounter.

Finding those foes by sorting every foe for every unit made a round's default orders quadratic (24,200 distance
calls at 260 units), so the foes are indexed on a grid (`Foes`) that hands a unit its foes nearest first, lazily,
looking at the cells around it ring by ring and no farther than its longest reach. It gives exactly the brute-force
choice, ties included (tested against it on random battlefields in tests/engine/test_tactics.py).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator

from pbp.engine.pool import rules
from pbp.engine.pool.geometry import movement, round_half_up
from pbp.engine.pool.types import Action, Encounter, Order, Orders, Unit, Weapon

#: A foe found by a search: (the distance as the searching unit measures it, its place in the encounter, the foe).
Found = tuple[int, int, Unit]


def _ready_weapons(u: Unit) -> list[Weapon]:
    """R-FIX-2: a rider's vehicle weapons, else its own; not spare, not empty; most damaging first."""
    vehicle = u.get("vehicle")
    arsenal = vehicle.get("weapons", []) if vehicle else u.get("weapons", [])
    ready = [w for w in arsenal if w.get("slot", "arm") != "spare" and ((ammo := w.get("ammo")) is None or ammo > 0)]
    return sorted(ready, key=lambda w: -w["damage"])  # stable: the unit's own order breaks ties


class _Grid:
    """The living units of one side that move one way (air or ground), bucketed in square cells of about one unit
    each, so that a search looks at the cells near the searcher and stops as soon as no farther cell can hold a
    nearer foe."""

    def __init__(self, members: list[tuple[int, Unit]]):
        xs = [float(u["position"][0]) for _, u in members]
        ys = [float(u["position"][1]) for _, u in members]
        self.x0, self.y0 = min(xs), min(ys)
        width, height = max(xs) - self.x0, max(ys) - self.y0
        n = len(members)
        # About one unit a cell over the occupied rectangle (a line of units: one a cell along it).
        self.size = max(1.0, math.sqrt(width * height / n), max(width, height) / n)
        self.cells: dict[tuple[int, int], list[tuple[int, Unit]]] = {}
        for (i, u), x, y in zip(members, xs, ys, strict=True):
            self.cells.setdefault(self._cell(x, y), []).append((i, u))
        self.cx1, self.cy1 = self._cell(max(xs), max(ys))

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        return math.floor((x - self.x0) / self.size), math.floor((y - self.y0) / self.size)

    def _ring(self, cx: int, cy: int, r: int) -> Iterator[tuple[int, int]]:
        """The cells at Chebyshev distance r from (cx, cy), clipped to the occupied rectangle."""
        x_lo, x_hi, y_lo, y_hi = max(cx - r, 0), min(cx + r, self.cx1), max(cy - r, 0), min(cy + r, self.cy1)
        if x_lo > x_hi or y_lo > y_hi:
            return
        for y in (cy - r, cy + r) if r else (cy,):
            if y_lo <= y <= y_hi:
                for x in range(x_lo, x_hi + 1):
                    yield x, y
        for x in (cx - r, cx + r) if r else ():
            if x_lo <= x <= x_hi:
                for y in range(max(y_lo, cy - r + 1), min(y_hi, cy + r - 1) + 1):
                    yield x, y

    def stream(self, at: list[float], factor: int) -> Iterator[Found]:
        """The members by their distance from `at` (metres rounded half up, times `factor`), nearest first, ties in
        encounter order: lazily, looking at ring after ring of cells only as far as the caller reads."""
        px, py = at
        cx, cy = self._cell(px, py)
        x0, y0, size = self.x0, self.y0, self.size
        heap: list[Found] = []
        # Rings nearer than the occupied rectangle are empty: start at the first one that meets it.
        r = max(0, -cx, cx - self.cx1, -cy, cy - self.cy1)
        last = max(cx, self.cx1 - cx, cy, self.cy1 - cy)
        while r <= last:
            if r:
                # Nothing in ring r or beyond is nearer than the edge of the square of rings 0..r-1 around `at`;
                # a metre of slack covers the rounding of the distance and of the float arithmetic.
                inner = min(
                    px - (x0 + (cx - r + 1) * size), x0 + (cx + r) * size - px,
                    py - (y0 + (cy - r + 1) * size), y0 + (cy + r) * size - py,
                )  # fmt: skip
                bound = factor * (inner - 1)
                while heap and heap[0][0] < bound:
                    yield heapq.heappop(heap)
            for cell in self._ring(cx, cy, r):
                for i, u in self.cells.get(cell, ()):
                    x, y = u["position"]
                    heapq.heappush(heap, (factor * round_half_up(math.hypot(x - px, y - py)), i, u))
            r += 1
        while heap:
            yield heapq.heappop(heap)


class Foes:
    """Every living unit of an encounter, indexed to find a unit's nearest foes without measuring them all."""

    def __init__(self, units: list[Unit]):
        groups: dict[tuple[str, bool], list[tuple[int, Unit]]] = {}
        self.engagements: dict[str, list[tuple[int, Unit]]] = {}
        for i, u in enumerate(units):
            if u.get("removed"):
                continue
            groups.setdefault((u["side"], movement(u) == "air"), []).append((i, u))
            engagement = u.get("engagement")
            if engagement is not None:
                self.engagements.setdefault(engagement, []).append((i, u))
        self.grids = {key: _Grid(members) for key, members in groups.items()}

    def stream(self, u: Unit) -> Iterator[Found]:
        """The foes of `u` nearest first as it measures them (R-AIR-1), ties in encounter order; lazily."""
        ground = movement(u) != "air"
        streams = [
            grid.stream(u["position"], rules.AIR_DISTANCE_FACTOR if air and ground else 1)
            for (side, air), grid in self.grids.items()
            if side != u["side"]
        ]
        return streams[0] if len(streams) == 1 else heapq.merge(*streams, key=_place)

    def engaged(self, u: Unit) -> list[Found]:
        """The foes in `u`'s engagement (R-ENG-5: the ones its melee weapons reach), with their distances."""
        engagement = u.get("engagement")
        if engagement is None:
            return []
        ground = movement(u) != "air"
        px, py = u["position"]
        found = []
        for i, o in self.engagements.get(engagement, ()):
            if o["side"] != u["side"]:
                factor = rules.AIR_DISTANCE_FACTOR if ground and movement(o) == "air" else 1
                x, y = o["position"]
                found.append((factor * round_half_up(math.hypot(x - px, y - py)), i, o))
        return found


def _place(found: Found) -> tuple[int, int]:
    """The order foes are chosen in: nearest first, then the one listed first in the encounter."""
    return found[0], found[1]


def _reaches(u: Unit, w: Weapon, found: Found) -> bool:
    lo, hi = w["range"]
    if hi == 0:  # R-ENG-5: melee only inside the attacker's own engagement
        return u.get("engagement") is not None and u.get("engagement") == found[2].get("engagement")
    return lo <= found[0] <= hi


def order_for(u: Unit, units: list[Unit], foes: Foes | None = None) -> Order | None:
    """The default order of one unit, or None when it has nothing to do. `foes` indexes `units` (built here when
    not given: pass one to order many units)."""
    foes = foes if foes is not None else Foes(units)
    by_distance = foes.stream(u)
    nearest = next(by_distance, None)
    if nearest is None:
        return None
    if any(s["id"] in ("arm_damage", "system_down") for s in u.get("statuses", [])):
        return None
    weapons = _ready_weapons(u)
    engaged = foes.engaged(u)
    # Beyond the longest reach (a ranged weapon's range, an engaged foe's distance for melee) nothing is in reach.
    reach = max(
        (w["range"][1] if w["range"][1] else max((f[0] for f in engaged), default=-1) for w in weapons), default=-1
    )
    # The nearest foe some ready weapon reaches, with the first weapon (most damaging first) that reaches it; the
    # targets are the foes that weapon reaches from there on (none nearer: it would have been chosen).
    for found in itertools.chain([nearest], by_distance):
        if found[0] > reach:
            break
        weapon = next((w for w in weapons if _reaches(u, w, found)), None)
        if weapon is not None:
            targets = [found[2]["id"]]
            n, hi = weapon.get("targets", 1), weapon["range"][1] or reach
            for other in by_distance if len(targets) < n else ():
                if other[0] > hi:
                    break
                if _reaches(u, weapon, other):
                    targets.append(other[2]["id"])
                    if len(targets) == n:
                        break
            major: Action = {"type": "attack", "weapon": weapon["id"], "targets": targets, "item": None}
            return {"unit": u["id"], "minor": None, "major": major}
    if engaged or any(s["id"] == "leg_damage" for s in u.get("statuses", [])):
        return None  # held in its engagement by a foe, or unable to move
    return {"unit": u["id"], "minor": None, "major": {"type": "full_move", "toward": nearest[2]["id"]}}


def default_orders(encounter: Encounter, orders: Orders, sides: tuple[str, ...] = ("enemy",)) -> Orders:
    """`orders` completed with default orders for every living unit of `sides` that has none."""
    given = {o["unit"] for o in orders.get("orders", [])}
    units = encounter["units"]
    foes = Foes(units)
    extra = [
        o for u in units
        if u["side"] in sides and u["id"] not in given and not u.get("removed")
        and (o := order_for(u, units, foes)) is not None
    ]  # fmt: skip
    return {"orders": [*orders.get("orders", []), *extra]}
