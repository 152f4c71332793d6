"""The stories' measures that are laws (issue 29), over the 36-entry PBW corpus (shared/prose/entries.toml) played
through the demo battle and the hangar scene over 8 seeds in both languages (bench/stories.py prints every figure;
`make bench`). The median spacing of a PC's name is printed there but not yet asserted: it is a goal the stories
do not meet (see the issue's notes)."""

from __future__ import annotations

import pytest

import bench.stories as stories

pytestmark = pytest.mark.skipif(
    not stories.ENTRIES.is_file(), reason=f"the PBW corpus is not at {stories.ENTRIES} (shared/ beside the repo)"
)


@pytest.fixture(scope="module")
def measured() -> tuple[dict[str, stories.Figures], dict]:
    return stories.measure()


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_every_line_of_dialogue_is_quoted_verbatim_and_no_note_or_heading_is_told(measured, locale):
    figures, _ = measured
    fig = figures[locale]
    assert fig.quotes > 0 and fig.quoted == 1.0, fig.unquoted[:5]
    assert fig.leaks == [], fig.leaks[:5]  # no 【】/■ heading, no **, no note to the master


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_first_person_outside_quotes_and_inner_voice(measured, locale):
    assert measured[0][locale].first_person == [], measured[0][locale].first_person[:5]


def test_no_beku_after_a_clause_that_is_not_a_plan(measured):
    """「見えるべく」「届いてしまうべく」「守るべく」 with 私 inside: the analyser finds none."""
    assert measured[0]["ja"].beku == [], measured[0]["ja"].beku[:5]


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_sentence_frames_vary_in_every_scenario(measured, locale):
    distinct = measured[0][locale].distinct
    assert set(distinct) == set(stories.SCENARIOS.values())
    assert min(distinct.values()) >= 0.90, distinct


def test_no_japanese_script_in_english_outside_the_players_marked_words(measured):
    assert measured[0]["en"].cjk == [], measured[0]["en"].cjk[:5]


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_mechanics_words_and_no_unit_acting_after_its_death(measured, locale):
    figures, counts = measured
    assert figures[locale].mechanics == [], figures[locale].mechanics[:5]
    assert counts["dead_acting"] == []
