"""`pbp run`: the whole product on one machine, in the foreground: the database (SQLite under PBP_INSTANCE unless
DATABASE_URL says otherwise, with the demo on first start), the web app under gunicorn and the scheduler beside it,
until Ctrl-C (or SIGTERM) stops both."""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import threading

import click

from pbp.errors import UserError

DEFAULT_PORT = 5000
DEFAULT_DEMO_DEADLINE = 300  # seconds: long enough to look around, short enough to see the round resolve
STOP_GRACE = 20  # seconds the web server has to finish its requests before it is killed
DEMO_ACCOUNTS = "gm, player1 .. player4"
SERVING = "python:pbp.serving"  # gunicorn's worker class, threads and timeouts: one slow client starves nothing


def register(cli: click.Group) -> None:
    cli.add_command(run)


def _int_env(name: str, default: int, low: int, high: int, what: str) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise UserError(f"{name} must be {what} from {low} to {high}, got {raw[:40]!r}") from None
    if not low <= value <= high:
        raise UserError(f"{name} must be {what} from {low} to {high}, got {value}")
    return value


def _check_port(host: str, port: int) -> None:
    """Refuse, in one line, a port another program holds (gunicorn would retry and print a stack of errors)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                hint = f"choose another with PORT=... (e.g. PORT={port + 1})"
                raise UserError(f"port {port} on {host} is in use: {hint}") from None
            raise UserError(f"cannot listen on {host}:{port}: {e.strerror}") from None


def _prepare(deadline_in: int) -> str:
    """Bring the database up to date and load the demo into an empty one (a database with accounts is left as it
    is); returns what to tell the user."""
    from pbp import db as pbp_db
    from pbp import migrations
    from pbp.models import User
    from pbp.services import demo, kancolle_demo

    accounts = f"log in as player1 (or {DEMO_ACCOUNTS}), password {demo.DEMO_PASSWORD}"
    with pbp_db.connected() as database:
        migrations.upgrade(database)
        if demo.is_loaded():
            if not kancolle_demo.is_loaded():  # an instance from before the second demo gets it beside the first
                kancolle_demo.load_kancolle_demo(deadline_in)
            return f"the demo is in {pbp_db.database_url()}; {accounts}"
        if User.select().exists():
            return f"the database is {pbp_db.database_url()} (accounts exist: no demo loaded)"
        loaded = demo.load_demo(deadline_in)
        kancolle_demo.load_kancolle_demo(deadline_in)
    return (
        f"the demo is loaded in {pbp_db.database_url()}: round {loaded.open_round} closes in {deadline_in} s, then it "
        f"is resolved and its report published on the blog by itself\npbp: {accounts}"
    )


def server_command(host: str, port: int, workers: int, debug: bool) -> list[str]:
    if debug:  # Flask's development server: the debugger and reloader, never on a public address
        return [sys.executable, "-m", "pbp", "serve", "--host", host, "--port", str(port), "--debug"]
    return [
        sys.executable, "-m", "gunicorn", "--config", SERVING, "--workers", str(workers), "--bind", f"{host}:{port}",
        "--graceful-timeout", str(STOP_GRACE), "--log-level", "warning", "pbp.web:create_app()",
    ]  # fmt: skip


@click.command("run")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (PORT sets the port)")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="gunicorn workers")
@click.option("--interval", default=5.0, show_default=True, type=float, help="seconds between scheduler ticks")
@click.option("--debug", is_flag=True, help="Flask's development server with debugger and reloader instead")
def run(host: str, workers: int, interval: float, debug: bool) -> None:
    """The site and the scheduler together in the foreground (the demo on first start); Ctrl-C stops both.

    PORT chooses the port (default 5000); PBP_DEMO_DEADLINE_SECONDS the demo's open round's deadline on first start
    (default 300)."""
    from scheduler.process import ensure_ready, interval_problem

    port = _int_env("PORT", DEFAULT_PORT, 1, 65535, "a port number")
    deadline_in = _int_env("PBP_DEMO_DEADLINE_SECONDS", DEFAULT_DEMO_DEADLINE, 1, 10 * 366 * 86400, "seconds")
    problem = interval_problem(interval)
    if problem:
        raise UserError(problem)
    _check_port(host, port)
    told = _prepare(deadline_in)
    ensure_ready()
    from pbp.web import create_app

    create_app()  # once here: the instance's secret key is made before several workers could race to make it
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    _serve_and_tick(host, port, workers, interval, debug, told)


def _serve_and_tick(host: str, port: int, workers: int, interval: float, debug: bool, told: str) -> None:
    """Start the web server (a child process) and the scheduler (a thread here); stop both on a signal or when the
    server ends."""
    from apscheduler.schedulers.background import BackgroundScheduler

    from pbp import serving
    from scheduler.process import build, yield_cpu

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    server = subprocess.Popen(server_command(host, port, workers, debug))
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    sched = build(interval, kind=BackgroundScheduler)
    yield_cpu()  # this thread, and so the scheduler's threads it starts now: not the web server, started above
    sched.start()
    shown = f"[{host}]" if ":" in host else host
    served = "development server" if debug else f"gunicorn, {workers} workers × {serving.THREADS} threads"
    click.echo(
        f"pbp: the site is at http://{shown}:{port}/ ({served})"
        f"; the scheduler ticks every {interval:g} s\n"
        f"pbp: {told}\n"
        "pbp: Ctrl-C stops both",
        err=True,
    )
    while not stop.wait(0.5):
        if server.poll() is not None:
            break
    sched.shutdown(wait=True)  # the tick under way finishes (it is one transaction per round)
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)  # gunicorn: finish the requests under way, then stop
        try:
            server.wait(STOP_GRACE + 5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    elif not stop.is_set():
        raise UserError(f"the web server stopped by itself (exit status {server.returncode}); the scheduler too")
    click.echo("pbp: stopped", err=True)
