"""Markdown from people (GM text, player prose, the story the GM edits) comes out as harmless HTML, fast."""

from __future__ import annotations

import pytest

from pbp.reports import draft_report, render_markdown
from pbp.reports.markdown import LINK_REL, MARKDOWN_LIMIT, _is_hostile, xml_safe
from tests.reports.htmlcheck import html_problems
from tests.reports.test_narrative import SAMPLES, bundle_of
from tests.reports.xss_corpus import XSS_CORPUS


def test_corpus_is_big_enough():
    assert len(XSS_CORPUS) >= 50


@pytest.mark.parametrize("text", XSS_CORPUS, ids=range(len(XSS_CORPUS)))
def test_gm_and_player_markdown_is_harmless(text):
    for images in (False, True):
        assert html_problems(render_markdown(text, allow_images=images), images=images) == []


@pytest.mark.parametrize("text", XSS_CORPUS[:66], ids=range(66))
def test_prose_and_names_through_the_story_are_harmless(text):
    events = [{"type": t, **SAMPLES[t]} for t in ("initiative", "attack", "damage", "death")]
    story = draft_report(bundle_of(events, names=(text[:200], "鬼一")), prose={"aoi": text}, pack={})
    assert html_problems(render_markdown(story)) == []


def test_links_get_rel_and_only_safe_schemes():
    html = render_markdown("[a](https://example.org) [b](mailto:gm@example.org) [c](ftp://example.org)")
    assert html.count(f'rel="{LINK_REL}"') == 3
    assert 'href="https://example.org"' in html and 'href="mailto:gm@example.org"' in html
    assert "ftp:" not in html


def test_raw_html_shows_as_text():
    assert render_markdown("<b>bold</b>") == "<p>&lt;b&gt;bold&lt;/b&gt;</p>"


def test_players_get_no_images_gm_may():
    assert "<img" not in render_markdown("![map](https://example.org/map.png)")
    assert '<img alt="map" src="https://example.org/map.png">' in render_markdown(
        "![map](https://example.org/map.png)", allow_images=True
    )


def test_markdown_still_works():
    html = render_markdown("# 見出し\n\n*強調* と **太字**\n改行\n\n- 一\n- 二\n\n| a | b |\n|:-|-:|\n| 1 | 2 |")
    for tag in ("<h1>", "<em>", "<strong>", "<br>", "<li>", '<td align="right">'):
        assert tag in html


def test_long_input_is_cut_to_the_limit():
    html = render_markdown("あ" * (MARKDOWN_LIMIT + 1000))
    assert html.count("あ") == MARKDOWN_LIMIT
    assert render_markdown("abc", limit=2) == "<p>ab</p>"


def test_empty_and_none_ish_input():
    assert render_markdown("") == ""
    assert render_markdown("   \n\n ") == ""


@pytest.mark.parametrize(
    "text",
    [
        "x\n-\n" * 12_500,  # setext headings: python-markdown's block parser goes quadratic (9 s)
        "x\n===\n" * 8_333,
        "- a\n" * 2_100,
        "*a* " * 2_100,
        "[" * 3_000 + "x",
    ],
    ids=["setext-dash", "setext-equals", "list", "emphasis", "brackets"],
)
def test_text_the_parser_would_crawl_on_is_shown_as_plain_paragraphs(text):
    """No input may make a render crawl (publishing renders inside the write transaction): shapes that make the
    Markdown parser slow are recognised up front and shown as escaped paragraphs. Checked by the guard, not by a
    clock: timings on a shared machine prove nothing."""
    assert _is_hostile(text)
    assert render_markdown(text).startswith("<p>")


def test_characters_xml_cannot_carry_are_replaced_visibly():
    """One backspace in a player's line must not make the Atom feed unreadable, nor a lone surrogate a page that
    cannot be encoded: they become U+FFFD, so nothing is dropped silently."""
    assert xml_safe("止まれ\x08！\ud800\ufffe\ttab\nline") == "止まれ\ufffd！\ufffd\ufffd\ttab\nline"
    assert render_markdown("a\x00b\x1fc") == "<p>a\ufffdb\ufffdc</p>"
