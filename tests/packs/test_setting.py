"""A scenario's setting (`setting`, `time`, `weather`, each `{ ja, en }`) is optional pack data, checked like the
scenario's other localized fields: a problem names its file, key path and what is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbp.engine.pool.pack_checks import validate_pack
from pbp.packs import validate_pack_dir


def test_every_demo_scenario_has_its_setting_in_both_languages(demo: dict[str, Any]) -> None:
    for sid, scenario in demo["scenarios"].items():
        for key in ("setting", "time", "weather"):
            assert scenario[key]["ja"] and scenario[key]["en"], (sid, key)
    assert demo["scenarios"]["hangar_eve"]["setting"]["ja"] == "第三格納庫"
    assert demo["scenarios"]["tama_river"]["weather"]["ja"] == "川霧"


def test_the_setting_is_optional(demo: dict[str, Any]) -> None:
    for scenario in demo["scenarios"].values():
        for key in ("setting", "time", "weather"):
            del scenario[key]
    assert validate_pack(demo) == []


def test_a_bad_setting_is_a_problem_at_its_key(demo: dict[str, Any]) -> None:
    scene = demo["scenarios"]["hangar_eve"]
    scene["setting"] = "第三格納庫"  # not a table
    scene["time"] = {"ja": "出撃前夜"}  # no English
    scene["weather"] = {"ja": "底冷え", "en": "x" * 81, "fr": "froid"}  # too long, an unknown key
    got = {p.path: p.message for p in validate_pack(demo)}
    assert set(got) == {
        "scenarios.hangar_eve.setting",
        "scenarios.hangar_eve.time.en",
        "scenarios.hangar_eve.weather.en",
        "scenarios.hangar_eve.weather.fr",
    }
    assert got["scenarios.hangar_eve.time.en"] == "missing"
    assert "81 characters" in got["scenarios.hangar_eve.weather.en"]


def test_a_problem_in_the_folder_names_scenarios_toml(demo_dir: Path) -> None:
    path = demo_dir / "scenarios.toml"
    text = path.read_text(encoding="utf-8")
    old = 'time = { ja = "出撃前夜", en = "the night before the sortie" }'
    assert old in text
    path.write_text(text.replace(old, 'time = { ja = "出撃前夜", en = 3 }'), encoding="utf-8")
    [problem] = validate_pack_dir(demo_dir)
    assert (Path(problem.file).name, problem.path) == ("scenarios.toml", "scenarios.hangar_eve.time.en")
