"""The engine's command-line contract (spec/engine-cli.md), driven through `python -m pbp engine ...`."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from pool_builders import attack, check, encounter, enemy, order, pc

from pbp.engine.odds import distribution, opposed


def pbp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pbp", "engine", *args], capture_output=True, text=True, timeout=120, cwd=cwd
    )


def ok_json(p: subprocess.CompletedProcess) -> dict:
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip() == ""
    return json.loads(p.stdout)


def bad(p: subprocess.CompletedProcess) -> str:
    """Exit 2, exactly one line on stderr, never a traceback; returns the line."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    return lines[0]


def write(tmp_path: Path, name: str, obj) -> Path:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def files(tmp_path: Path, enc=None, orders=None) -> tuple[Path, Path]:
    enc = enc or encounter(pc(), enemy())
    orders = orders if orders is not None else [order("aoi", major=attack("rifle", "oni1"))]
    return write(tmp_path, "encounter.json", enc), write(tmp_path, "orders.json", {"orders": orders})


# odds ----------------------------------------------------------------------------------------------------------


@pytest.mark.rule("R-CHECK-2")
def test_odds_need_gives_exact_p_success() -> None:
    out = ok_json(pbp("odds", "--ruleset", "pool", "--stat", "4", "--skill-level", "3", "--need", "2"))
    assert out == {"p_success": 0.6875}


@pytest.mark.rule("R-HIT-2")
def test_odds_opposed_matches_exact_computation() -> None:
    out = ok_json(
        pbp("odds", "--ruleset", "pool", "--stat", "4", "--skill-level", "3", "--vs-stat", "2", "--vs-level", "2")
    )
    p_hit, margin = opposed(4, 3, 2, 2)
    assert out["p_hit"] == pytest.approx(float(p_hit), abs=1e-12)
    assert out["expected_margin_given_hit"] == pytest.approx(float(margin), abs=1e-12)
    assert 0 <= out["p_hit"] <= 1


@pytest.mark.rule("R-CHECK-1")
def test_odds_distribution_sums_to_one() -> None:
    out = ok_json(pbp("odds", "--ruleset", "pool", "--stat", "3", "--skill-level", "2"))
    dist = out["distribution"]
    assert set(dist) == {"0", "1", "2", "3"}
    assert sum(dist.values()) == pytest.approx(1.0)
    assert dist["3"] == pytest.approx(float(distribution(3, 2)[3]))
    assert dist["0"] == pytest.approx(float(Fraction(8, 27)))


# check ---------------------------------------------------------------------------------------------------------


@pytest.mark.rule("R-CHECK-1")
def test_check_with_scripted_dice() -> None:
    out = ok_json(
        pbp("check", "--ruleset", "pool", "--stat", "4", "--skill-level", "3", "--need", "2", "--dice", "1,4,3,6")
    )
    assert out == {"dice": [1, 4, 3, 6], "successes": 2, "need": 2, "success": True}


@pytest.mark.rule("R-CHECK-8")
def test_check_bonuses() -> None:
    out = ok_json(
        pbp(
            "check",
            "--ruleset",
            "pool",
            "--stat",
            "2",
            "--skill-level",
            "1",
            "--dice-bonus",
            "1",
            "--success-bonus",
            "2",
            "--dice",
            "1,6,6",
        )
    )
    assert out["dice"] == [1, 6, 6] and out["successes"] == 3
    assert out["need"] is None and out["success"] is None


def test_check_dice_exhausted() -> None:
    line = bad(pbp("check", "--ruleset", "pool", "--stat", "4", "--skill-level", "3", "--dice", "1,2,3"))
    assert "dice exhausted after 3" in line


def test_check_seeded_is_reproducible() -> None:
    args = ["check", "--ruleset", "pool", "--stat", "5", "--skill-level", "3", "--seed", "cli"]
    a, b = pbp(*args), pbp(*args)
    assert a.returncode == 0 and a.stdout == b.stdout


# resolve -------------------------------------------------------------------------------------------------------


def test_resolve_with_scripted_dice(tmp_path: Path) -> None:
    enc, orders = files(tmp_path)
    out = ok_json(pbp("resolve", str(enc), "--orders", str(orders), "--dice", "1,3,6,2,5,2,6"))
    assert out["dice_left"] == 1
    attack_ev = next(e for e in out["events"] if e["type"] == "attack")
    assert attack_ev["damage"] == 10
    assert out["state"]["round"] == 2


def test_resolve_dice_exhausted(tmp_path: Path) -> None:
    enc, orders = files(tmp_path)
    line = bad(pbp("resolve", str(enc), "--orders", str(orders), "--dice", "1,3,6"))
    assert "dice exhausted after 3" in line


def test_resolve_same_seed_byte_identical(tmp_path: Path) -> None:
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    enc, orders_p = files(tmp_path, orders=orders)
    args = ["resolve", str(enc), "--orders", str(orders_p), "--seed", "same-seed", "--rounds", "3"]
    a, b = pbp(*args), pbp(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = json.loads(a.stdout)
    assert out["seed"] == "same-seed"
    c = pbp("resolve", str(enc), "--orders", str(orders_p), "--seed", "other-seed", "--rounds", "3")
    assert c.returncode == 0 and json.loads(c.stdout)["seed"] == "other-seed"


@pytest.mark.rule("R-CHECK-3")
def test_resolve_bad_value_names_file_and_field(tmp_path: Path) -> None:
    enc = encounter(enemy(), pc(skills_update={"射撃": 9}))
    enc_p, orders_p = files(tmp_path, enc=enc)
    line = bad(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1"))
    assert "encounter.json" in line
    assert "units[1].skills.射撃" in line


def test_resolve_unreadable_json(tmp_path: Path) -> None:
    enc_p = write(tmp_path, "broken.json", "{not json")
    orders_p = write(tmp_path, "orders.json", {"orders": []})
    line = bad(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1"))
    assert "broken.json" in line


def test_resolve_unknown_unit_in_orders(tmp_path: Path) -> None:
    enc_p, orders_p = files(tmp_path, orders=[order("nobody", major=attack("rifle", "oni1"))])
    line = bad(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1"))
    assert "orders.json" in line and "orders[0].unit" in line


def test_resolve_unknown_weapon(tmp_path: Path) -> None:
    enc_p, orders_p = files(tmp_path, orders=[order("aoi", major=attack("laser", "oni1"))])
    line = bad(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1"))
    assert "orders.json" in line and "orders[0].major.weapon" in line


@pytest.mark.rule("R-GM-1")
def test_resolve_override_without_reason_exits_2(tmp_path: Path) -> None:
    enc_p, orders_p = files(tmp_path)
    ov = write(tmp_path, "overrides.json", {"overrides": [{"check": "r1-c1", "successes": 0, "reason": ""}]})
    line = bad(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1,3,6,2,5,2", "--overrides", str(ov)))
    assert "overrides.json" in line


@pytest.mark.rule("R-GM-1")
def test_resolve_override_and_unused(tmp_path: Path) -> None:
    enc_p, orders_p = files(tmp_path)
    ov = write(
        tmp_path,
        "overrides.json",
        {
            "overrides": [
                {"check": "r1-c2", "successes": 3, "reason": "煙幕"},
                {"check": "r1-c7", "successes": 0, "reason": "x"},
            ]
        },
    )
    out = ok_json(
        pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", "1,3,6,2,5,2", "--overrides", str(ov))
    )
    assert out["unused_overrides"] == ["r1-c7"]
    attack_ev = next(e for e in out["events"] if e["type"] == "attack")
    assert attack_ev["hit"] is False and attack_ev["overrides"][0]["reason"] == "煙幕"


@pytest.mark.rule("R-CHECK-3")
def test_odds_level_out_of_range_exits_2() -> None:
    line = bad(pbp("odds", "--ruleset", "pool", "--stat", "4", "--skill-level", "7", "--need", "2"))
    assert "--skill-level" in line


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["check", "--stat", "100000000", "--skill-level", "3", "--seed", "x"], "--stat"),
        (["check", "--stat", "3", "--dice-bonus", "100000000", "--skill-level", "3", "--seed", "x"], "--dice-bonus"),
        (["odds", "--stat", "4", "--skill-level", "3", "--vs-stat", "100000000", "--vs-level", "3"], "--vs-stat"),
    ],
)
def test_a_pool_beyond_any_game_is_refused_at_once(args: list[str], option: str) -> None:
    """A mistyped number answers with one line instead of rolling (or summing odds over) a hundred million dice."""
    assert f"{option}: 100000000 is outside" in bad(pbp(*args))


def test_resolve_rounds_are_bounded(tmp_path: Path) -> None:
    enc, orders = files(tmp_path)
    assert "--rounds: 100000 is outside 1..100" in bad(pbp("resolve", str(enc), "--orders", str(orders),
                                                           "--seed", "s", "--rounds", "100000"))  # fmt: skip


def test_scripted_die_out_of_range_exits_2(tmp_path: Path) -> None:
    enc, orders = files(tmp_path)
    line = bad(pbp("resolve", str(enc), "--orders", str(orders), "--dice", "1,9"))
    assert "--dice" in line


def test_resolve_missing_file_exits_2(tmp_path: Path) -> None:
    _, orders = files(tmp_path)
    line = bad(pbp("resolve", str(tmp_path / "nowhere.json"), "--orders", str(orders), "--dice", "1"))
    assert "nowhere.json" in line


def test_seeded_resolve_dice_are_the_documented_stream(tmp_path: Path) -> None:
    """Anyone can re-derive a published round's dice from the revealed seed with docs/dice.md's code."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "dice.md").read_text(encoding="utf-8")
    ns: dict = {}
    exec(re.findall(r"```python\n(.*?)```", doc, flags=re.S)[0], ns)
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    enc, orders_p = files(tmp_path, orders=orders)
    out = ok_json(pbp("resolve", str(enc), "--orders", str(orders_p), "--seed", "verify-me", "--rounds", "2"))
    used: list[int] = []
    for e in out["events"]:
        if e["type"] == "attack":
            used += (e.get("attack_dice") or []) + (e.get("evade_dice") or [])
        elif e["type"] == "check":
            used += e.get("dice") or []
    assert len(used) >= 12
    assert used == ns["dice"]("verify-me", len(used))  # both rounds from one stream, never restarted
    assert out["dice_left"] is None and out["dice_used"] == len(used)  # a seeded stream never runs out


def test_r_check_4_without_skill_stats_the_demo_pack_maps_skills(tmp_path: Path) -> None:
    enc = encounter(pc(), enemy())
    for u in enc["units"]:
        del u["skill_stats"]
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=check("芸術", 1))]
    enc_p, orders_p = files(tmp_path, enc=enc, orders=orders)
    out = ok_json(pbp("resolve", str(enc_p), "--orders", str(orders_p), "--dice", ",".join(["1"] * 7)))
    a = next(e for e in out["events"] if e["type"] == "attack")
    assert len(a["attack_dice"]) == 4 and len(a["evade_dice"]) == 2  # 射撃 -> 感覚 4, 回避 -> 肉体 2
    c = next(e for e in out["events"] if e["type"] == "check")
    assert len(c["dice"]) == 1  # 芸術 -> 文化 1 (oni1)
    assert out["dice_left"] == 0
