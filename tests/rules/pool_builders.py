"""Builders for contract-shaped `pool` encounters (spec/engine-cli.md), written from the rules text.

`pc()` is a riding Savior pilot and `enemy()` a Yamatsukami, both as in the golden vectors; keyword arguments
override fields (`stats=...` replaces, `stats_update=...` merges). `run()` resolves with scripted dice and wraps
the result so tests read events and units by id.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from pbp.engine import ScriptedDice, SeededDice, find_ruleset
from pbp.engine.canonical import dumps

SKILL_STATS = {"射撃": "感覚", "回避": "肉体", "白兵": "肉体", "情報処理": "理知", "整備": "理知", "芸術": "文化"}


def gauge(capacity: list[int], taken: list[int] | None = None) -> dict:
    return {"capacity": list(capacity), "taken": list(taken) if taken is not None else [0] * len(capacity)}


def weapon(
    wid: str,
    skill: str = "射撃",
    damage: int = 8,
    ammo: int | None = 6,
    ammo_max: int | None = None,
    rng: tuple[int, int] = (0, 1000),
    slot: str = "arm",
    gauge_: str | None = None,
    inflicts: str | None = None,
    targets: int | None = None,
) -> dict:
    w = {
        "id": wid,
        "skill": skill,
        "damage": damage,
        "ammo": ammo,
        "ammo_max": ammo if ammo_max is None else ammo_max,
        "range": list(rng),
        "slot": slot,
        "gauge": gauge_,
        "inflicts": inflicts,
    }
    if targets is not None:
        w["targets"] = targets
    return w


def rifle(**kw) -> dict:
    return weapon("rifle", **kw)


def blade(**kw) -> dict:
    kw = {"skill": "白兵", "damage": 12, "ammo": None, "rng": (0, 0), **kw}
    return weapon("blade", **kw)


def claw(**kw) -> dict:
    kw = {"skill": "白兵", "damage": 6, "ammo": None, "rng": (0, 0), **kw}
    return weapon("claw", **kw)


def spit(**kw) -> dict:
    kw = {"damage": 4, "ammo": 3, "rng": (0, 800), "slot": "torso", **kw}
    return weapon("spit", **kw)


def vehicle(
    vid: str = "sv1",
    kind: str = "savior",
    move: int = 100,
    movement: str = "ground",
    size: str = "large",
    stat_mods: dict | None = None,
    damage: dict | None = None,
    weapons: list | None = None,
) -> dict:
    return {
        "id": vid,
        "kind": kind,
        "move": move,
        "movement": movement,
        "size": size,
        "stat_mods": dict(stat_mods or {}),
        "damage": damage or gauge([10, 10, 10, 10, 10]),
        "weapons": weapons if weapons is not None else [rifle(), blade()],
    }


def _unit(base: dict, kw: dict) -> dict:
    u = copy.deepcopy(base)
    for key in ("stats", "skills", "skill_stats"):
        if f"{key}_update" in kw:
            u[key].update(kw.pop(f"{key}_update"))
    if "vehicle_update" in kw:
        u["vehicle"].update(kw.pop("vehicle_update"))
    u.update(kw)
    return u


def pc(uid: str = "aoi", **kw: Any) -> dict:
    """A PC riding a Savior: 肉体3 感覚4 理知2 文化2; 射撃3 回避2 白兵2 情報処理2; rifle and blade."""
    base = {
        "id": uid,
        "name": uid,
        "side": "pc",
        "stats": {"肉体": 3, "感覚": 4, "理知": 2, "文化": 2},
        "skills": {"射撃": 3, "回避": 2, "白兵": 2, "情報処理": 2},
        "skill_stats": dict(SKILL_STATS),
        "injury": gauge([10, 10, 10, 10, 1]),
        "weapons": [],
        "items": [],
        "vehicle": vehicle(),
        "statuses": [],
        "position": [0, 0],
        "engagement": None,
    }
    return _unit(base, kw)


def enemy(uid: str = "oni1", **kw: Any) -> dict:
    """A Yamatsukami: 肉体2 感覚3 理知1 文化1; 射撃2 回避2 白兵3; claw and spit (torso)."""
    base = {
        "id": uid,
        "name": uid,
        "side": "enemy",
        "stats": {"肉体": 2, "感覚": 3, "理知": 1, "文化": 1},
        "skills": {"射撃": 2, "回避": 2, "白兵": 3},
        "skill_stats": dict(SKILL_STATS),
        "injury": gauge([10, 10, 10, 10, 1]),
        "weapons": [],
        "items": [],
        "vehicle": vehicle("yk1", kind="yamatsukami", damage=gauge([5, 5, 5, 5, 5]), weapons=[claw(), spit()]),
        "statuses": [],
        "position": [500, 0],
        "engagement": None,
    }
    return _unit(base, kw)


def on_foot(u: dict, move: int = 10, weapons: list | None = None) -> dict:
    """The same unit dismounted (vehicle null), with a personal weapon list and a walking move."""
    u = copy.deepcopy(u)
    u["vehicle"] = None
    u["move"] = move
    u["weapons"] = weapons if weapons is not None else [weapon("pistol", damage=5, ammo=6, rng=(0, 100))]
    return u


def encounter(*units: dict, options: dict | None = None, terrain: list | None = None, **extra: Any) -> dict:
    enc = {
        "ruleset": "pool",
        "round": 1,
        "options": {"clamp_successes": False, "destroyed_kills_pilot": True, **(options or {})},
        "units": [copy.deepcopy(u) for u in units],
        "terrain": terrain or [],
    }
    enc.update(extra)
    return enc


def order(unit: str, minor: dict | None = None, major: dict | None = None, **extra: Any) -> dict:
    o = {"unit": unit, "minor": minor, "major": major}
    o.update(extra)
    return o


def attack(weapon_id: str, *targets: str, item: str | None = None) -> dict:
    return {"type": "attack", "weapon": weapon_id, "targets": list(targets), "item": item}


def check(skill: str, need: int | None = 1, item: str | None = None) -> dict:
    return {"type": "check", "skill": skill, "need": need, "item": item}


def move(toward: Any, kind: str = "move") -> dict:
    return {"type": kind, "toward": toward}


class Run:
    """One resolution plus the dice source it drew from."""

    def __init__(self, res: Any, dice: Any):
        self.res = res
        self.state = res.state
        self.events = res.events
        self.dice = dice

    @property
    def dice_left(self) -> int | None:
        return self.dice.left()

    @property
    def dice_used(self) -> int:
        return self.dice.used

    def unit(self, uid: str) -> dict:
        for u in self.state["units"]:
            if u["id"] == uid:
                return u
        raise KeyError(uid)

    def ev(self, etype: str | None = None, **match: Any) -> list[dict]:
        """Events of `etype` (any when None) whose fields equal every `match` value."""
        return [
            e
            for e in self.events
            if (etype is None or e.get("type") == etype) and all(e.get(k) == v for k, v in match.items())
        ]

    def one(self, etype: str, **match: Any) -> dict:
        found = self.ev(etype, **match)
        assert len(found) == 1, f"wanted one {etype} {match}, got {found}\nall events: {self.dump()}"
        return found[0]

    def index(self, etype: str, **match: Any) -> int:
        for i, e in enumerate(self.events):
            if e.get("type") == etype and all(e.get(k) == v for k, v in match.items()):
                return i
        raise AssertionError(f"no {etype} {match} in {self.dump()}")

    def status_ids(self, uid: str) -> list[str]:
        return [s["id"] for s in self.unit(uid).get("statuses") or []]

    def status(self, uid: str, sid: str) -> dict | None:
        for s in self.unit(uid).get("statuses") or []:
            if s["id"] == sid:
                return s
        return None

    def dump(self) -> str:
        return json.dumps(self.events, ensure_ascii=False)


def run(
    enc: dict,
    orders: list[dict] | None = None,
    dice: list[int] | None = None,
    *,
    seed: str | None = None,
    rounds: int = 1,
    overrides: list[dict] | None = None,
) -> Run:
    """Resolve `enc` with `orders` and scripted `dice` (or a seed); the inputs are deep-copied first."""
    source = SeededDice(seed) if seed is not None else ScriptedDice(list(dice or []))
    res = find_ruleset("pool").resolve(
        copy.deepcopy(enc),
        {"orders": copy.deepcopy(orders or [])},
        source,
        rounds=rounds,
        overrides=copy.deepcopy(overrides) if overrides is not None else None,
    )
    return Run(res, source)


def canonical(res: Any) -> str:
    return dumps({"state": res.state, "events": res.events, "unused": res.unused_overrides})


def problems(enc: dict) -> list:
    """What `validate_encounter` finds wrong with `enc` (a list of Problems; empty when it is fine)."""
    return find_ruleset("pool").validate_encounter(copy.deepcopy(enc))
