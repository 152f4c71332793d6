"""Every unit before and after a round, side by side: what the GM reviews before publishing (gauges, statuses, ammo,
position). Pure: it reads two encounters (the round's input and its resolution's state) and returns rows; the page
names and words them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The columns a row compares, in the order the page shows them.
COLUMNS = ("injury", "damage", "statuses", "ammo", "position")


@dataclass(frozen=True)
class Gauge:
    """A gauge's damage taken of its capacity, summed over its stages (R-GAUGE-1), and the stages it has."""

    taken: int
    capacity: int
    stages: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.taken}/{self.capacity}"


@dataclass(frozen=True)
class Snapshot:
    """One unit at one moment: its gauges (`damage` is its vehicle's, None on foot), its statuses (id, rounds
    left or None), each weapon with ammunition (id, ammo, most), where it stands and whom it is engaged with."""

    injury: Gauge | None
    damage: Gauge | None
    statuses: tuple[tuple[str, int | None], ...]
    ammo: tuple[tuple[str, int, int | None], ...]
    position: tuple[float, float] | None
    engagement: str | None
    removed: bool


@dataclass(frozen=True)
class UnitRow:
    """A unit's line: its side, its state before and after (None: not on the field then), the columns that
    changed."""

    unit: str
    side: str
    before: Snapshot | None
    after: Snapshot | None
    changed: frozenset[str] = field(default_factory=frozenset)


def _gauge(raw: Any) -> Gauge | None:
    if not isinstance(raw, dict):
        return None
    taken = [int(t) for t in raw.get("taken") or []]
    capacity = [int(c) for c in raw.get("capacity") or []]
    return Gauge(sum(taken), sum(capacity), tuple(taken))


def snapshot(unit: dict[str, Any]) -> Snapshot:
    """What the review shows of one unit of an encounter."""
    vehicle = unit.get("vehicle") or {}
    arsenal = [*(vehicle.get("weapons") or []), *(unit.get("weapons") or [])]
    position = unit.get("position")
    return Snapshot(
        injury=_gauge(unit.get("injury")),
        damage=_gauge(vehicle.get("damage")) if vehicle else None,
        statuses=tuple((str(s["id"]), s.get("rounds_left")) for s in unit.get("statuses") or []),
        ammo=tuple((str(w["id"]), int(w["ammo"]), w.get("ammo_max")) for w in arsenal if w.get("ammo") is not None),
        position=(float(position[0]), float(position[1])) if position else None,
        engagement=unit.get("engagement"),
        removed=bool(unit.get("removed")),
    )


def _changed(before: Snapshot | None, after: Snapshot | None) -> frozenset[str]:
    if before is None or after is None:
        return frozenset(COLUMNS) if before is not after else frozenset()
    return frozenset(column for column in COLUMNS if getattr(before, column) != getattr(after, column))


def unit_table(before: dict[str, Any], after: dict[str, Any]) -> list[UnitRow]:
    """Every unit of either encounter, in the order the round started with (units that came during it last), each
    with its state before and after and what changed."""
    start = {u["id"]: u for u in before.get("units") or [] if isinstance(u, dict)}
    end = {u["id"]: u for u in after.get("units") or [] if isinstance(u, dict)}
    rows = []
    for uid in [*start, *(uid for uid in end if uid not in start)]:
        was = snapshot(start[uid]) if uid in start else None
        now = snapshot(end[uid]) if uid in end else None
        side = str((start.get(uid) or end.get(uid) or {}).get("side", ""))
        rows.append(UnitRow(uid, side, was, now, _changed(was, now)))
    return rows
