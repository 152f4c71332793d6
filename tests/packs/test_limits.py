"""Every text and number a GM writes into a pack has a limit that `pbp pack validate` reports by key: a 100,000
character campaign name made 1.5 MB pages, an `entry_limit` beyond the database's integers broke `campaign load`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbp.engine.pool.pack_checks import (
    ENTRY_LIMIT_MAX,
    MAX_NUMBER,
    NAME_LIMIT,
    NOTES_LIMIT,
    SLOTS_MAX,
    TEXT_LIMIT,
    validate_pack,
)
from pbp.packs import validate_pack_dir
from pbp.paths import DEMO_PACK_DIR

#: (key path in the demo pack, its limit): one of every kind of text.
TEXTS = [
    (("campaign", "ja"), NAME_LIMIT),
    (("campaign", "en"), NAME_LIMIT),
    (("campaign", "description"), TEXT_LIMIT),
    (("campaign", "description_en"), TEXT_LIMIT),
    (("stats", "肉体", "en"), NAME_LIMIT),
    (("skills", "射撃", "en"), NAME_LIMIT),
    (("skills", "射撃", "description"), TEXT_LIMIT),
    (("gauges", "injury", "ja"), NAME_LIMIT),
    (("gauges", "injury", "stages", 0, "en"), NAME_LIMIT),
    (("statuses", "stun", "description"), TEXT_LIMIT),
    (("statuses", "stun", "description_en"), TEXT_LIMIT),
    (("vehicles", "savior", "ja"), NAME_LIMIT),
    (("weapons", "beam_rifle", "ja"), NAME_LIMIT),
    (("weapons", "beam_rifle", "description"), TEXT_LIMIT),
    (("items", "first_aid_kit", "en"), NAME_LIMIT),
    (("abilities", "focus", "description"), TEXT_LIMIT),
    (("enemies", "kagachi", "ja"), NAME_LIMIT),
    (("characters", "aoi", "ja"), NAME_LIMIT),
    (("characters", "aoi", "description"), TEXT_LIMIT),
    (("characters", "aoi", "player"), NAME_LIMIT),
    (("scenarios", "tama_river", "ja"), NAME_LIMIT),
    (("scenarios", "tama_river", "description"), TEXT_LIMIT),
    (("scenarios", "tama_river", "gm_notes"), NOTES_LIMIT),
    (("scenarios", "tama_river", "enemies", 0, "name"), NAME_LIMIT),
    (("scenarios", "tama_river", "enemies", 0, "id"), NAME_LIMIT),
    (("scenarios", "tama_river", "terrain", 0, "en"), NAME_LIMIT),
    (("scenarios", "tama_river", "gimmicks", 0, "description"), TEXT_LIMIT),
    (("scenarios", "tama_river", "gimmicks", 0, "description_en"), TEXT_LIMIT),
    (("weapons", "beam_rifle", "description_en"), TEXT_LIMIT),
    (("scenarios", "hangar_eve", "checks", 0, "ja"), NAME_LIMIT),
    (("scenarios", "hangar_eve", "checks", 0, "success", "en"), TEXT_LIMIT),
    (("scenarios", "hangar_eve", "checks", 0, "failure", "ja"), TEXT_LIMIT),
]


def _path(keys: tuple) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")


def _set(data: dict, keys: tuple, value: Any) -> None:
    for key in keys[:-1]:
        data = data[key]
    data[keys[-1]] = value


@pytest.mark.parametrize(("keys", "limit"), TEXTS, ids=[_path(k) for k, _ in TEXTS])
def test_every_kind_of_pack_text_has_a_limit_reported_by_key(demo: dict, keys: tuple, limit: int) -> None:
    _set(demo, keys, "語" * limit)
    assert validate_pack(demo) == []  # the limit itself is allowed
    _set(demo, keys, "語" * (limit + 1))
    assert [(p.path, p.message) for p in validate_pack(demo)] == [
        (_path(keys), f"has {limit + 1} characters, over the limit of {limit}")
    ]


@pytest.mark.parametrize("section", ["weapons", "items", "enemies", "scenarios", "characters"])
def test_an_entry_id_has_the_name_limit(demo: dict, section: str) -> None:
    entry_id = "x" * (NAME_LIMIT + 1)
    demo[section][entry_id] = demo[section].pop(next(iter(demo[section])))
    got = {p.path: p.message for p in validate_pack(demo)}
    assert got[f"{section}.{entry_id}"] == f"the id has {NAME_LIMIT + 1} characters, over the limit of {NAME_LIMIT}"


#: (key path, the largest value allowed): numbers that reach the database's integer columns, and any other.
NUMBERS = [
    (("campaign", "entry_limit"), ENTRY_LIMIT_MAX),
    (("campaign", "slots"), SLOTS_MAX),
    (("weapons", "beam_rifle", "damage"), MAX_NUMBER),
    (("weapons", "beam_rifle", "cost"), MAX_NUMBER),
    (("creation", "skill_points"), MAX_NUMBER),
    (("growth", "raise_costs", 0), MAX_NUMBER),
    (("characters", "aoi", "growth_points"), MAX_NUMBER),
    (("abilities", "focus", "effects", 0, "value"), MAX_NUMBER),
    (("scenarios", "tama_river", "gimmicks", 0, "effects", 0, "rounds"), MAX_NUMBER),
]


@pytest.mark.parametrize(("keys", "most"), NUMBERS, ids=[_path(k) for k, _ in NUMBERS])
@pytest.mark.parametrize("excess", [1, 2**63, 10**30])
def test_a_pack_number_beyond_its_bound_is_a_problem_by_key(demo: dict, keys: tuple, most: int, excess: int) -> None:
    _set(demo, keys, most)
    assert _path(keys) not in {p.path for p in validate_pack(demo)}
    _set(demo, keys, most + excess)
    got = {p.path: p.message for p in validate_pack(demo)}
    assert got[_path(keys)].startswith(f"{most + excess} is outside ") and got[_path(keys)].endswith(f"..{most}")


def test_a_scenario_with_more_slots_than_a_table_holds_is_a_problem(demo: dict) -> None:
    demo["scenarios"]["hangar_eve"]["slots"] = SLOTS_MAX + 1
    got = {p.path: p.message for p in validate_pack(demo)}
    assert got["scenarios.hangar_eve.slots"] == f"{SLOTS_MAX + 1} is outside 1..{SLOTS_MAX}"


def test_the_demo_pack_is_within_every_limit() -> None:
    assert validate_pack_dir(DEMO_PACK_DIR) == []


def test_validate_reports_a_long_campaign_name_as_file_key_reason(demo_dir: Path) -> None:
    text = (demo_dir / "campaign.toml").read_text(encoding="utf-8")
    (demo_dir / "campaign.toml").write_text(text.replace('ja = "', f'ja = "{"戦" * 100_000}', 1), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pbp", "pack", "validate", str(demo_dir)], capture_output=True,
                       text=True, timeout=60)  # fmt: skip
    assert (r.returncode, r.stderr) == (2, f"pbp: {demo_dir}: 1 problem (listed on stdout)\n")
    assert r.stdout.startswith(f"{demo_dir / 'campaign.toml'}: campaign.ja: has 1000")
    assert r.stdout.endswith(f" characters, over the limit of {NAME_LIMIT}\n")


def test_validate_reports_every_nul_by_file_and_key(demo_dir: Path) -> None:
    """`pbp pack validate` says what `pbp campaign load` would refuse: a TOML `\\u0000` escape is not text."""
    for name, old, new in (("campaign.toml", 'ja = "', 'ja = "\\u0000'), ("weapons.toml", 'ja = "', 'ja = "x\\u0000')):
        text = (demo_dir / name).read_text(encoding="utf-8")
        (demo_dir / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pbp", "pack", "validate", str(demo_dir)], capture_output=True,
                       text=True, timeout=60)  # fmt: skip
    assert (r.returncode, r.stderr) == (2, f"pbp: {demo_dir}: 2 problems (listed on stdout)\n")
    lines = r.stdout.splitlines()
    assert lines[0] == f"{demo_dir / 'campaign.toml'}: campaign.ja: holds a NUL character (U+0000): not text"
    assert lines[1].startswith(f"{demo_dir / 'weapons.toml'}: weapons.")
    assert lines[1].endswith(".ja: holds a NUL character (U+0000): not text")


@pytest.mark.parametrize(
    "keys",
    [
        ("scenarios", "tama_river", "pc_starts", 0),
        ("scenarios", "tama_river", "enemies", 0, "position"),
        ("scenarios", "tama_river", "terrain", 0, "rect", 1),
        ("scenarios", "tama_river", "gimmicks", 0, "area", 0),
    ],
    ids=["pc_starts", "enemy-position", "terrain-rect", "gimmick-area"],
)
@pytest.mark.parametrize("far", [MAX_NUMBER + 1, 10**400, -1e300])
def test_a_point_off_any_map_is_a_problem_by_key(demo: dict, keys: tuple, far: float) -> None:
    """A coordinate of 10**400 passed validation and overflowed the engine's first distance."""
    _set(demo, keys, [0, MAX_NUMBER])
    assert _path(keys) not in {p.path for p in validate_pack(demo)}
    _set(demo, keys, [far, 0])
    got = {p.path: p.message for p in validate_pack(demo)}
    assert got[_path(keys)].startswith(f"must lie within {MAX_NUMBER} metres of the origin on each axis")


def test_a_pack_may_not_hold_text_that_reorders_or_hides_characters(demo_dir: Path) -> None:
    """A name with an invisible or bidi character, and any text with a bidi override, embedding or isolate, are
    refused by file and key: a reader would see another name or another sentence than the one written. Newlines in
    a description stay."""
    for name, old, new in (
        ("characters.toml", 'ja = "葵"', 'ja = "葵\\u200b"'),  # two names that look alike
        ("scenarios.toml", 'description = "濃い川霧', 'description = "\\u202e濃い川霧'),  # reads backwards
    ):
        text = (demo_dir / name).read_text(encoding="utf-8")
        assert old in text
        (demo_dir / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = [(p.file, p.path, p.message) for p in validate_pack_dir(demo_dir)]
    assert len(problems) == 2
    (cfile, cpath, cwhy), (sfile, spath, swhy) = sorted(problems)
    assert (Path(cfile).name, cpath) == ("characters.toml", "characters.aoi.ja")
    assert "U+200B" in cwhy
    assert Path(sfile).name == "scenarios.toml" and spath.endswith(".description") and "U+202E" in swhy
