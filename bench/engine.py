"""Engine benchmarks (issue 2): seeded checks per second, and the cost of an attack in a 200-unit round.

Both are reported as ratios to a bare `random.randint` loop counting the same six dice, measured in the same run.
"""

from __future__ import annotations

import marshal
import random

from bench._timing import interleaved
from pbp.engine import SeededDice, find_ruleset
from pbp.engine.checks import roll_check
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


def main() -> None:
    encounter, orders = battle_200()
    pool = find_ruleset("pool")
    attacks = sum(1 for e in pool.resolve(encounter, orders, SeededDice("b")).events if e["type"] == "attack")

    def resolution_only() -> None:
        state = marshal.loads(marshal.dumps(encounter))  # the private copy resolve makes
        Battle(state, orders, SeededDice("b"), [], None).run(1)

    # Every contender runs in turn on each repeat, so a slow spell of the machine hits them all alike.
    base, eng, run, full, idle = interleaved(
        [
            lambda: bare_randint_checks(N_CHECKS),
            lambda: engine_checks(N_CHECKS),
            resolution_only,
            lambda: pool.resolve(encounter, orders, SeededDice("b")),
            lambda: pool.resolve(encounter, {"orders": []}, SeededDice("b")),
        ],
        repeat=9,
    )
    per_base = base / N_CHECKS
    print(f"(a) bare randint 6d6<=3 : {N_CHECKS / base:>10,.0f} checks/s")
    print(
        f"    engine seeded check : {N_CHECKS / eng:>10,.0f} checks/s   ratio engine/baseline = {base / eng:.2f}"
        "  (goal >= 0.5)"
    )
    marginal = (full - idle) / attacks
    print(f"(b) 200-unit round, {attacks} attacks (area weapons count once per target)")
    print(
        f"    an attack (round with the attacks - the same round without orders): {marginal * 1e6:5.1f} us"
        f"   ratio attack/bare check = {marginal / per_base:.1f}  (goal <= 10)"
    )
    print(
        f"    the whole round, resolve() : {full * 1000:6.1f} ms, of which {idle * 1000:.1f} ms without orders "
        f"(validation, private copy, initiative, cleanup of 200 units) = {full / attacks * 1e6:5.1f} us per attack, "
        f"ratio {full / attacks / per_base:.1f}"
    )
    print(
        f"    resolution alone (copy + round, no validation): {run / attacks * 1e6:5.1f} us per attack, "
        f"ratio {run / attacks / per_base:.1f}"
    )
