"""The scheduler as processes against one database (SQLite and PostgreSQL): a deadline missed while nothing ran is
caught up at the next start; two schedulers resolve, publish and notify each of 50 due rounds (and remind the players
of another round) exactly once; a scheduler killed with SIGKILL in the middle of a resolution and started again
leaves one identical resolution; and `pbp run` (gunicorn and the scheduler) shows the demo's report by itself, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import collections
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import peewee
import pytest

from pbp.models import AuditLog, Outbox, Resolution, Round
from pbp.services import campaigns, entries, notifications, publishing, rounds
from scheduler.process import NICE
from tests.lifecycle.conftest import PG_URL, empty_database
from tests.lifecycle.receivers import free_port, smtp, webhook  # noqa: F401 (fixtures)
from tests.procs import nice_of

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("tick_worker.py")


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def enter_all(world, round_id: int) -> None:
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(round_id, cid, user_id=uid, order=world.order(), prose="行く", clock=world.clock)


def test_a_deadline_missed_while_nothing_ran_is_resolved_at_the_next_start(world, db: peewee.Database) -> None:
    """The world's clock is in the past: the round's deadline passed while no scheduler ran."""
    rid = world.new_round(deadline_in=60)
    enter_all(world, rid)
    done = subprocess.run([str(BIN / "pbp"), "scheduler", "--once"], env=env(), capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"round {rid}: resolved" in done.stderr
    assert Round.get_by_id(rid).state == "resolved" and Resolution.select().count() == 1


def test_two_schedulers_resolve_publish_and_notify_50_rounds_exactly_once(
    world,
    db: peewee.Database,
    smtp,  # noqa: F811
    webhook,  # noqa: F811
) -> None:
    campaigns.set_hold_share(world.campaign, 1.0)  # no entries: resolved as they stand
    campaigns.set_policy(world.campaign, "publish_automatically", True)
    ids = [world.new_round(deadline_in=60, scenario=world.new_scenario(f"run-{i}")) for i in range(50)]
    # and one round open for another 30 minutes of real time: both schedulers see its players' 1-hour reminder due
    soon = datetime.now(UTC) + timedelta(minutes=30)
    ahead = rounds.create_round(world.new_scenario("ahead"), soon, clock=world.clock).id
    rounds.open_round(ahead, clock=world.clock)
    for uid in world.players:
        notifications.set_email(uid, f"p{uid}@example.org")
    notifications.set_webhook(world.campaign, webhook.url)
    Outbox.delete().execute()  # the openings' notices (before the addresses): not counted here
    mail = env(PBP_SMTP_HOST="127.0.0.1", PBP_SMTP_PORT=str(smtp.port))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "scheduler", "--interval", "1"],
            env=mail,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 180
        while (
            Round.select().where(Round.id.in_(ids), Round.state == "published").count() < 50
            or Outbox.select().where(Outbox.status == "pending").count()
        ):
            assert time.monotonic() < deadline, "two schedulers did not finish 50 rounds within 180 s"
            time.sleep(0.5)
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        logs = [proc.communicate(timeout=60)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], logs
    assert Resolution.select().where(Resolution.round.in_(ids)).count() == 50
    for action in ("round.resolve", "round.publish"):
        assert AuditLog.select().where(AuditLog.action == action).count() == 50
    sent = collections.Counter((m["To"], m["X-PBP-Kind"], int(m["X-PBP-Round"])) for m in smtp.messages)
    assert set(sent.values()) == {1}  # nothing twice
    assert len([k for k in sent if k[1] == "round.published"]) == 100  # every player, every round
    assert sorted(k for k in sent if k[1] == "round.reminder") == [
        (f"p{uid}@example.org", "round.reminder", ahead) for uid in world.players
    ]
    hooks = collections.Counter((h["kind"], h["round"]) for h in webhook.received)
    assert set(hooks) == {("round.published", rid) for rid in ids} and set(hooks.values()) == {1}
    assert Round.get_by_id(ahead).state == "open"
    assert sum(log.count(": resolved: ") for log in logs) == 50  # each resolved by one of them, once


def test_a_scheduler_killed_mid_resolution_and_restarted_leaves_one_identical_resolution(
    world, db: peewee.Database
) -> None:
    campaigns.set_policy(world.campaign, "publish_automatically", True)
    rid = world.new_round(deadline_in=60)
    enter_all(world, rid)
    Outbox.delete().execute()
    killed = subprocess.Popen([sys.executable, str(WORKER), "after-store"], env=env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert killed.stdout.readline().strip() == "paused", killed.stderr.read()
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait(30)
    assert Round.get_by_id(rid).state == "closed"  # closed at the deadline (committed), the resolution rolled back
    assert Resolution.select().count() == 0 and Outbox.select().count() == 0
    again = subprocess.run([sys.executable, str(WORKER), "none"], env=env(), capture_output=True, text=True,
                           timeout=120)  # fmt: skip
    assert again.returncode == 0 and again.stdout.strip() == f"{rid}:resolved", again.stderr
    assert Round.get_by_id(rid).state == "published" and Resolution.select().count() == 1
    assert publishing.verify_round(rid) is None  # the stored result is what the seed gives: identical
    assert AuditLog.select().where(AuditLog.action == "round.resolve").count() == 1
    assert (
        sorted(o.recipient_id for o in Outbox.select().where(Outbox.kind == "round.published")) == sorted(world.players)
        and Outbox.select().where(Outbox.kind == "round.published", Outbox.channel == "email").count() == 2
    )
    assert rounds.due_round_ids() == []


# ---- pbp run -------------------------------------------------------------------------------------------------------


RUN_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""
    except OSError:
        return 0, ""


@pytest.mark.parametrize("backend", RUN_BACKENDS)
def test_pbp_run_shows_the_demo_report_by_itself_and_stops_on_ctrl_c(backend: str, tmp_path: Path) -> None:
    """gunicorn (2 workers) and the scheduler: the demo's open round closes, resolves and its report is published
    on the blog within a minute, nobody touching anything; Ctrl-C (SIGINT) stops both."""
    if backend == "postgres" and not PG_URL:
        pytest.skip("PostgreSQL: set PBP_TEST_DATABASE_URL=postgresql://... to run pbp run on it")
    port = free_port()
    with empty_database(backend, tmp_path) as url:
        run_env = env(PBP_INSTANCE=str(tmp_path / "instance"), PORT=str(port), PBP_DEMO_DEADLINE_SECONDS="5")
        run_env.pop("DATABASE_URL", None)
        if backend == "postgres":
            run_env["DATABASE_URL"] = url
        proc = subprocess.Popen([str(BIN / "pbp"), "run"], env=run_env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            report = f"http://127.0.0.1:{port}/blog/demo/tama_river/round-2/"
            while (status := fetch(report))[0] != 200:
                assert proc.poll() is None, proc.stdout.read()
                assert time.monotonic() < deadline, f"no published report at {report} within 60 s ({status[0]})"
                time.sleep(1)
            assert "round-2/bundle.json" in status[1]
            assert fetch(f"http://127.0.0.1:{port}/healthz")[0] == 200
            if Path("/proc/self/task").exists():  # the scheduler's threads below the web, the web as it started
                server = [int(c) for c in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
                workers = [int(w) for s in server for w in Path(f"/proc/{s}/task/{s}/children").read_text().split()]
                base = os.nice(0)
                assert set(nice_of(proc.pid).values()) == {base + NICE}
                assert len(workers) == 2 and {n for pid in [*server, *workers] for n in nice_of(pid).values()} == {base}
        finally:
            proc.send_signal(signal.SIGINT)
            out = proc.communicate(timeout=60)[0]
    assert proc.returncode == 0, out
    assert f"http://127.0.0.1:{port}/" in out and "gunicorn, 2 workers" in out and "player1" in out
    assert "round 2: published" in out and out.rstrip().endswith("pbp: stopped")
    assert "Traceback" not in out


def test_pbp_run_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([str(BIN / "pbp"), "run"], env=env(PBP_INSTANCE=str(tmp_path), PORT=str(port)),
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert (
        done.stderr == f"pbp: port {port} on 127.0.0.1 is in use: choose another with PORT=... (e.g. PORT={port + 1})\n"
    )


@pytest.mark.parametrize("value", ["http", "0", "70000"])
def test_pbp_run_refuses_a_port_that_is_none(tmp_path: Path, value: str) -> None:
    done = subprocess.run([str(BIN / "pbp"), "run"], env=env(PBP_INSTANCE=str(tmp_path), PORT=value),
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("pbp: PORT must be a port number from 1 to 65535")
