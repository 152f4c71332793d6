"""The demo campaign pack validates clean and holds what the seed and the brief ask of it."""

from __future__ import annotations

from typing import Any

from pbp.engine.pool import rules
from pbp.packs import validate_pack_dir
from pbp.paths import DEMO_PACK_DIR

SEED_SKILLS = {"体力", "整備", "陳情", "調達", "白兵", "芸術", "回避", "情報処理"}


def test_demo_pack_validates_clean() -> None:
    assert validate_pack_dir(DEMO_PACK_DIR) == []


def test_r_check_4_demo_maps_every_seed_skill_to_its_stat(demo: dict[str, Any]) -> None:
    skills = demo["skills"]
    assert set(demo["stats"]) == {"肉体", "感覚", "理知", "文化"}
    assert SEED_SKILLS | {"射撃"} <= set(skills)
    assert len(skills) >= 16
    # the seed's own examples: 白兵 -> 肉体, 芸術 -> 文化, 回避 -> 肉体
    assert (skills["白兵"]["stat"], skills["芸術"]["stat"], skills["回避"]["stat"]) == ("肉体", "文化", "肉体")
    assert skills["射撃"]["stat"] == "感覚"


def test_demo_has_the_three_vehicle_kinds(demo: dict[str, Any]) -> None:
    kinds = {(v["kind"], v["movement"]) for v in demo["vehicles"].values()}
    assert {("savior", "ground"), ("fighter", "air"), ("yamatsukami", "ground")} <= kinds


def test_demo_weapons_cover_melee_area_and_every_bad_status(demo: dict[str, Any]) -> None:
    weapons = demo["weapons"].values()
    assert len(weapons) >= 10
    assert any(w["range"] == [0, 0] and "ammo" not in w for w in weapons)
    assert any(w.get("targets", 1) > 1 for w in weapons)
    assert {w["inflicts"] for w in weapons if "inflicts" in w} == set(rules.STATUSES)
    assert {w.get("gauge") for w in weapons} >= {"injury", "damage"}
    assert any(w["mount"] == "personal" for w in weapons)


def test_demo_has_items_enemies_and_both_scenario_kinds(demo: dict[str, Any]) -> None:
    assert len(demo["items"]) >= 6
    enemies = demo["enemies"].values()
    assert len(enemies) >= 4
    assert any(demo["vehicles"][e["vehicle"]]["movement"] == "air" for e in enemies)
    kinds = sorted(s["kind"] for s in demo["scenarios"].values())
    assert kinds == ["battle", "scene"]
    assert {"aoi", "makoto"} <= set(demo["characters"])


def test_every_entry_has_japanese_and_english_names(demo: dict[str, Any]) -> None:
    sections = ("stats", "skills", "statuses", "vehicles", "weapons", "items", "abilities", "enemies", "characters")
    for section in sections:
        for key, entry in demo[section].items():
            assert entry["ja"] and entry["en"], f"{section}.{key}"
