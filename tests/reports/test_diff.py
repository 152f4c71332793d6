"""The diff the GM's report page shows (pbp.reports.diff): lines added, removed and changed (the changed characters
marked), long unchanged stretches folded."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from pbp.reports.diff import DiffLine, line_diff


def kinds(lines: list[DiffLine]) -> list[str]:
    return [line.kind for line in lines]


def test_no_difference_is_no_line():
    assert line_diff("a\nb", "a\nb") == []


def test_a_changed_line_marks_the_changed_characters():
    [removed, added] = line_diff("葵は撃った。", "葵は二度撃った。")
    assert removed == DiffLine("removed", (("葵は", False), ("撃った。", False)))
    assert added == DiffLine("added", (("葵は", False), ("二度", True), ("撃った。", False)))


def test_added_and_removed_lines_and_folded_context():
    old = "\n".join(f"line {i}" for i in range(20))
    new = old.replace("line 10", "line ten").replace("line 19", "line 19\nthe end")
    lines = line_diff(old, new, context=2)
    assert kinds(lines) == ["skipped", "same", "same", "removed", "added", "same", "same", "skipped", "same", "same",
                            "added"]  # fmt: skip
    assert lines[0].count == 8 and lines[7].count == 5
    assert lines[-1] == DiffLine("added", (("the end", True),))


def test_a_huge_line_is_marked_changed_whole():
    old, new = "あ" * 3000, "い" + "あ" * 2999
    [removed, added] = line_diff(old, new)
    assert removed.segments == ((old, True),) and added.segments == ((new, True),)


def test_a_changed_english_word_is_marked_whole():
    """Issue 31 item 8: a word-level diff ('twice' -> 'thrice' is one word changed, not 'tw' -> 'thr')."""
    [removed, added] = line_diff("Aoi fired twice at it.", "Aoi fired thrice at it.")
    assert [text for text, changed in removed.segments if changed] == ["twice"]
    assert [text for text, changed in added.segments if changed] == ["thrice"]


def test_japanese_is_compared_word_by_word_as_the_analyser_cuts_it():
    [removed, added] = line_diff("真琴は操縦桿を握り込んだ。", "真琴は静かに操縦桿を握った。")
    assert [text for text, changed in removed.segments if changed] == ["握り込んだ"]
    assert [text for text, changed in added.segments if changed] == ["静かに", "握った"]


_ONE_LINE = st.text(st.characters(blacklist_categories=("Cc", "Zl", "Zp", "Cs")), min_size=1, max_size=60)


@given(_ONE_LINE, _ONE_LINE)
def test_the_segments_of_a_changed_line_are_the_line(old: str, new: str):
    """Nothing is lost or invented by cutting into words: each side's segments join to its line."""
    assume(old != new)
    for line in line_diff(old, new):
        text = "".join(t for t, _ in line.segments)
        assert text == (old if line.kind == "removed" else new) or line.kind == "same"
