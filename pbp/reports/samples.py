"""A sample round to measure and test the narrative on: the demo's PCs and enemies cloned into a battle of any
size, resolved by the engine and wrapped as a round bundle (what `draft_report` reads). bench/reports.py times it;
the narrative tests check that a big battle repeats no sentence."""

from __future__ import annotations

import copy
from typing import Any

from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.encounters import encounter_for_scenario
from pbp.engine.pool.tactics import default_orders
from pbp.packs import demo_pack


def battle_bundle(per_side: int, seed: str = "bench") -> tuple[dict[str, Any], dict[str, Any]]:
    """One round of a battle of `per_side` PCs against as many enemies, in two lines 300 m apart, everyone on the
    default tactics; the bundle and the demo pack."""
    pack = demo_pack().data
    base = encounter_for_scenario(pack, "tama_river", list(pack["characters"].items()))
    pools = {side: [u for u in base["units"] if u["side"] == side] for side in ("pc", "enemy")}
    units = []
    for i in range(per_side):
        for side, pool in pools.items():
            unit = copy.deepcopy(pool[i % len(pool)])
            unit["id"], unit["name"] = f"{side}{i}", f"{unit['name']}{i}"
            unit["position"] = [i * 15 + (300 if side == "enemy" else 0), i * 10]
            units.append(unit)
    encounter = {**base, "units": units}
    orders = default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))
    result = find_ruleset("pool").resolve(encounter, orders, SeededDice(seed), pack=pack)
    bundle = {
        "round": {"number": 1, "scenario_title": "ベンチマーク", "campaign": "demo", "pack_scenario": "tama_river"},
        "ruleset": "pool",
        "seed": seed,
        "seed_hash": seed_hash(seed),
        "encounter": encounter,
        "events": result.events,
        "state": result.state,
    }
    return bundle, pack


def pc_lines(bundle: dict[str, Any]) -> dict[str, str]:
    """A quoted line for every PC of the bundle, each naming its speaker (as players' entries would differ)."""
    pcs = [u for u in bundle["encounter"]["units"] if u["side"] == "pc"]
    return {u["id"]: f"「ここは通さない、{u['name']}が相手だ」" for u in pcs}
