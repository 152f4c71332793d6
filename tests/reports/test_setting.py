"""`scenario_setting`: a scenario's place, time, weather, kind and title from the pack, in one locale, never the
other language's words, empty where the pack is silent or malformed."""

from __future__ import annotations

import copy

import pytest

from pbp.packs import demo_pack
from pbp.reports.setting import Setting, scenario_setting


def test_the_hangar_is_a_scene_at_night_in_both_languages() -> None:
    pack = demo_pack().data
    assert scenario_setting(pack, "hangar_eve", "ja") == Setting(
        place="第三格納庫", time="出撃前夜", weather="底冷え", kind="scene", title="出撃前夜、第三格納庫"
    )
    en = scenario_setting(pack, "hangar_eve", "en")
    assert (en.place, en.kind, en.title) == ("Hangar 3", "scene", "The night before the sortie, Hangar 3")
    assert en.scene


def test_the_river_is_a_battle_in_fog() -> None:
    river = scenario_setting(demo_pack().data, "tama_river", "ja")
    assert (river.place, river.weather, river.kind, river.scene) == ("多摩川の河川敷", "川霧", "battle", False)


@pytest.mark.parametrize("scenario", [None, "", "no_such"])
def test_an_unknown_scenario_is_a_battle_with_no_setting(scenario) -> None:
    assert scenario_setting(demo_pack().data, scenario, "ja") == Setting()
    assert scenario_setting(None, scenario, "en") == Setting()


def test_silent_or_malformed_fields_are_empty_and_english_never_shows_japanese() -> None:
    pack = copy.deepcopy(demo_pack().data)
    scene = pack["scenarios"]["hangar_eve"]
    scene["setting"] = "第三格納庫"  # not a table
    scene["time"] = {"ja": "出撃前夜", "en": "出撃前夜"}  # no English in truth
    scene["weather"] = {"ja": ["x"], "en": "  a   bitter\nchill "}
    scene["en"] = "出撃前夜"
    en = scenario_setting(pack, "hangar_eve", "en")
    assert (en.place, en.time, en.weather, en.title) == ("", "", "a bitter chill", "")
    assert scenario_setting(pack, "hangar_eve", "ja").weather == ""
