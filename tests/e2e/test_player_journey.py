"""The player's journey in a real browser, in Japanese and English, against gunicorn: register, create a character,
sign it up for a scenario run, find the entry to write on the home page, write it (seeing the odds, the map and
the counter), save, edit, keep the receipt; after the deadline the save is refused with the text kept, and once the
scheduler has resolved and published the round the player finds their lines in the report. The Japanese journey
also runs on a 360-px phone without horizontal scroll."""

from __future__ import annotations

import pytest

from pbp.models import Round
from tests.e2e.conftest import no_horizontal_scroll, register

#: (language, viewport width) -> what the page says in that language.
SAYS = {
    "ja": {"saved": "保存しました", "late": "締切を過ぎました", "refused": "を過ぎています", "name": ("翠", "Midori")},
    "en": {
        "saved": "Saved. You may change it",
        "late": "The deadline has passed",
        "refused": "deadline passed",
        "name": ("Midori", "Midori"),
    },
}
PROSE = {
    "ja": ("川霧の向こう、先頭のカガチに照準を合わせる。\n「……外さない」", "「次で決める」"),
    "en": ('Through the river mist I sight the leading Kagachi.\n"I won\'t miss."', '"The next one ends it."'),
}


@pytest.mark.parametrize(("lang", "width"), [("ja", 1280), ("ja", 360), ("en", 1280)])
def test_register_join_write_save_edit_meet_the_deadline_and_read_the_report(site, page_factory, lang, width) -> None:
    page = page_factory(lang, width)
    says = SAYS[lang]
    run = site.new_run()
    register(page, site.url, f"newcomer-{lang}{width}", "新人パイロット" if lang == "ja" else "New pilot")
    page.goto(site.url + "/campaigns/demo/characters/new")
    assert no_horizontal_scroll(page)
    page.fill("input[name=ja]", says["name"][0])
    page.fill("input[name=en]", says["name"][1])
    page.select_option("#vehicle", "savior")  # its beam rifle and knife come built in (R-GEAR-3)
    page.click("form.sheet-form button[type=submit]")
    page.wait_for_url("**/edit?saved=1")
    character = int(page.url.split("/characters/")[1].split("/")[0])

    scenario_url = f"{site.url}/campaigns/demo/scenarios/{run}/"
    page.goto(scenario_url)
    assert no_horizontal_scroll(page)
    page.select_option("#join-character", str(character))
    page.click("button.primary")
    page.wait_for_url(scenario_url + "#signup")
    assert says["name"][0] in page.inner_text("ul.cast")

    round_id = site.open_round(run, hours=12)  # the GM opens the first round
    entry_path = f"/rounds/{round_id}/entry/{character}"
    page.goto(site.url + "/")  # home says first that there is an entry to write, and leads to it
    assert no_horizontal_scroll(page)
    page.click(f'section.due-entries a.button.primary[href="{entry_path}"]')
    entry_url = site.url + entry_path
    page.wait_for_url(entry_url)
    assert page.locator("svg.battlemap[role=img]").is_visible()
    assert no_horizontal_scroll(page)
    page.check("input[name=major][value=attack]")
    assert page.locator("#major-attack").is_visible() and not page.locator("#major-full_move").is_visible()
    assert "%" in page.inner_text("table.odds")
    page.select_option("select[name=weapon]", "beam_rifle")
    page.check("input[name=targets][value=kagachi1]")
    prose, more = PROSE[lang]
    page.fill("textarea[name=prose]", prose)
    assert page.inner_text("#prose-count").startswith(f"{len(prose)} / ")  # code points, a newline is one
    page.click("button.primary")
    page.wait_for_url(entry_url + "?saved=1")
    first = page.inner_text("code.digest")
    assert first.startswith("sha256:") and says["saved"] in page.content()
    assert no_horizontal_scroll(page)
    page.goto(site.url + "/")  # saved: home now offers to edit it
    page.click(f'section.due-entries a.button:not(.primary)[href="{entry_path}"]')
    page.wait_for_url(entry_url)

    page.fill("textarea[name=prose]", prose + "\n" + more)  # the player edits the entry
    page.click("button.primary")
    page.wait_for_url(entry_url + "?saved=1")
    assert page.inner_text("code.digest") != first
    assert page.locator("section.history li").count() == 2

    site.clock.advance(13 * 3600)  # the deadline passes while the page is open
    late = prose + "\n" + more + "\n(late)"
    page.fill("textarea[name=prose]", late)
    page.click("button.primary")
    assert says["refused"] in page.content()  # the service's refusal, in the page's language
    assert page.input_value("textarea[name=prose]") == late  # nothing the player wrote is lost
    page.goto(entry_url)
    assert says["late"] in page.content() and page.locator("button.primary").count() == 0

    report = site.tick()  # the scheduler closes, resolves and (the demo's policy) publishes the round
    with site.db():
        rnd = Round.get_by_id(round_id)
        assert rnd.state == "published", report
        number = rnd.number
    page.goto(f"{site.url}/blog/demo/{run}/round-{number}/")
    story = page.inner_text("div.story")
    assert more.strip('「」"') in story  # the edited entry, not the first version, went into the report
    assert "(late)" not in story  # nor what came after the deadline
    assert no_horizontal_scroll(page)
