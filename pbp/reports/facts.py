"""What is true of a round at each moment, so that the story says nothing the dice log under it denies.

A phrasing in a phrasebook may declare what it claims (`{?alive:t hurt:n}` at its head): the realiser writes it only
where every claim holds for the units in its slots at the moment being told. The facts come from the round's bundle
alone: the units as the round starts (`encounter`), then the events replayed one by one (a damage event carries the
gauge as it leaves it; a death or a removal ends a unit's part). The body and the place are facts too: what a unit
rides (a Savior, a fighter, a monster of the ground or of the air, a pilot on foot) and where the scenario is set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: The bodies a unit can have in the story: a walking machine, an aircraft, a monster, a person on foot.
BODIES = ("mecha", "aircraft", "creature", "foot")
#: Every claim a phrasing may make, with the number of units it is about (0: the round or the place).
CLAIMS = {
    "alive": 1,  # not dead nor taken off the field at this moment
    "stands": 1,  # alive, and still alive when the round is over ("held on": never said of one who dies in it)
    "hurt": 1,  # has taken damage or injury by this moment
    "unhurt": 1,  # has taken none
    "light": 1,  # the last blow on it was light (no stage checked, margin under 3): "barely shaken"
    "ground": 1,  # on the ground: feet, mud, the levee are its
    "air": 1,  # in the air
    "machine": 1,  # a machine (mecha or aircraft): armour, cockpit, instruments
    "legs": 1,  # has legs and joints (a mecha, a pilot on foot, a walking monster)
    "pilot": 1,  # a person inside or on foot (breath, sweat, hands)
    "acted": 1,  # took an action of its own this round
    "entered": 1,  # its player wrote an entry this round
    "sunk": 1,  # went down by this moment (a ship girl or an abyssal ship: kancolle)
    "pc": 1,  # a player's character (a ship girl has a face and clothes; an abyssal ship need not)
    "river": 0,  # the scenario is set by a river (levee, river fog, riverbank stones)
    "battle": 0,  # the scenario is a battle
}
_CLAIM = re.compile(r"^\{\?([^}]*)\}")
_OWN = ("minor", "major")  # a move the unit made itself (not one an engagement forced)
_RIVER = re.compile(r"川|河|river", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """One claim of a phrasing: `name` about the unit in slot `role` (None for a claim about the round)."""

    name: str
    role: str | None


def split_claims(phrase: str) -> tuple[tuple[Claim, ...], str]:
    """A phrasing's declared claims and its text: `{?alive:t hurt:n}{t}は…` -> ((alive t), (hurt n)), `{t}は…`."""
    m = _CLAIM.match(phrase)
    if not m:
        return (), phrase
    claims = []
    for word in m.group(1).split():
        name, _, role = word.partition(":")
        if name not in CLAIMS or bool(role) != bool(CLAIMS[name]):
            raise ValueError(f"unknown claim {word!r} in phrasing {phrase!r}")
        claims.append(Claim(name, role or None))
    return tuple(claims), phrase[m.end() :]


def body_of(unit: dict[str, Any]) -> str:
    """What a unit is in the story, from what it rides (none: a person on foot)."""
    vehicle = unit.get("vehicle") or {}
    kind = vehicle.get("kind")
    if not vehicle or unit.get("dismounted"):
        return "foot"
    if kind == "fighter":
        return "aircraft"
    if kind == "yamatsukami":
        return "creature"
    return "mecha"


def flies(unit: dict[str, Any]) -> bool:
    vehicle = unit.get("vehicle") or {}
    return bool(vehicle) and not unit.get("dismounted") and vehicle.get("movement") == "air"


def _gauges_hurt(unit: dict[str, Any]) -> bool:
    gauges = [unit.get("injury"), (unit.get("vehicle") or {}).get("damage")]
    return any(g and any(g.get("taken", [])) for g in gauges)


class Facts:
    """The round's facts by moment. Moment `i` is "just after event i"; -1 is the round's start; `len(events)` its
    end. `place` is the scenario's setting text (its place, title and description) and `battle` its kind."""

    def __init__(self, bundle: dict[str, Any], *, entered: Iterable[str] = (), place: str = "", battle: bool = True):
        units = {u["id"]: u for u in (bundle.get("start") or {}).get("units", [])}
        units.update({u["id"]: u for u in bundle.get("encounter", {}).get("units", [])})
        units.update({u["id"]: u for u in bundle.get("state", {}).get("units", []) if u["id"] not in units})
        self.units = units
        self.events: list[dict[str, Any]] = list(bundle.get("events", []))
        self.entered = set(entered)
        self.river = bool(_RIVER.search(place))
        self.battle = battle
        start = bundle.get("encounter", {}).get("units", [])
        self._gone_at = {u["id"]: -1 for u in start if u.get("dead") or u.get("removed")}
        self._hurt_at = {u["id"]: -1 for u in start if _gauges_hurt(u)}
        self._acted: set[str] = set()
        self._blows: dict[str, list[tuple[int, bool]]] = {}  # unit -> [(moment, light)]
        self._beat_end: dict[int, int] = {}
        self._sunk_at: dict[str, int] = {}
        for i, e in enumerate(self.events):
            self._replay(i, e)

    def _replay(self, i: int, e: dict[str, Any]) -> None:
        """What event `i` makes true from then on: a ruleset with other events (`kancolle_story.py`) reads its own."""
        kind = e.get("type")
        if kind in ("death", "removed"):
            self._gone_at.setdefault(e["unit"], i)
        elif kind == "damage" and e.get("amount", 0) > 0:
            self._hurt_at.setdefault(e["unit"], i)
        elif kind == "attack" and not e.get("skipped"):
            self._acted.add(e["attacker"])
            if e.get("hit"):
                light = e.get("margin", 0) < 3 and not self.checks_after(i, e["target"])
                self._blows.setdefault(e["target"], []).append((i, light))
        elif kind in ("ability", "reload", "swap", "check") or (kind == "move" and e.get("action") in _OWN):
            self._acted.add(e["unit"])

    def checks_after(self, i: int, target: str) -> bool:
        """Whether the hit of event `i` checked a stage of its target's gauge (the damage event that follows it)."""
        for later in self.events[i + 1 : i + 4]:
            if later.get("type") == "damage" and later.get("unit") == target:
                return bool(later.get("checked"))
            if later.get("type") == "attack":
                break
        return False

    def alive(self, uid: str, at: int) -> bool:
        gone = self._gone_at.get(uid)
        return uid in self.units and (gone is None or gone > at)

    def holds(self, claim: Claim, uid: str | None, at: int) -> bool:
        """Whether `claim` is true of `uid` (the unit in its slot) at moment `at`."""
        name = claim.name
        if name == "river":
            return self.river
        if name == "battle":
            return self.battle
        if uid is None or uid not in self.units:
            return False
        unit = self.units[uid]
        if name == "alive":
            return self.alive(uid, at)
        if name == "stands":
            return self.alive(uid, len(self.events))
        if name in ("hurt", "unhurt"):
            hurt = uid in self._hurt_at and self._hurt_at[uid] <= at  # never hurt: not even at the round's end
            return hurt if name == "hurt" else not hurt
        if name == "light":
            blows = [light for moment, light in self._blows.get(uid, []) if moment <= at]
            return not blows or blows[-1]
        body = body_of(unit)
        if name == "ground":
            return not flies(unit)
        if name == "air":
            return flies(unit)
        if name == "machine":
            return body in ("mecha", "aircraft")
        if name == "legs":
            return body in ("mecha", "foot") or (body == "creature" and not flies(unit))
        if name == "pilot":
            return body != "creature"
        if name == "acted":
            return uid in self._acted
        if name == "entered":
            return uid in self.entered
        if name == "pc":
            return unit.get("side") == "pc"
        if name == "sunk":
            return self._sunk_at.get(uid, len(self.events) + 1) <= at
        raise ValueError(f"unknown claim {name!r}")
