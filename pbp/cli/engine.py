"""`pbp engine resolve | check | odds`: the engine's fixed command-line contract (spec/engine-cli.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbp.cli.files import read_json
from pbp.engine import BadInput, DiceSource, Problem, ScriptedDice, SeededDice, find_ruleset, ruleset_named
from pbp.engine.checks import MAX_LEVEL, MAX_POOL, MIN_LEVEL, roll_check
from pbp.engine.odds import distribution, opposed, p_at_least


def register(cli: click.Group) -> None:
    cli.add_command(engine)


@click.group()
def engine() -> None:
    """Drive the rules engine directly (JSON in, JSON out)."""


def parse_dice(text: str) -> list[int]:
    dice = []
    for i, part in enumerate(text.split(",")):
        part = part.strip()
        if not (part.isdigit() and 1 <= int(part) <= 6):
            raise BadInput(Problem(f"--dice[{i}]", f"{part!r} is not a d6 result (1..6)"))
        dice.append(int(part))
    return dice


def dice_source(seed: str | None, dice: str | None) -> DiceSource:
    if (seed is None) == (dice is None):
        raise BadInput(Problem("--seed/--dice", "give exactly one of --seed TEXT or --dice 3,1,6,..."))
    return SeededDice(seed) if seed is not None else ScriptedDice(parse_dice(dice))


def emit(obj: dict) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


#: The most rounds one resolve may play: far beyond any game, small enough that a mistyped number answers at once.
MAX_ROUNDS = 100


def in_range(value: int, lo: int, hi: int, name: str) -> None:
    if not lo <= value <= hi:
        raise BadInput(Problem(name, f"{value} is outside {lo}..{hi}"))


def load_pack_data(pack_dir: str | None) -> dict:
    """The campaign pack's parsed data (`--pack DIR`, default: the demo campaign)."""
    from pbp.packs import load_valid_pack
    from pbp.paths import DEMO_PACK_DIR

    return load_valid_pack(Path(pack_dir) if pack_dir else DEMO_PACK_DIR).data


@engine.command()
@click.argument("encounter_file", metavar="ENCOUNTER.json")
@click.option("--orders", "orders_file", metavar="ORDERS.json", help="Orders for the units (default: none).")
@click.option("--seed", help="Seed of the verifiable dice stream.")
@click.option("--dice", help="Scripted d6 results, comma-separated, consumed in rules order.")
@click.option("--rounds", default=1, show_default=True, type=int, help="Rounds to play with the same orders.")
@click.option("--overrides", "overrides_file", metavar="FILE", help="GM overrides by check id (R-GM-1).")
@click.option("--pack", "pack_dir", metavar="DIR", help="Campaign pack for defaults (default: the demo's).")
def resolve(
    encounter_file: str,
    orders_file: str | None,
    seed: str | None,
    dice: str | None,
    rounds: int,
    overrides_file: str | None,
    pack_dir: str | None,
) -> None:
    """Resolve rounds of an encounter and print the new state and the events."""
    encounter = read_json(encounter_file, "the encounter")
    orders = read_json(orders_file, "the orders") if orders_file else {"orders": []}
    overrides: Any = []
    if overrides_file:
        doc = read_json(overrides_file, "the overrides")
        overrides = doc.get("overrides") if isinstance(doc, dict) else None
        if not isinstance(overrides, list):  # a typo in the key must not drop the GM's overrides silently
            wanted = 'must be a list: the file is {"overrides": [{"check": ..., "successes": ..., "reason": ...}]}'
            raise BadInput(Problem("overrides", wanted, overrides_file))
    in_range(rounds, 1, MAX_ROUNDS, "--rounds")
    source = dice_source(seed, dice)
    rs = ruleset_named(encounter.get("ruleset", "pool") if isinstance(encounter, dict) else "pool", file=encounter_file)
    files = {"encounter": encounter_file, "orders": orders_file or "--orders", "overrides": overrides_file}
    pack = load_pack_data(pack_dir)
    try:
        result = rs.resolve(encounter, orders, source, rounds=rounds, overrides=overrides, pack=pack)
    except BadInput as e:  # name the files the problems are in
        raise BadInput([Problem(p.path, p.message, files.get(p.file) or p.file) for p in e.problems]) from None
    emit({
        "state": result.state,
        "events": result.events,
        "dice_left": source.left(),
        "dice_used": source.used,
        "seed": seed,
        "unused_overrides": result.unused_overrides,
    })  # fmt: skip


@engine.command()
@click.option("--ruleset", default="pool", show_default=True)
@click.option("--stat", required=True, type=int, help="The parent stat: the number of dice.")
@click.option("--skill-level", required=True, type=int, help="The skill level: faces at most this succeed.")
@click.option("--dice-bonus", default=0, type=int, help="Extra dice (items, effects).")
@click.option("--success-bonus", default=0, type=int, help="Successes added after counting.")
@click.option("--need", type=int, help="Successes needed (N成功).")
@click.option("--seed")
@click.option("--dice")
def check(
    ruleset: str, stat: int, skill_level: int, dice_bonus: int, success_bonus: int, need: int | None,
    seed: str | None, dice: str | None,
) -> None:  # fmt: skip
    """Roll one success-count check (R-CHECK-1/2)."""
    ruleset_named(ruleset, "--ruleset")
    in_range(stat, 0, MAX_POOL, "--stat")
    in_range(dice_bonus, -MAX_POOL, MAX_POOL, "--dice-bonus")
    in_range(skill_level, MIN_LEVEL, MAX_LEVEL, "--skill-level")
    source = dice_source(seed, dice)
    result = roll_check(source, max(0, stat + dice_bonus), skill_level, success_bonus=success_bonus, need=need)
    emit(result.to_json())


@engine.command()
@click.option("--ruleset", default="pool", show_default=True)
@click.option("--stat", required=True, type=int)
@click.option("--skill-level", required=True, type=int)
@click.option("--need", type=int, help="Print P(successes >= NEED).")
@click.option("--vs-stat", type=int, help="Opposed check (R-HIT-2): the evader's dice.")
@click.option("--vs-level", type=int, help="Opposed check: the evader's skill level.")
def odds(
    ruleset: str, stat: int, skill_level: int, need: int | None, vs_stat: int | None, vs_level: int | None
) -> None:
    """Exact probabilities of a check (never sampled)."""
    ruleset_named(ruleset, "--ruleset")
    in_range(stat, 0, MAX_POOL, "--stat")
    in_range(skill_level, MIN_LEVEL, MAX_LEVEL, "--skill-level")
    if (vs_stat is None) != (vs_level is None):
        raise BadInput(Problem("--vs-stat/--vs-level", "an opposed check needs both --vs-stat and --vs-level"))
    if vs_stat is not None and need is not None:  # the two answer different questions: never drop one silently
        raise BadInput(Problem("--need", "an opposed check (--vs-stat/--vs-level) has no need: give one or the other"))
    if vs_stat is not None:
        in_range(vs_stat, 0, MAX_POOL, "--vs-stat")
        in_range(vs_level, MIN_LEVEL, MAX_LEVEL, "--vs-level")
        p_hit, margin = opposed(stat, skill_level, vs_stat, vs_level)
        emit({"p_hit": float(p_hit), "expected_margin_given_hit": float(margin)})
    elif need is not None:
        emit({"p_success": float(p_at_least(stat, skill_level, need))})
    else:
        emit({"distribution": {str(k): float(p) for k, p in sorted(distribution(stat, skill_level).items())}})


@engine.command()
@click.option("--seed", default="demo", show_default=True, help="Seed of the dice stream.")
@click.option("--rounds", default=3, show_default=True, type=int)
@click.option("--scenario", default="tama_river", show_default=True, help="A battle scenario of the demo pack.")
def demo(seed: str, rounds: int, scenario: str) -> None:
    """Fight the demo campaign's battle with its ready-made PCs and print a round-by-round log."""
    from pbp.engine.pool.describe import describe

    in_range(rounds, 1, 20, "--rounds")
    pack = load_pack_data(None)
    rs = find_ruleset(pack["campaign"]["ruleset"])
    if scenario not in pack["scenarios"]:
        raise BadInput(Problem("--scenario", f"the demo has no scenario {scenario!r} ({', '.join(pack['scenarios'])})"))
    pcs = [(cid, sheet) for cid, sheet in pack["characters"].items()]
    encounter = rs.build_encounter(pack, scenario, pcs)
    names = {u["id"]: u.get("name") or u["id"] for u in encounter["units"]}
    dice = SeededDice(seed)
    click.echo(f"{scenario} — seed {seed!r}")
    for _ in range(rounds):
        # Every round's orders are chosen afresh from the map, as players and the GM would: the PCs get the
        # same default tactics the enemies use.
        orders = rs.default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))
        result = rs.resolve(encounter, orders, dice, pack=pack)
        click.echo(f"\n== round {encounter['round']}")
        for ev in result.events:
            click.echo(f"  {describe(ev, names)}")
        encounter = result.state
        alive = [u for u in encounter["units"] if not u.get("removed")]
        if len({u["side"] for u in alive}) < 2:
            break
    click.echo("\n== after the battle")
    for u in encounter["units"]:
        gauges = f"injury {u['injury']['taken']}"
        if u.get("vehicle"):
            gauges += f", damage {u['vehicle']['damage']['taken']}"
        state = "dead" if u.get("dead") else "removed" if u.get("removed") else "standing"
        statuses = ", ".join(s["id"] for s in u["statuses"]) or "-"
        click.echo(f"  {names[u['id']]} ({u['side']}): {state}; {gauges}; statuses {statuses}")
