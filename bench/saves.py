"""Saves near the deadline: 24 players, each in its own process, saving their entries for one round of a SQLite
(WAL) database over a short window, as the last seconds before a deadline look. Every save must be acknowledged and
the database must keep each player's last acknowledged version.

Baseline, same run, same file, same schedule: the 24 processes each writing one row with plain sqlite3 (BEGIN
IMMEDIATE, INSERT, COMMIT), the floor any save pays under that contention. Goal: p99 of a save at most 250 ms.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

SAVERS = int(os.environ.get("PBP_BENCH_SAVERS", "24"))
SAVES = int(os.environ.get("PBP_BENCH_SAVES", "10"))  # per saver
WINDOW = float(os.environ.get("PBP_BENCH_WINDOW", "5"))  # seconds the saves are spread over
GOAL_P99 = 0.250


def _quantiles(reports: list[dict[str, Any]]) -> tuple[float, float, float]:
    """p50, p99 and the slowest of every write, in seconds."""
    times = sorted(t for r in reports for t in r["latencies"])
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return cuts[49], cuts[98], times[-1]


def main() -> None:
    from argon2 import PasswordHasher

    from pbp import db as pbp_db
    from pbp import migrations
    from pbp.models import Entry
    from pbp.services import accounts
    from tests.lifecycle.save_worker import a_round_with_players, run_savers

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        os.environ["DATABASE_URL"] = url
        database = pbp_db.bind(url)
        with database.connection_context():
            migrations.upgrade(database)
            accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # setting up is not timed
            rid, pairs = a_round_with_players(SAVERS)
        gap = WINDOW / SAVES
        bare = run_savers("bare", rid, pairs, SAVES, gap)
        saved = run_savers("save", rid, pairs, SAVES, gap)
        with database.connection_context():
            stored = {e.character_id: (e.prose, e.receipt) for e in Entry.select().where(Entry.round == rid)}
    attempts = SAVERS * SAVES
    acknowledged = sum(len(r["latencies"]) - len(r["errors"]) for r in saved)
    kept = sum(
        r["last"] is not None and stored.get(cid) == (r["last"]["prose"], r["last"]["receipt"])
        for (cid, _), r in zip(pairs, saved, strict=True)
    )
    errors = [e for r in saved + bare for e in r["errors"]]
    b50, b99, bmax = _quantiles(bare)
    p50, p99, pmax = _quantiles(saved)
    print(f"{SAVERS} processes x {SAVES} saves of one round's entries over {WINDOW:g} s (SQLite WAL)")
    print(f"  acknowledged {acknowledged} of {attempts}; each player's last acknowledged save kept: {kept} of {SAVERS}")
    print(f"  save latency: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, slowest {pmax * 1000:.1f} ms")
    print(
        f"baseline (plain sqlite3 write, same processes and schedule): p50 {b50 * 1000:.1f} ms, "
        f"p99 {b99 * 1000:.1f} ms, slowest {bmax * 1000:.1f} ms"
    )
    print(f"  pbp takes {p50 / b50:.1f}x the baseline at p50, {p99 / b99:.1f}x at p99")
    for error in sorted(set(errors))[:5]:
        print(f"  error: {error}")
    verdict = "met" if p99 <= GOAL_P99 and acknowledged == attempts and kept == SAVERS else "MISSED"
    print(f"goal: every save acknowledged and kept, p99 at most {GOAL_P99 * 1000:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
