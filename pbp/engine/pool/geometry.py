"""Positions, distances, movement and rough ground (R-ENG-5, R-AIR-1, R-FIX-9, R-ROUGH-1)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from pbp.engine.pool import rules
from pbp.engine.pool.types import Point, Rect, Terrain, Unit


def round_half_up(x: float) -> int:
    """Coordinates and distances are whole metres, rounded half up (spec: after a partial move)."""
    return math.floor(x + 0.5)


def movement(unit: Unit) -> str:
    """`air` or `ground`: a rider moves as its vehicle, a unit on foot on the ground."""
    vehicle = unit.get("vehicle")
    return vehicle.get("movement", "ground") if vehicle else "ground"


def metres(a: Sequence[float], b: Sequence[float]) -> int:
    """Euclidean distance between two points, rounded to whole metres (R-ENG-5)."""
    return round_half_up(math.hypot(b[0] - a[0], b[1] - a[1]))


def distance(frm: Unit, to: Unit) -> int:
    """Distance as `frm` measures it: a ground unit sees a flying one at double (R-AIR-1, after rounding R-FIX-9)."""
    d = metres(frm["position"], to["position"])
    if movement(to) == "air" and movement(frm) != "air":
        d *= rules.AIR_DISTANCE_FACTOR
    return d


def rough_factor(unit: Unit, terrain: list[Terrain]) -> Fraction | None:
    """R-ROUGH-1/R-FIX-9: the smallest rough factor at the unit's position, for riders of ground vehicles that are
    not human-size; None when it does not apply."""
    vehicle = unit.get("vehicle")
    if not terrain or not vehicle or vehicle.get("movement") == "air" or vehicle.get("size") == "human":
        return None
    x, y = unit["position"]
    best: float | None = None
    for area in terrain:
        (x1, y1), (x2, y2) = area["rect"]
        if min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2):
            f = area.get("rough", 1)
            if f < 1 and (best is None or f < best):
                best = f
    return None if best is None else Fraction(best).limit_denominator(10_000)


def in_rect(point: Point, rect: Rect | None) -> bool:
    if rect is None:
        return True
    (x1, y1), (x2, y2) = rect
    return min(x1, x2) <= point[0] <= max(x1, x2) and min(y1, y2) <= point[1] <= max(y1, y2)


def step_toward(start: Point, goal: Point, max_dist: int) -> tuple[Point, int]:
    """Move from `start` toward `goal` by at most `max_dist` metres: the end point and the metres moved.
    A move that reaches its goal ends on it; a partial move ends on coordinates rounded half up."""
    d = math.hypot(goal[0] - start[0], goal[1] - start[1])
    if d <= max_dist:
        return [goal[0], goal[1]], round_half_up(d)
    f = max_dist / d
    end: Point = [
        round_half_up(start[0] + (goal[0] - start[0]) * f),
        round_half_up(start[1] + (goal[1] - start[1]) * f),
    ]
    return end, max_dist
