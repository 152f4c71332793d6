"""The battlefield as a picture: an SVG drawn on the server from an encounter, so a player sees where everyone stands,
who is locked in which fight, what rough ground slows, and why a target is out of a weapon's reach.

No JavaScript and no inline style (the site's Content-Security-Policy forbids both): shapes carry presentation
attributes and classes that `site.css` colours. Every text is escaped and stripped of what XML cannot carry.
Coordinates are the encounter's metres; y grows downwards on the page, as on the GM's sketch maps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from pbp.reports.markdown import xml_safe

STAGES = 5


@dataclass(frozen=True)
class Arrow:
    """A move to draw: who went from where to where."""

    unit: str
    start: tuple[float, float]
    end: tuple[float, float]


@dataclass
class MapView:
    """What to draw over the units: whose details are public, one unit's weapon reach, the round's moves."""

    focus: str | None = None  # the unit whose reach is drawn (the entry form's own unit)
    reach: list[tuple[str, float, float]] = field(default_factory=list)  # (weapon name, min, max) metres
    arrows: list[Arrow] = field(default_factory=list)
    public: Callable[[dict[str, Any]], bool] = lambda unit: True  # whose gauges, statuses and ammo are shown
    name: Callable[[str], str] = str  # a unit's display name from its id
    status_name: Callable[[str], str] = str
    title: str = ""


def _text(value: Any) -> str:
    return escape(xml_safe(str(value)), quote=True)


def _num(x: float) -> str:
    """Short, exact enough SVG numbers (two decimals at most: a rough factor of 0.25 stays 0.25)."""
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0").rstrip(".")


def _bounds(units: list[dict[str, Any]], terrain: list[dict[str, Any]], arrows: Iterable[Arrow]) -> list[float]:
    xs: list[float] = []
    ys: list[float] = []
    for u in units:
        xs.append(u["position"][0])
        ys.append(u["position"][1])
    for t in terrain:
        for x, y in t["rect"]:
            xs.append(x)
            ys.append(y)
    for a in arrows:
        xs += [a.start[0], a.end[0]]
        ys += [a.start[1], a.end[1]]
    if not xs:
        xs, ys = [0.0], [0.0]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 200.0)
    pad = span * 0.15
    return [min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad]


def _grid_step(span: float) -> int:
    """A round grid step giving 3-10 lines across the map."""
    for step in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
        if span / step <= 10:
            return step
    return 10 ** max(1, int(math.log10(span)))


def _spread(units: list[dict[str, Any]], r: float) -> dict[str, tuple[float, float]]:
    """Where to draw each unit: units on one spot (an engagement) are set around it in a small ring."""
    by_spot: dict[tuple[float, float], list[str]] = {}
    for u in units:
        by_spot.setdefault((u["position"][0], u["position"][1]), []).append(u["id"])
    drawn = {}
    for (x, y), ids in by_spot.items():
        if len(ids) == 1:
            drawn[ids[0]] = (x, y)
            continue
        ring = r * 1.6 * max(1.0, len(ids) / 4)
        for i, uid in enumerate(ids):
            a = 2 * math.pi * i / len(ids) - math.pi / 2
            drawn[uid] = (x + ring * math.cos(a), y + ring * math.sin(a))
    return drawn


def _gauge_fill(gauge: dict[str, Any] | None) -> float:
    """How much of a gauge is taken, 0..1, across its five stages."""
    if not gauge:
        return 0.0
    return sum(gauge["taken"]) / max(1, sum(gauge["capacity"]))


def battle_map(encounter: dict[str, Any], view: MapView | None = None) -> str:
    """The SVG of an encounter's units, terrain and engagements under `view`; a string safe to put in a page."""
    view = view or MapView()
    units = [u for u in encounter.get("units") or [] if isinstance(u, dict)]
    terrain = encounter.get("terrain") or []
    x0, y0, w, h = _bounds(units, terrain, view.arrows)
    r = max(w, h) / 45  # a unit's radius in metres of the picture
    font = r * 1.25
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="battlemap" viewBox="{_num(x0)} {_num(y0)} {_num(w)} '
        f'{_num(h)}" role="img" aria-label="{_text(view.title)}">',
        f"<title>{_text(view.title)}</title>",
        f'<defs><pattern id="rough" width="{_num(r)}" height="{_num(r)}" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="{_num(r)}" class="hatch"/></pattern>'
        '<marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
    ]
    step = _grid_step(max(w, h))
    gx = math.ceil(x0 / step) * step
    while gx < x0 + w:
        out.append(f'<line class="grid" x1="{_num(gx)}" y1="{_num(y0)}" x2="{_num(gx)}" y2="{_num(y0 + h)}"/>')
        gx += step
    gy = math.ceil(y0 / step) * step
    while gy < y0 + h:
        out.append(f'<line class="grid" x1="{_num(x0)}" y1="{_num(gy)}" x2="{_num(x0 + w)}" y2="{_num(gy)}"/>')
        gy += step
    sx, sy = x0 + w * 0.04, y0 + h * 0.96
    out.append(
        f'<g class="scale"><line x1="{_num(sx)}" y1="{_num(sy)}" x2="{_num(sx + step)}" y2="{_num(sy)}"/>'
        f'<text x="{_num(sx)}" y="{_num(sy - font * 0.4)}" font-size="{_num(font)}">{step} m</text></g>'
    )
    for t in terrain:
        (ax, ay), (bx, by) = t["rect"]
        rx, ry, rw, rh = min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay)
        factor = t.get("rough", 1)
        out.append(
            f'<g class="rough"><rect x="{_num(rx)}" y="{_num(ry)}" width="{_num(rw)}" height="{_num(rh)}" '
            f'fill="url(#rough)"/><text x="{_num(rx + font * 0.3)}" y="{_num(ry + font * 1.1)}" '
            f'font-size="{_num(font)}">×{_num(factor)}</text></g>'
        )
    drawn = _spread([u for u in units if not u.get("removed")], r)
    focus = next((u for u in units if u["id"] == view.focus and not u.get("removed")), None)
    if focus is not None:
        fx, fy = focus["position"]
        for label, lo, hi in view.reach:
            if hi <= 0:
                continue
            out.append(
                f'<g class="reach"><circle cx="{_num(fx)}" cy="{_num(fy)}" r="{_num(hi)}"/>'
                + (f'<circle class="inner" cx="{_num(fx)}" cy="{_num(fy)}" r="{_num(lo)}"/>' if lo > 0 else "")
                + f'<text x="{_num(fx + hi * 0.71)}" y="{_num(fy - hi * 0.71)}" font-size="{_num(font)}">'
                f"{_text(label)} {_num(hi)} m</text></g>"
            )
    engagements: dict[str, list[str]] = {}
    for u in units:
        if u.get("engagement") and not u.get("removed"):
            engagements.setdefault(u["engagement"], []).append(u["id"])
    for eid, members in sorted(engagements.items()):
        cx = sum(drawn[m][0] for m in members) / len(members)
        cy = sum(drawn[m][1] for m in members) / len(members)
        radius = max(math.dist((cx, cy), drawn[m]) for m in members) + r * 2.2
        out.append(
            f'<g class="engagement"><circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}"/>'
            f'<text x="{_num(cx + radius * 0.75)}" y="{_num(cy + radius)}" font-size="{_num(font)}">'
            f"{_text(eid)}</text></g>"
        )
    for a in view.arrows:
        out.append(
            f'<line class="move" x1="{_num(a.start[0])}" y1="{_num(a.start[1])}" x2="{_num(a.end[0])}" '
            f'y2="{_num(a.end[1])}" marker-end="url(#arrowhead)"/>'
        )
    for u in units:
        out.append(_unit(u, drawn.get(u["id"], tuple(u["position"])), r, font, view, u is focus))
    out.append("</svg>")
    return "".join(out)


def _unit(u: dict[str, Any], at: tuple[float, float], r: float, font: float, view: MapView, focus: bool) -> str:
    x, y = at
    riding = u.get("vehicle") or {}
    air = riding.get("movement") == "air"
    classes = ["unit", u.get("side", "pc")] + (["air"] if air else []) + (["focus"] if focus else [])
    if u.get("removed"):
        classes.append("removed")
    public = view.public(u)
    lines = [view.name(u["id"])]
    if public:
        if riding:
            lines.append(
                f"{riding.get('name') or riding.get('id', '')} {round(100 * _gauge_fill(riding.get('damage')))}%"
            )
        lines.append(f"♥ {round(100 * _gauge_fill(u.get('injury')))}%")
        statuses = [view.status_name(s["id"]) for s in u.get("statuses") or []]
        if statuses:
            lines.append(", ".join(statuses))
        arsenal = riding.get("weapons") if riding else u.get("weapons")
        ammo = [f"{w['id']} {w['ammo']}/{w.get('ammo_max')}" for w in arsenal or [] if w.get("ammo") is not None]
        if ammo:
            lines.append(" ".join(ammo))
    shape = (
        f'<path d="M{_num(x)},{_num(y - r * 1.2)} L{_num(x + r)},{_num(y + r * 0.8)} '
        f'L{_num(x - r)},{_num(y + r * 0.8)} z"/>'
        if air
        else f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>'
    )
    if u.get("removed"):
        shape += (
            f'<path class="cross" d="M{_num(x - r)},{_num(y - r)} L{_num(x + r)},{_num(y + r)} '
            f'M{_num(x + r)},{_num(y - r)} L{_num(x - r)},{_num(y + r)}"/>'
        )
    bars = ""
    if public and not u.get("removed"):
        for i, g in enumerate(([riding.get("damage")] if riding else []) + [u.get("injury")]):
            by = y + r * 1.4 + i * r * 0.55
            fill = _gauge_fill(g)
            kind = "damage" if riding and i == 0 else "injury"
            bars += (
                f'<rect class="bar" x="{_num(x - r)}" y="{_num(by)}" width="{_num(2 * r)}" height="{_num(r * 0.4)}"/>'
                f'<rect class="bar-{kind}" x="{_num(x - r)}" y="{_num(by)}" width="{_num(2 * r * fill)}" '
                f'height="{_num(r * 0.4)}"/>'
            )
    label_y = y - r * 1.5
    return (
        f'<g class="{" ".join(classes)}" data-unit="{_text(u["id"])}"><title>{_text(" / ".join(lines))}</title>'
        f"{shape}{bars}"
        f'<text x="{_num(x)}" y="{_num(label_y)}" font-size="{_num(font)}" text-anchor="middle">'
        f"{_text(view.name(u['id']))}</text></g>"
    )
