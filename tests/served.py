"""The app served as production serves it, for the tests that need a real server (the browser suite, the security
suite's requests that the test client cannot make): gunicorn with two workers (`pbp run`'s command) on a free
loopback port, one site for the whole session.

The site's database holds the demo (`pbp.services.demo`) loaded at `START`; its clock is a `FileClock` set in the
instance's config (`instance/config.py`, which only a test writes), so `site.clock.advance(...)` moves time for
every worker at once, and `site.tick()` runs the scheduler's tick on the same clock. Tests make their own accounts
and scenario runs (`site.new_run()`), so they do not depend on each other's order.
"""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

from argon2 import PasswordHasher

from pbp import db as pbp_db
from pbp import migrations
from pbp.cli.run import server_command
from pbp.models import Campaign, Scenario, User
from pbp.paths import PROJECT_ROOT
from pbp.services import accounts, campaigns, demo, rounds, schedule
from pbp.services.clock import FileClock

#: The site's time when the session starts (the demo's round 1 was played the day before).
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
#: The site's settings beyond the defaults (its instance config).
SETTINGS = {"LOGIN_RATE_LIMIT": "1000 per minute", "MAX_CONTENT_LENGTH": 1024 * 1024, "MAIL": True}


@dataclass
class Site:
    """The served app and the handles a test needs: its URL, its clock, its database."""

    url: str
    database_url: str
    clock: FileClock
    runs: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @contextmanager
    def db(self) -> Iterator[None]:
        """The site's database for the block (a test acting as the GM or the scheduler would)."""
        database = pbp_db.make_database(self.database_url)
        with pbp_db.using(database), database.connection_context():
            yield

    def new_run(self, slots: int = 4) -> str:
        """A fresh run of the demo's battle, open for sign-up; its slug."""
        slug = f"tama-e2e-{next(self.runs)}"
        with self.db():
            campaign = Campaign.get(Campaign.slug == "demo")
            campaigns.create_scenario(campaign.id, demo.SCENARIO, slug=slug, slots=slots, clock=self.clock)
        return slug

    def open_round(self, slug: str, hours: float = 12) -> int:
        """The GM opens a round of the run `slug`, its deadline `hours` from now; its id."""
        with self.db():
            run, gm = Scenario.get(Scenario.slug == slug), User.get(User.name == "gm").id
            rnd = rounds.create_round(run.id, self.clock.now() + timedelta(hours=hours), actor_id=gm, clock=self.clock)
            rounds.open_round(rnd.id, actor_id=gm, clock=self.clock)
        return rnd.id

    def tick(self) -> schedule.TickReport:
        """One scheduler tick at the site's time: closes, resolves and (the demo publishes by itself) publishes."""
        with self.db():
            return schedule.tick(clock=self.clock)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn stopped (status {server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within 60 s:\n{log.read_text()[-3000:]}")


@contextmanager
def serve(instance: Path) -> Iterator[Site]:
    """The demo under gunicorn (2 threaded workers, as `pbp run`) on a free loopback port, for the whole session."""
    database_url = f"sqlite:///{instance / 'pbp.sqlite3'}"
    clock = FileClock(str(instance / "clock"))
    clock.set(START)
    database = pbp_db.make_database(database_url)
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # the hash's cost is not under test
    with pbp_db.using(database), database.connection_context(), mock.patch.object(accounts, "_HASHER", cheap):
        migrations.upgrade(database)
        demo.load_demo(12 * 3600, clock=clock)
    settings = {**SETTINGS, "DATABASE_URL": database_url}
    lines = ["from pbp.services.clock import FileClock", f"CLOCK = FileClock({clock.path!r})"]
    lines += [f"{key} = {value!r}" for key, value in settings.items()]
    (instance / "config.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    port = _free_port()
    log = instance / "gunicorn.log"
    env = {**os.environ, "PBP_INSTANCE": str(instance)}
    env.pop("DATABASE_URL", None)
    command = server_command("127.0.0.1", port, workers=2, debug=False)  # as `pbp run` serves the site
    with log.open("w") as out:
        server = subprocess.Popen(command, env=env, cwd=PROJECT_ROOT, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server, log)
        yield Site(url, database_url, clock)
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
