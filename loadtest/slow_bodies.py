"""`python -m loadtest.slow_bodies`: does one slow client starve the site? For each way of running gunicorn (its
default sync workers as `pbp run` had them, gthread workers without a body timeout, and `pbp run`'s settings,
`pbp.serving`), N connections each send a POST's headers and part of its body, then nothing; meanwhile /healthz is
asked and timed. Loopback only, 2 workers as `pbp run`, a fresh SQLite instance; every wait is bounded (a request
that has no answer after LIMIT s counts as "no answer"), so a run stops by itself within about ten minutes.
Figures: docs/loadtest.md, "Slow bodies"."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from loadtest.servers import free_port, reap
from pbp import serving
from pbp.cli.run import server_command
from pbp.paths import PROJECT_ROOT

LIMIT = 40.0  # seconds a /healthz may take before it counts as no answer (sync workers are killed after 30 s)
WORKERS = 2  # `pbp run`'s default


def _plain(*options: str) -> Callable[[int], list[str]]:
    """gunicorn with `options` and 2 workers on the port, as `pbp run` started it before issue 33 (plus options)."""
    return lambda port: [sys.executable, "-m", "gunicorn", *options, "--workers", str(WORKERS), "--bind",
                         f"127.0.0.1:{port}", "--log-level", "warning", "pbp.web:create_app()"]  # fmt: skip


def pbp_run_server(port: int) -> list[str]:
    """`pbp run`'s own gunicorn command (pbp.cli.run), on the loopback and `port`."""
    return server_command("127.0.0.1", port, WORKERS, debug=False)


#: The ways of running gunicorn compared: port -> the command.
SETUPS: dict[str, Callable[[int], list[str]]] = {
    "sync (gunicorn's default; `pbp run` before issue 33)": _plain(),
    f"gthread, {serving.THREADS} threads, no body timeout": _plain(
        "--worker-class", "gthread", "--threads", str(serving.THREADS)
    ),  # fmt: skip
    f"pbp run now (gthread, {serving.THREADS} threads and connections, {serving.BODY_TIMEOUT:g} s body timeout)": (
        pbp_run_server
    ),
}
COUNTS = (2, 8, 16, 32)  # slow connections open at once


@contextmanager
def gunicorn(instance: Path, command: Callable[[int], list[str]]) -> Iterator[int]:
    """gunicorn started by `command` on a free loopback port, serving the app on a fresh SQLite database in
    `instance`; yields the port once /healthz answers, stops the server afterwards."""
    port = free_port()
    env = {**os.environ, "PBP_INSTANCE": str(instance), "DATABASE_URL": f"sqlite:///{instance / 'pbp.sqlite3'}"}
    subprocess.run([sys.executable, "-m", "pbp", "db", "upgrade"], env=env, cwd=PROJECT_ROOT, check=True,
                   capture_output=True)  # fmt: skip
    with (instance / "gunicorn.log").open("ab") as log:
        server = subprocess.Popen(command(port), env=env, cwd=PROJECT_ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while healthz_seconds(port, 2.0) is None:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start: {(instance / 'gunicorn.log').read_text()[-2000:]}")
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        reap(server)


@contextmanager
def slow_bodies(port: int, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections, each having sent a form POST's headers and 10 of its 100,000 bytes, then nothing; closed
    afterwards."""
    with ExitStack() as stack:
        held = []
        for _ in range(count):
            conn = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
            conn.sendall(
                b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 100000\r\n\r\nname=slow&"
            )
            held.append(conn)
        time.sleep(0.5)  # each has reached a worker (or waits for one)
        yield held


def healthz_seconds(port: int, limit: float = LIMIT) -> float | None:
    """How long /healthz took to answer (any status), or None when it gave no answer within `limit` seconds."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=limit) as answer:
            answer.read()
    except urllib.error.HTTPError:
        pass  # an answer all the same (503: the instance has no scheduler)
    except OSError:
        return None
    return time.monotonic() - started


def _healthz_beside_slow_bodies(instance: Path, command: Callable[[int], list[str]], count: int) -> float | None:
    with gunicorn(instance, command) as port, slow_bodies(port, count):
        return healthz_seconds(port)


def main() -> None:
    """Every setup, or those whose name holds the command line's argument (`pbp run`, say)."""
    chosen = {name: command for name, command in SETUPS.items() if " ".join(sys.argv[1:]) in name}
    print(f"/healthz with N slow request bodies open; {WORKERS} workers, loopback; '-' = no answer in {LIMIT:g} s")
    for name, command in chosen.items():
        figures = []
        for count in COUNTS:  # a fresh server for each: nothing held over from the count before
            with tempfile.TemporaryDirectory(prefix="pbp-slow-") as folder:
                took = _healthz_beside_slow_bodies(Path(folder), command, count)
            figures.append(f"N={count}: {'-' if took is None else f'{took:.2f} s'}")
        print(f"{name}: " + ", ".join(figures), flush=True)


if __name__ == "__main__":
    main()
