"""`pbp round show ID`: what the GM reads before an override, from the command line (issue 10, item 5)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.lifecycle.test_cli import pbp


def test_round_show_prints_the_entries_and_once_resolved_the_dice_log_with_check_ids(instance: Path) -> None:
    shown = pbp("round", "show", "2", check=True).stdout
    assert shown.startswith("round 2: open, deadline ")
    assert "entries: 2 of 2 joined characters" in shown
    assert "  pc1: Major: attack kagachi1 with Beam rifle\n    | 川霧の向こう" in shown  # orders in words, prose
    assert "dice log" not in shown  # nothing rolled before resolution
    published = pbp("round", "show", "1", check=True).stdout
    checks = re.findall(r"\[(r1-c\d+)\]", published)
    assert checks and checks == sorted(set(checks), key=checks.index)
    assert re.search(r"\[r1-c1\] .+d6<=\d.*: \[[\d, ]+\] -> \d+ successes", published)
    overridden = pbp("round", "override", "2", "r2-c1", "0", "--reason", "x")
    assert overridden.returncode == 2 and "only a resolved, unpublished round" in overridden.stderr


def test_round_show_refuses_bad_input_in_one_line(instance: Path) -> None:
    missing = pbp("round", "show", "99")
    assert (missing.returncode, missing.stdout, missing.stderr) == (2, "", "pbp: no round 99\n")
    for args in (("x",), ()):
        refused = pbp("round", "show", *args)
        assert refused.returncode == 2 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1
