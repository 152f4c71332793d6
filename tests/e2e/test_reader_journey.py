"""The reader's journey in a real browser, in Japanese and English, against gunicorn, signed out: the blog index, a
report, its dice log (a weapon links to the campaign's game data; the revealed seed hashes to the hash published
before the deadline), the English page, and the Atom feed the layout advertises, which links back to the report."""

from __future__ import annotations

import hashlib
from xml.etree import ElementTree

import pytest

from tests.e2e.conftest import no_horizontal_scroll

ATOM = "{http://www.w3.org/2005/Atom}"
REPORT = "/blog/demo/tama_river/round-1/"  # the demo's published round
HEADINGS = {"ja": ("ダイスログ", "報告"), "en": ("Dice log", "Reports")}


@pytest.mark.parametrize(("lang", "width"), [("ja", 1280), ("en", 1280), ("ja", 360)])
def test_index_report_dice_log_english_page_and_feed(site, page_factory, lang, width) -> None:
    page = page_factory(lang, width)
    dice_log, reports = HEADINGS[lang]
    page.goto(site.url + "/blog/")
    assert page.locator("html").get_attribute("lang") == lang
    assert reports in page.inner_text("h1")
    assert no_horizontal_scroll(page)
    card = page.locator(f'article.card h2 a[href="{REPORT}"]')
    while not card.count():  # other journeys publish on the shared site: the reader pages back to the report
        page.click('nav.pager a[rel="next"]')
    card.click()
    page.wait_for_url(site.url + REPORT)
    assert page.locator("div.story p").count() > 0
    assert no_horizontal_scroll(page)

    assert dice_log in page.inner_text("section.verify")
    assert page.locator("ol.dicelog li").count() > 0
    seed, published_hash = (page.inner_text(f"section.verify dd:nth-of-type({n}) code") for n in (1, 2))
    assert hashlib.sha256(seed.encode()).hexdigest() in published_hash  # the commitment holds
    weapon = page.locator("ol.dicelog a.data").first
    target = weapon.get_attribute("href")
    weapon.click()
    page.wait_for_url(site.url + target)
    assert page.locator(f"#{target.split('#')[1]}").is_visible()  # the weapon's entry in the game data
    page.go_back()
    page.wait_for_url(site.url + REPORT)

    if lang == "en":  # an English reader already reads the English story; the /en/ page is the same one
        story = page.inner_text("div.story")
        page.goto(site.url + REPORT + "en/")
        assert page.inner_text("div.story") == story
    else:
        page.click('p.lang a[hreflang="en"]')
        page.wait_for_url(site.url + REPORT + "en/")
    assert page.locator("article.report").get_attribute("lang") == "en"
    assert page.locator("div.story p").count() > 0
    # English is set ragged, Japanese justified between its characters (which would spread English letters apart)
    align = "getComputedStyle(document.querySelector('div.story p')).textAlign"
    assert page.evaluate(align) != "justify"
    if lang == "ja":
        page.goto(site.url + REPORT)
        assert page.evaluate(align) == "justify"

    feed_url = page.locator('link[rel=alternate][type="application/atom+xml"]').first.get_attribute("href")
    feed = page.request.get(site.url + feed_url)
    assert feed.ok and feed.headers["content-type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(feed.body())
    links = [link.get("href") for entry in root.iter(ATOM + "entry") for link in entry.iter(ATOM + "link")]
    assert any(href and href.endswith(REPORT) for href in links)
