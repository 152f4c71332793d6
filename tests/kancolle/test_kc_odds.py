"""Outside agreement (issue 32, deliverable 5): exact odds over the 36 faces, and a check's outcome depends only on
the faces, the modifiers, the DC and the digest's flags (night, the check's kind, interference)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kc_builders import free_checks, pc

from pbp.engine import ScriptedDice
from pbp.engine.kancolle import KANCOLLE
from pbp.engine.kancolle.core import CHECK_KINDS
from pbp.engine.kancolle.odds import check_odds, outcome

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
faces = st.tuples(st.integers(1, 6), st.integers(1, 6))
flags = st.fixed_dictionaries({
    "kind": st.sampled_from(CHECK_KINDS), "rating": st.integers(-3, 6), "modifier": st.integers(-4, 3),
    "interfere": st.none() | st.integers(1, 6), "night": st.booleans(),
})  # fmt: skip


@pytest.mark.rule("K-CHECK-6")
@SETTINGS
@given(st.integers(-2, 16), flags)
def test_odds_enumerate_the_36_faces_exactly(dc: int, flag: dict) -> None:
    p = check_odds(dc, **flag)
    assert all(isinstance(v, Fraction) and (v * 36).denominator == 1 for v in p.values())
    brute = [outcome(f, dc, **flag) for f in product(range(1, 7), repeat=2)]
    assert p["p_success"] == Fraction(sum(s for s, _, _ in brute), 36)
    failure = Fraction(sum(not s for s, _, _ in brute), 36)
    assert p["p_success"] + failure == 1  # every face is a success or a failure, once
    assert Fraction(1, 36) <= p["p_success"] <= Fraction(35, 36) or flag["night"]  # X-1b's bounds by day


@pytest.mark.rule("K-CHECK-7")
@pytest.mark.rule("K-CHECK-8")
def test_the_cli_prints_the_exact_odds_as_floats() -> None:
    pbp = Path(sys.executable).with_name("pbp")
    out = subprocess.run(
        [str(pbp), "engine", "odds", "--ruleset", "kancolle", "--dc", "8"], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == {"dc": 8, "p_success": 15 / 36, "p_special": 1 / 36, "p_fumble": 1 / 36}


@pytest.mark.rule("K-FIX-2")
@SETTINGS
@given(
    faces, st.integers(0, 8), flags, st.integers(1, 10), st.integers(0, 5),
    st.sampled_from(["砲撃", "規律", "元気", None]), st.booleans(),
)  # fmt: skip
def test_a_checks_outcome_depends_only_on_faces_modifiers_dc_and_flags(
    roll: tuple[int, int], extra_ap: int, flag: dict, ap: int, steps: int, designated: str | None, friend: bool
) -> None:
    """Whatever else the sheet holds (AP, steps, other ship girls), the first roll's result is `outcome`'s."""
    others = [pc("b", ap=ap + extra_ap, ap_max=20, steps=steps % 4)] if friend else []
    unit = pc("a", ap=ap, ap_max=10 + extra_ap, steps=steps % 4, position=1 + extra_ap % 6)
    check = {"unit": "a", "designated": designated, **flag}
    # The roll's faces, then a die for a special's AP or a fumble's accident (entry 1: nothing) if one comes.
    res = KANCOLLE.resolve(free_checks([unit, *others], check), {"orders": []}, ScriptedDice([*roll, 1, 1]))
    (ev,) = [e for e in res.events if e["type"] == "check"]
    first = ev["tries"][0]
    assert first["dice"] == list(roll)
    assert (first["success"], first["special"], first["fumble"]) == outcome(roll, ev["dc"], **flag)
    assert first["total"] == sum(first["effective"]) + flag["rating"] + flag["modifier"]


def pbp(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).with_name("pbp")), *args], capture_output=True, text=True)


@pytest.mark.rule("K-RETRY-2")
def test_the_check_command_rolls_x4s_paid_rechallenge(tmp_path: Path) -> None:
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"砲撃": [6, 7]}), encoding="utf-8")
    flags = ["--designated", "魚雷", "--traits", "砲撃:merit", "--gap", "5", "--grid", str(grid)]
    done = pbp("engine", "check", "--ruleset", "kancolle", *flags, "--rechallenge", "2,0", "--dice", "2,3,3,4,4")
    out = json.loads(done.stdout)
    assert (out["dc"], out["ap"], out["dice_left"], out["check"]["success"]) == (8, 7, 0, True)
    assert [t["dice"] for t in out["check"]["tries"]] == [[2, 3], [4, 4]]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["check", "--seed", "x"], "--dc/--designated: give --dc N, or --designated TRAIT with --traits"),
        (["odds", "--designated", "魚雷", "--traits", "砲撃:merit"], "--traits: '砲撃' is not on the grid"),
        (["check", "--dc", "5", "--dice", "1"], "--dice: dice exhausted after 1"),
    ],
)
def test_the_commands_bad_input_is_one_contract_line(args: list[str], line: str) -> None:
    done = pbp("engine", args[0], "--ruleset", "kancolle", *args[1:])
    assert (done.returncode, done.stdout) == (2, "") and done.stderr.startswith(line) and done.stderr.count("\n") == 1
