"""Exactly-once under process death and under contention.

Crash: a resolver is killed with SIGKILL at random moments (during start-up, after its claim inside the write
transaction, after everything is written but before the commit), at least 20 times; each time the round is left
closed with nothing stored, and the run allowed to finish stores exactly one resolution identical to an
uninterrupted run with the same seed. Race: three processes resolve the same 200 due rounds at once. Crowd: players
saving at once, each in its own process, are all acknowledged, and the database keeps each one's last save.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import peewee
import pytest

from pbp.engine import canonical
from pbp.models import Entry, EntryRevision, Report, Resolution, Round, ScenarioSecret
from pbp.services import accounts, campaigns, entries, rounds, scenarios
from tests.lifecycle.save_worker import a_round_with_players, run_savers

pytestmark = pytest.mark.slow
WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = 24


def _snapshot(rid: int) -> str:
    """Everything a resolution stores, in canonical form."""
    rnd = Round.get_by_id(rid)
    res = Resolution.get(Resolution.round == rid)
    secret = ScenarioSecret.get(ScenarioSecret.scenario == rnd.scenario_id)
    return canonical.dumps(
        {
            "state": rnd.state,
            "resolution": [res.version, res.ruleset, res.encounter, res.orders, res.overrides, res.events, res.state],
            "report": Report.get(Report.round == rid).draft_md,
            "encounter_state": secret.encounter_state,
        }
    )


def _closed_round_with_entries(world) -> int:
    rid = world.new_round()
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)
    rounds.close_round(rid, clock=world.clock)
    return rid


def test_a_killed_resolver_changes_nothing_and_the_next_run_gives_the_same_result(world, db: peewee.Database) -> None:
    rid = _closed_round_with_entries(world)
    with db.atomic() as outer:  # the uninterrupted run, rolled back
        assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
        expected = _snapshot(rid)
        outer.rollback()

    rng = random.Random(20261202)
    moments = []
    for _ in range(KILLS):
        mode = rng.choice(["start-up", "before-engine", "after-store"])
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), str(rid), "after-store" if mode == "start-up" else mode],
            stdout=subprocess.PIPE,
            text=True,
        )
        if mode == "start-up":
            time.sleep(rng.uniform(0.0, 0.6))
        else:
            assert worker.stdout.readline() == "paused\n"
            time.sleep(rng.uniform(0.0, 0.05))
        worker.kill()
        worker.wait()
        worker.stdout.close()
        moments.append(mode)
        rnd = Round.get_by_id(rid)
        assert (rnd.state, rnd.failures, Resolution.select().count(), Report.select().count()) == (
            "closed",
            0,
            0,
            0,
        )
    assert {"before-engine", "after-store"} <= set(moments)

    for _ in range(50):  # PostgreSQL may need a moment to notice the last dead client and drop its lock
        done = subprocess.run(
            [sys.executable, str(WORKER), str(rid), "none"], capture_output=True, text=True, check=True
        )
        if done.stdout.strip() != "busy":
            break
        time.sleep(0.2)
    assert done.stdout.strip() == "resolved"
    assert Resolution.select().where(Resolution.round == rid).count() == 1
    assert _snapshot(rid) == expected
    again = subprocess.run([sys.executable, "-m", "pbp", "round", "resolve", str(rid)], capture_output=True, text=True)
    assert (again.returncode, again.stdout) == (0, f"round {rid} is already resolved\n")


def test_three_processes_resolve_the_same_200_due_rounds_exactly_once(world, db: peewee.Database) -> None:
    count = 200
    with db.atomic():
        for i in range(count):
            run = campaigns.create_scenario(world.campaign, "tama_river", slug=f"race-{i}", clock=world.clock)
            for uid, cid in zip(world.players, world.characters, strict=True):
                scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
            rid = rounds.create_round(run.id, world.clock.now() + timedelta(minutes=5), clock=world.clock).id
            rounds.open_round(rid, clock=world.clock)
            entries.save_entry(
                rid, world.characters[0], user_id=world.players[0], order=world.order(), prose="", clock=world.clock
            )
    # The deadlines lie in the real clock's past: every round is due for the processes below.
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "pbp", "rounds", "resolve-due"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outputs]
    statuses = [line.split()[1].rstrip(":") for out, _ in outputs for line in out.splitlines()]
    assert statuses.count("resolved") == count
    assert set(statuses) <= {"resolved", "already", "busy"}
    assert Resolution.select().count() == count
    assert Round.select().where(Round.state == "resolved").count() == count


def test_players_saving_at_once_are_all_acknowledged_and_each_keeps_the_last_save(db, monkeypatch) -> None:
    from argon2 import PasswordHasher

    monkeypatch.setattr(accounts, "_HASHER", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    players, saves = 6, 8
    rid, pairs = a_round_with_players(players)
    reports = run_savers("save", rid, pairs, saves, gap=0.0)  # each as fast as it can
    assert [r["errors"] for r in reports] == [[]] * players
    assert [len(r["latencies"]) for r in reports] == [saves] * players
    stored = {e.character_id: (e.prose, e.receipt) for e in Entry.select().where(Entry.round == rid)}
    assert stored == {
        cid: (r["last"]["prose"], r["last"]["receipt"]) for (cid, _), r in zip(pairs, reports, strict=True)
    }
    assert EntryRevision.select().where(EntryRevision.round == rid).count() == players * saves
