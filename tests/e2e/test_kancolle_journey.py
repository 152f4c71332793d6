"""The kancolle demo in a real browser against gunicorn, in Japanese and English (issue 32): its own site with both
demos loaded as `make run` loads them; each ship girl's player writes the battle's entry on the form generated from
legal_actions (seeing each check's odds), the scheduler resolves and publishes the round by itself, the GM reads
the review with every check, and a reader finds the report and a bundle that verifies. Then the next round, the
same way, in the other language; no page scrolls sideways at 360 px."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from datetime import timedelta

import pytest

from pbp.engine.verify import verify_bundle
from pbp.models import Campaign, Character, Resolution, Round, Scenario, User
from pbp.services import kancolle_demo, rounds
from tests.e2e.conftest import log_in, no_horizontal_scroll
from tests.served import Site, serve

SLUG = "kancolle-demo"


@pytest.fixture(scope="module")
def fleet_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, dict[str, int]]]:
    """A site of its own (the session's holds only the pool demo) with the kancolle demo loaded beside it; the
    players' ship girls by player."""
    with serve(tmp_path_factory.mktemp("kancolle-site")) as site:
        with site.db():
            kancolle_demo.load_kancolle_demo(12 * 3600, clock=site.clock)
            query = Character.select(Character, User).join(User).switch(Character).join(Campaign)
            ships = {c.owner.name: c.id for c in query.where(Campaign.slug == SLUG)}
        yield site, ships


def _open_battle_round(site: Site) -> int:
    """The battle's next round, opened by the GM (the demo opened its first with the demo's entries)."""
    with site.db():
        run = Scenario.get(Scenario.slug == kancolle_demo.BATTLE)
        latest = Round.select().where(Round.scenario == run.id).order_by(Round.number.desc()).first()
        if latest is not None and latest.state == "open":
            return latest.id
        rnd = rounds.create_round(run.id, site.clock.now() + timedelta(hours=12), clock=site.clock)
        rounds.open_round(rnd.id, clock=site.clock)
        return rnd.id


@pytest.mark.parametrize(("lang", "width"), [("ja", 1280), ("en", 360)])
def test_a_battle_round_written_resolved_reviewed_published_and_verified(fleet_site, page_factory, lang, width):
    site, ships = fleet_site
    round_id = _open_battle_round(site)
    for player, character in ships.items():
        page = page_factory(lang, width)
        log_in(page, site.url, player)
        page.goto(f"{site.url}/rounds/{round_id}/entry/{character}")
        assert no_horizontal_scroll(page)
        form = page.locator("#entry-form")
        assert form.locator("fieldset.kancolle").count() >= 2
        assert "/36 (" in form.inner_text()  # each check's exact odds over the 36 faces
        chain = form.locator('input[name="many:shelling.chain"]')
        if chain.count() and not chain.first.is_checked():
            chain.first.check()
        targets = form.locator('input[name="many:shelling.targets"]')
        if targets.count() and not any(targets.nth(i).is_checked() for i in range(targets.count())):
            targets.first.check()
        page.fill("textarea[name=prose]", "「ここは通さない！」" if lang == "ja" else '"Not past me!"')
        page.click("#entry-form button.primary")
        page.wait_for_url(f"**/rounds/{round_id}/entry/{character}?saved=1")

    site.clock.advance(13 * 3600)
    report = site.tick()  # closes, resolves and (the demo publishes by itself) publishes
    assert round_id in report.published, report
    with site.db():
        number = Round.get_by_id(round_id).number
        assert Resolution.get(Resolution.round == round_id).events

    gm = page_factory(lang, width)
    log_in(gm, site.url, "gm")
    gm.goto(f"{site.url}/gm/{SLUG}/rounds/{round_id}/review")
    assert no_horizontal_scroll(gm)
    assert gm.locator("table.checks-table tbody tr").count() >= 1

    reader = page_factory(lang, width)
    reader.goto(f"{site.url}/blog/{SLUG}/{kancolle_demo.BATTLE}/round-{number}/")
    assert no_horizontal_scroll(reader)
    assert reader.locator("article").count() >= 1
    with urllib.request.urlopen(f"{site.url}/blog/{SLUG}/{kancolle_demo.BATTLE}/round-{number}/bundle.json") as got:
        assert verify_bundle(json.load(got)) is None


def test_the_grid_is_a_picture_you_click(fleet_site, page_factory):
    site, _ships = fleet_site
    page = page_factory("en", 1280)
    log_in(page, site.url, "player3")
    page.goto(f"{site.url}/campaigns/{SLUG}/characters/new")
    cell = page.locator("td.cell", has=page.locator('select[name="trait.魚雷"]'))
    cell.locator("span.trait").click()
    assert page.locator('select[name="trait.魚雷"]').input_value() == "merit" and "merit" in cell.get_attribute("class")
    cell.locator("span.trait").click()
    assert page.locator('select[name="trait.魚雷"]').input_value() == "weakness"
    page.locator('td.gap[data-gap="2"]').first.click()
    assert page.locator('input[name="gap"][value="2"]').is_checked()
    for trait in ("元気", "おおらか"):  # 夕立's ship gives three traits (K-SHEET-7)
        page.locator("td.cell", has=page.locator(f'select[name="trait.{trait}"]')).locator("span.trait").click()
    page.select_option("#ship", "yuudachi")
    page.fill("input[name=ja]", "時雨")
    page.click("form.sheet-form button[type=submit]")
    page.wait_for_url("**/edit?saved=1")
    assert "×" in page.inner_text("table.personality-grid")  # her weakness, shown on her sheet
