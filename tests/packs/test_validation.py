"""Pack validation reports every problem at once, each naming its file and key path."""

from __future__ import annotations

import json
from pathlib import Path

from pbp.engine.pool.pack_checks import validate_pack
from pbp.packs import validate_pack_dir
from pbp.paths import DEMO_PACK_DIR


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _plant_five(d: Path) -> None:
    _replace(d / "rules.toml", 'stat = "文化"\nen = "Art"', 'stat = "魔力"\nen = "Art"')
    _replace(d / "weapons.toml", 'skill = "射撃"\ndamage = 8', 'skill = "狙撃"\ndamage = 8')
    _replace(d / "vehicles.toml", "damage = [6, 6, 6, 6, 6]", "damage = [6, 6, 6, 6]")
    _replace(d / "items.toml", 'cost = 1\ndescription = "止血帯', 'cost = -1\ndescription = "止血帯')
    (d / "more_items.toml").write_text('[items.charm]\nja = "重複"\n', encoding="utf-8")


def test_five_planted_errors_are_all_reported_with_file_and_key(demo_dir: Path) -> None:
    _plant_five(demo_dir)
    got = {(Path(p.file).name, p.path): p.message for p in validate_pack_dir(demo_dir)}
    assert ("rules.toml", "skills.芸術.stat") in got  # a skill mapped to an unknown stat (R-CHECK-4)
    assert ("weapons.toml", "weapons.beam_rifle.skill") in got  # a weapon with an unknown skill
    assert ("vehicles.toml", "vehicles.fighter.damage") in got  # a gauge with 4 stages (R-GAUGE-1)
    assert ("items.toml", "items.first_aid_kit.cost[0]") not in got
    assert ("items.toml", "items.first_aid_kit.cost") in got  # a negative cost
    assert ("more_items.toml", "items.charm") in got  # the same entry in two files
    assert "魔力" in got[("rules.toml", "skills.芸術.stat")]
    assert "first in" in got[("more_items.toml", "items.charm")]
    assert len(got) == 5


def test_toml_syntax_error_names_its_file_and_the_rest_is_still_checked(demo_dir: Path) -> None:
    (demo_dir / "broken.toml").write_text("[weapons.x\nja = 1\n", encoding="utf-8")
    _replace(demo_dir / "items.toml", "dice = 2", "dice = -2")
    problems = validate_pack_dir(demo_dir)
    files = {Path(p.file).name for p in problems}
    assert files == {"broken.toml", "items.toml"}
    assert any("not valid TOML" in p.message and "line 1" in p.message for p in problems)


def test_unknown_top_level_key_and_unknown_field_are_problems(demo_dir: Path) -> None:
    (demo_dir / "house.toml").write_text("[house_rules]\nfoo = 1\n", encoding="utf-8")
    _replace(
        demo_dir / "weapons.toml", 'cost = 3\ndescription = "セイヴァーの', 'kost = 3\ndescription = "セイヴァーの'
    )
    got = {(Path(p.file).name, p.path) for p in validate_pack_dir(demo_dir)}
    assert ("house.toml", "house_rules") in got
    assert ("weapons.toml", "weapons.beam_rifle.kost") in got
    assert ("weapons.toml", "weapons.beam_rifle.cost") in got  # and the real key is now missing


def test_unknown_ruleset_and_time_zone_are_reported_by_the_loader(demo_dir: Path) -> None:
    _replace(demo_dir / "campaign.toml", 'ruleset = "pool"', 'ruleset = "chess"')
    _replace(demo_dir / "campaign.toml", 'time_zone = "Asia/Tokyo"', 'time_zone = "Asia/Edo"')
    got = {p.path: p for p in validate_pack_dir(demo_dir)}
    assert Path(got["campaign.ruleset"].file).name == "campaign.toml"
    assert "chess" in got["campaign.ruleset"].message
    assert "Asia/Edo" in got["campaign.time_zone"].message


def test_the_campaign_id_must_be_a_slug(demo_dir: Path) -> None:
    for bad in ("de/mo x", "x" * 65, "デモ", "demo\n"):
        (demo_dir / "campaign.toml").write_text(
            (DEMO_PACK_DIR / "campaign.toml")
            .read_text(encoding="utf-8")
            .replace('id = "demo"', f"id = {json.dumps(bad)}", 1),
            encoding="utf-8",
        )
        [problem] = validate_pack_dir(demo_dir)
        assert (Path(problem.file).name, problem.path) == ("campaign.toml", "campaign.id"), bad
        assert problem.message == f"{bad!r} is not a campaign id (1-64 letters, digits, '_' or '-')"
    _replace(demo_dir / "campaign.toml", 'id = "demo\\n"', 'id = "' + "x" * 64 + '"')
    assert validate_pack_dir(demo_dir) == []


def test_references_resolve_everywhere(demo: dict) -> None:
    demo["vehicles"]["savior"]["weapons"].append("railgun")
    demo["items"]["charm"]["skills"] = ["占い"]
    demo["weapons"]["claw"]["inflicts"] = "poison"
    demo["enemies"]["kagachi"]["vehicle"] = "tank"
    demo["abilities"]["jamming"]["effects"][0]["id"] = "confused"
    demo["scenarios"]["tama_river"]["enemies"][0]["type"] = "godzilla"
    demo["scenarios"]["hangar_eve"]["checks"][0]["skill"] = "料理"
    paths = {p.path for p in validate_pack(demo)}
    assert paths >= {
        "vehicles.savior.weapons[2]",
        "items.charm.skills[0]",
        "weapons.claw.inflicts",
        "enemies.kagachi.vehicle",
        "abilities.jamming.effects[0].id",
        "scenarios.tama_river.enemies[0].type",
        "scenarios.hangar_eve.checks[0].skill",
    }


def test_numbers_out_of_range_are_problems(demo: dict) -> None:
    demo["weapons"]["beam_rifle"]["range"] = [1000, 0]
    demo["weapons"]["micro_missiles"]["targets"] = 0
    demo["enemies"]["kagachi"]["skills"]["白兵"] = 6
    demo["gauges"]["injury"]["capacity"] = [10, 10, 0, 10, 1]
    demo["scenarios"]["tama_river"]["terrain"][0]["rough"] = 0.1
    demo["growth"]["raise_costs"] = [2, 3, 4]
    paths = {p.path for p in validate_pack(demo)}
    assert paths >= {
        "weapons.beam_rifle.range",
        "weapons.micro_missiles.targets",
        "enemies.kagachi.skills.白兵",
        "gauges.injury.capacity[2]",
        "scenarios.tama_river.terrain[0].rough",
        "growth.raise_costs",
    }


def test_missing_english_name_and_missing_bad_status(demo: dict) -> None:
    del demo["weapons"]["pistol"]["en"]
    del demo["statuses"]["heat"]
    paths = {p.path for p in validate_pack(demo)}
    assert {"weapons.pistol.en", "statuses.heat"} <= paths


def test_scenario_shape_scene_vs_battle(demo: dict) -> None:
    battle = demo["scenarios"]["tama_river"]
    battle["checks"] = demo["scenarios"]["hangar_eve"]["checks"]
    battle["pc_starts"] = [[0, 0]]
    del demo["scenarios"]["hangar_eve"]["checks"]
    paths = {p.path for p in validate_pack(demo)}
    assert {"scenarios.tama_river.checks", "scenarios.tama_river.pc_starts", "scenarios.hangar_eve.checks"} <= paths


def test_garbage_never_raises() -> None:
    for data in (None, [], {"stats": 3, "skills": [], "weapons": {"x": 1}, "characters": {"a": "b"}}):
        assert validate_pack(data)


def test_scenario_ids_must_be_slugs(demo_dir: Path) -> None:
    """`campaign load` makes each scenario id its URL slug, so an id the blog cannot link to is refused."""
    text = (DEMO_PACK_DIR / "scenarios.toml").read_text(encoding="utf-8")
    for bad in ("tama river/2", "x" * 65, "多摩川", "", "tama_river\n"):  # a TOML (and JSON) string for each
        (demo_dir / "scenarios.toml").write_text(
            text.replace("scenarios.tama_river", f"scenarios.{json.dumps(bad)}"), "utf-8"
        )
        [problem] = validate_pack_dir(demo_dir)
        assert (Path(problem.file).name, problem.path) == ("scenarios.toml", f"scenarios.{bad}"), bad
        assert problem.message == f"{bad!r} is not a scenario id (1-64 letters, digits, '_' or '-')"
    (demo_dir / "scenarios.toml").write_text(text.replace("scenarios.tama_river", "scenarios." + "x" * 64), "utf-8")
    assert validate_pack_dir(demo_dir) == []


def test_public_on_enemies_and_gimmicks_is_an_optional_boolean(demo) -> None:
    """R-PLAY-3: enemy types and gimmicks are the GM's unless `public = true` shows them on the game-data pages."""
    assert validate_pack(demo) == []  # the demo marks one of each public
    demo["enemies"]["orochi"]["public"] = "yes"
    demo["scenarios"]["tama_river"]["gimmicks"][0]["public"] = 1
    del demo["enemies"]["kagachi"]["public"]
    got = {p.path: p.message for p in validate_pack(demo)}
    assert got == {
        "enemies.orochi.public": "must be true or false, got 'yes'",
        "scenarios.tama_river.gimmicks[0].public": "must be true or false, got 1",
    }
