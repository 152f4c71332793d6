"""The public blog: its routes show published reports only, with the dice log, seed and verify bundle; feeds parse
as Atom with time-zone-aware dates; pages carry OpenGraph tags and a print style."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import pytest

from pbp import db as pbp_db
from pbp.engine.verify import verify_bundle
from pbp.packs import demo_pack
from pbp.services import publishing, rounds
from pbp.services.clock import FixedClock
from tests.reports.htmlcheck import html_problems
from tests.reports.xss_corpus import XSS_CORPUS
from tests.web.conftest import SITE_URL, make_app
from tests.web.world import START, World, build_world

ATOM = "{http://www.w3.org/2005/Atom}"
REPORT = "/blog/demo/tama_river/round-{}/"


def text(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.get_data(as_text=True)


def main_of(html: str) -> str:
    """The page's own content (the layout's head legitimately holds <meta> and <link>)."""
    return html.split("<main>", 1)[1].split("</main>", 1)[0]


def test_the_home_page_links_to_the_blog(client):
    html = client.get("/").get_data(as_text=True)
    assert '<a href="/blog/">報告書一覧</a>' in html and '<a href="/blog/demo/">' in html


@pytest.mark.parametrize(
    "url",
    ["/blog/", "/blog/demo/", "/blog/demo/tama_river/", REPORT.format(1), REPORT.format(2),
     "/blog/demo/characters/1/", "/blog/demo/characters/2/", "/feed.atom", "/blog/demo/feed.atom",
     "/blog/demo/tama_river/round-1/bundle.json", "/static/site.css", REPORT.format(1) + "en/"],
)  # fmt: skip
def test_public_pages_answer(client, url):
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "url",
    [REPORT.format(3), REPORT.format(3) + "bundle.json", REPORT.format(3) + "en/", "/blog/page/2/", "/blog/nope/",
     "/blog/demo/nope/", "/blog/demo/characters/99/", "/blog/nope/feed.atom", "/blog/page/0/",
     REPORT.format(10**20), REPORT.format(10**20) + "en/", REPORT.format(10**20) + "bundle.json",
     f"/blog/demo/characters/{10**20}/"],
)  # fmt: skip
def test_unpublished_or_unknown_is_not_found(client, url):
    assert client.get(url).status_code == 404


def test_index_is_newest_first_and_paginated_by_path(world):
    client = make_app(world.url, BLOG_PAGE_SIZE=1).test_client()
    first, second = text(client, "/blog/"), text(client, "/blog/page/2/")
    assert "第2ラウンド" in first and "第1ラウンド" not in first
    assert "第1ラウンド" in second and 'href="/blog/"' in second
    assert 'rel="next" href="/blog/page/2/"' in first
    assert 'rel="next" href="/blog/demo/page/2/"' in text(client, "/blog/demo/")
    assert client.get("/blog/page/3/").status_code == 404


def test_report_page_has_story_meta_dice_log_and_verification(client, world):
    html = text(client, REPORT.format(1))
    for part in ("\u2068多摩川防衛戦\u2069 第1ラウンド", "ヤマツカミ迎撃戦線", "葵", "真琴", 'class="story"',
                 "ダイスログ", "[r1-c1]", "d6≤", "golden-1", "bundle.json", "JST"):  # fmt: skip
        assert part in html, part
    assert html_problems(main_of(html)) == []


def test_dice_log_names_modifier_sources(client):
    html = text(client, REPORT.format(1))
    assert "（川霧）" in html or "（機体補正）" in html


def test_bundle_download_verifies(client):
    response = client.get("/blog/demo/tama_river/round-1/bundle.json")
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    bundle = json.loads(response.get_data(as_text=True))
    assert bundle["seed"] == "golden-1"
    assert verify_bundle(bundle) is None


def test_character_chronicle_lists_every_report_it_appears_in(client, world):
    html = text(client, f"/blog/demo/characters/{world.characters['aoi']}/")
    assert "葵の記録" in html
    assert REPORT.format(1) in html and REPORT.format(2) in html
    assert REPORT.format(3) not in html


def test_opengraph_and_feed_discovery(client):
    html = text(client, REPORT.format(2))
    for tag in ('property="og:title"', 'property="og:type" content="article"', 'property="og:description"',
                f'property="og:url" content="{SITE_URL}blog/demo/tama_river/round-2/"',
                'property="article:published_time"', 'type="application/atom+xml"'):  # fmt: skip
        assert tag in html, tag


@pytest.mark.parametrize("url", ["/feed.atom", "/blog/demo/feed.atom"])
def test_feed_is_atom_with_aware_dates(client, url):
    response = client.get(url)
    assert response.mimetype == "application/atom+xml"
    root = ET.fromstring(response.get_data())
    assert root.tag == f"{ATOM}feed"
    assert root.find(f"{ATOM}id").text.startswith(SITE_URL)
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 2
    stamps = []
    for entry in entries:
        for field in ("title", "id", "updated", "published", "content", "author"):
            assert entry.find(f"{ATOM}{field}") is not None, field
        assert entry.find(f"{ATOM}link").get("href").startswith(SITE_URL + "blog/demo/tama_river/round-")
        stamp = datetime.fromisoformat(entry.find(f"{ATOM}updated").text)
        assert stamp.tzinfo is not None
        stamps.append(stamp)
    assert stamps == sorted(stamps, reverse=True)
    assert datetime.fromisoformat(root.find(f"{ATOM}updated").text) == stamps[0]
    assert html_problems(entries[0].find(f"{ATOM}content").text) == []


def test_stylesheet_has_japanese_typography_and_print(client):
    css = text(client, "/static/site.css")
    for part in ("Hiragino", "Noto Sans JP", "line-break: strict", "line-height", "@media print"):
        assert part in css


@contextmanager
def _resolved_round(tmp_path) -> Iterator[tuple[World, FixedClock]]:
    """A world whose first round is resolved and not yet published, connected, for the GM to act on before
    publishing (the app reads it after the block)."""
    world = build_world(f"sqlite:///{tmp_path / 'x.sqlite3'}", published=0)
    clock = FixedClock(START)
    clock.advance(14 * 3600)
    with pbp_db.bind(world.url).connection_context():
        rounds.resolve_round(world.open_round, clock=clock)
        yield world, clock


def test_gm_markdown_is_sanitised_on_the_page(tmp_path):
    """Hostile GM Markdown in the report it publishes (and in its English story) comes out harmless on the pages
    and in the feed."""
    with _resolved_round(tmp_path) as (world, clock):
        # A NUL is refused before it is stored (tests/lifecycle/test_text.py): the Markdown tests render that one.
        hostile = "\n\n".join(sample for sample in XSS_CORPUS[:66] if "\x00" not in sample)
        publishing.edit_report(world.open_round, hostile, story_en=hostile, clock=clock)
        publishing.publish_round(world.open_round, clock=clock)
    client = make_app(world.url).test_client()
    assert html_problems(main_of(text(client, REPORT.format(1)))) == []
    assert html_problems(main_of(text(client, REPORT.format(1) + "en/"))) == []
    feed = ET.fromstring(client.get("/feed.atom").get_data())
    assert html_problems(feed.find(f"{ATOM}entry/{ATOM}content").text) == []


def test_overrides_are_published_with_their_reason(tmp_path):
    """R-GM-1: a GM override shows in the dice log with the check id, before, after and the reason."""
    with _resolved_round(tmp_path) as (world, clock):
        rounds.override_check(world.open_round, "r1-c1", 0, reason="川霧が<濃すぎた>", clock=clock)
        publishing.publish_round(world.open_round, clock=clock)
    html = main_of(text(make_app(world.url).test_client(), REPORT.format(1)))
    assert "GM裁定 [r1-c1]" in html and "→ 0 成功" in html
    assert "川霧が&lt;濃すぎた&gt;" in html


def test_english_story_beside_the_japanese(client):
    html = text(client, REPORT.format(1) + "en/")
    assert '<html lang="en">' in html
    assert "State at the end of the round" in html  # the generated English story, its state list under it
    assert 'hreflang="ja"' in html and 'hreflang="en"' in text(client, REPORT.format(1))
    assert html_problems(main_of(html)) == []


def test_the_english_page_shows_the_gms_english_story_when_there_is_one(tmp_path):
    with _resolved_round(tmp_path) as (world, clock):
        generated = publishing.english_story(world.open_round)[0]
        publishing.edit_report(world.open_round, story_en="The fog *lifted* over the river.", clock=clock)
        publishing.publish_round(world.open_round, clock=clock)
    page = main_of(text(make_app(world.url).test_client(), REPORT.format(1) + "en/"))
    assert "The fog <em>lifted</em> over the river." in page
    assert "Written by pbp" not in page and generated.split("\n")[0][:40] not in page


def test_the_english_page_is_generated_while_the_gm_wrote_none(client):
    page = main_of(text(client, REPORT.format(1) + "en/"))
    assert "Written by pbp from the round" in page and "growth points" in page


def test_a_published_english_story_stays_as_published(tmp_path):
    """The generated English story is frozen at publishing: growth points granted later do not rewrite it."""
    from pbp.services import characters

    with _resolved_round(tmp_path) as (world, clock):
        publishing.publish_round(world.open_round, clock=clock)
    client = make_app(world.url).test_client()
    before = main_of(text(client, REPORT.format(1) + "en/"))
    assert "Written by pbp" in before and "growth points" in before
    with pbp_db.bind(world.url).connection_context():
        for cid in world.characters.values():
            characters.grant_growth_points(cid, 7, reason="a fine round", clock=clock)
    assert main_of(text(client, REPORT.format(1) + "en/")) == before


def test_a_control_character_in_a_players_line_leaves_the_feed_readable(tmp_path):
    """XML forbids a backspace: the entry's prose reaches the story and the feed as U+FFFD, and the feed parses."""
    from pbp.models import Entry

    with _resolved_round(tmp_path) as (world, clock):
        Entry.update(prose="「止まれ\x08！」").where(Entry.round == world.open_round).execute()  # the English story's
        publishing.edit_report(world.open_round, "「止まれ\x08！」と叫んだ。", clock=clock)
        publishing.publish_round(world.open_round, clock=clock)
    client = make_app(world.url).test_client()
    feed = ET.fromstring(client.get("/feed.atom").get_data())
    content = feed.find(f"{ATOM}entry/{ATOM}content").text
    assert "止まれ\ufffd！" in content and "\x08" not in content
    assert "止まれ\ufffd！" in main_of(text(client, REPORT.format(1) + "en/"))


def test_a_report_links_its_neighbouring_rounds(client):
    first, second = main_of(text(client, REPORT.format(1))), main_of(text(client, REPORT.format(2)))
    assert f'rel="next" href="{REPORT.format(2)}"' in first and 'rel="prev"' not in first
    assert f'rel="prev" href="{REPORT.format(1)}"' in second and 'rel="next"' not in second  # round 3 is not published


def test_a_report_shows_the_battlefield_at_its_end_without_the_enemies_gauges(client, world):
    html = main_of(text(client, REPORT.format(1)))
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "カガチ壱" in svg and "葵" in svg
    pcs = 2
    assert svg.count('class="bar-injury"') == pcs  # the PCs' gauges only: the enemies' are not public
    assert "第1ラウンド終了時の戦場" in html


def test_the_campaign_page_lists_its_scenarios_and_cast(client, world):
    html = main_of(text(client, "/blog/demo/"))
    assert 'href="/blog/demo/tama_river/"' in html
    for name in ("aoi", "makoto"):
        assert f'href="/blog/demo/characters/{world.characters[name]}/"' in html


def test_the_character_page_shows_the_public_sheet_and_the_chronicle(client, world):
    html = main_of(text(client, f"/blog/demo/characters/{world.characters['aoi']}/"))
    assert "キャラクターシート" in html and "射撃 3" in html and "セイヴァー" in html
    assert "散った" not in html  # 葵 is alive


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_scenario_page_describes_in_the_pages_language(world, locale):
    """The blog's scenario page shows the pack's `description_en` on the English site, its `description` on the
    Japanese one (it showed the Japanese, unmarked, on both)."""
    spec = demo_pack().data["scenarios"]["tama_river"]
    shown, other = ("description_en", "description") if locale == "en" else ("description", "description_en")
    html = text(make_app(world.url, LOCALE=locale).test_client(), "/blog/demo/tama_river/")
    assert f'<div class="lead"><p>{spec[shown].strip()[:30]}' in html
    assert spec[other].strip()[:30] not in html


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_character_page_describes_in_the_pages_language(world, locale):
    """A pack character's `description_en` on the English page, its `description` on the Japanese one."""
    sheet = demo_pack().data["characters"]["aoi"]
    shown, other = ("description_en", "description") if locale == "en" else ("description", "description_en")
    html = text(make_app(world.url, LOCALE=locale).test_client(), f"/blog/demo/characters/{world.characters['aoi']}/")
    assert f'<p class="lead">{sheet[shown]}</p>' in html and sheet[other] not in html


def test_the_english_site_is_english_throughout(world):
    """With LOCALE = "en" the report page tells the English story with the English names, and the dice log names
    the units in English; Japanese appears only in the players' own quoted words (marked lang="ja")."""
    import re

    client = make_app(world.url, LOCALE="en").test_client()
    html = main_of(text(client, REPORT.format(1)))
    story = html.split('<div class="story">', 1)[1].split("</div>", 1)[0]
    outside = re.sub(r'<em lang="ja">.*?</em>', "", story)
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", outside), outside
    assert "Aoi" in story and "Kagachi One" in story
    log = html.split('class="verify"', 1)[1]
    assert "Aoi" in log and "葵" not in log


def test_the_character_page_tells_the_round_the_character_fell_in(tmp_path):
    """A death in a published round is the character's fate on its page (R-GAUGE-7)."""
    from pbp.models import Resolution
    from pbp.services.characters import unit_id

    with _resolved_round(tmp_path) as (world, clock):
        res = Resolution.get(Resolution.round == world.open_round)
        fell = {"type": "death", "round": 1, "unit": unit_id(world.characters["aoi"]), "cause": "destroyed"}
        Resolution.update(events=[*res.events, fell]).where(Resolution.id == res.id).execute()
        publishing.publish_round(world.open_round, clock=clock)
    client = make_app(world.url).test_client()
    aoi = main_of(text(client, f"/blog/demo/characters/{world.characters['aoi']}/"))
    makoto = main_of(text(client, f"/blog/demo/characters/{world.characters['makoto']}/"))
    assert "散った" in aoi and REPORT.format(1) in aoi.split('class="fate"', 1)[1]
    assert "散った" not in makoto


def test_an_excerpt_cuts_words_at_a_space_and_japanese_at_the_limit() -> None:
    from pbp.web.blog.queries import excerpt

    english = "<p>" + "Hayachi stirred along the riverbank, " * 6 + "</p>"
    cut = excerpt(english, 60)
    assert cut.endswith("…") and len(cut) <= 60
    assert english.startswith("<p>" + cut[:-1]) and english[3 + len(cut) - 1] in " ,"  # a whole word before the cut
    japanese = "<p>" + "川霧の向こうでハヤチが身を起こした。" * 10 + "</p>"
    assert excerpt(japanese, 60) == japanese[3 : 3 + 59] + "…"
    assert excerpt("<p>short</p>", 60) == "short"


def test_an_english_reader_reaches_the_japanese_original(client):
    """An English browser reads the English story; the page links the Japanese original, which is the report as a
    Japanese reader reads it (the Japanese page links the English one)."""
    english = client.get(REPORT.format(1), headers={"Accept-Language": "en"}).get_data(as_text=True)
    link = re.search(r'<a hreflang="ja" lang="ja" href="([^"]+)">日本語', english)
    assert link and link[1] == REPORT.format(1) + "ja/"
    original = client.get(link[1], headers={"Accept-Language": "en"}).get_data(as_text=True)
    japanese = client.get(REPORT.format(1), headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert '<html lang="ja">' in original and main_of(original) == main_of(japanese)
    assert 'hreflang="en"' in japanese and 'hreflang="ja" lang="ja"' not in japanese
