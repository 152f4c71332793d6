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


def shaped_bundle(
    actions: list[dict[str, Any]], *, start: dict[str, Any] | None = None, seed: str = "golden-2"
) -> dict[str, Any]:
    """Round 2 of the demo battle as the GM shaped it: `actions` applied to `start` (by default where round 1 left
    the battle), the round resolved from the result with round 2's seed, as the lifecycle stores and publishes it."""
    from pbp.engine.pool.gm_actions import apply_gm_actions

    pack = demo_pack().data
    previous = demo_bundles()[1]
    start = start or demo_bundles()[0]["state"]
    encounter = apply_gm_actions(start, actions)
    assert isinstance(encounter, dict), encounter
    orders = default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))
    result = find_ruleset("pool").resolve(encounter, orders, SeededDice(seed), pack=pack)
    return {
        **previous,
        "seed": seed,
        "seed_hash": seed_hash(seed),
        "encounter": encounter,
        "orders": orders,
        "events": result.events,
        "state": result.state,
        "start": start,
        "gm_actions": actions,
    }


def reinforcement(unit_id: str = "elder1", enemy: str = "kagachi_elder", position: list[float] | None = None) -> dict:
    """The GM's `add_unit` action for an enemy of the demo pack (as `shaping.record_action` builds it)."""
    from pbp.engine.pool.encounters import unit_from_enemy

    unit = unit_from_enemy(demo_pack().data, enemy, unit_id, position or [700, 0])
    return {"kind": "add_unit", "unit": unit, "reason": "the swarm grows"}
