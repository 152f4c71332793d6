"""Small kancolle encounters for tests: units, pieces, a run through the ruleset in process."""

from __future__ import annotations

from typing import Any

from pbp.engine import ScriptedDice, SeededDice
from pbp.engine.kancolle import KANCOLLE
from pbp.engine.ruleset import Resolution

#: The digest's worked-example cells (§15) and one far cell.
GRID = {"砲撃": [6, 7], "規律": [5, 5], "元気": [3, 7], "機動": [5, 8], "魅力6": [2, 6]}


def piece(pid: str, kind: str = "gun", rng: str | None = "中", **fields: Any) -> dict[str, Any]:
    return {"id": pid, "name": pid, "kind": kind, "range": rng, "trait": "砲撃", **fields}


def unit(uid: str, side: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": uid, "side": side, "ratings": {"命中": 0, "火力": 1, "回避": 0, "装甲": 5, "装備力": 3},
        "ap": 10, "ap_max": 10, "position": 1, "equipment": [],
    }  # fmt: skip
    if side == "pc":
        base.update(traits=[{"name": "砲撃", "kind": "merit"}], gap=5, emotions={})
    ratings = fields.pop("ratings", {})
    base["ratings"] = {**base["ratings"], **ratings}
    return {**base, **fields}


def pc(uid: str, **fields: Any) -> dict[str, Any]:
    return unit(uid, "pc", **fields)


def enemy(uid: str, **fields: Any) -> dict[str, Any]:
    return unit(uid, "enemy", **fields)


def encounter(units: list[dict[str, Any]], mode: str = "battle", rnd: int = 1, **fields: Any) -> dict[str, Any]:
    enc: dict[str, Any] = {"ruleset": "kancolle", "mode": mode, "round": rnd, "grid": GRID, "units": units}
    if mode == "battle":
        enc["battle"] = {"started": True, "battlefield": "同航戦", "revealed": []}
    enc["base"] = {"level": 1, "resources": {"燃料": 10, "弾薬": 10, "鋼材": 10, "ボーキサイト": 10}}
    return {**enc, **fields}


def free_checks(units: list[dict[str, Any]], *checks: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return encounter(units, "checks", checks=list(checks), **fields)


def run(
    enc: dict[str, Any],
    orders: dict[str, Any] | list[dict[str, Any]] | None = None,
    dice: list[int] | None = None,
    *,
    seed: str | None = None,
    rounds: int = 1,
    overrides: list[dict[str, Any]] | None = None,
) -> Resolution:
    """Resolve in process; `orders` may be the entries list alone. Scripted dice must all be used."""
    if isinstance(orders, list):
        orders = {"orders": orders}
    source = SeededDice(seed) if seed is not None else ScriptedDice(dice or [])
    res = KANCOLLE.resolve(enc, orders or {"orders": []}, source, rounds=rounds, overrides=overrides)
    if seed is None:
        assert source.left() == 0, f"{source.left()} scripted dice left"
    return res


def of(res: Resolution, kind: str) -> list[dict[str, Any]]:
    """The events of one type, in order."""
    return [e for e in res.events if e["type"] == kind]


def state_unit(res: Resolution, uid: str) -> dict[str, Any]:
    return next(u for u in res.state["units"] if u["id"] == uid)
