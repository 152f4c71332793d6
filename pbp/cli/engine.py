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
    """`3,1,6`: the scripted d6 results; an empty text is an empty script (a run that needs no die)."""
    dice: list[int] = []
    for i, part in enumerate(text.split(",") if text.strip() else []):
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
    if isinstance(encounter, dict) and encounter.get("ruleset") == "kancolle":
        from pbp.cli import engine_kancolle

        def run() -> None:
            orders = read_json(orders_file, "the orders") if orders_file else {"orders": []}
            overrides = None
            if overrides_file:
                doc = read_json(overrides_file, "the overrides")
                overrides = doc.get("overrides") if isinstance(doc, dict) else None
                if isinstance(overrides, dict) and list(overrides) == ["overrides"]:
                    # The vector runner writes a vector's `overrides` object (already {"overrides": [...]}) inside
                    # one more {"overrides": ...}: the same file, wrapped twice.
                    overrides = overrides["overrides"]
                if not isinstance(overrides, list):
                    raise BadInput(Problem("overrides", "must be a list", overrides_file))
            in_range(rounds, 1, MAX_ROUNDS, "--rounds")
            files = {"encounter": encounter_file, "orders": orders_file or "--orders", "overrides": overrides_file}
            pack = load_pack_data(pack_dir) if pack_dir else None
            source = dice_source(seed, dice)
            engine_kancolle.resolve(encounter, orders, overrides, source, rounds, seed, files, pack)

        engine_kancolle.contract_errors(run)
        return
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


def kancolle_options(f: Any) -> Any:
    """The flags of `--ruleset kancolle`'s check and odds (engine-cli-kancolle.md)."""
    options = [
        click.option("--dc", type=int, help="kancolle: the DC (else from --designated, --traits and --gap)."),
        click.option("--designated", help="kancolle: the designated trait."),
        click.option("--traits", help="kancolle: the held traits, NAME:merit,NAME:weakness."),
        click.option("--gap", type=click.IntRange(1, 5), help="kancolle: the blacked-out gap column."),
        click.option("--kind", type=click.Choice(KANCOLLE_KINDS), help="kancolle: the check's kind."),
        click.option("--rating", default=0, type=int, help="kancolle: the rating the check adds."),
        click.option("--modifier", default=0, type=int, help="kancolle: the sum of modifiers."),
        click.option("--interfere", type=click.IntRange(1, 6), help="kancolle: the face interference zeroes."),
        click.option("--night", is_flag=True, help="kancolle: a night-battle check."),
        click.option("--side", type=click.Choice(["pc", "enemy"]), help="kancolle: the unit's side."),
        click.option("--grid", "grid", metavar="FILE", help="kancolle: more grid names, {name: [c, r]}."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


KANCOLLE_KINDS = ["hit", "evasion", "torpedo", "air", "recon", "night", "retreat", "event", "salvage", "other"]


def pool_needs(**given: int | None) -> None:
    """`pool`'s check and odds need these flags (click cannot require them only for one ruleset)."""
    for name, value in given.items():
        if value is None:
            raise click.UsageError(f"Missing option '--{name.replace('_', '-')}'.")


@engine.command()
@click.option("--ruleset", default="pool", show_default=True)
@click.option("--stat", type=int, help="pool: the parent stat: the number of dice.")
@click.option("--skill-level", type=int, help="pool: the skill level: faces at most this succeed.")
@click.option("--dice-bonus", default=0, type=int, help="pool: extra dice (items, effects).")
@click.option("--success-bonus", default=0, type=int, help="pool: successes added after counting.")
@click.option("--need", type=int, help="pool: successes needed (N成功).")
@kancolle_options
@click.option("--ap", type=int, help="kancolle: the unit's AP (default 10).")
@click.option("--ap-max", type=int, help="kancolle: the unit's AP maximum.")
@click.option("--rechallenge", metavar="MAX,KEEP", help="kancolle: the re-challenge policy.")
@click.option("--seed")
@click.option("--dice")
def check(
    ruleset: str, stat: int | None, skill_level: int | None, dice_bonus: int, success_bonus: int, need: int | None,
    seed: str | None, dice: str | None, **kancolle: Any,
) -> None:  # fmt: skip
    """Roll one check: pool's success count (R-CHECK-1/2) or kancolle's behaviour check (C-5)."""
    rs = ruleset_named(ruleset, "--ruleset")
    if rs.id == "kancolle":
        from pbp.cli import engine_kancolle

        engine_kancolle.contract_errors(lambda: engine_kancolle.check(kancolle, dice_source(seed, dice)))
        return
    pool_needs(stat=stat, skill_level=skill_level)
    assert stat is not None and skill_level is not None
    in_range(stat, 0, MAX_POOL, "--stat")
    in_range(dice_bonus, -MAX_POOL, MAX_POOL, "--dice-bonus")
    in_range(skill_level, MIN_LEVEL, MAX_LEVEL, "--skill-level")
    source = dice_source(seed, dice)
    result = roll_check(source, max(0, stat + dice_bonus), skill_level, success_bonus=success_bonus, need=need)
    emit(result.to_json())


@engine.command()
@click.option("--ruleset", default="pool", show_default=True)
@click.option("--stat", type=int, help="pool: the parent stat.")
@click.option("--skill-level", type=int, help="pool: the skill level.")
@click.option("--need", type=int, help="pool: print P(successes >= NEED).")
@click.option("--vs-stat", type=int, help="pool: opposed check (R-HIT-2): the evader's dice.")
@click.option("--vs-level", type=int, help="pool: opposed check: the evader's skill level.")
@kancolle_options
def odds(
    ruleset: str, stat: int | None, skill_level: int | None, need: int | None, vs_stat: int | None,
    vs_level: int | None, **kancolle: Any,
) -> None:  # fmt: skip
    """Exact probabilities of a check (never sampled)."""
    rs = ruleset_named(ruleset, "--ruleset")
    if rs.id == "kancolle":
        from pbp.cli import engine_kancolle

        engine_kancolle.contract_errors(lambda: engine_kancolle.odds(kancolle))
        return
    pool_needs(stat=stat, skill_level=skill_level)
    assert stat is not None and skill_level is not None
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
