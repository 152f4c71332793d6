"""docs/rules/pool.ja.md, the Japanese rules page, translates docs/rules/pool.md: the same rules under the same ids in
the same order, the same sections, the same bad-status rows, every identifier kept. It names the English text it
translates by its sha256, so that a change to the English fails here until the translation follows it (the Japanese
site would otherwise show rules the engine no longer plays)."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = ROOT / "docs" / "rules" / "pool.md"
JAPANESE = ROOT / "docs" / "rules" / "pool.ja.md"
SOURCE = re.compile(r"^<!-- translated from docs/rules/pool\.md sha256:([0-9a-f]{64}) -->$", re.M)
RULE = re.compile(r"^- \*\*(R-[A-Z]+-\d+)\*\*", re.M)
HEADING = re.compile(r"^(#+) ", re.M)
STATUS_ROW = re.compile(r"^\| `([a-z_]+)` \|", re.M)
CODE = re.compile(r"`([^`]+)`")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_translation_names_the_english_it_translates() -> None:
    found = SOURCE.search(_text(JAPANESE))
    assert found, "docs/rules/pool.ja.md: its second line must name the English text it translates"
    current = hashlib.sha256(ENGLISH.read_bytes()).hexdigest()
    assert found[1] == current, (
        "docs/rules/pool.md changed since docs/rules/pool.ja.md was translated from it: translate the change, then "
        f"put sha256:{current} in its second line"
    )


def test_the_same_rules_in_the_same_order() -> None:
    english, japanese = RULE.findall(_text(ENGLISH)), RULE.findall(_text(JAPANESE))
    assert len(english) > 60 and japanese == english


def test_the_same_sections_and_bad_status_rows() -> None:
    english, japanese = _text(ENGLISH), _text(JAPANESE)
    assert HEADING.findall(japanese) == HEADING.findall(english)
    assert STATUS_ROW.findall(japanese) == STATUS_ROW.findall(english) and len(STATUS_ROW.findall(english)) == 6


def test_every_identifier_is_kept() -> None:
    """Field names, reasons, events and options are the same words in both (a reader matches them to a dice log)."""
    english, japanese = Counter(CODE.findall(_text(ENGLISH))), Counter(CODE.findall(_text(JAPANESE)))
    missing = {code: n for code, n in english.items() if japanese[code] < n}
    assert not missing, f"identifiers of pool.md missing from pool.ja.md: {missing}"
