"""The server side of a load run: an instance folder with the run's settings, gunicorn as `pbp run` serves (2
threaded workers, `pbp.serving`) and the
scheduler as child processes, and the faults: SIGKILL to the scheduler or to one web worker at random moments
(gunicorn's arbiter starts a new worker at once; the scheduler is started again after a pause, as systemd's
`Restart=always` would)."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from pbp.cli.run import server_command

WORKERS = 2
TICK = 1  # seconds between scheduler ticks: the round resolves within a second or two of its deadline
#: The run's settings (instance/config.py): many logins from one address, the bare baseline route.
CONFIG = """\
LOGIN_RATE_LIMIT = "100000 per minute"
LOADTEST_HELLO = True
SECRET_KEY = "loadtest-only"
"""


def reap(proc: subprocess.Popen[bytes]) -> None:
    """Wait for a process told to stop; one that has not stopped in 20 s is killed."""
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Neighbour:
    """A process spinning on one core at normal priority for the whole measured part of a run: the shared host a
    site normally runs on, where the web and the scheduler do not have the machine to themselves (issue 33 saw the
    deadline's stall only then)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Servers:
    """gunicorn and the scheduler for one run, their output in the run's folder."""

    def __init__(self, folder: Path, database_url: str):
        self.folder = folder
        (folder / "config.py").write_text(CONFIG)
        self.env = {**os.environ, "PBP_INSTANCE": str(folder), "DATABASE_URL": database_url}
        self.port = free_port()
        self.web: subprocess.Popen[bytes] | None = None
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.kills: list[tuple[float, str]] = []

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        out = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 - the child keeps it
        return subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT)

    def start(self) -> None:
        self.web = self._spawn("gunicorn", server_command("127.0.0.1", self.port, WORKERS, debug=False))
        self.start_scheduler()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/hello", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer; see {self.folder / 'gunicorn.log'}")

    def start_scheduler(self) -> None:
        self.scheduler = self._spawn("scheduler", [sys.executable, "-m", "pbp", "scheduler", "--interval", str(TICK)])

    def workers(self) -> list[int]:
        """The web workers' pids (the gunicorn arbiter's children)."""
        assert self.web is not None
        try:
            children = Path(f"/proc/{self.web.pid}/task/{self.web.pid}/children").read_text().split()
        except OSError:
            return []
        return [int(pid) for pid in children]

    def kill_worker(self, rng: random.Random) -> None:
        workers = self.workers()
        if workers:
            victim = rng.choice(workers)
            os.kill(victim, signal.SIGKILL)
            self.kills.append((time.time(), f"web worker {victim}"))

    def kill_scheduler(self, rng: random.Random) -> None:
        """SIGKILL the scheduler and start it again after a pause."""
        assert self.scheduler is not None
        self.scheduler.kill()
        self.scheduler.wait()
        self.kills.append((time.time(), "scheduler"))
        time.sleep(rng.uniform(0.5, 2.0))
        self.start_scheduler()

    def faults(self, until: float, deadline: float, seed: int) -> threading.Thread:
        """A thread killing a web worker or the scheduler every 3-8 s until `until`, and the scheduler once more
        within 1.5 s after `deadline` (while it closes and resolves the round)."""
        rng = random.Random(seed)
        at_deadline = deadline + rng.uniform(0.2, 1.5)

        def run() -> None:
            pending_deadline_kill = True
            while time.time() < until:
                pause = rng.uniform(3, 8)
                if pending_deadline_kill and time.time() + pause > at_deadline:
                    time.sleep(max(0.0, at_deadline - time.time()))
                    pending_deadline_kill = False
                    self.kill_scheduler(rng)
                    continue
                time.sleep(pause)
                if rng.random() < 0.6:
                    self.kill_worker(rng)
                else:
                    self.kill_scheduler(rng)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        for proc in (self.scheduler, self.web):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in (self.scheduler, self.web):
            if proc is not None:
                reap(proc)
