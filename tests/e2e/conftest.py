"""Real-browser tests: Playwright driving Debian's Chromium (headless) against the app served as production serves it:
gunicorn with two workers (`pbp run`'s command), on a free loopback port, one site for the whole session.

The site's database holds the demo (`pbp.services.demo`) loaded at `START`; its clock is a `FileClock` set in the
instance's config, so `site.clock.advance(...)` moves time for every worker at once, and `site.tick()` runs the
scheduler's tick on the same clock. Tests make their own accounts and scenario runs (`site.new_run()`), so they
do not depend on each other's order. `make test` runs them when Chromium and Playwright are present and skips them
with a clear line when not; `.ci/run` installs both first. A failing test leaves a screenshot of each of its pages
under `tests/e2e/screenshots/`.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from argon2 import PasswordHasher

from pbp import db as pbp_db
from pbp import migrations
from pbp.models import Campaign, Scenario
from pbp.paths import PROJECT_ROOT
from pbp.services import accounts, campaigns, demo, rounds, schedule
from pbp.services.clock import FileClock

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
    "--no-sandbox",
]
#: The site's time when the session starts (the demo's round 1 was played the day before).
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PASSWORD = "a-long-password"  # the password of the accounts the tests register

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the suite says why below
    sync_playwright = None


def skip_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if sync_playwright is None:
        return "browser tests skipped: the playwright package is not installed (make test installs it)"
    if CHROMIUM is None:
        return "browser tests skipped: no Chromium on this machine (apt-get install chromium; .ci/run does)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = skip_reason()
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


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
            run = Scenario.get(Scenario.slug == slug)
            rnd = rounds.create_round(run.id, self.clock.now() + timedelta(hours=hours), clock=self.clock)
            rounds.open_round(rnd.id, clock=self.clock)
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


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The demo under gunicorn (2 workers, as `pbp run`) on a free loopback port, for the whole session."""
    if skip_reason():
        pytest.skip(skip_reason())
    instance = tmp_path_factory.mktemp("e2e-instance")
    database_url = f"sqlite:///{instance / 'pbp.sqlite3'}"
    clock = FileClock(str(instance / "clock"))
    clock.set(START)
    database = pbp_db.make_database(database_url)
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # the hash's cost is not under test
    with pbp_db.using(database), database.connection_context(), mock.patch.object(accounts, "_HASHER", cheap):
        migrations.upgrade(database)
        demo.load_demo(12 * 3600, clock=clock)
    (instance / "config.py").write_text(
        "from pbp.services.clock import FileClock\n"
        f"CLOCK = FileClock({clock.path!r})\n"
        'LOGIN_RATE_LIMIT = "1000 per minute"\n'
        f"DATABASE_URL = {database_url!r}\n",
        encoding="utf-8",
    )
    port = _free_port()
    log = instance / "gunicorn.log"
    env = {**os.environ, "PBP_INSTANCE": str(instance)}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}",
               "--log-level", "warning", "pbp.web:create_app()"]  # fmt: skip
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


@pytest.fixture
def page_factory(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Any]:
    """New pages in their own contexts (`lang`, `width`); a failed test leaves each page's screenshot."""
    pages: list[Page] = []

    def make(lang: str = "ja", width: int = 1280) -> Page:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
        context.set_extra_http_headers({"Accept-Language": lang})
        page = context.new_page()
        pages.append(page)
        return page

    yield make
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        SCREENSHOTS.mkdir(exist_ok=True)
        for i, page in enumerate(pages):
            page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}-{i}.png"), full_page=True)
    for page in pages:
        page.context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def log_in(page: Page, url: str, name: str, password: str = demo.DEMO_PASSWORD) -> None:
    """Sign in through the login form (the demo's accounts: gm, player1, player2)."""
    page.goto(url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("form.form button[type=submit]")
    page.wait_for_url(url + "/")


def register(page: Page, url: str, name: str, display_name: str) -> None:
    """A new account through the register form (signed in afterwards)."""
    page.goto(url + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=display_name]", display_name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(url + "/")


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
