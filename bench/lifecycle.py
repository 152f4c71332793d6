"""Round resolution throughput: 2,000 due rounds with 10 entries each on SQLite, resolved and stored by the
scheduler's path (`rounds.resolve_due`: one BEGIN IMMEDIATE transaction per round claiming it, running the engine,
storing resolution, encounter state and draft report).

Baseline, same run, a copy of the same file: plain sqlite3 reading each round's entries and writing one row per round in
its own transaction, the floor any resolver pays. The two are interleaved and repeated (PBP_BENCH_REPEAT runs, each
on a fresh copy of one populated file); the ratio is of their fastest runs, with its spread. Goal: the 20,000 entries
in under 60 s on this machine.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench._timing import spread

ROUNDS = int(os.environ.get("PBP_BENCH_ROUNDS", "2000"))
REPEAT = int(os.environ.get("PBP_BENCH_REPEAT", "3"))
ENTRIES_PER_ROUND = 10
GOAL_SECONDS = 60.0
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
PC_NAMES = ["葵", "真琴", "楓", "蓮", "陽菜", "湊", "凛", "颯", "結衣", "樹"]


def _populate(pack: dict[str, Any], campaign_id: int, owner_id: int) -> None:
    """Characters, one scenario per round with a 10-PC encounter already under way, closed rounds past their
    deadline and their entries: written in bulk (setting up is not what is measured)."""
    from pbp.engine import seed_hash
    from pbp.models import Character, Entry, Round, Scenario, ScenarioSecret
    from pbp.services.clock import to_db
    from tests.lifecycle.save_worker import line_battle

    stamp = to_db(NOW - timedelta(days=1))
    # Ten PCs built on one ready-made sheet, each under its own name, as ten players' characters would be.
    sheets = [{**pack["characters"]["aoi"], "ja": name, "en": name} for name in PC_NAMES[:ENTRIES_PER_ROUND]]
    chars = [
        Character.create(
            campaign=campaign_id, owner=owner_id, name=sheet["ja"], sheet=sheet, created_at=stamp, updated_at=stamp
        ).id
        for sheet in sheets
    ]
    encounter = line_battle(pack, list(zip(chars, sheets, strict=True)))
    order = {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi0"]}}
    spec = pack["scenarios"]["tama_river"]
    for start in range(0, ROUNDS, 500):
        batch = range(start, min(start + 500, ROUNDS))
        Scenario.insert_many(
            [
                {
                    "campaign": campaign_id,
                    "slug": f"bench-{i}",
                    "pack_scenario": "tama_river",
                    "title": f"bench {i}",
                    "kind": "battle",
                    "public_text": "",
                    "slots": ENTRIES_PER_ROUND,
                    "created_at": stamp,
                }
                for i in batch
            ]
        ).execute()
        ids = {
            s.slug: s.id for s in Scenario.select(Scenario.id, Scenario.slug).where(Scenario.slug.startswith("bench-"))
        }
        ScenarioSecret.insert_many(
            [
                {"scenario": ids[f"bench-{i}"], "gm_notes": "", "setup": spec, "encounter_state": encounter}
                for i in batch
            ]
        ).execute()
        seeds = [secrets.token_hex(32) for _ in batch]
        Round.insert_many(
            [
                {
                    "scenario": ids[f"bench-{i}"],
                    "number": 1,
                    "state": "closed",
                    "deadline": stamp,
                    "seed": seed,
                    "seed_hash": seed_hash(seed),
                    "opened_at": stamp,
                    "closed_at": stamp,
                }
                for i, seed in zip(batch, seeds, strict=True)
            ]
        ).execute()
    round_ids = [r.id for r in Round.select(Round.id)]
    rows = [
        {
            "round": rid,
            "character": cid,
            "order": order,
            "prose": "照準を合わせる。" * 10,
            "receipt": "0" * 64,
            "saved_at": stamp,
        }
        for rid in round_ids
        for cid in chars
    ]
    for start in range(0, len(rows), 2000):
        Entry.insert_many(rows[start : start + 2000]).execute()


def _baseline(path: Path) -> float:
    """Plain sqlite3: per round, read its entries and write one row, one transaction each."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=15)
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute("PRAGMA synchronous=normal")
    conn.execute("CREATE TABLE bench_baseline (round_id INTEGER PRIMARY KEY, payload TEXT)")
    round_ids = [r for (r,) in conn.execute("SELECT id FROM round ORDER BY id")]
    t0 = time.perf_counter()
    for rid in round_ids:
        rows = conn.execute('SELECT character_id, "order", prose FROM entry WHERE round_id = ?', (rid,)).fetchall()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO bench_baseline VALUES (?, ?)", (rid, repr(rows)))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - t0
    conn.close()
    return elapsed


def _timed(module: Any, name: str) -> list[float]:
    """Wrap `module.name` so that the returned one-item list accumulates the seconds spent in it."""
    spent = [0.0]
    original = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    setattr(module, name, wrapper)
    return spent


def _populated(directory: Path) -> Path:
    """A database file with the campaign, its characters and the due rounds, written once and copied for each run."""
    from pbp import db as pbp_db
    from pbp import migrations
    from pbp.models import Campaign
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns
    from pbp.services.clock import FixedClock

    path = directory / "populated.sqlite3"
    database = pbp_db.bind(f"sqlite:///{path}")
    with database.connection_context():
        migrations.upgrade(database)
        clock = FixedClock(NOW - timedelta(days=1))
        gm = accounts.create_user("gm", "bench-password", clock=clock)
        campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=clock)
        with database.atomic():
            _populate(Campaign.get_by_id(campaign.id).pack, campaign.id, gm.id)
    database.close()
    return path


def _resolve_all(path: Path) -> tuple[float, float, int, int]:
    """pbp's run on its own copy of the file: (seconds, of which drafting reports, entries, rounds resolved)."""
    from pbp import db as pbp_db
    from pbp import reports
    from pbp.models import Entry, Resolution
    from pbp.services import rounds
    from pbp.services.clock import FixedClock

    database = pbp_db.bind(f"sqlite:///{path}")
    original = reports.draft_report
    narrating = _timed(reports, "draft_report")
    try:
        with database.connection_context():
            entries = Entry.select().count()
            t0 = time.perf_counter()
            outcomes = rounds.resolve_due(clock=FixedClock(NOW))
            elapsed = time.perf_counter() - t0
            stored = Resolution.select().count()
    finally:
        reports.draft_report = original
        database.close()
    resolved = sum(o.status == "resolved" for o in outcomes)
    assert resolved == stored == ROUNDS, (resolved, stored, [o for o in outcomes if o.status != "resolved"][:3])
    return elapsed, narrating[0], entries, resolved


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        populated = _populated(Path(tmp))
        runs: list[tuple[float, float, int, int]] = []
        baselines: list[float] = []
        # Interleaved and repeated, each run on a fresh copy of the same file (bench/_timing.py's reasoning).
        for n in range(REPEAT):
            copy = Path(tmp) / f"run{n}.sqlite3"
            shutil.copyfile(populated, copy)
            baselines.append(_baseline(copy))
            shutil.copyfile(populated, copy)
            runs.append(_resolve_all(copy))
    elapsed, narrating, entries, _ = min(runs)
    baseline = min(baselines)
    print(
        f"{ROUNDS} rounds, {entries} entries resolved and stored in {elapsed:.1f} s: "
        f"{entries / elapsed:,.0f} entries/s ({ROUNDS / elapsed:,.0f} rounds/s), fastest of {REPEAT} runs"
    )
    print(f"  of which writing the draft reports (pbp.reports.draft_report): {narrating:.1f} s")
    print(
        f"baseline (plain sqlite3, read the entries + write one row per round): {baseline:.2f} s, "
        f"{entries / baseline:,.0f} entries/s; pbp takes {elapsed / baseline:.1f}x the baseline "
        f"(spread {spread([r[0] for r in runs], baselines)})"
    )
    verdict = "met" if elapsed < GOAL_SECONDS else "MISSED"
    print(f"goal: {entries} entries in under {GOAL_SECONDS:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
