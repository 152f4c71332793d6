"""English that is English: a pack's gear names as common nouns mid-sentence, and the English phrasebook free of
words that are false of a body (a pilot's or a machine's "hide"), of one character ("each other"), or that mock a PC
for not acting."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pbp.reports.english import as_attempt, common_noun

POOL_EN = Path(__file__).resolve().parents[2] / "templates" / "narrative" / "pool" / "en"


@pytest.mark.parametrize(
    ("name", "told"),
    [
        ("Beam Rifle", "beam rifle"),  # a heading's title case
        ("Beam rifle", "beam rifle"),  # the demo pack's sentence case
        ("Anti-Armour Rocket", "anti-armour rocket"),
        ("EMP shell", "EMP shell"),  # an acronym
        ("HMG-3 Heavy Gun", "HMG-3 heavy gun"),
        ('Katana "Murakumo"', 'katana "Murakumo"'),  # a quoted proper noun
        ("Savior Type-10 'Murakumo'", "savior type-10 'Murakumo'"),
        ("Blade 「ムラクモ」", "blade 「ムラクモ」"),
        ("McLaren Cannon", "McLaren cannon"),  # mixed case is a name
        ("Type A Rifle", "type A rifle"),  # one capital alone is a designation
        ("Aoi's Lucky Charm", "Aoi's lucky charm"),  # a possessor is a name
    ],
)
def test_common_noun_lowers_title_case_words_and_keeps_names(name: str, told: str) -> None:
    assert common_noun(name) == told


@pytest.mark.parametrize(
    "name",
    ["", "ビームライフル", "🔥🔥🔥", "**", "（", 'Bad "Quote', "「閉じない", "A" * 800, "Sword " * 200 + "「ム"],
)
def test_common_noun_never_raises_and_keeps_what_it_cannot_lower(name: str) -> None:
    told = common_noun(name)
    assert len(told) == len(name)  # only case changes: no character added, dropped or reordered
    assert told.lower() == name.lower()


def test_common_noun_keeps_everything_after_an_unclosed_quote() -> None:
    assert common_noun('Great Sword "Kusanagi Blade') == 'great sword "Kusanagi Blade'


def _phrases() -> list[tuple[str, str]]:
    """Every (slot, phrasing) of the English phrasebook."""
    book = tomllib.loads((POOL_EN / "phrases.toml").read_text(encoding="utf-8"))
    out: list[tuple[str, str]] = []

    def walk(prefix: str, node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{prefix}.{key}" if prefix else key, value)
        elif isinstance(node, list):
            out.extend((prefix, str(p)) for p in node)
        elif isinstance(node, str):
            out.append((prefix, node))

    walk("", book)
    return out


def test_the_phrasebook_has_no_hide_on_a_pilot_or_a_machine() -> None:
    """{t} is a pilot, a machine or a creature; "hide" is true of none of the first two."""
    assert [p for _, p in _phrases() if re.search(r"\bhide\b", p)] == []


def test_the_phrasebook_measures_no_silence_by_a_person() -> None:
    assert [p for _, p in _phrases() if re.search(r"size of \{", p)] == []


def test_a_pc_who_did_not_act_is_never_mocked() -> None:
    """A PC with no entry, or who waited, gets a neutral moment (ss-style.md): never timid, hesitant or doubting."""
    mocking = re.compile(
        r"timid|coward|hesitat|doubt|\{n\} wavered|could not (?:see|judge)|perhaps \{n\} could not", re.I
    )
    idle = [p for slot, p in _phrases() if slot.startswith("idle.")]
    assert idle  # the slots exist: the law is about them
    assert [p for p in idle if mocking.search(p)] == []


def test_a_list_of_pcs_that_may_be_one_is_not_told_as_several() -> None:
    """opening.again and opening.clear are said of one PC too: no "each other", "each carried", "one another" among the
    PCs ("{pcs} and {foes} ... each other" is two sides, and true)."""
    plural = re.compile(r"\{pcs\}(?! and \{foes\})[^.]*\b(?:each other|one another|each carried)")
    said_of_one = [p for slot, p in _phrases() if slot in ("opening.again", "opening.clear") and "{pcs}" in p]
    assert said_of_one
    assert [p for p in said_of_one if plural.search(p)] == []


def test_no_capitalised_common_noun_mid_sentence() -> None:
    """A capital after a lower-case word or a comma is a common noun printed as a heading ("her Beam Rifle")."""
    mid = re.compile(r"[a-z,;] (?!I\b)[A-Z][a-z]")
    titles = ("title.",)  # a round's title is a heading, in title case
    found = [p for slot, p in _phrases() if not slot.startswith(titles) and mid.search(re.sub(r"\{[^}]*\}", "x", p))]
    assert found == []


CAST = ("Noah", "Makoto")
ATTEMPTS = [
    ("Noah takes the high cover position above Makoto.", "Noah meant to take the high cover position above Makoto"),
    ("He fires only when he's sure.", "He meant to fire only when he was sure"),
    (
        "He writes the captain's name on his lantern, the way Makoto showed him, and sets it on the water.",
        "He meant to write the captain's name on his lantern, the way Makoto showed him, and set it on the water",
    ),
    (
        "Noah flies as Makoto's wingman, holding higher while Makoto goes in low.",
        "Noah meant to fly as Makoto's wingman, holding higher while Makoto went in low",
    ),
    ("They hold the line and wait.", "They meant to hold the line and wait"),
    ("She quickly reloads and fires.", "She meant to quickly reload and fire"),
]


@pytest.mark.parametrize(("sentence", "told"), ATTEMPTS)
def test_an_english_plan_is_told_in_the_past_as_the_attempt(sentence: str, told: str) -> None:
    """Issue 29: an English player's present-tense plan woven into a past-tense story ('Noah takes…' read as a
    slip); told as the attempt like a Japanese plan (「…しようとした」)."""
    assert as_attempt(sentence, CAST) == told


@pytest.mark.parametrize(
    "sentence",
    [
        "Noah is tired.",  # a state
        "He doesn't know the words of the prayer.",  # a negative
        "Hayachi love to dive from above, so he climbs first.",  # not a PC's doing
        "Anything that starts a dive on Makoto gets jumped.",  # a rule of thumb
        "Noah loves the sky.",  # a feeling
        "No spraying over the shelters.",  # no verb at its head
        "Kagachi swings its claws.",  # someone the cast does not hold
    ],
)
def test_what_is_not_a_pc_s_doing_stays_as_written(sentence: str) -> None:
    assert as_attempt(sentence, CAST) is None
