"""The scheduler process: its tick resolves what is due, and `python -m scheduler` does it on its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scheduler.process import NICE, build, tick_once
from tests.procs import nice_of

BIN = Path(sys.executable).parent


def pbp(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "pbp"), *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A demo database whose open round is due one second from now."""
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    env = {**os.environ}
    done = pbp("demo", "--deadline-in", "1", env=env)
    assert done.returncode == 0, done.stderr
    time.sleep(1.2)
    return env


def states(env: dict) -> dict[int, str]:
    out = pbp("rounds", "list", "--json", env=env)
    return {r["id"]: r["state"] for r in json.loads(out.stdout)}


def test_a_tick_resolves_the_round_whose_deadline_passed(instance: dict) -> None:
    assert states(instance) == {1: "published", 2: "open"}
    report = tick_once()
    assert [(o.round_id, o.status) for o in report.rounds] == [(2, "resolved")]
    assert report.published == [2]  # the demo campaign publishes automatically
    assert states(instance) == {1: "published", 2: "published"}
    assert tick_once().rounds == []  # nothing is due twice


def test_the_tick_job_never_drops_a_late_tick_nor_runs_two_at_once() -> None:
    job = build(5).get_jobs()[0]
    assert job.misfire_grace_time is None and job.coalesce and job.max_instances == 1
    assert job.trigger.interval.total_seconds() == 5
    assert str(job.trigger.timezone) == "UTC"


def test_python_m_scheduler_resolves_due_rounds_and_stops_on_sigterm(instance: dict) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "scheduler", "--interval", "1"],
        env=instance, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while states(instance)[2] != "published":
            assert time.monotonic() < deadline, "the scheduler did not resolve the due round within 60 s"
            time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert "round 2: resolved" in out and "round 2: published" in out


SCHEDULERS = ([str(BIN / "pbp"), "scheduler"], [sys.executable, "-m", "scheduler"])


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="thread nice values are read from Linux's /proc")
@pytest.mark.parametrize("command", SCHEDULERS, ids=["pbp scheduler", "python -m scheduler"])
def test_the_scheduler_runs_below_the_web_in_every_thread_its_ticks_run_in(instance: dict, command) -> None:
    """At a deadline it resolves and publishes every due round at once: a player's page goes first (NICE)."""
    proc = subprocess.Popen([*command, "--interval", "1"], env=instance, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while states(instance)[2] != "published":  # a tick ran: the executor's thread exists
            assert time.monotonic() < deadline, "the scheduler did not resolve the due round within 60 s"
            time.sleep(0.3)
        threads = nice_of(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    assert len(threads) >= 2 and set(threads.values()) == {os.nice(0) + NICE}


def refused_start(command: list[str], interval: str, instance: Path) -> str:
    """Start a scheduler that must refuse at once: exit 2, no traceback; returns its stderr."""
    env = {**os.environ, "PBP_INSTANCE": str(instance)}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([*command, "--interval", interval], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("interval", ["nan", "inf", "1e12", "86400.5", "0", "-5", "1e-6", "0.999"])
def test_an_interval_that_is_no_tick_is_refused(tmp_path: Path, interval: str) -> None:
    """Under a second (1e-6 was accepted, then 93,000 warnings in 20 s) or over a day: exit 2 (`pbp`: one line)."""
    said_by_pbp, said_by_module = (refused_start(command, interval, tmp_path) for command in SCHEDULERS)
    assert said_by_pbp == f"pbp: --interval must be from 1 to 86400 seconds, got {float(interval)}\n"
    assert f"--interval must be from 1 to 86400 seconds, got {float(interval)}\n" in said_by_module


def test_the_scheduler_refuses_a_database_that_is_not_up_to_date(tmp_path: Path) -> None:
    """Started on an empty instance it would log a traceback every tick, for ever: it says what to do instead."""
    for command in SCHEDULERS:
        said = refused_start(command, "1", tmp_path)
        assert "run `pbp db upgrade`" in said and said.count("\n") == 1
