"""Report benchmarks (issue 4): reports per second for a 20-unit battle, events -> story (Jinja) -> safe HTML
(python-markdown + nh3), against a same-run baseline that renders the same events as a bare JSON dump.
"""

from __future__ import annotations

import copy
import json

from bench._timing import best_of
from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.pack import encounter_for_scenario
from pbp.engine.pool.tactics import default_orders
from pbp.packs import demo_pack
from pbp.reports import draft_report, render_markdown

N_REPORTS = 1_000
UNITS_PER_SIDE = 10


def battle_bundle(seed: str = "bench") -> tuple[dict, dict]:
    """One round of a 20-unit battle (10 PCs, 10 enemies, cloned from the demo's) as a round bundle, and the pack."""
    pack = demo_pack().data
    base = encounter_for_scenario(pack, "tama_river", list(pack["characters"].items()))
    pcs = [u for u in base["units"] if u["side"] == "pc"]
    foes = [u for u in base["units"] if u["side"] == "enemy"]
    units = []
    for i in range(UNITS_PER_SIDE):
        for side, pool in (("pc", pcs), ("enemy", foes)):
            unit = copy.deepcopy(pool[i % len(pool)])
            unit["id"], unit["name"] = f"{side}{i}", f"{unit['name']}{i}"
            unit["position"] = [i * 15 + (300 if side == "enemy" else 0), i * 10]
            units.append(unit)
    encounter = {**base, "units": units}
    orders = default_orders(encounter, {"orders": []}, sides=("pc", "enemy"))
    result = find_ruleset("pool").resolve(encounter, orders, SeededDice(seed), pack=pack)
    bundle = {
        "round": {"number": 1, "scenario_title": "ベンチマーク", "campaign": "demo"},
        "ruleset": "pool",
        "seed": seed,
        "seed_hash": seed_hash(seed),
        "encounter": encounter,
        "events": result.events,
        "state": result.state,
    }
    return bundle, pack


def main() -> None:
    bundle, pack = battle_bundle()
    pcs = [u for u in bundle["encounter"]["units"] if u["side"] == "pc"]
    prose = {u["id"]: f"「ここは通さない、{u['name']}が相手だ」" for u in pcs}

    def reports() -> None:
        for n in range(N_REPORTS):
            story = draft_report({**bundle, "seed_hash": f"{n:064x}"}, prose=prose, pack=pack)
            render_markdown(story)

    def baseline() -> None:
        for n in range(N_REPORTS):
            json.dumps({"n": n, "events": bundle["events"]}, ensure_ascii=False)

    t_reports = best_of(reports, repeat=1)
    t_base = best_of(baseline, repeat=3)
    events = len(bundle["events"])
    print(f"reports: {N_REPORTS} reports of a {2 * UNITS_PER_SIDE}-unit battle ({events} events each)")
    print(f"  story + HTML: {N_REPORTS / t_reports:,.0f} reports/s")
    print(f"  baseline (JSON dump of the same events): {N_REPORTS / t_base:,.0f} dumps/s")
    print(f"  ratio: reports take {t_reports / t_base:,.1f}x the time of the bare dump")
