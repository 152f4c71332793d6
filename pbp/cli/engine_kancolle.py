"""`pbp engine resolve|check|odds` for the `kancolle` ruleset: its contract (engine-cli-kancolle.md C-1..C-7).

Bad input is one stderr line `FILE: PATH: MESSAGE` (or `--dice: dice exhausted after N`) with exit 2 and nothing
on stdout: the contract's form, which names the file first so an outside verifier can read it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from pbp.engine import BadInput, DiceSource, Problem
from pbp.engine.errors import DiceExhausted


def contract_errors(action: Callable[[], None]) -> None:
    """Run `action`; bad input ends the process as C-1 says (one line, exit 2)."""
    try:
        action()
    except BadInput as e:
        click.echo("; ".join(" ".join(str(p).split()) for p in e.problems), err=True)
        sys.exit(2)
    except DiceExhausted as e:
        click.echo(f"--dice: dice exhausted after {e.used}", err=True)
        sys.exit(2)


def emit(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def resolve(
    encounter: dict[str, Any],
    orders: Any,
    overrides: list[Any] | None,
    source: DiceSource,
    rounds: int,
    seed: str | None,
    files: dict[str, str | None],
    pack: dict[str, Any] | None,
) -> None:
    """C-4, the output of 'Output': state, events, dice_left, seed (+ unused_overrides with --overrides)."""
    from pbp.engine.kancolle import KANCOLLE

    try:
        result = KANCOLLE.resolve(encounter, orders, source, rounds=rounds, overrides=overrides or [], pack=pack)
    except BadInput as e:  # name the files the problems are in
        raise BadInput([Problem(p.path, p.message, files.get(p.file or "") or p.file) for p in e.problems]) from None
    out: dict[str, Any] = {"state": result.state, "events": result.events, "dice_left": source.left(), "seed": seed}
    if overrides is not None:
        out["unused_overrides"] = result.unused_overrides
    emit(out)


def _traits(text: str | None) -> list[dict[str, str]]:
    traits = []
    for i, part in enumerate((text or "").split(",") if text else []):
        name, _, kind = part.partition(":")
        if not name or kind not in ("merit", "weakness"):
            raise BadInput(Problem(f"--traits[{i}]", f"{part!r} is not NAME:merit or NAME:weakness"))
        traits.append({"name": name, "kind": kind})
    return traits


def _grid(path: str | None) -> dict[str, Any]:
    from pbp.cli.files import read_json

    grid = read_json(path, "the grid") if path else {}
    if not isinstance(grid, dict):
        raise BadInput(Problem("", "the grid is {name: [category, row]}", path))
    return grid


def _sheet(flags: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, str]], str | None]:
    """The grid (`--grid`'s names over the built-in labels), the held traits and the designated trait the flags
    give: `--dc N`, or `--designated TRAIT` with `--traits` (C-5, C-6). A name off the grid is bad input."""
    from pbp.engine.kancolle.grid import merged_grid

    grid = _grid(flags.get("grid"))
    traits = _traits(flags.get("traits"))
    designated = flags.get("designated")
    if flags.get("dc") is not None:
        return grid, traits, None
    if designated is None or not traits:
        raise BadInput(Problem("--dc/--designated", "give --dc N, or --designated TRAIT with --traits NAME:merit,..."))
    known = merged_grid(grid)
    for flag, name in [("--designated", designated)] + [("--traits", t["name"]) for t in traits]:
        if name not in known:
            raise BadInput(Problem(flag, f"{name!r} is not on the grid (the built-in labels and --grid FILE's names)"))
    return grid, traits, designated


def _check_encounter(flags: dict[str, Any]) -> dict[str, Any]:
    """A one-unit free-check encounter from the command line's flags (C-5)."""
    grid, traits, designated = _sheet(flags)
    ap, ap_max = flags.get("ap"), flags.get("ap_max")
    unit = {
        "id": "unit", "side": flags.get("side") or "pc", "gap": flags.get("gap") or 1,
        "ratings": {"命中": 0, "火力": 0, "回避": 0, "装甲": 1, "装備力": 0},
        "ap": 10 if ap is None else ap, "ap_max": (10 if ap is None else ap) if ap_max is None else ap_max,
        "traits": traits or [{"name": "索敵", "kind": "merit"}],
    }  # fmt: skip
    check = {
        "unit": "unit", "kind": flags.get("kind") or "other", "designated": designated, "rating": flags["rating"],
        "modifier": flags["modifier"], "interfere": flags.get("interfere"), "night": flags["night"],
        "dc": flags.get("dc"),
    }  # fmt: skip
    return {"ruleset": "kancolle", "mode": "checks", "round": 1, "grid": grid, "units": [unit], "checks": [check]}


def check(flags: dict[str, Any], source: DiceSource) -> None:
    """C-5: one behaviour check for a unit with no sheet beyond the flags."""
    from pbp.engine.kancolle import KANCOLLE

    encounter = _check_encounter(flags)
    orders: dict[str, Any] = {"orders": []}
    if flags.get("rechallenge"):
        most, _, keep = flags["rechallenge"].partition(",")
        if not (most.isdigit() and keep.isdigit()):
            raise BadInput(Problem("--rechallenge", "is MAX,KEEP (two whole numbers)"))
        orders["orders"] = [{"unit": "unit", "rechallenge": {"max": int(most), "keep": int(keep), "kinds": None}}]
    if flags.get("dc") is not None and encounter["units"][0]["side"] == "pc":
        encounter["units"][0]["side"] = "enemy"  # a bare DC: no trait, no weakness (K-CHECK-12/14)
    result = KANCOLLE.resolve(encounter, orders, source)
    event = next(e for e in result.events if e["type"] == "check")
    emit({
        "dc": event["dc"], "used": event["used"], "distance": event["distance"], "check": event,
        "events": result.events, "ap": result.state["units"][0]["ap"], "dice_left": source.left(),
    })  # fmt: skip


def odds(flags: dict[str, Any]) -> None:
    """C-6: exact single-roll odds over the 36 ordered faces."""
    from pbp.engine.kancolle.grid import merged_grid, pick_trait
    from pbp.engine.kancolle.odds import check_odds

    grid, traits, designated = _sheet(flags)
    dc = flags["dc"] if designated is None else pick_trait(traits, flags.get("gap"), designated, merged_grid(grid))[2]
    p = check_odds(
        dc, kind=flags.get("kind") or "other", rating=flags["rating"], modifier=flags["modifier"],
        interfere=flags.get("interfere"), night=flags["night"],
    )  # fmt: skip
    emit({"dc": dc, **{k: float(v) for k, v in p.items()}})
