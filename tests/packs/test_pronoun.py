"""A character's pronoun in English stories (issue 29): optional on a sheet, one of she/he/they, validated with the
sheet; the story's answer is the sheet's, else the ready-made character's it was copied from, else they."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbp.engine.pool.pack_checks import validate_character
from pbp.packs import validate_pack_dir
from pbp.reports.pronouns import english_pronoun


def test_the_demos_ready_made_characters_have_theirs(demo: dict[str, Any]) -> None:
    assert {k: c.get("pronoun") for k, c in demo["characters"].items()} == {"aoi": "she", "makoto": "he"}
    assert "their" not in demo["characters"]["aoi"]["description_en"]  # Aoi is "she": her hometown


@pytest.mark.parametrize("pronoun", ["she", "he", "they"])
def test_each_pronoun_is_a_valid_sheet(demo: dict[str, Any], pronoun: str) -> None:
    assert validate_character(demo, {**demo["characters"]["aoi"], "pronoun": pronoun}) == []


def test_a_sheet_without_one_is_valid(demo: dict[str, Any]) -> None:
    sheet = {k: v for k, v in demo["characters"]["aoi"].items() if k != "pronoun"}
    assert validate_character(demo, sheet) == []


@pytest.mark.parametrize("bad", ["it", "She", "", 3, ["she"], None])
def test_anything_else_is_refused_at_the_pronoun(demo: dict[str, Any], bad: object) -> None:
    problems = validate_character(demo, {**demo["characters"]["aoi"], "pronoun": bad})
    assert [p.path for p in problems] == ["pronoun"]
    assert problems[0].message.endswith("is not one of she, he, they")


def test_the_pack_file_names_the_file_key_and_problem(demo_dir: Path) -> None:
    path = demo_dir / "characters.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('pronoun = "she"', 'pronoun = "it"'), encoding="utf-8")
    said = [str(p) for p in validate_pack_dir(demo_dir)]
    assert said == [f"{path}: characters.aoi.pronoun: 'it' is not one of she, he, they"]


def test_the_sheets_own_pronoun_comes_first(demo: dict[str, Any]) -> None:
    aoi = demo["characters"]["aoi"]
    assert english_pronoun(aoi, demo) == "she"
    assert english_pronoun({**aoi, "pronoun": "they"}, demo) == "they"  # a choice, not a blank
    assert english_pronoun({**aoi, "pronoun": "he"}, demo) == "he"


def test_without_one_the_ready_made_characters_with_the_same_names(demo: dict[str, Any]) -> None:
    copied = {k: v for k, v in demo["characters"]["makoto"].items() if k != "pronoun"}
    assert english_pronoun(copied, demo) == "he"
    assert english_pronoun({**copied, "pronoun": "it"}, demo) == "he"  # a hand-edited value is never told
    assert english_pronoun({**copied, "en": "Mako"}, demo) == "they"  # a character of its own
    assert english_pronoun(copied, None) == "they"


@pytest.mark.parametrize(
    "pack", [{}, {"characters": None}, {"characters": {"x": "not a table"}}, {"characters": {"x": {"pronoun": "she"}}}]
)
def test_a_strange_sheet_or_pack_is_they_and_never_raises(pack: dict[str, Any]) -> None:
    for sheet in (None, {}, {"ja": None, "en": None}, {"pronoun": ["she"]}):
        assert english_pronoun(sheet, pack) == "they"  # type: ignore[arg-type]
