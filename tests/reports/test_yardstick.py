"""The stories' yardstick (issue 11, bench/stories.py): the demo battle over 12 rounds and 8 seeds, both languages,
meets its goals. The figures are printed by `python -m bench stories`."""

from __future__ import annotations

from functools import cache

import pytest

from bench.stories import Figures, measure


@cache
def _figures() -> dict[str, Figures]:
    return measure()


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_sentence_repeats_across_a_scenario(locale):
    assert min(_figures()[locale].distinct) >= 0.97


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_players_words_reach_the_story(locale):
    assert _figures()[locale].words_share >= 0.9


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_mechanics_and_no_dead_pc_acting(locale):
    fig = _figures()[locale]
    assert fig.mechanics == []
    assert fig.dead_acting == []


def test_the_english_story_has_no_japanese_outside_the_players_quoted_words():
    assert _figures()["en"].cjk == []


def test_japanese_stories_give_each_participant_a_replay_length():
    """400-800 characters per participant (ss-style), for the median round of every scenario."""
    assert all(400 <= n <= 800 for n in _figures()["ja"].per_participant)
