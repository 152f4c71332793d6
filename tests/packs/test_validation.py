"""Pack validation reports every problem at once, each naming its file and key path."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

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


def _planted(demo: dict[str, Any]) -> dict[str, Any]:
    """The demo pack with one problem of each kind the pack checks say."""
    d = copy.deepcopy(demo)
    w, e, a, s = d["weapons"], d["enemies"], d["abilities"], d["scenarios"]
    d["house_rules"] = {}  # an unknown top-level key
    del d["character"]  # a required one missing
    d["stats"]["肉体"]["ja"] = "体"  # not its id
    del d["statuses"]["heat"]  # the R-BS table
    d["skills"]["芸術"]["stat"] = "魔力"
    d["gauges"]["damage"]["stages"] = []
    d["growth"]["raise_costs"] = [1]
    d["creation"].update(stat_min=9, stat_max=2)
    d["vehicles"]["fighter"]["damage"] = [6, 6, 6, 6]
    d["vehicles"]["savior"]["weapons"] = ["pistol"]
    w["beam_rifle"].update(skill="狙撃", range=[5, 3], kost=3, description="a" * 4001)
    w["stun_hammer"]["inflicts"] = "sleep"
    del w["hf_knife"]["cost"]
    d["items"]["a" * 81] = copy.deepcopy(d["items"]["charm"])
    d["items"]["charm"]["skills"] = []
    d["items"]["tool_set"]["successes"] = 0
    e["kagachi"].update(vehicle="dragon", weapons=["claw", "claw", "nope"], abilities=["flight"], skills={"狙撃": 2})
    e["hayachi"]["skills"] = {"白兵": 9}
    e["orochi"].update(weapons=["claw"], stats={"肉体": 1, "感覚": 1, "理知": 1, "魔力": 1})
    a["focus"]["effects"] = []
    a["afterburner"]["effects"] = [{"kind": "dice", "value": 10**7}]
    a["jamming"]["effects"] = [{"kind": "status", "id": "stun"}]
    a["reboot"]["effects"] = [{"kind": "cure", "id": "sleep", "on": "self"}]
    tama = s["tama_river"]
    tama.update(slots=9, checks=[])
    tama["pc_starts"][:2] = [[10**7, 0], "x"]
    tama["terrain"][0].update(rect=[[0, 0]], rough=2)
    tama["enemies"][0]["type"] = "dragon"
    tama["enemies"][1]["id"] = tama["enemies"][0]["id"]
    s["hangar_eve"]["enemies"] = []
    s["empty_scene"] = {"ja": "空", "en": "Empty", "kind": "scene"}
    s["empty_battle"] = {"ja": "空", "en": "Empty", "kind": "battle"}
    d["characters"] = {"aoi": {**d["characters"]["aoi"], "items": ["nope"]}}
    return d


#: What the command line prints for `_planted` (the English of before the checks became templates).
PLANTED = [
    "house_rules: unknown top-level key (known: campaign, options, stats, skills, gauges, statuses, growth, creation, "
    "character, vehicles, weapons, items, abilities, enemies, characters, scenarios)",
    "character: missing",
    "gauges.damage.stages: must list 5 stage names (R-GAUGE-1), got []",
    "growth.raise_costs: must list 4 costs: raising a skill to level 2..5, got [1]",
    "skills.芸術.stat: unknown parent stat '魔力'",
    "vehicles.fighter.damage: must list 5 stage capacities in damage points (R-GAUGE-1), got [6, 6, 6, 6]",
    "weapons.beam_rifle.kost: unknown key (known: ja, en, description, description_en, skill, damage, range, ammo, "
    "targets, slot, mount, gauge, inflicts, cost, kind)",
    "weapons.beam_rifle.description: has 4001 characters, over the limit of 4000",
    "weapons.beam_rifle.skill: unknown skill '狙撃'",
    "weapons.beam_rifle.range: must be [min, max] whole metres with 0 <= min <= max <= 1000000, got [5, 3]",
    "weapons.hf_knife.cost: missing",
    "weapons.stun_hammer.inflicts: unknown bad status 'sleep'",
    "items.charm.skills: must list at least 1",
    "abilities.focus.effects: must list at least one effect",
    "abilities.afterburner.effects[0].value: 10000000 is outside -1000000..1000000",
    "abilities.jamming.effects[0].on: missing: say who it acts on (self, target or area)",
    "abilities.reboot.effects[0].id: unknown status 'sleep'",
    "enemies.kagachi.vehicle: unknown vehicle 'dragon'",
    "enemies.kagachi.skills.狙撃: unknown skill '狙撃' (R-CHECK-4: every skill has a parent stat in the pack)",
    "enemies.kagachi.weapons[1]: 'claw' is listed twice",
    "enemies.kagachi.weapons[2]: unknown weapon 'nope'",
    "enemies.kagachi.abilities[0]: unknown ability 'flight'",
    "enemies.hayachi.skills.白兵: level 9 is outside 1..5 (R-CHECK-3)",
    "enemies.orochi.stats.魔力: unknown parent stat '魔力'",
    "enemies.orochi.stats.文化: missing",
    "scenarios.hangar_eve.enemies: must list at least 1",
    "scenarios.tama_river.checks: must list at least 1",
    "scenarios.tama_river.pc_starts[0]: must lie within 1000000 metres of the origin on each axis, got [10000000, 0]",
    "scenarios.tama_river.pc_starts[1]: must be a point [x, y] in metres (each within ±1000000000), got 'x'",
    "scenarios.tama_river.enemies[0].type: unknown enemy type 'dragon'",
    "scenarios.tama_river.terrain[0].rect: must be [[x1, y1], [x2, y2]]",
    "scenarios.tama_river.terrain[0].rough: must be a factor from 0.25 to 1 (R-ROUGH-1), got 2",
    f"items.{'a' * 81}: the id has 81 characters, over the limit of 80",
    "stats.肉体.ja: must equal the id '肉体': stats are keyed by their Japanese name",
    "statuses.heat: missing: the pack names every bad status of the R-BS table",
    "vehicles.savior.weapons[0]: 'pistol' is a personal weapon, not one a vehicle mounts",
    "enemies.kagachi.weapons[0]: 'claw' is a vehicle weapon; list it on the vehicle",
    "enemies.kagachi.weapons[1]: 'claw' is a vehicle weapon; list it on the vehicle",
    "enemies.orochi.weapons[0]: 'claw' is a vehicle weapon; list it on the vehicle",
    "items.tool_set: has no effect: give dice and/or successes (R-CHECK-7)",
    "creation.stat_max: is below stat_min (2 < 9)",
    "scenarios.hangar_eve.enemies: does not belong in a scene scenario",
    "scenarios.tama_river.checks: does not belong in a battle scenario",
    "scenarios.tama_river.enemies[1].id: id 'kagachi1' is used twice",
    "scenarios.tama_river.pc_starts: gives 4 start positions for 9 slots",
    "scenarios.empty_scene.checks: missing: a scene scenario needs it",
    "scenarios.empty_battle.pc_starts: missing: a battle scenario needs it",
    "scenarios.empty_battle.enemies: missing: a battle scenario needs it",
    "characters.aoi.items[0]: unknown item 'nope'",
    "characters.aoi.stats.肉体: 3 is outside the creation limits 9..2",
    "characters.aoi.stats.感覚: 4 is outside the creation limits 9..2",
    "characters.aoi.stats.理知: 2 is outside the creation limits 9..2",
    "characters.aoi.stats.文化: 3 is outside the creation limits 9..2",
]


def test_every_pack_problem_is_said_by_a_template_and_the_cli_english_is_unchanged(demo: dict) -> None:
    """The GM's pack and scenario pages say each problem in their language (R-GAUGE-1, R-CHECK-3/4/7, R-ROUGH-1,
    the R-BS table among them), a ready-made sheet's under its character's key; the command line prints the
    English."""
    problems = validate_pack(_planted(demo))
    assert [str(p) for p in problems] == PLANTED
    assert all(p.template is not None and p.template % dict(p.params) == p.message for p in problems)
