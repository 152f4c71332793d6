"""Report benchmarks (issue 4): reports per second for a 20-unit battle, events -> story (Jinja) -> safe HTML
(python-markdown + nh3), against a same-run baseline that renders the same events as a bare JSON dump.

The two are interleaved and repeated (bench/_timing.py): the ratio is of their fastest runs, with its spread.
"""

from __future__ import annotations

import json
import os

from bench._timing import interleaved_runs, spread
from pbp.reports import draft_report, render_markdown
from pbp.reports.samples import battle_bundle, pc_lines

N_REPORTS = 200
UNITS_PER_SIDE = 10
REPEAT = int(os.environ.get("PBP_BENCH_REPEAT", "5"))


def main() -> None:
    bundle, pack = battle_bundle(UNITS_PER_SIDE)
    prose = pc_lines(bundle)

    def reports() -> None:
        for n in range(N_REPORTS):
            story = draft_report({**bundle, "seed_hash": f"{n:064x}"}, prose=prose, pack=pack)
            render_markdown(story)

    def baseline() -> None:
        for n in range(N_REPORTS):
            json.dumps({"n": n, "events": bundle["events"]}, ensure_ascii=False)

    runs_base, runs_reports = interleaved_runs([baseline, reports], REPEAT)
    t_base, t_reports = min(runs_base), min(runs_reports)
    events = len(bundle["events"])
    print(f"reports: {N_REPORTS} reports of a {2 * UNITS_PER_SIDE}-unit battle ({events} events each)")
    print(f"  story + HTML: {N_REPORTS / t_reports:,.0f} reports/s")
    print(f"  baseline (JSON dump of the same events): {N_REPORTS / t_base:,.0f} dumps/s")
    print(
        f"  ratio: reports take {t_reports / t_base:,.1f}x the time of the bare dump "
        f"(spread {spread(runs_reports, runs_base)})"
    )
