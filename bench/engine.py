"""Engine benchmarks (issue 2): seeded checks per second, and the cost of an attack in a 200-unit round.

Both are reported as ratios to a bare `random.randint` loop counting the same six dice, measured in the same run;
the kancolle behaviour check (issue 32) as a ratio to pool's check.
"""

from __future__ import annotations

import marshal
import random

from bench._timing import interleaved_runs
from pbp.engine import SeededDice, find_ruleset
from pbp.engine.checks import roll_check
from pbp.engine.kancolle.base import BaseRun
from pbp.engine.kancolle.schema import with_defaults
from pbp.engine.pool.battle import Battle

N_CHECKS = 100_000


def bare_randint_checks(n: int) -> int:
    """The baseline: six `randint(1, 6)` dice, count those <= 3."""
    rnd = random.Random(1).randint
    total = 0
    for _ in range(n):
        total += sum(1 for _ in range(6) if rnd(1, 6) <= 3)
    return total


def engine_checks(n: int) -> int:
    dice = SeededDice("bench")
    total = 0
    for _ in range(n):
        total += roll_check(dice, 6, 3).successes
    return total


def kancolle_checks(n: int) -> int:
    """n kancolle behaviour checks (§12.1) through the engine's own procedure: a ship girl who lacks the designated
    trait, so each check finds its substitute on the grid; the events are the ones `resolve` would emit."""
    unit = {
        "id": "a", "side": "pc", "ratings": {"命中": 0, "火力": 1, "回避": 0, "装甲": 5, "装備力": 3},
        "ap": 10, "ap_max": 10, "position": 1, "gap": 5, "emotions": {},
        "traits": [{"name": "砲撃", "kind": "merit"}, {"name": "元気", "kind": "merit"}],
    }  # fmt: skip
    encounter = {"ruleset": "kancolle", "mode": "checks", "grid": {"砲撃": [6, 7], "元気": [3, 7], "規律": [5, 5]},
                 "units": [unit]}  # fmt: skip
    run = BaseRun(with_defaults(encounter), {"orders": []}, SeededDice("bench"), [])
    a = run.units[0]
    total = 0
    for i in range(n):
        total += run.check(a, "other", "規律")["success"]
        a["ap"] = 10  # specials and nothing else change it: keep every check a full one
        if i % 1000 == 999:
            run.events.clear()
    return total


def _gauge(cap: int) -> dict:
    return {"capacity": [cap] * 5, "taken": [0] * 5}


WEAPONS = [
    {"id": "rifle", "skill": "射撃", "damage": 8, "ammo": 6, "ammo_max": 6, "range": [0, 1000], "slot": "arm"},
    {"id": "blade", "skill": "白兵", "damage": 12, "ammo": None, "ammo_max": None, "range": [0, 0], "slot": "arm"},
    {"id": "missiles", "skill": "射撃", "damage": 6, "ammo": 2, "ammo_max": 2, "range": [0, 800], "slot": "torso",
     "targets": 3, "inflicts": "lock_on"},
    {"id": "stunner", "skill": "射撃", "damage": 3, "ammo": 4, "ammo_max": 4, "range": [0, 500], "slot": "torso",
     "inflicts": "stun"},
]  # fmt: skip
STATUS_MIX = [
    [], [{"id": "stun", "rounds_left": 2}], [{"id": "leg_damage"}], [], [{"id": "lock_on", "fires_at_round": 1}],
]  # fmt: skip


def battle_200() -> tuple[dict, dict]:
    """20 engagements of 10 (5 PCs against 5 enemies), every unit attacking with one of four weapon kinds."""
    units, orders = [], []
    skill_stats = {"射撃": "感覚", "白兵": "肉体", "回避": "肉体", "情報処理": "理知"}
    for e in range(20):
        for k in range(10):
            side = "pc" if k < 5 else "enemy"
            uid = f"u{e}_{k}"
            units.append({
                "id": uid, "name": uid, "side": side,
                "stats": {"肉体": 3 + k % 3, "感覚": 2 + k % 4, "理知": 2, "文化": 2},
                "skills": {"射撃": 3, "白兵": 2 + k % 3, "回避": 2}, "skill_stats": skill_stats,
                "injury": _gauge(10), "weapons": [], "items": [],
                "vehicle": {"id": f"v{uid}", "kind": "savior", "move": 100, "movement": "ground", "size": "large",
                            "stat_mods": {}, "damage": _gauge(12), "weapons": [dict(w) for w in WEAPONS]},
                "statuses": [dict(s) for s in STATUS_MIX[(e + k) % 5]],
                "position": [e * 2000, 0], "engagement": f"e{e + 1}",
            })  # fmt: skip
            foes = [f"u{e}_{j}" for j in (range(5, 10) if side == "pc" else range(5))]
            weapon = WEAPONS[(e + k) % 4]
            targets = foes[: weapon.get("targets", 1)] if weapon["id"] == "missiles" else [foes[k % 5]]
            orders.append(
                {
                    "unit": uid,
                    "minor": None,
                    "major": {"type": "attack", "weapon": weapon["id"], "targets": targets, "item": None},
                }
            )
    return {"ruleset": "pool", "round": 1, "units": units, "terrain": []}, {"orders": orders}


def battlefield(n: int) -> dict:
    """`n` units of the 200-unit battle's kind, PCs and enemies alternating, scattered (seeded) over a square map
    whose side grows as the square root of `n`: a unit's neighbourhood looks alike at every size, so a linear
    tactics costs the same per unit at 13 units as at 260."""
    template, _ = battle_200()
    rnd = random.Random(n)
    side = int(400 * n**0.5)
    units = []
    for k in range(n):
        unit = {**template["units"][k % 200], "id": f"t{k}", "side": "pc" if k % 2 else "enemy", "engagement": None}
        unit["position"] = [rnd.randrange(side), rnd.randrange(side)]
        units.append(unit)
    return {"ruleset": "pool", "round": 1, "units": units, "terrain": []}


TACTICS_SIZES = (13, 65, 260)


def _median_range(ratios: list[float]) -> str:
    """The repeats' own readings of a ratio (sorted): their median, sturdier than the fastest runs when the machine's
    load shifts between the contenders, and their range."""
    return f"median {ratios[len(ratios) // 2]:.1f}, {ratios[0]:.1f}..{ratios[-1]:.1f}"


def main() -> None:
    encounter, orders = battle_200()
    pool = find_ruleset("pool")
    attacks = sum(1 for e in pool.resolve(encounter, orders, SeededDice("b")).events if e["type"] == "attack")

    def resolution_only() -> None:
        state = marshal.loads(marshal.dumps(encounter))  # the private copy resolve makes
        Battle(state, orders, SeededDice("b"), [], None).run(1)

    fields = [battlefield(n) for n in TACTICS_SIZES]
    tactics = [
        lambda field=field: pool.default_orders(field, {"orders": []}, sides=("pc", "enemy")) for field in fields
    ]
    # Every contender runs in turn on each repeat, so a slow spell of the machine hits them all alike.
    runs = interleaved_runs(
        [
            lambda: bare_randint_checks(N_CHECKS),
            lambda: engine_checks(N_CHECKS),
            lambda: kancolle_checks(N_CHECKS),
            resolution_only,
            lambda: pool.resolve(encounter, orders, SeededDice("b")),
            lambda: pool.resolve(encounter, {"orders": []}, SeededDice("b")),
            *tactics,
        ],
        repeat=9,
    )
    base, eng, kancolle, run, full, idle, *curve = (min(times) for times in runs)
    per_base = base / N_CHECKS
    print(f"(a) bare randint 6d6<=3 : {N_CHECKS / base:>10,.0f} checks/s")
    print(
        f"    engine seeded check : {N_CHECKS / eng:>10,.0f} checks/s   ratio engine/baseline = {base / eng:.2f}"
        "  (goal >= 0.5)"
    )
    print(
        f"    kancolle 2d6 check  : {N_CHECKS / kancolle:>10,.0f} checks/s   ratio kancolle/pool = {kancolle / eng:.2f}"
        "  (time per check; goal <= 2)"
    )
    marginal = (full - idle) / attacks
    # Each repeat's own readings (its three runs side by side), to show how far the machine's noise moves them.
    per_repeat = list(zip(runs[0], runs[4], runs[5], strict=True))
    marginals = sorted((f - i) / attacks / (b / N_CHECKS) for b, f, i in per_repeat)
    wholes = sorted(f / attacks / (b / N_CHECKS) for b, f, _ in per_repeat)
    print(f"(b) P2: 200-unit round, {attacks} attacks (area weapons count once per target); goal: both ratios <= 5")
    print(
        f"    marginal: an attack (the round with the attacks - the round without orders): {marginal * 1e6:.1f} us"
        f"  ratio attack/bare check = {marginal / per_base:.1f}  (repeats {_median_range(marginals)})"
    )
    print(
        f"    whole round: resolve() {full * 1000:.1f} ms / {attacks} attacks = {full / attacks * 1e6:.1f} us each"
        f"  ratio {full / attacks / per_base:.1f}  (repeats {_median_range(wholes)})"
    )
    print(f"    the round without orders (validation, private copy, initiative, cleanup): {idle * 1e3:.1f} ms")
    print(
        f"    resolution alone (copy + round, no validation): {run / attacks * 1e6:.1f} us per attack,"
        f" ratio {run / attacks / per_base:.1f}"
    )
    print("(c) default tactics, both sides (pool.default_orders): the cost per unit as the battle grows")
    for n, t in zip(TACTICS_SIZES, curve, strict=True):
        print(f"    {n:>4} units: {t / n * 1e6:7.1f} us per unit   ratio per unit/bare check = {t / n / per_base:.1f}")
