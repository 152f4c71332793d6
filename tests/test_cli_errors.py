"""The command line's contract for bad input (spec/engine-cli.md, "Commands"): exit 2 and ONE line on stderr
naming what is wrong, never a traceback, whether the problem is in a file, in several places of it, or in the
command line itself."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbp.paths import DEMO_PACK_DIR

VECTORS_ENCOUNTER = {
    "ruleset": "pool",
    "round": 1,
    "units": [
        {
            "id": "aoi", "name": "葵", "side": "pc", "stats": {"肉体": 3, "感覚": 4}, "skills": {"射撃": 3},
            "skill_stats": {"射撃": "感覚", "回避": "肉体"},
            "injury": {"capacity": [10, 10, 10, 10, 1], "taken": [0, 0, 0, 0, 0]},
            "weapons": [], "position": [0, 0],
        },
    ],
}  # fmt: skip


def pbp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pbp", *args], capture_output=True, text=True, encoding="utf-8", cwd=cwd, timeout=120
    )


def one_line(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("pbp: "), r.stderr
    return r.stderr


def test_several_problems_in_one_file_are_one_line(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(VECTORS_ENCOUNTER))
    bad["units"][0]["skills"]["射撃"] = 7
    bad["units"][0]["stats"]["肉体"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    line = one_line(pbp("engine", "resolve", str(path), "--seed", "x"))
    assert "units[0].skills.射撃: 7 is outside 1..5" in line and "units[0].stats.肉体: -1" in line
    assert line.count(f"{path}: ") == 2 and "; " in line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["engine", "check", "--stat", "0", "--skill-level", "3", "--vs"], "engine check: No such option '--vs'"),
        (["engine", "check", "--skill-level", "3", "--seed", "x"], "Missing option '--stat'"),
        (["engine", "check", "--stat", "x", "--skill-level", "3", "--seed", "x"], "'x' is not a valid integer"),
        (["engine", "resolve", "--seed", "x"], "Missing argument 'ENCOUNTER.json'"),
        (["no-such-command"], "No such command 'no-such-command'"),
    ],
)
def test_a_mistyped_command_line_is_one_line(args: list[str], said: str) -> None:
    line = one_line(pbp(*args))
    assert said in line and "--help" in line


def test_an_overrides_file_without_overrides_is_bad_input(tmp_path: Path) -> None:
    """A typo in the key must not silently drop the GM's overrides."""
    encounter, overrides = tmp_path / "e.json", tmp_path / "o.json"
    encounter.write_text(json.dumps(VECTORS_ENCOUNTER, ensure_ascii=False), encoding="utf-8")
    for doc in ({"overide": [{"check": "r1-c1", "successes": 3}]}, {}, {"overrides": None}, []):
        overrides.write_text(json.dumps(doc), encoding="utf-8")
        line = one_line(pbp("engine", "resolve", str(encounter), "--seed", "x", "--overrides", str(overrides)))
        assert f"{overrides}: overrides: " in line, line


def test_odds_with_need_and_an_opponent_is_refused_not_half_answered() -> None:
    args = ["engine", "odds", "--stat", "4", "--skill-level", "3", "--need", "2", "--vs-stat", "3", "--vs-level", "3"]
    assert "--need: an opposed check" in one_line(pbp(*args))


def _battle(tmp_path: Path, **aoi: object) -> tuple[Path, Path]:
    """葵 with a rifle and 鬼一 300 m away; `aoi` replaces fields of 葵."""
    rifle = {"id": "rifle", "skill": "射撃", "damage": 8, "ammo": 6, "ammo_max": 6, "range": [0, 1000], "slot": "arm"}
    aoi_unit = {**VECTORS_ENCOUNTER["units"][0], "weapons": [rifle], **aoi}
    oni = {**VECTORS_ENCOUNTER["units"][0], "id": "oni1", "name": "鬼一", "side": "enemy", "position": [300, 0]}
    encounter, orders = tmp_path / "e.json", tmp_path / "o.json"
    encounter.write_text(json.dumps({**VECTORS_ENCOUNTER, "units": [aoi_unit, oni]}, ensure_ascii=False), "utf-8")
    order = {"unit": "aoi", "minor": None, "major": {"type": "attack", "weapon": "rifle", "targets": ["oni1"]}}
    orders.write_text(json.dumps({"orders": [order]}), encoding="utf-8")
    return encounter, orders


def test_a_pool_beyond_any_game_in_an_encounter_is_refused_at_once(tmp_path: Path) -> None:
    """A stat of 10**9 would roll for minutes: the check that would roll it is bad input instead."""
    encounter, orders = _battle(tmp_path, stats={"肉体": 3, "感覚": 10**9})
    assert "r1-c1: a pool of 1000000000 dice is beyond any game" in one_line(
        pbp("engine", "resolve", str(encounter), "--orders", str(orders), "--seed", "x")
    )


def test_nan_is_not_json(tmp_path: Path) -> None:
    encounter, _orders = _battle(tmp_path)
    encounter.write_text(encounter.read_text("utf-8").replace("[300, 0]", "[NaN, 0]"), "utf-8")
    line = one_line(pbp("engine", "resolve", str(encounter), "--seed", "x"))
    assert "not valid JSON: NaN is not a JSON number" in line


def test_a_dead_unit_still_in_the_battle_is_bad_input(tmp_path: Path) -> None:
    """R-GAUGE-7: the dead are removed at once; a dead unit that is not removed would go on acting."""
    encounter, orders = _battle(tmp_path, dead=True)
    assert "units[0].removed: a dead unit is removed" in one_line(
        pbp("engine", "resolve", str(encounter), "--orders", str(orders), "--seed", "x")
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"seed": "\\ud800"}', "a \\u escape names half a character"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ],
    ids=["lone-surrogate", "deep"],
)
def test_json_that_is_no_text_or_too_deep_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "bundle.json"
    path.write_text(text, encoding="utf-8")
    for args in (["verify", "--bundle", str(path)], ["engine", "resolve", str(path), "--seed", "x"]):
        assert said in one_line(pbp(*args))


# ---- pack input: every command that reads a pack refuses a hostile one in one line, never hangs -------------------
def _pack(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO_PACK_DIR, tmp_path / "pack"))


def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An up-to-date SQLite database for `pbp campaign load`, in the environment the subprocesses inherit."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'pbp.sqlite3'}")
    assert pbp("db", "upgrade").returncode == 0


@pytest.mark.parametrize(
    "text",
    ["x = " + "[" * 5000 + "]" * 5000, "x = " + "{a = " * 5000 + "1" + "}" * 5000, "x = " + "[" * 40 + "]" * 40],
    ids=["arrays-5000", "inline-tables-5000", "arrays-40"],
)
def test_a_pack_file_nested_too_deep_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """36 of 41 pack tracebacks a hostile probe found were RecursionError in the TOML parser."""
    folder = _pack(tmp_path)
    (folder / "deep.toml").write_text(text, encoding="utf-8")
    r = pbp("pack", "validate", str(folder))
    assert one_line(r) == f"pbp: {folder}: 1 problem (listed on stdout)\n"
    assert r.stdout == f"{folder / 'deep.toml'}: tables and arrays nest deeper than 32 levels\n"
    _db(tmp_path, monkeypatch)
    encounter, _orders = _battle(tmp_path)
    for args in (
        ["campaign", "load", str(folder)],
        ["engine", "resolve", str(encounter), "--seed", "x", "--pack", str(folder)],
    ):
        assert f"{folder / 'deep.toml'}: tables and arrays nest deeper than 32 levels" in one_line(pbp(*args))


def test_a_fifo_named_toml_in_a_pack_is_a_problem_not_a_hang(tmp_path: Path) -> None:
    folder = _pack(tmp_path)
    os.mkfifo(folder / "zz.toml")
    r = pbp("pack", "validate", str(folder))  # read, it would block for ever (the helper times out)
    assert one_line(r) == f"pbp: {folder}: 1 problem (listed on stdout)\n"
    assert r.stdout == f"{folder / 'zz.toml'}: is not a regular file (only regular *.toml files are read)\n"


def test_a_pack_name_too_long_for_the_file_system_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "a" * 5000
    problem = f"{name}: cannot read the pack folder: File name too long\n"
    _db(tmp_path, monkeypatch)
    validated = pbp("pack", "validate", name, cwd=tmp_path)
    assert one_line(validated) == f"pbp: {name}: 1 problem (listed on stdout)\n" and validated.stdout == problem
    for args in (["pack", "show", name], ["campaign", "load", name]):
        assert one_line(pbp(*args, cwd=tmp_path)).endswith(problem)


@pytest.mark.parametrize(
    ("key", "value"), [("entry_limit", 2**63), ("slots", 2**63), ("entry_limit", 10**30), ("slots", 2**31)]
)
def test_a_pack_number_beyond_the_database_is_one_line_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, value: int
) -> None:
    folder = _pack(tmp_path)
    toml = folder / "campaign.toml"
    toml.write_text(re.sub(rf"^{key} = \d+", f"{key} = {value}", toml.read_text("utf-8"), flags=re.M), "utf-8")
    _db(tmp_path, monkeypatch)
    line = one_line(pbp("campaign", "load", str(folder)))
    assert f"{toml}: campaign.{key}: {value} is outside 1.." in line
