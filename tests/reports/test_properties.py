"""Properties over arbitrary text: rendering never fails, never hangs, never lets markup through."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.reports import draft_report, render_markdown
from pbp.reports.narrative import md_text
from pbp.reports.playing import read_playing
from tests.reports.htmlcheck import html_problems
from tests.reports.test_narrative import SAMPLES, bundle_of

# Text rich in the characters that matter to Markdown and HTML, mixed with Japanese.
_PIECES = list("<>&\"'`*_[]()!#-+.|~\\:/=\n ajvscriptdon葵「」。{}") + [
    "javascript:", "<script>", "onerror=", "data:", "{: onclick=x}", '{: lang="ja"}', "🔥", "！", "…",
]  # fmt: skip
MARKUP = st.lists(st.sampled_from(_PIECES), max_size=200).map("".join)


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(MARKUP, st.booleans())
def test_render_markdown_is_always_harmless(text, images):
    assert html_problems(render_markdown(text, allow_images=images), images=images) == []


@settings(max_examples=150, deadline=2000)
@given(MARKUP)
def test_a_value_in_the_story_renders_as_its_own_text(value):
    html = render_markdown(str(md_text(value)))
    assert html_problems(html) == []
    for tag in ("<a", "<em", "<strong", "<code", "<h1", "<li", "<blockquote"):
        assert tag not in html


@settings(max_examples=60, deadline=5000)
@given(MARKUP, MARKUP)
def test_stories_with_any_names_and_prose_render(name, prose):
    events = [{"type": t, **SAMPLES[t]} for t in SAMPLES]
    story = draft_report(bundle_of(events, names=(name or "x", "鬼一")), prose={"aoi": prose}, pack={})
    assert html_problems(render_markdown(story)) == []


_SENTENCES = st.lists(
    st.sampled_from(["前に出る。", "「行くぞ！」", "……静かだ。", "🔥🔥", "I will hold.", "「まだか？」", "**太字**。",
                     "[x](javascript:alert(1))。", "あ" * 300, "油断はしない。", "Stay sharp!"]),
    max_size=8,
).map("".join)  # fmt: skip


@settings(max_examples=80, deadline=5000)
@given(_SENTENCES, st.sampled_from(["ja", "en"]))
def test_any_prose_gives_a_well_formed_story_with_every_line_of_dialogue(prose, locale):
    """Whatever the entry (one long sentence, only quotes, only emoji, two languages, Markdown tricks, nothing),
    the story renders harmless HTML, quotes every line of dialogue verbatim (issue 29), and leaves no Markdown mark
    of the entry's in the narration."""
    story = draft_report(bundle_of([{"type": "attack", **SAMPLES["attack"]}]), prose={"aoi": prose}, pack={},
                         locale=locale, strict=True)  # fmt: skip
    assert html_problems(render_markdown(story)) == []
    for piece in read_playing(prose).pieces:
        if piece.kind == "speech":
            assert str(md_text(piece.text)) in story, (piece, story)
    assert "**" not in story.split("\n---\n")[0].replace("\\*", "")
