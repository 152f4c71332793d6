"""Players saving their entries at once, each in its own process: `run_savers` starts them and gathers what they
report (the concurrent-saves test and `bench/saves.py` both use it); `python save_worker.py MODE ROUND_ID
CHARACTER_ID USER_ID SAVES GAP_SECONDS` is one of them (the database from DATABASE_URL).

A worker connects, prints `ready`, waits for a line on stdin (so all start together), then writes SAVES times, the
i-th write not before i * GAP_SECONDS (plus a jitter) after the start. MODE `save` saves the character's entry
through the service, each time with its own prose; MODE `bare` writes one row with plain sqlite3 instead (the
floor any save pays under the same contention: the benchmark's baseline). It prints one JSON line: the seconds of
every write, the refusals and errors (one line each, never a traceback), and the last acknowledged save (prose and
receipt digest), which is what the database must keep.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ORDER = {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"]}}


def line_battle(pack: dict[str, Any], pcs: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """A first round's encounter of `pack`'s battle for any number of PCs (character id, sheet): the PCs in a line
    20 m apart, three kagachi 600 m off (the pack's start positions are for four)."""
    from pbp.engine.pool.encounters import unit_from_enemy, unit_from_sheet
    from pbp.engine.pool.rules import DEFAULT_OPTIONS

    units = [unit_from_sheet(pack, sheet, f"pc{cid}", "pc", [i * 20, 0]) for i, (cid, sheet) in enumerate(pcs)]
    units += [unit_from_enemy(pack, "kagachi", f"kagachi{i}", [600 + 40 * i, 100]) for i in range(3)]
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**DEFAULT_OPTIONS, **pack.get("options", {})},
        "units": units,
        "terrain": [],
        "gimmicks": [],
    }


def a_round_with_players(players: int) -> tuple[int, list[tuple[int, int]]]:
    """The demo campaign's battle run with `players` players' characters joined and an open round (deadline an
    hour ahead on the system clock): its id and the (character, user) pairs. The battle has start positions for
    four, so the GM sets the starting encounter (every PC in a line, three enemies)."""
    from pbp.models import ScenarioSecret
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns, characters, rounds, scenarios
    from pbp.services.clock import SYSTEM

    gm = accounts.create_user("gm", "gm-password")
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id)
    run = campaigns.create_scenario(campaign.id, "tama_river", slug="crowd", slots=players)
    pairs = []
    for i in range(players):
        user = accounts.create_user(f"player{i}", "player-password")
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"]["aoi"])
        scenarios.join_scenario(run.id, character.id, user_id=user.id)
        pairs.append((character.id, user.id))
    pack = campaign.pack
    start = line_battle(pack, [(cid, pack["characters"]["aoi"]) for cid, _ in pairs])
    ScenarioSecret.update(encounter_state=start).where(ScenarioSecret.scenario == run.id).execute()
    rid = rounds.create_round(run.id, SYSTEM.now() + timedelta(hours=1)).id
    rounds.open_round(rid)
    return rid, pairs


def run_savers(mode: str, round_id: int, pairs: list[tuple[int, int]], saves: int, gap: float) -> list[dict[str, Any]]:
    """One worker process per (character, user) pair, started together; their reports, in the pairs' order."""
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, mode, str(round_id), str(cid), str(uid), str(saves), str(gap)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        for cid, uid in pairs
    ]
    for p in procs:
        assert p.stdout.readline() == "ready\n"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = [json.loads(p.communicate(timeout=600)[0]) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(procs)
    return reports


def _bare_writer(connection: sqlite3.Connection, character_id: int) -> Callable[[str], None]:
    connection.execute("CREATE TABLE IF NOT EXISTS bench_bare (character_id INTEGER, prose TEXT)")

    def write(prose: str) -> None:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO bench_bare VALUES (?, ?)", (character_id, prose))
        connection.execute("COMMIT")

    return write


def main(mode: str, round_id: int, character_id: int, user_id: int, saves: int, gap: float) -> None:
    from pbp import db
    from pbp.services import entries

    rng = random.Random(character_id)
    latencies: list[float] = []
    errors: list[str] = []
    last = None
    with db.connected():
        if mode == "bare":
            path = Path(db.database_url().removeprefix("sqlite:///"))
            bare = sqlite3.connect(path, isolation_level=None, timeout=db.SQLITE_TIMEOUT)
            write = _bare_writer(bare, character_id)
        print("ready", flush=True)
        sys.stdin.readline()
        start = time.perf_counter()
        for i in range(saves):
            wait = start + i * gap + rng.uniform(0, gap) - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            prose = f"{character_id}-{i} 撃つ。"
            t0 = time.perf_counter()
            try:
                if mode == "bare":
                    write(prose)
                else:
                    receipt = entries.save_entry(round_id, character_id, user_id=user_id, order=ORDER, prose=prose)
                    last = {"prose": prose, "receipt": receipt.digest}
            except Exception as e:  # counted and shown by the caller
                errors.append(f"{type(e).__name__}: {e}")
            latencies.append(time.perf_counter() - t0)
    print(json.dumps({"latencies": latencies, "errors": errors, "last": last}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]))
