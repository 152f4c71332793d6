"""The player's week in a real browser, in Japanese and English, against gunicorn: a sheet sent with several
problems says them all at once; the entry form autosaves the text
as a draft, which another device offers back; a logout on that device ends the first one's session, whose Save then
keeps the text through a new login and lands back in the form with it, where the odds give the chance to hit each
target and a click on the map sets where to move; once the round is published, マイページ's "since your last visit"
leads to the report (the notice marked read on the way)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from pbp.models import Round
from tests.e2e.conftest import PASSWORD, no_horizontal_scroll, register

SAYS = {
    "ja": {"name": ("萌黄", "Moegi"), "offer": "下書きをフォームに戻す", "kept": "書いた文章は保管してあります",
           "since": "前回の訪問以降", "published": "報告書を公開", "hit": "命中", "secret": "回避はGMの秘密",
           "off": "戦場の外", "set": "を移動先に設定しました"},
    "en": {"name": ("Moegi", "Moegi"), "offer": "Put the draft in the form", "kept": "Your text is kept",
           "since": "Since your last visit", "published": "is published", "hit": "hit", "secret": "GM's secret",
           "off": "off the battlefield", "set": "is set as where to go for"},
}  # fmt: skip
FIRST = {"ja": "霧の中で、そっと息を整える。", "en": "In the mist, I steady my breath."}
SECOND = {"ja": "「まだ終わらせない」", "en": '"Not over yet."'}


def draft_kept(page: Page) -> str:
    """The autosave's word below the buttons, once it has come (entry.js posts 2.5 s after typing stops)."""
    for _ in range(40):
        said = page.inner_text("#draft-status").strip()
        if said:
            return said
        page.wait_for_timeout(250)
    raise AssertionError("the draft was never said to be kept")


def odds_per_target(page: Page, says: dict[str, str]) -> dict[str, str]:
    """The chance to hit each target in reach of the first weapon, as the odds table says it: an exact chance
    against each Kagachi (a type on the game-data pages), the GM's secret for the Hayachi's (a secret type)."""
    page.check("input[name=major][value=attack]")
    items = page.locator("table.odds ul.odds-targets").first.locator("li")
    said = {str(li.get_attribute("data-target")): li.inner_text() for li in items.all()}
    assert said and all(
        re.search(rf"{says['hit']} \d+%", text) if t.startswith("kagachi") else says["secret"] in text
        for t, text in said.items()
    ), said
    return said


def map_click_to_move(page: Page, says: dict[str, str]) -> tuple[str, str]:
    """A click off the battlefield (the map's numbered margin) fills nothing and says so; a click on it fills x and
    y of the minor move, chosen for the player; the point x, y is what the move goes toward."""
    svg = page.locator(".map-scroll svg.battlemap")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 3, box["y"] + 3)
    assert says["off"] in page.inner_text("#map-said") and page.input_value("input[name=minor_x]") == ""
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.6)
    assert says["set"] in page.inner_text("#map-said")
    assert page.is_checked("input[name=minor][value=move]") and page.input_value("select[name=minor_toward]") == "point"
    x, y = page.input_value("input[name=minor_x]"), page.input_value("input[name=minor_y]")
    assert re.fullmatch(r"-?\d+", x) and re.fullmatch(r"-?\d+", y)
    return x, y


def every_error_at_once(page: Page) -> None:
    """A sheet with no name, items over their budget and a built-in weapon's box is refused with a message beside
    each field at once (not one batch per send), the ticks kept; the built-in one cannot be ticked at all."""
    page.select_option("#vehicle", "savior")
    assert page.is_disabled("input[name=vehicle_weapons][value=beam_rifle]")  # the Savior's own: built in
    for item in ("charm", "tablet", "energy_drink"):
        page.check(f"input[name=items][value={item}]")
    page.click("form.sheet-form button[type=submit]")
    assert page.locator("#err-ja").is_visible() and page.locator("#err-items").is_visible()
    assert page.is_checked("input[name=items][value=energy_drink]")
    for item in ("charm", "tablet", "energy_drink"):
        page.uncheck(f"input[name=items][value={item}]")


def sign_in(page: Page, url: str, name: str) -> None:
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.form button[type=submit]")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_autosave_survives_a_forced_logout_and_the_notices_lead_to_the_report(site, page_factory, lang) -> None:
    says, page = SAYS[lang], page_factory(lang, 1280)
    run, name = site.new_run(), f"week-{lang}"
    register(page, site.url, name, says["name"][0])
    page.goto(site.url + "/campaigns/demo/characters/new")
    every_error_at_once(page)
    page.fill("input[name=ja]", says["name"][0])
    page.fill("input[name=en]", says["name"][1])
    page.select_option("#vehicle", "savior")
    page.click("form.sheet-form button[type=submit]")
    page.wait_for_url("**/edit?saved=1")
    character = int(page.url.split("/characters/")[1].split("/")[0])
    scenario_url = f"{site.url}/campaigns/demo/scenarios/{run}/"
    page.goto(scenario_url)
    page.select_option("#join-character", str(character))
    page.click("button.primary")
    page.wait_for_url(scenario_url + "#signup")
    round_id = site.open_round(run, hours=12)
    entry_url = f"{site.url}/rounds/{round_id}/entry/{character}"

    page.goto(entry_url)
    page.fill("textarea[name=prose]", FIRST[lang])
    assert draft_kept(page)  # kept on the server: never an entry

    phone = page_factory(lang, 360)  # the player's other device offers the draft back
    phone.goto(site.url + "/login")
    sign_in(phone, site.url, name)
    phone.wait_for_url(site.url + "/")
    phone.goto(entry_url)
    phone.click(f"text={says['offer']}")
    assert phone.input_value("textarea[name=prose]") == FIRST[lang]
    assert no_horizontal_scroll(phone)
    phone.click("header.site form.inline button[type=submit]")  # logs out here and everywhere else

    page.fill("textarea[name=prose]", FIRST[lang] + "\n" + SECOND[lang])
    page.click("button.primary")  # the session has ended: the text is kept, and the login says so
    page.wait_for_url("**/login?**kept=1**")
    assert says["kept"] in page.content()
    sign_in(page, site.url, name)
    page.wait_for_url(entry_url + "?draft=1")  # back in the form, with the text
    assert page.input_value("textarea[name=prose]") == FIRST[lang] + "\n" + SECOND[lang]
    odds_per_target(page, says)
    page.check("input[name=major][value='']")  # the round's action: the move the map sets
    x, y = map_click_to_move(page, says)
    page.click("button.primary")
    page.wait_for_url(entry_url + "?saved=1")
    assert (page.input_value("input[name=minor_x]"), page.input_value("input[name=minor_y]")) == (x, y)

    site.clock.advance(13 * 3600)
    report = site.tick()  # closed, resolved and published by the scheduler
    with site.db():
        assert Round.get_by_id(round_id).state == "published", report
    page.goto(site.url + "/me")
    news = page.locator("section.news")
    assert says["since"] in news.inner_text()
    news.locator("button.link", has_text=says["published"]).first.click()
    page.wait_for_url(f"{site.url}/blog/demo/{run}/round-*/")
    assert SECOND[lang].strip('「」"') in page.inner_text("div.story")
