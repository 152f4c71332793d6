"""The demo battle as round bundles, straight from the engine (no database): the reports tests' fixture data."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.encounters import encounter_for_scenario
from pbp.engine.pool.tactics import default_orders
from pbp.packs import demo_pack

PROSE = {
    "aoi": "「ここで止める——絶対に！」\nカガチの群れを川で食い止める。ビームライフルで先頭を狙う。",
    "makoto": "上空から全体を見渡し、ミサイルで群れをまとめて叩く。軽口は叩くが、油断はしない。",
}


@cache
def demo_bundles(seed: str = "golden", rounds: int = 3, scenario: str = "tama_river") -> tuple[dict[str, Any], ...]:
    """`rounds` rounds of the demo battle, each as the bundle the lifecycle would publish (seeded per round)."""
    pack = demo_pack().data
    encounter = encounter_for_scenario(pack, scenario, list(pack["characters"].items()))
    bundles = []
    for n in range(1, rounds + 1):
        round_seed = f"{seed}-{n}"
        orders = default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))
        result = find_ruleset("pool").resolve(encounter, orders, SeededDice(round_seed), pack=pack)
        bundles.append(
            {
                "format": "pbp-round-bundle/1",
                "round": {
                    "id": n,
                    "number": n,
                    "scenario": scenario,
                    "scenario_title": pack["scenarios"][scenario]["ja"],
                    "campaign": "demo",
                    "deadline": f"2026-12-0{n}T12:00:00Z",
                },
                "ruleset": "pool",
                "seed": round_seed,
                "seed_hash": seed_hash(round_seed),
                "encounter": encounter,
                "orders": orders,
                "overrides": [],
                "events": result.events,
                "state": result.state,
            }
        )
        encounter = result.state
    return tuple(bundles)
