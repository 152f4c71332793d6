"""The kancolle demo played end to end in a real browser against gunicorn, in Japanese and in English (issue 32): a
site of its own with both demos loaded as `make run` loads them; for each language the GM runs the demo's base day
and battle again for the fleet, and every ship girl's player writes each deadline's entry on the form generated from
legal_actions (seeing each check's odds): a base cycle (the event card, the scene, supply and support), then three
battle rounds and the night (the night's chain and targets on the form). The scheduler resolves and publishes each
deadline by itself after its deadline passes, the GM reads the review with every check, and a reader finds the
report (its dice log linking each outcome to its rule on /rules/kancolle/) and a bundle that verifies. No page
scrolls sideways (ja at 1280 px, en at 360 px).

Each round's dice come from its secret seed, drawn when the round opens; the test fixes those seeds (`SEEDS`) so the
battle takes the same course on every run: the fleet keeps the flagship for the night, as the scenario says."""

from __future__ import annotations

import hashlib
import json
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest

from pbp.engine.verify import verify_bundle
from pbp.models import Campaign, Character, Resolution, Round, Scenario, User
from pbp.services import campaigns, kancolle_demo, rounds, scenarios
from pbp.services.characters import unit_id
from tests.e2e.conftest import log_in, no_horizontal_scroll
from tests.served import Site, serve

SLUG = "kancolle-demo"
#: The words each language's players write into their entries.
PROSE = {"ja": "「ここは通さない！」", "en": '"Not past me!"'}
#: Which seed each deadline's dice come from: the battle reaches the night and the flagship lives until then.
SEEDS = {"ja": "kancolle-e2e-ja", "en": "kancolle-e2e-en"}
#: The ship girl who volunteers for the night (she holds 夜戦, so her night check is the surest).
NIGHT_VOLUNTEER = "player2"
#: The form's choices that lead to a check (赤城 has none at night: her aircraft do not fly in the dark).
CHECKED_CHOICES = "select[name='one:card.type'], select[name^='attack:'], input[name$='.chain'], input[name^='flag:']"


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


def _runs_for(site: Site, lang: str) -> dict[str, str]:
    """The demo's base day and battle run again for `lang`'s journey, the fleet joined to both; their slugs."""
    slugs = {kancolle_demo.BASE: f"chinjufu-{lang}", kancolle_demo.BATTLE: f"nansei-{lang}"}
    with site.db():
        campaign = Campaign.get(Campaign.slug == SLUG)
        gm = User.get(User.name == "gm").id
        fleet = list(Character.select().where(Character.campaign == campaign.id).order_by(Character.id))
        for pack_scenario, slug in slugs.items():
            run = campaigns.create_scenario(campaign.id, pack_scenario, slug=slug, actor_id=gm, clock=site.clock)
            for ship in fleet:
                scenarios.join_scenario(run.id, ship.id, user_id=ship.owner_id, clock=site.clock)
    return slugs


def _open_round(site: Site, slug: str, seed: str) -> int:
    """The GM opens the run's next round, its deadline 12 hours away, its dice drawn from `seed`; its id."""
    fixed = hashlib.sha256(seed.encode()).hexdigest()
    with site.db(), mock.patch.object(rounds.secrets, "token_hex", return_value=fixed):
        run, gm = Scenario.get(Scenario.slug == slug), User.get(User.name == "gm").id
        rnd = rounds.create_round(run.id, site.clock.now() + timedelta(hours=12), actor_id=gm, clock=site.clock)
        rounds.open_round(rnd.id, actor_id=gm, clock=site.clock)
        return rnd.id


def _pick(page: Any, name: str, preferred: tuple[str, ...]) -> None:
    """Choose in the select `name` the first of `preferred` it offers (a sunk enemy is no longer offered)."""
    select = page.locator(f'#entry-form select[name="{name}"]')
    offered = select.locator("option").evaluate_all("options => options.map(o => o.value)")
    select.select_option(next(v for v in preferred if v in offered))


def _tick(form: Any, name: str, values: tuple[str, ...]) -> None:
    """Tick the boxes `name` whose values are among `values` (in the form's order), the others unticked."""
    boxes = form.locator(f'input[name="{name}"]')
    for i in range(boxes.count()):
        box = boxes.nth(i)
        box.set_checked(box.get_attribute("value") in values)


def _write_base_entry(page: Any, player: str) -> None:
    """The base cycle: the first event table, a keyword, a scene with a friend, supply, support for that friend."""
    form = page.locator("#entry-form")
    page.fill('input[name="text:card.keyword"]', kancolle_demo.KEYWORD)
    partner = page.locator('select[name="one:scene.partner"] option').nth(1).get_attribute("value")
    page.select_option('select[name="one:scene.partner"]', partner)
    supply = form.locator('input[name^="int:supply."]')
    if supply.count():
        supply.first.fill("1")
    _tick(form, "support:check", (partner,))


def _write_battle_entry(page: Any, player: str) -> None:
    """A battle round: the destroyers first by day (the flagship hides behind them), the flagship at night; the
    first piece of each chain; only the night volunteer volunteers."""
    form = page.locator("#entry-form")
    day = ("i1", "i2", "ho1")
    for i in range(form.locator('select[name^="attack:"]').count()):
        _pick(page, form.locator('select[name^="attack:"]').nth(i).get_attribute("name"), day)
    for chain in ("many:shelling.chain", "many:night.chain"):
        boxes = form.locator(f'input[name="{chain}"]')
        if boxes.count():
            _tick(form, chain, (boxes.first.get_attribute("value"),))
    _tick(form, "many:shelling.targets", day)
    _tick(form, "many:night.targets", ("ho1", "i1", "i2"))
    volunteer = form.locator('input[name="flag:night_volunteer"]')
    if volunteer.count():
        volunteer.set_checked(player == NIGHT_VOLUNTEER)


def _play_deadline(site: Site, ships: dict[str, int], pages: dict[str, Any], lang: str, slug: str, seed: str,
                   write: Any) -> tuple[int, list[dict[str, Any]]]:  # fmt: skip
    """One deadline of the run `slug`: opened, every player's entry written and saved through the form, the clock
    past the deadline, the scheduler's tick resolving and publishing it; the GM reads its review, a reader its
    report, and its bundle verifies. Its number and events."""
    round_id = _open_round(site, slug, seed)
    for player, character in ships.items():
        page = pages[player]
        page.goto(f"{site.url}/rounds/{round_id}/entry/{character}")
        assert no_horizontal_scroll(page), (player, slug)
        form = page.locator("#entry-form")
        assert form.locator("fieldset.kancolle").count() >= 1, (player, slug)
        if form.locator(CHECKED_CHOICES).count():  # each check's exact odds over the 36 faces (a table folded)
            assert "/36 (" in page.text_content("main"), (player, slug)
        write(page, player)
        page.fill("textarea[name=prose]", PROSE[lang])
        page.click("#entry-form button.primary")
        page.wait_for_url(f"**/rounds/{round_id}/entry/{character}?saved=1")

    site.clock.advance(13 * 3600)
    report = site.tick()  # closes, resolves and (the demo publishes by itself) publishes
    assert round_id in report.published, report
    with site.db():
        number = Round.get_by_id(round_id).number
        events = Resolution.get(Resolution.round == round_id).events

    gm = pages["gm"]
    gm.goto(f"{site.url}/gm/{SLUG}/rounds/{round_id}/review")
    assert no_horizontal_scroll(gm)
    assert gm.locator("table.checks-table tbody tr").count() >= 1

    reader = pages["reader"]
    reader.goto(f"{site.url}/blog/{SLUG}/{slug}/round-{number}/")
    assert no_horizontal_scroll(reader)
    assert reader.locator("article").count() >= 1
    rules = reader.locator('ol.kancolle-log a.rule[href*="/rules/kancolle/#K-"]')  # the dice log links its rules
    assert rules.count() >= 1
    with urllib.request.urlopen(f"{site.url}/blog/{SLUG}/{slug}/round-{number}/bundle.json") as got:
        assert verify_bundle(json.load(got)) is None
    return number, events


@pytest.mark.parametrize(("lang", "width"), [("ja", 1280), ("en", 360)])
def test_a_base_cycle_and_a_battle_into_the_night_written_resolved_reviewed_published_and_verified(
    fleet_site, page_factory, lang, width
):
    site, ships = fleet_site
    runs = _runs_for(site, lang)
    pages = {name: page_factory(lang, width) for name in [*ships, "gm", "reader"]}
    for name in [*ships, "gm"]:
        log_in(pages[name], site.url, name)

    base = runs[kancolle_demo.BASE]
    _number, events = _play_deadline(site, ships, pages, lang, base, f"{SEEDS[lang]}-base", _write_base_entry)
    scenes = [e for e in events if e["type"] == "scene"]
    assert len(scenes) == len(ships) and all(s["partner"] and s["card"]["keyword"] for s in scenes), scenes
    assert any(e["type"] == "supply" for e in events) and events[-1]["type"] == "cycle_end", events

    battle = runs[kancolle_demo.BATTLE]
    for number in (1, 2, 3, 4):
        played, events = _play_deadline(
            site, ships, pages, lang, battle, f"{SEEDS[lang]}-{number}",
_write_battle_entry,
        )  # fmt: skip
        assert played == number
        ended = [e for e in events if e["type"] == "battle_end"]
        if number < 3:
            assert not ended, events
        elif number == 3:
            (check,) = [e for e in events if e["type"] == "night_check"]
            assert check["unit"] == unit_id(ships[NIGHT_VOLUNTEER]) and check["success"], check
            assert not ended, ended
    assert any(e["type"] == "phase" and e["phase"] == "night" for e in events), "round 4 is the night battle"
    pcs = {unit_id(c) for c in ships.values()}
    assert any(e["type"] == "attack" and e["attacker"] in pcs for e in events), "the night entries were played"
    assert ended, "the battle ends after the night"


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
