"""A round planned as scenes before a word is written (the narrator realises the plan; `narrative.py`).

The engine's events are a log: one line per roll. A story groups them: each unit's main action with what followed
from it is a *beat*; beats are gathered into *scenes*, one per PC (their own actions and the enemies' actions on
them, in the order they happened), the enemies' other doings in scenes of their own; a PC who did nothing still
gets a moment (held back without an entry, waiting with one); the narrator then lets PCs who meet share one scene
(`Narrator._meetings`). The round's *climax* is its most consequential event:
a death, a destruction, else the heaviest hit. Continuity comes from the state the round starts from and the
previous round's events: who fell, whose lock-on is counting down, who is hurt. What the GM did between the rounds
(the bundle's `gm_actions`, applied to its `start`) is told before the fighting: a reinforcement arrives, a death
by the GM's hand is a death.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Events told inside the beat of whoever acted before them, never opening one of their own.
FOLLOW_UPS = frozenset({"damage", "status", "death", "removed", "restore", "engage", "disengage"})

#: Events that are a unit doing something of its own (a move forced by nothing else, an attack, a check ...).
_ACTIONS = frozenset({"attack", "move", "ability", "reload", "swap", "check"})

Event = tuple[int, dict[str, Any]]


@dataclass
class Beat:
    """A unit's main action and what followed from it (damage, statuses, deaths, a volley's other targets)."""

    actor: str | None
    kind: str  # action | setup | cleanup | gimmick
    events: list[Event] = field(default_factory=list)

    @property
    def main(self) -> dict[str, Any]:
        return self.events[0][1]


@dataclass
class Scene:
    """One PC's moment (`owner`), or the enemies' (`owner` None, kind `foes`), or the round's aftermath (`cleanup`)."""

    owner: str | None
    kind: str  # pc | foes | setup | cleanup | gimmick
    beats: list[Beat] = field(default_factory=list)

    def acted(self, uid: str) -> bool:
        return any(b.actor == uid and b.kind == "action" for b in self.beats)


@dataclass(frozen=True)
class GmBeat:
    """One GM action between the rounds as the story tells it. `kind` is what happened in the fiction: arrive (a
    reinforcement), vanish (taken off the map), retreat, death (an injury gauge set full), wound (a gauge set
    higher: `stage` is the deepest stage it newly checked, -1 none), mend (set lower), status_on, status_off, move,
    revive; an action of a kind the planner does not know keeps its own name (the narrator leaves a gap)."""

    kind: str
    unit: str
    side: str
    gauge: str | None = None
    stage: int = -1
    status: str | None = None


@dataclass
class Plan:
    pcs: list[str]  # PCs in the battle when the round starts (the dead and removed are not)
    foes: list[str]  # enemies in the battle when the round starts
    first: str | None  # who moves first
    fallen: list[str]  # who died in the previous round
    lingering: list[tuple[str, str]]  # (unit, status) carried into this round
    scenes: list[Scene]
    climax: int | None  # the event index of the round's most consequential event
    entered: set[str]  # PCs whose players wrote an entry
    gm: list[GmBeat]  # the GM's actions before the round, in the order taken
    roster: list[str]  # PCs the closing and the state list cover: `pcs` and those the GM's actions killed


def _present(unit: dict[str, Any]) -> bool:
    return not unit.get("dead") and not unit.get("removed")


def _beats(events: list[dict[str, Any]]) -> list[Beat]:
    beats: list[Beat] = []
    current: Beat | None = None
    in_cleanup = False
    volleys: set[str] = set()
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "initiative":
            continue
        actor = e.get("attacker") or e.get("unit")
        volley = kind == "attack" and e.get("attack_check") in volleys
        if kind == "attack" and e.get("attack_check"):
            volleys.add(e["attack_check"])
        follows = current is not None and (in_cleanup or kind in FOLLOW_UPS or volley)
        if not follows:
            if kind == "cleanup":
                in_cleanup = True
            beat_kind = "cleanup" if kind == "cleanup" else "gimmick" if kind == "gimmick" else "action"
            if e.get("timing") == "setup":
                beat_kind = "setup"
            current = Beat(actor, beat_kind)
            beats.append(current)
        assert current is not None
        current.events.append((i, e))
    return beats


def _affected_pc(beat: Beat, pcs: set[str]) -> str | None:
    """The PC an enemy's action was aimed at: the target of its attack, where it moved, whom it engaged."""
    for _, e in beat.events:
        for key in ("target", "toward"):
            if e.get(key) in pcs:
                return str(e[key])
        for other in e.get("with") or []:
            if other in pcs:
                return str(other)
    return None


def _climax(events: list[dict[str, Any]], pcs: set[str]) -> int | None:
    best, score = None, 0
    for i, e in enumerate(events):
        kind = e["type"]
        s = 0
        if kind == "death":
            s = 1000 + (500 if e["unit"] in pcs else 0)
        elif kind == "damage" and max(e.get("checked") or [0]) >= 1:  # a scratch on the armour is no climax
            s = e["amount"] + 20 * len(e["checked"])
        if s > score:
            best, score = i, s
    return best


#: What each GM action is in the fiction (set_gauge is decided by what it did to the gauge).
_GM_KINDS = {
    "add_unit": "arrive",
    "remove_unit": "vanish",
    "retreat": "retreat",
    "add_status": "status_on",
    "remove_status": "status_off",
    "set_position": "move",
    "revive": "revive",
}


def _deepest(capacity: list[int], taken: list[int]) -> int:
    return max((i for i, (cap, t) in enumerate(zip(capacity, taken, strict=False)) if t >= cap), default=-1)


def gm_beats(start: dict[str, Any], actions: list[dict[str, Any]]) -> list[GmBeat]:
    """The GM's actions as the story tells them, replayed on the state before them (`start`) so a gauge the GM set
    is told by what changed: filled to death, raised (with the stage newly checked), lowered, or left as it was
    (then nothing is told). The actions were checked when recorded (`apply_gm_actions`)."""
    if not actions:
        return []
    units = {u["id"]: u for u in start.get("units", [])}
    gauges: dict[tuple[str, str], tuple[list[int], list[int]]] = {}
    for u in units.values():
        gauges[(u["id"], "injury")] = (list(u["injury"]["capacity"]), list(u["injury"]["taken"]))
        if u.get("vehicle"):
            damage = u["vehicle"]["damage"]
            gauges[(u["id"], "damage")] = (list(damage["capacity"]), list(damage["taken"]))
    beats = []
    for a in actions:
        kind = str(a.get("kind"))
        if kind == "add_unit":
            unit = a["unit"]
            units[unit["id"]] = unit
            beats.append(GmBeat("arrive", unit["id"], "foe"))  # a reinforcement is an enemy
            continue
        if kind == "bonus":  # a play bonus judges an entry, it is no happening: the dice log says it
            continue
        uid = str(a.get("unit"))
        side = "pc" if units.get(uid, {}).get("side") == "pc" else "foe"
        if kind != "set_gauge":
            beats.append(GmBeat(_GM_KINDS.get(kind, kind), uid, side, status=a.get("status")))
            if kind == "revive" and (uid, "injury") in gauges:
                capacity, taken = gauges[(uid, "injury")]
                gauges[(uid, "injury")] = (capacity, [*taken[:-1], 0])  # R-GAUGE-7: back at the stage before death
            continue
        gauge = str(a["gauge"])
        capacity, was = gauges[(uid, gauge)]
        now = list(a["taken"])
        gauges[(uid, gauge)] = (capacity, now)
        if gauge == "injury" and now[-1] >= capacity[-1]:
            beats.append(GmBeat("death", uid, side, gauge))
        elif sum(now) != sum(was):
            deepest = _deepest(capacity, now)
            stage = deepest if deepest > _deepest(capacity, was) else -1
            beats.append(GmBeat("wound" if sum(now) > sum(was) else "mend", uid, side, gauge, stage))
    return beats


def plan_round(bundle: dict[str, Any], entered: set[str], previous_events: list[dict[str, Any]] | None = None) -> Plan:
    """The plan of one round from its bundle; `entered`: the PCs with an entry; `previous_events`: the events of
    the round before (for who fell then)."""
    units = bundle.get("encounter", {}).get("units", [])
    pcs = [u["id"] for u in units if u.get("side") == "pc" and _present(u)]
    foes = [u["id"] for u in units if u.get("side") != "pc" and _present(u)]
    events = list(bundle.get("events", []))
    order = next((e.get("order") for e in events if e["type"] == "initiative"), None) or []
    # Who moved first is who first *did* something: a PC without an entry comes early in the order and does nothing.
    acted = {e.get("attacker") or e.get("unit") for e in events if e["type"] in _ACTIONS and not e.get("skipped")}
    first = next((uid for uid in order if (uid in pcs or uid in foes) and uid in acted), None)
    gm = gm_beats(bundle.get("start") or {}, bundle.get("gm_actions") or [])
    # The GM's doings are told as such: a fallen PC the GM revived is not mourned, a status the GM set is news.
    revived = {b.unit for b in gm if b.kind == "revive"}
    set_now = {(b.unit, b.status) for b in gm if b.kind == "status_on"}
    fallen = [e["unit"] for e in previous_events or [] if e.get("type") == "death" and e["unit"] not in revived]
    carried = [(u["id"], s["id"]) for u in units if _present(u) for s in u.get("statuses", [])]
    lingering = [pair for pair in carried if pair not in set_now]
    killed = {b.unit for b in gm if b.kind == "death"}
    roster = [u["id"] for u in units if u.get("side") == "pc" and (_present(u) or u["id"] in killed)]
    pc_set = set(pcs)

    scenes: list[Scene] = []
    by_pc: dict[str, Scene] = {}
    for beat in _beats(events):
        if beat.kind in ("setup", "cleanup", "gimmick"):
            if scenes and scenes[-1].kind == beat.kind:
                scenes[-1].beats.append(beat)
            else:
                scenes.append(Scene(None, beat.kind, [beat]))
            continue
        owner = beat.actor if beat.actor in pc_set else _affected_pc(beat, pc_set)
        if owner is None:
            if scenes and scenes[-1].kind == "foes":
                scenes[-1].beats.append(beat)
            else:
                scenes.append(Scene(None, "foes", [beat]))
            continue
        if owner not in by_pc:
            by_pc[owner] = Scene(owner, "pc")
            scenes.append(by_pc[owner])
        by_pc[owner].beats.append(beat)
    # A PC who did nothing (no entry, or an entry the round gave no chance to act on) still has a moment, in
    # initiative order among the others.
    for uid in pcs:
        if uid not in by_pc:
            by_pc[uid] = Scene(uid, "pc")
            where = next((k for k, s in enumerate(scenes) if s.kind == "cleanup"), len(scenes))
            scenes.insert(where, by_pc[uid])
    climax = _climax(events, pc_set)
    return Plan(pcs, foes, first, fallen, lingering, scenes, climax, set(entered) & pc_set, gm, roster)
