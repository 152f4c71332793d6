"""Real-browser tests: Playwright driving Debian's Chromium (headless) against the app served from a thread.

`make test` runs them when Chromium and Playwright are present and skips them with a clear line when not;
`.ci/run` installs both first, so CI always runs them. A failing test leaves a screenshot under
`tests/e2e/screenshots/`.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from pbp import db as pbp_db
from pbp.models import Round, User
from pbp.services import characters, entries, rounds
from pbp.services.clock import Clock
from pbp.services.demo import DEMO_PASSWORD, PLAYERS, PROSE, round_order
from pbp.web import database
from tests.web.world import World

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

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - the suite says why below
    sync_playwright = None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = None
    if sync_playwright is None:
        reason = "browser tests skipped: the playwright package is not installed (make test installs it)"
    elif CHROMIUM is None:
        reason = "browser tests skipped: no Chromium on this machine (apt-get install chromium; .ci/run does)"
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


class Served:
    """The app served on a free local port from a thread, for as long as the test runs."""

    def __init__(self, app: Any):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


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


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def log_in(page: Page, url: str, name: str = "gm") -> None:
    """A demo user (password DEMO_PASSWORD) logs in through the login page."""
    page.goto(url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(url + "/")


def entries_arrive(app: Any, world: World, round_id: int, clock: Clock) -> None:
    """Both demo players send their entries for an open round, as the player's form would save them."""
    with pbp_db.using(database.of(app)):
        rnd = Round.get_by_id(round_id)
        encounter = rounds.round_encounter(rnd, rounds.round_context(rnd))
        for name, (pc, intended) in PLAYERS.items():
            character = world.characters[pc]
            order = round_order(encounter, characters.unit_id(character), intended)
            user = User.get(User.name == name)
            entries.save_entry(round_id, character, user_id=user.id, order=order, prose=PROSE[pc], clock=clock)
