"""The diff the GM's report page shows (pbp.reports.diff): lines added, removed and changed (the changed characters
marked), long unchanged stretches folded."""

from __future__ import annotations

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
