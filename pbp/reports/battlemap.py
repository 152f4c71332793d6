"""The battlefield as a picture: an SVG drawn on the server from an encounter, so a player sees where everyone stands,
who is locked in which fight, what rough ground slows, and why a target is out of a weapon's reach.

No JavaScript and no inline style (the site's Content-Security-Policy forbids both): shapes carry presentation
attributes and classes that `site.css` colours. Every text is escaped and stripped of what XML cannot carry.
Coordinates are the encounter's metres; y grows downwards on the page, as on the GM's sketch maps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from typing import Any
from unicodedata import combining, east_asian_width

from pbp.reports.markdown import xml_safe

STAGES = 5
RING_MAX = 12  # a crowd drawn on a ring: an engagement (at most 10, R-ENG-3) and a straggler or two
ASCENT, DESCENT = 0.9, 0.25  # of the font size, a label's ink above and below its baseline (CJK fills the em)
LABEL_EM = 12  # the widest label, in full-width characters; a longer name is cut with "…" (whole in the tooltip)
# Where a label may stand around its marker, in the order tried: above (where it always stood), beside, below,
# at the corners; then the same again farther out, tied to the marker by a leader line.
DIRECTIONS = ((0, -1), (1, 0), (-1, 0), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
ARROW_POINTS = 60  # a line (a move's arrow, a leader) is kept clear of names at this many points at most
REACHES = 3  # the distances tried in each direction: next to the marker, then one and two steps out
#: Where a weapon's reach is named on its circle, in degrees (0 east, counter-clockwise), in the order tried: the
#: upper right (where it always stood), the other diagonals, the four sides, then between them.
REACH_ANGLES = (45, 135, 315, 225, 90, 270, 0, 180, 22.5, 67.5, 112.5, 157.5, 202.5, 247.5, 292.5, 337.5)

Box = tuple[float, float, float, float]  # left, top, right, bottom


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
    #: A weapon's or vehicle's display name from its pack section and id (the tooltips name them, never by id).
    thing: Callable[[str, str], str] = lambda section, key: key
    title: str = ""
    #: A reach wider than the whole map, as its line in the map's corner says it (its circle lies off the map).
    everywhere: Callable[[str], str] = lambda reach: f"{reach}: the whole map is within reach"
    #: A map to act on (the entry form): the field (`field_box`) framed and numbered along its top and left edges,
    #: so a point's x, y can be read off, and the focus's reach and move ranges clipped to it.
    act: bool = False
    moves: list[tuple[str, float]] = field(default_factory=list)  # (move's name, metres) drawn around the focus


def _text(value: Any) -> str:
    return escape(xml_safe(str(value)), quote=True)


def _num(x: float) -> str:
    """Short, exact enough SVG numbers (two decimals at most: a rough factor of 0.25 stays 0.25)."""
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0").rstrip(".")


def _end(anchor: str) -> str:
    """The text-anchor attribute of a text not at its default start."""
    return "" if anchor == "start" else f' text-anchor="{anchor}"'


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


def field_box(encounter: dict[str, Any]) -> Box:
    """The battlefield a player may point at on a map to act on: where the units stand and the rough ground lies,
    with a margin, out to whole grid steps (so its edges are round numbers the page can state)."""
    units = [u for u in encounter.get("units") or [] if isinstance(u, dict)]
    x0, y0, w, h = _bounds(units, encounter.get("terrain") or [], ())
    step = _grid_step(max(w, h))
    return (
        math.floor(x0 / step) * step,
        math.floor(y0 / step) * step,
        math.ceil((x0 + w) / step) * step,
        math.ceil((y0 + h) / step) * step,
    )


def _grid_step(span: float) -> int:
    """A round grid step giving 3-10 lines across the map."""
    for step in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
        if span / step <= 10:
            return step
    return 10 ** max(1, int(math.log10(span)))


@dataclass(frozen=True)
class _Crowd:
    """Units whose markers would overlap, chained; `centre` is set when they are drawn on a ring around it."""

    members: list[dict[str, Any]]
    centre: tuple[float, float] | None


def _ring(n: int, r: float) -> float:
    """The radius of the ring a crowd of `n` is drawn on."""
    return r * 1.6 * max(1.0, n / 4)


def _crowds(units: list[dict[str, Any]], most: float) -> list[_Crowd]:
    """The units in crowds, in the order of their first members: units closer than two `most` to each other, chained
    (found through a grid of cells that wide, so each unit is compared with its neighbours only).

    A crowd on one spot (an engagement, R-ENG-1) is drawn on a ring around it so each unit is seen; so is one of at
    most RING_MAX around such a spot (within its ring's radius of their centre) or nearly on one (within a marker's
    radius). A larger or wider crowd is drawn as it stands (a massed formation, or units merely scattered close),
    units on one spot in it each on a ring around that spot."""
    reach = 2 * most
    parent = list(range(len(units)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    spots = [(u["position"][0], u["position"][1]) for u in units]
    cells: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(spots):
        cx, cy = math.floor(x / reach), math.floor(y / reach)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in cells.get((cx + dx, cy + dy), ()):
                    ri, rj = root(i), root(j)
                    if ri != rj and math.dist((x, y), spots[j]) < reach:
                        parent[ri] = rj
        cells.setdefault((cx, cy), []).append(i)
    groups: dict[int, list[dict[str, Any]]] = {}
    for i, u in enumerate(units):
        groups.setdefault(root(i), []).append(u)
    crowds = []
    for members in groups.values():
        n = len(members)
        centre = (sum(u["position"][0] for u in members) / n, sum(u["position"][1] for u in members) / n)
        spread = max(math.dist(centre, u["position"][:2]) for u in members)
        by_spot: dict[tuple[float, float], list[dict[str, Any]]] = {}
        for u in members:
            by_spot.setdefault((u["position"][0], u["position"][1]), []).append(u)
        core = len(by_spot) < n  # some share a spot
        if n > 1 and (spread == 0 or (n <= RING_MAX and spread <= (_ring(n, most) if core else most))):
            crowds.append(_Crowd(members, centre))
        else:  # drawn as they stand, but those on one spot still each on a ring around it
            crowds += [_Crowd(on, spot if len(on) > 1 else None) for spot, on in by_spot.items()]
    return crowds


def _radius(crowds: list[_Crowd], most: float) -> float:
    """A marker's radius: `most`, less on a field where units stand close so that their markers leave room between
    them for names (0.4 of the median distance from a spot to the nearest other, at least half of `most`). Spots with
    no other near (within a `most` or so) count as far; a crowd on a ring counts as one spot, its centre."""
    spots = list(
        dict.fromkeys(
            spot
            for c in crowds
            for spot in ([c.centre] if c.centre else [(u["position"][0], u["position"][1]) for u in c.members])
        )
    )
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for x, y in spots:
        cells.setdefault((math.floor(x / most), math.floor(y / most)), []).append((x, y))
    nearest = []
    for x, y in spots:
        cx, cy = math.floor(x / most), math.floor(y / most)
        around = (s for dx in (-1, 0, 1) for dy in (-1, 0, 1) for s in cells.get((cx + dx, cy + dy), ()))
        nearest.append(min((math.dist((x, y), s) for s in around if s != (x, y)), default=math.inf))
    nearest.sort()
    typical = nearest[len(nearest) // 2] if nearest else math.inf
    return min(most, max(most / 2, typical * 0.4))


def _spread(crowds: list[_Crowd], r: float) -> tuple[dict[str, tuple[float, float]], dict[str, float]]:
    """Where to draw each unit, and the outward bearing of those on a ring (where their labels go first): on one spot
    in their order from the top, else in the order of their bearings from the centre, the ring turned to match."""
    drawn: dict[str, tuple[float, float]] = {}
    outward: dict[str, float] = {}
    for crowd in crowds:
        if crowd.centre is None:
            drawn.update((u["id"], (u["position"][0], u["position"][1])) for u in crowd.members)
            continue
        (cx, cy), members, n = crowd.centre, crowd.members, len(crowd.members)
        turn = -math.pi / 2
        if any(u["position"][:2] != members[0]["position"][:2] for u in members):
            bearing = {u["id"]: math.atan2(u["position"][1] - cy, u["position"][0] - cx) for u in members}
            members = sorted(members, key=lambda u: bearing[u["id"]])  # stable: those on the centre keep their order
            offsets = [bearing[u["id"]] - 2 * math.pi * i / n for i, u in enumerate(members)]
            turn = math.atan2(sum(map(math.sin, offsets)), sum(map(math.cos, offsets)))
        ring = _ring(n, r)
        for i, u in enumerate(members):
            a = 2 * math.pi * i / n + turn
            drawn[u["id"]] = (cx + ring * math.cos(a), cy + ring * math.sin(a))
            outward[u["id"]] = a
    return drawn, outward


def _room(x0: float, y0: float, w: float, h: float, crowds: list[_Crowd], r: float, font: float
          ) -> tuple[float, float, float, float]:  # fmt: skip
    """The map's frame grown to hold every ring and its members' names (a ring is wider than the spot it stands for,
    and may stand at the map's edge): room beside a ring for names of about five characters, above and below for one
    line."""
    left, top, right, bottom = x0, y0, x0 + w, y0 + h
    for c in crowds:
        if c.centre is not None:
            ring = _ring(len(c.members), r)
            mx, my = ring + r * 1.3 + font * 5, ring + r * 2.4 + font * 1.5
            left, right = min(left, c.centre[0] - mx), max(right, c.centre[0] + mx)
            top, bottom = min(top, c.centre[1] - my), max(bottom, c.centre[1] + my)
    return left, top, right - left, bottom - top


def _em(text: str) -> float:
    """A text's estimated width in ems: full-width characters (CJK, kana, full-width forms) one em, the rest about
    0.6 (a sans-serif's average Latin letter, digit or space), combining marks none. No font is at hand to measure."""
    return sum(0.0 if combining(c) else 1.0 if east_asian_width(c) in "WF" else 0.6 for c in text)


def _cut(text: str) -> str:
    """The text, cut with "…" to at most LABEL_EM ems: one long name must not cover the map."""
    if _em(text) <= LABEL_EM:
        return text
    while text and _em(text) > LABEL_EM - 1:
        text = text[:-1]
    return text + "…"


def _text_box(text: str, x: float, baseline: float, font: float, anchor: str = "start") -> Box:
    """The box a text's ink takes, from its anchor point."""
    w = _em(text) * font
    left = x - {"start": 0.0, "middle": w / 2, "end": w}[anchor]
    return (left, baseline - ASCENT * font, left + w, baseline + DESCENT * font)


class _Taken:
    """What is drawn already, hashed on a grid of cells: the units' markers (each with its owner) and the texts and
    lines. A new label is checked against what lies in the cells it covers only, so placing every label stays
    linear in the number of units."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.markers: dict[tuple[int, int], list[tuple[Box, str]]] = {}
        self.texts: dict[tuple[int, int], list[Box]] = {}
        self.lines: set[tuple[int, int]] = set()

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self.cell
        rows = range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)
        return [(i, j) for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1) for j in rows]

    def add(self, box: Box, owner: str = "") -> None:
        """A text's box, or with an owner that unit's marker."""
        for key in self._cells(box):
            if owner:
                self.markers.setdefault(key, []).append((box, owner))
            else:
                self.texts.setdefault(key, []).append(box)

    def add_line(self, line: tuple[float, float, float, float], gap: float) -> None:
        """A line (a move's arrow, a leader) no name may cover: the squares `gap` wide it passes through, each kept
        once, so a bundle of arrows converging on one spot costs about what one does."""
        for px, py, _, _ in _along(line, gap):
            i, j = math.floor(px / gap), math.floor(py / gap)
            if (i, j) not in self.lines:
                self.lines.add((i, j))
                self.add((i * gap, j * gap, (i + 1) * gap, (j + 1) * gap))

    def free(self, box: Box, owner: str | None) -> bool:
        """Whether `box` meets no text or line and no marker but `owner`'s own; with no owner, markers aside (a
        leader may cross them)."""
        left, top, right, bottom = box
        keys = self._cells(box)
        for key in keys:
            for b in self.texts.get(key, ()):
                if left < b[2] and b[0] < right and top < b[3] and b[1] < bottom:
                    return False
        if owner is None:
            return True
        for key in keys:
            for b, o in self.markers.get(key, ()):
                if left < b[2] and b[0] < right and top < b[3] and b[1] < bottom and o != owner:
                    return False
        return True


@dataclass(frozen=True)
class Label:
    """Where a unit's name is written: its text, anchor point and alignment, and a leader line when set apart."""

    text: str
    x: float
    y: float  # the baseline
    anchor: str
    leader: tuple[float, float, float, float] | None = None


def _candidates(at: tuple[float, float], marker: Box, w: float, r: float, font: float, order: list[tuple[int, int]]
                ) -> Iterator[tuple[Box, float, float, str, bool]]:  # fmt: skip
    """The places tried for a label `w` wide around its marker, nearest first: in `order` next to it, then farther
    out (tied by a leader line): each as its box, anchor point, alignment and whether it stands apart."""
    x, y = at
    for step in range(REACHES):
        d = step * font * 1.5
        for ux, uy in order:
            if ux == 0:
                anchor, tx, left = "middle", x, x - w / 2
            elif ux > 0:
                tx = (marker[2] + r * 0.3 if uy == 0 else x + r * 0.7) + d
                anchor, left = "start", tx
            else:
                tx = (marker[0] - r * 0.3 if uy == 0 else x - r * 0.7) - d
                anchor, left = "end", tx - w
            if uy < 0:
                base = (y - r * 1.5 if ux == 0 else y - r * 1.1) - d
            elif uy > 0:
                base = marker[3] + r * 0.3 + d + ASCENT * font
            else:
                base = y + (ASCENT - DESCENT) / 2 * font
            yield (left, base - ASCENT * font, left + w, base + DESCENT * font), tx, base, anchor, step > 0


def _along(line: tuple[float, float, float, float], gap: float, most: int = ARROW_POINTS) -> list[Box]:
    """Points along a line, `gap` apart (at most `most` and one), as boxes: a line no name may cover."""
    x1, y1, x2, y2 = line
    steps = min(most, math.ceil(math.dist((x1, y1), (x2, y2)) / gap))
    points = ((x1 + (x2 - x1) * k / max(steps, 1), y1 + (y2 - y1) * k / max(steps, 1)) for k in range(steps + 1))
    return [(px, py, px, py) for px, py in points]


def _leader(at: tuple[float, float], box: Box, r: float) -> tuple[float, float, float, float]:
    """A line from a marker's edge to the nearest point of its label's box."""
    x, y = at
    px, py = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    dist = math.dist((x, y), (px, py))
    return x + (px - x) * r * 1.1 / dist, y + (py - y) * r * 1.1 / dist, px, py


def _facing(bearing: float) -> list[tuple[int, int]]:
    """DIRECTIONS ordered by how near each lies to `bearing` (a ring member's label goes outward first)."""

    def off(d: tuple[int, int]) -> float:
        return abs((math.atan2(d[1], d[0]) - bearing + math.pi) % (2 * math.pi) - math.pi)

    return sorted(DIRECTIONS, key=lambda d: round(off(d), 6))


def _place_labels(
    units: list[dict[str, Any]],
    drawn: dict[str, tuple[float, float]],
    markers: dict[str, Box],
    outward: dict[str, float],
    taken: _Taken,
    frame: Box,
    names: Callable[[str], str],
    r: float,
    font: float,
) -> dict[str, Label]:
    """Each unit's label, `units` in turn, at its first place inside the map that meets nothing in `taken` (every
    marker is there) but its own marker; a unit left with no such place keeps its name in its tooltip only (a field
    too crowded to name everyone), so the first in `units` are the surest to be named."""
    labels: dict[str, Label] = {}
    for u in units:
        uid = u["id"]
        text = _cut(names(uid))
        order = _facing(outward[uid]) if uid in outward else list(DIRECTIONS)
        for box, x, y, anchor, far in _candidates(drawn[uid], markers[uid], _em(text) * font, r, font, order):
            inside = frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3]
            if not (inside and taken.free(box, uid)):
                continue
            leader = _leader(drawn[uid], box, r) if far else None
            if leader is None or all(taken.free(p, None) for p in _along(leader, r / 2)):  # crossing no name
                taken.add(box)
                if leader is not None:
                    taken.add_line(leader, r / 2)
                labels[uid] = Label(text, x, y, anchor, leader)
                break
    return labels


def _reach_label(
    text: str, centre: tuple[float, float], radius: float, font: float, frame: Box, taken: _Taken
) -> tuple[float, float, str] | None:
    """Where a reach's name stands on its circle (x, baseline, anchor): the first of `REACH_ANGLES` whose text lies
    wholly inside the map's frame and over nothing written before, beside the circle on the outside. None when no
    part of the circle that shows has room (a reach wider than the whole map is not named: nothing of it shows)."""
    fx, fy = centre
    left, top, right, bottom = frame
    for degrees in REACH_ANGLES:
        a = math.radians(degrees)
        dx, dy = math.cos(a), -math.sin(a)  # y grows downwards
        x, y = fx + radius * dx, fy + radius * dy
        anchor = "start" if dx > 0.3 else "end" if dx < -0.3 else "middle"
        baseline = y if dy <= 0 else y + ASCENT * font  # above the circle's upper half, below its lower half
        box = _text_box(text, x, baseline, font, anchor)
        if left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom and taken.free(box, None):
            return x, baseline, anchor
    return None


def _axes(field_: Box, step: int, font: float) -> str:
    """The field's frame and its grid lines' numbers: x along the top edge, y down the left, outside the field."""
    left, top, right, bottom = field_
    out = [
        f'<g class="axes"><rect class="field" x="{_num(left)}" y="{_num(top)}" width="{_num(right - left)}" '
        f'height="{_num(bottom - top)}"/>'
    ]
    for gx in range(math.ceil(left / step) * step, math.floor(right) + 1, step):
        out.append(f'<text x="{_num(gx)}" y="{_num(top - font * 0.35)}" text-anchor="middle" '
                   f'font-size="{_num(font)}">{_num(gx)}</text>')  # fmt: skip
    for gy in range(math.ceil(top / step) * step, math.floor(bottom) + 1, step):
        if gy == top:  # the corner is the top edge's first number's
            continue
        out.append(f'<text x="{_num(left - font * 0.3)}" y="{_num(gy + font * 0.35)}" text-anchor="end" '
                   f'font-size="{_num(font)}">{_num(gy)}</text>')  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _ranges(
    at: tuple[float, float],
    ranges: list[tuple[str, str, float, float]],
    frame: Box,
    font: float,
    taken: _Taken,
    *,
    clipped: bool,
    view: MapView,
) -> list[str]:
    """The circles of `ranges` around `at`, each (class, its name with its metres, inner, outer radius): named on
    the circle where it shows and its name finds room, else in the frame's corner (as reaching the whole map when
    no part of it shows); `clipped` to the field."""
    out: list[str] = []
    corners = [(x, y) for x in (frame[0], frame[2]) for y in (frame[1], frame[3])]
    clip = ' clip-path="url(#field)"' if clipped else ""
    lines = 0  # the ranges named in the corner so far
    fx, fy = at
    for kind, text, lo, hi in ranges:
        if hi <= 0:
            continue
        if all(math.dist(at, corner) <= hi for corner in corners):  # no part of its circle shows
            text = view.everywhere(text)
            x, lines = frame[2] - font * 0.5, lines + 1
            y = frame[1] + font * 1.4 * lines
            out.append(f'<g class="{kind} whole"><text x="{_num(x)}" y="{_num(y)}" text-anchor="end" '
                       f'font-size="{_num(font)}">{_text(text)}</text></g>')  # fmt: skip
            taken.add(_text_box(text, x, y, font, "end"))
            continue
        out.append(
            f'<g class="{kind}"><circle cx="{_num(fx)}" cy="{_num(fy)}" r="{_num(hi)}"{clip}/>'
            + (f'<circle class="inner" cx="{_num(fx)}" cy="{_num(fy)}" r="{_num(lo)}"{clip}/>' if lo > 0 else "")
        )
        placed = _reach_label(text, at, hi, font, frame, taken)
        if placed is None and clipped:  # a map to act on names every range: in the corner, under the others
            lines += 1
            placed = frame[2] - font * 0.5, frame[1] + font * 1.4 * lines, "end"
        if placed is not None:
            x, y, anchor = placed
            out.append(f'<text x="{_num(x)}" y="{_num(y)}"{_end(anchor)} font-size="{_num(font)}">{_text(text)}</text>')
            taken.add(_text_box(text, x, y, font, anchor))
        out.append("</g>")
    return out


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
    field_ = field_box(encounter) if view.act else None
    if field_ is not None:
        x0, y0, w, h = field_[0], field_[1], field_[2] - field_[0], field_[3] - field_[1]
    most = max(w, h) / 45
    font = most * 1.25
    standing = [u for u in units if not u.get("removed")]
    crowds = _crowds(standing, most)
    r = _radius(crowds, most)  # a unit's radius in metres of the picture
    drawn, outward = _spread(crowds, r)
    x0, y0, w, h = _room(x0, y0, w, h, crowds, r, font)
    step = _grid_step(max(w, h))
    if field_ is not None:  # the edges' numbers stand outside the field, on a margin of their own
        step = _grid_step(max(field_[2] - field_[0], field_[3] - field_[1]))
        wide = max(_em(_num(v)) for v in (field_[1], field_[3])) * font * 0.8 + font * 0.6
        half = _em(_num(field_[2])) * font * 0.4 + font * 0.2  # the right edge's number, centred on it
        x0, y0, w, h = x0 - wide, y0 - font * 1.3, w + wide + half, h + font * 1.3
    taken = _Taken(font * 1.5)  # the texts and markers drawn, so that no label covers another
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="battlemap" viewBox="{_num(x0)} {_num(y0)} {_num(w)} '
        f'{_num(h)}" role="img" aria-label="{_text(view.title)}">',
        f"<title>{_text(view.title)}</title>",
        f'<defs><pattern id="rough" width="{_num(most)}" height="{_num(most)}" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="{_num(most)}" class="hatch"/></pattern>'
        '<marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
    ]
    if field_ is not None:
        fl, ft, fr, fb = field_
        out.append(
            f'<clipPath id="field"><rect x="{_num(fl)}" y="{_num(ft)}" width="{_num(fr - fl)}" '
            f'height="{_num(fb - ft)}"/></clipPath>'
        )
    gx = math.ceil(x0 / step) * step
    while gx < x0 + w:
        out.append(f'<line class="grid" x1="{_num(gx)}" y1="{_num(y0)}" x2="{_num(gx)}" y2="{_num(y0 + h)}"/>')
        gx += step
    gy = math.ceil(y0 / step) * step
    while gy < y0 + h:
        out.append(f'<line class="grid" x1="{_num(x0)}" y1="{_num(gy)}" x2="{_num(x0 + w)}" y2="{_num(gy)}"/>')
        gy += step
    if field_ is not None:
        out.append(_axes(field_, step, font * 0.8))
    sx, sy = x0 + w * 0.04, y0 + h * 0.96
    out.append(
        f'<g class="scale"><line x1="{_num(sx)}" y1="{_num(sy)}" x2="{_num(sx + step)}" y2="{_num(sy)}"/>'
        f'<text x="{_num(sx)}" y="{_num(sy - font * 0.4)}" font-size="{_num(font)}">{step} m</text></g>'
    )
    taken.add(_text_box(f"{step} m", sx, sy - font * 0.4, font))
    for t in terrain:
        (ax, ay), (bx, by) = t["rect"]
        rx, ry, rw, rh = min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay)
        factor = f"×{_num(t.get('rough', 1))}"
        out.append(
            f'<g class="rough"><rect x="{_num(rx)}" y="{_num(ry)}" width="{_num(rw)}" height="{_num(rh)}" '
            f'fill="url(#rough)"/><text x="{_num(rx + font * 0.3)}" y="{_num(ry + font * 1.1)}" '
            f'font-size="{_num(font)}">{factor}</text></g>'
        )
        taken.add(_text_box(factor, rx + font * 0.3, ry + font * 1.1, font))
    drawn, outward = _spread(crowds, r)
    focus = next((u for u in standing if u["id"] == view.focus), None)
    if focus is not None:
        frame = field_ or (x0, y0, x0 + w, y0 + h)
        ranges = [("reach", f"{label} {_num(hi)} m", lo, hi) for label, lo, hi in view.reach]
        ranges += [("move-range", f"{label} {_num(metres)} m", 0.0, metres) for label, metres in view.moves]
        out += _ranges(focus["position"][:2], ranges, frame, font, taken, clipped=field_ is not None, view=view)
    for u in units:
        drawn.setdefault(u["id"], (u["position"][0], u["position"][1]))
    markers = {u["id"]: _marker_box(u, drawn[u["id"]], r, view) for u in units}
    for uid, box in markers.items():
        taken.add(box, uid)
    engagements: dict[str, list[str]] = {}
    for u in standing:
        if u.get("engagement"):
            engagements.setdefault(u["engagement"], []).append(u["id"])
    for eid, members in sorted(engagements.items()):
        cx = sum(drawn[m][0] for m in members) / len(members)
        cy = sum(drawn[m][1] for m in members) / len(members)
        radius = max(math.dist((cx, cy), drawn[m]) for m in members) + r * 2.2
        text = ""
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):  # at the ring's lower right, else another corner
            anchor = "start" if sx > 0 else "end"
            ex, ey = cx + sx * radius * 0.75, cy + radius if sy > 0 else cy - radius + font * ASCENT
            box = _text_box(eid, ex, ey, font, anchor)
            if taken.free(box, ""):  # engagements crowding one spot: a label that finds no room is left out
                taken.add(box)
                text = f'<text x="{_num(ex)}" y="{_num(ey)}" font-size="{_num(font)}"{_end(anchor)}>{_text(eid)}</text>'
                break
        out.append(f'<g class="engagement"><circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}"/>{text}</g>')
    for a in view.arrows:
        out.append(
            f'<line class="move" x1="{_num(a.start[0])}" y1="{_num(a.start[1])}" x2="{_num(a.end[0])}" '
            f'y2="{_num(a.end[1])}" marker-end="url(#arrowhead)"/>'
        )
        taken.add_line((*a.start, *a.end), r / 2)
    # Named first: the player's own unit, then the standing PCs, the standing enemies, the removed.
    first = sorted(units, key=lambda u: (u is not focus, bool(u.get("removed")), u.get("side") != "pc"))
    frame = (x0, y0, x0 + w, y0 + h)
    labels = _place_labels(first, drawn, markers, outward, taken, frame, view.name, r, font)
    for u in units:
        out.append(_unit(u, drawn[u["id"]], r, font, view, u is focus, labels.get(u["id"])))
    out.append("</svg>")
    return "".join(out)


def _gauges(u: dict[str, Any], view: MapView) -> list[tuple[str, dict[str, Any] | None]]:
    """The gauge bars drawn under a unit, as (kind, gauge): a public standing unit's vehicle damage and injury."""
    if u.get("removed") or not view.public(u):
        return []
    riding = u.get("vehicle") or {}
    return ([("damage", riding.get("damage"))] if riding else []) + [("injury", u.get("injury"))]


def _marker_box(u: dict[str, Any], at: tuple[float, float], r: float, view: MapView) -> Box:
    """The box of a unit's marker and its gauge bars, which no other unit's label may cover."""
    x, y = at
    air = (u.get("vehicle") or {}).get("movement") == "air"
    bars = len(_gauges(u, view))
    bottom = y + r * 1.4 + (bars - 1) * r * 0.55 + r * 0.4 if bars else y + (r * 0.8 if air else r)
    return (x - r, y - (r * 1.2 if air else r), x + r, bottom)


def _unit(
    u: dict[str, Any], at: tuple[float, float], r: float, font: float, view: MapView, focus: bool, label: Label | None
) -> str:
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
            vehicle = view.thing("vehicles", riding["id"]) if riding.get("id") else riding.get("name", "")
            lines.append(f"{vehicle} {round(100 * _gauge_fill(riding.get('damage')))}%")
        lines.append(f"♥ {round(100 * _gauge_fill(u.get('injury')))}%")
        statuses = [view.status_name(s["id"]) for s in u.get("statuses") or []]
        if statuses:
            lines.append(", ".join(statuses))
        arsenal = riding.get("weapons") if riding else u.get("weapons")
        ammo = [
            f"{view.thing('weapons', w['id'])} {w['ammo']}/{w.get('ammo_max')}"
            for w in arsenal or []
            if w.get("ammo") is not None
        ]
        if ammo:
            lines.append(", ".join(ammo))
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
    for i, (kind, g) in enumerate(_gauges(u, view)):
        by = y + r * 1.4 + i * r * 0.55
        bars += (
            f'<rect class="bar" x="{_num(x - r)}" y="{_num(by)}" width="{_num(2 * r)}" height="{_num(r * 0.4)}"/>'
            f'<rect class="bar-{kind}" x="{_num(x - r)}" y="{_num(by)}" width="{_num(2 * r * _gauge_fill(g))}" '
            f'height="{_num(r * 0.4)}"/>'
        )
    text = ""
    if label is not None:
        if label.leader:
            lx1, ly1, lx2, ly2 = label.leader
            text += f'<line class="leader" x1="{_num(lx1)}" y1="{_num(ly1)}" x2="{_num(lx2)}" y2="{_num(ly2)}"/>'
        text += (
            f'<text x="{_num(label.x)}" y="{_num(label.y)}" font-size="{_num(font)}" text-anchor="{label.anchor}">'
            f"{_text(label.text)}</text>"
        )
    return (
        f'<g class="{" ".join(classes)}" data-unit="{_text(u["id"])}"><title>{_text(" / ".join(lines))}</title>'
        f"{shape}{bars}{text}</g>"
    )
