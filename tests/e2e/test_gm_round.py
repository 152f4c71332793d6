"""A GM runs a round in a real browser (issue 10, items 4 and 5): from the campaign's overview to the round's
dashboard, opens it, sees the entries arrive, resolves it, overrides one check with a reason on the review page, and
publishes; the published report's dice log shows the ruling and its reason (R-GM-1). At 1280 and 360 px, no page
scrolling sideways."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp import db as pbp_db
from pbp.models import Override, Scenario
from pbp.services import rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.e2e.conftest import Served, entries_arrive, log_in, no_horizontal_scroll
from tests.web.conftest import make_app
from tests.web.world import START, build_world

NOW = START + timedelta(hours=30)
REASON = "川霧で照準がずれた"


@pytest.fixture
def site(tmp_path):
    """Round 1 published; round 2 a draft the GM opens from the dashboard; the app on a fixed clock."""
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=1, open_after=False)
    clock = FixedClock(NOW)
    app = make_app(world.url, CLOCK=clock, LOGIN_RATE_LIMIT="1000 per minute")
    with pbp_db.using(database.of(app)):
        scenario = Scenario.get(Scenario.slug == world.scenario)
        draft = rounds.create_round(scenario.id, NOW + timedelta(hours=12), clock=clock)
    with Served(app) as served:
        yield served, app, world, draft.id


@pytest.mark.parametrize("width", [1280, 360])
def test_open_resolve_override_with_a_reason_and_publish(site, page_factory, width) -> None:
    served, app, world, round_id = site
    page = page_factory("ja", width)
    log_in(page, served.url)

    page.goto(served.url + "/gm/demo/")
    page.click(f'a[href="/gm/demo/rounds/{round_id}/"]')
    assert page.locator("h1 .state").inner_text() == "下書き"
    page.click("form.action-open button")
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/?done=open")
    assert page.locator(".entry-card.missing").count() == 2  # nobody has written yet
    assert no_horizontal_scroll(page)

    entries_arrive(app, world, round_id, FixedClock(NOW + timedelta(minutes=5)))
    page.reload()
    assert page.locator(".entry-card").count() == 2 and page.locator(".entry-card.missing").count() == 0
    assert "川霧の向こう" in page.locator(".entries").inner_text()

    page.click("form.action-resolve button")
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/?done=resolve")
    page.click(f'a[href="/gm/demo/rounds/{round_id}/review"]')
    assert page.locator(".preview-banner").count() == 0
    assert "[r2-c1]" in page.locator("ol.dicelog").inner_text()
    assert no_horizontal_scroll(page)

    page.select_option("select[name=check]", "r2-c1")
    page.fill("input[name=successes]", "0")
    page.fill("textarea[name=reason]", REASON)
    page.click(".override-form button[type=submit]")
    page.wait_for_url("**/review?done=overridden")
    ruling = page.locator("ol.dicelog .override").first.inner_text()
    assert "r2-c1" in ruling and REASON in ruling
    with pbp_db.using(database.of(app)):
        assert Override.get(Override.round == round_id).reason == REASON

    page.click(f'a[href="/gm/demo/rounds/{round_id}/report"]')
    page.click("button[value=publish]")
    page.wait_for_url("**/report?done=published")
    page.goto(served.url + "/blog/demo/tama_river/round-2/")
    published = page.locator("ol.dicelog").inner_text()
    assert "r2-c1" in published and REASON in published
    assert no_horizontal_scroll(page)
