"""The player's journey in a real browser: register, create a character, sign it up for a scenario, write the entry in
Japanese (seeing the odds, the map and the counter), save, edit, keep the receipt, and after the deadline see the
refusal with the text kept; the same pages on a 360-px phone without horizontal scroll."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Round, Scenario
from pbp.services import campaigns, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.e2e.conftest import Served, no_horizontal_scroll
from tests.web.conftest import make_app
from tests.web.world import START, build_world

NOW = START + timedelta(days=3)


@pytest.fixture
def site(tmp_path):
    """The demo world, a fresh run of the battle with free slots, and the app on a clock the test moves."""
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", open_after=False)
    clock = FixedClock(NOW)
    app = make_app(world.url, CLOCK=clock, LOGIN_RATE_LIMIT="1000 per minute")
    with pbp_db.using(database.of(app)):
        campaign = Campaign.get(Campaign.slug == "demo")
        campaigns.create_scenario(campaign.id, "tama_river", slug="tama-e2e", slots=2, clock=clock)
    with Served(app) as served:
        yield served, app, clock


def register(page, url: str, name: str) -> None:
    page.goto(url + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=display_name]", "新人パイロット")
    page.fill("input[name=password]", "a-long-password")
    page.click("form.form button[type=submit]")
    page.wait_for_url(url + "/")


@pytest.mark.parametrize("width", [1280, 360])
def test_register_join_write_save_edit_and_meet_the_deadline(site, page_factory, width) -> None:
    served, app, clock = site
    page = page_factory("ja", width)
    name = f"newcomer{width}"
    register(page, served.url, name)
    page.goto(served.url + "/campaigns/demo/characters/new")
    assert no_horizontal_scroll(page)
    page.fill("input[name=ja]", "翠")
    page.fill("input[name=en]", "Midori")
    page.select_option("#vehicle", "savior")  # its beam rifle and knife come built in (R-GEAR-3)
    page.click("form.sheet-form button[type=submit]")
    page.wait_for_url("**/edit?saved=1")
    character = int(page.url.split("/characters/")[1].split("/")[0])

    scenario_url = served.url + "/campaigns/demo/scenarios/tama-e2e/"
    page.goto(scenario_url)
    assert no_horizontal_scroll(page)
    page.select_option("#join-character", str(character))
    page.click("button.primary")
    page.wait_for_url(scenario_url + "#signup")
    assert "翠" in page.inner_text("ul.cast")

    with pbp_db.using(database.of(app)):  # the GM opens the first round
        run = Scenario.get(Scenario.slug == "tama-e2e")
        rnd = rounds.create_round(run.id, clock.now() + timedelta(hours=12), clock=clock)
        rounds.open_round(rnd.id, clock=clock)
    page.goto(scenario_url)
    page.click(f'a[href="/rounds/{rnd.id}/entry/{character}"]')
    entry_url = f"{served.url}/rounds/{rnd.id}/entry/{character}"
    page.wait_for_url(entry_url)

    assert page.locator("svg.battlemap").is_visible()
    assert no_horizontal_scroll(page)
    page.check("input[name=major][value=attack]")
    assert page.locator("#major-attack").is_visible() and not page.locator("#major-full_move").is_visible()
    assert "88%" in page.inner_text("table.odds") or "%" in page.inner_text("table.odds")
    page.select_option("select[name=weapon]", "beam_rifle")
    page.check("input[name=targets][value=kagachi1]")
    prose = "川霧の向こう、先頭のカガチに照準を合わせる。\n「……外さない」"
    page.fill("textarea[name=prose]", prose)
    assert page.inner_text("#prose-count").startswith(f"{len(prose)} / ")  # code points, a newline is one
    page.click("button.primary")
    page.wait_for_url(entry_url + "?saved=1")
    first = page.inner_text("code.digest")
    assert first.startswith("sha256:") and "保存しました" in page.content()
    assert no_horizontal_scroll(page)

    page.fill("textarea[name=prose]", prose + "\n「次で決める」")
    page.click("button.primary")
    page.wait_for_url(entry_url + "?saved=1")
    assert page.inner_text("code.digest") != first
    assert page.locator("section.history li").count() == 2

    clock.advance(13 * 3600)  # the deadline passes while the page is open
    late = prose + "\n遅れて書き足した一文"
    page.fill("textarea[name=prose]", late)
    page.click("button.primary")
    assert "deadline passed" in page.content()
    assert page.input_value("textarea[name=prose]") == late  # nothing the player wrote is lost
    page.goto(entry_url)
    assert "締切を過ぎました" in page.content() and page.locator("button.primary").count() == 0
    with pbp_db.using(database.of(app)):
        assert Round.get_by_id(rnd.id).state == "open"  # the scheduler closes it; the page refused on its own
