"""Real-browser tests: Playwright driving Debian's Chromium (headless) against the app served as production serves it
(the `site` fixture of tests/conftest.py: gunicorn, two workers, the demo, a clock the tests move; see
`tests.served`). The helpers here (`log_in`, `register`, `page_factory`) are for every journey. `make test` runs
them when Chromium and Playwright are present and skips them with a clear line when not; `.ci/run` installs both
first. A failing test leaves a screenshot of each of its pages under `tests/e2e/screenshots/`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbp.services import demo

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


def register(page: Page, url: str, name: str, display_name: str, email: str = "") -> None:
    """A new account through the register form (signed in afterwards)."""
    page.goto(url + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=display_name]", display_name)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=email]", email)
    page.click("form.form button[type=submit]")
    page.wait_for_url(url + "/")


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def shot(page: Page, stem: str) -> None:
    """A page looked at: it does not scroll sideways, and its full-page screenshot is kept as `stem`.png."""
    assert no_horizontal_scroll(page), stem
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{stem}.png"), full_page=True)
