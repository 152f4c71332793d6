"""Section 4: what the GM keeps. R-GM-1 (overrides, spec "GM overrides") and R-GM-2 (scene checks)."""

from __future__ import annotations

import pytest
from pool_builders import attack, check, encounter, enemy, order, pc, run

from pbp.engine import BadInput
from pbp.engine.overrides import validate_overrides

TWO_ATTACKS = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
# aoi: 4 attack dice (3 successes), oni1 evades 2 (1); oni1: 3 attack dice (1), aoi evades 3 (0)
DICE = [1, 3, 6, 2, 5, 2, 1, 6, 6, 6, 6, 6]


def test_r_gm_1_override_changes_successes_not_dice() -> None:
    base = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE)
    ov = [{"check": "r1-c1", "successes": 0, "reason": "the smoke gimmick blinds aoi"}]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)
    a = r.one("attack", attacker="aoi")
    assert a["attack_dice"] == [1, 3, 6, 2]  # still drawn
    assert a["attack_successes"] == 0 and a["hit"] is False
    assert a["overrides"] == [{"check": "r1-c1", "was": 3, "now": 0, "reason": "the smoke gimmick blinds aoi"}]
    # every later die unchanged, every later check id unchanged
    b1, b2 = base.one("attack", attacker="oni1"), r.one("attack", attacker="oni1")
    for key in ("attack_dice", "evade_dice", "attack_check", "evade_check", "hit", "damage"):
        assert b1[key] == b2[key], key
    assert r.dice_left == base.dice_left == 0
    assert r.res.unused_overrides == []


def test_r_gm_1_override_evasion_check() -> None:
    ov = [{"check": "r1-c2", "successes": 3, "reason": "煙幕ギミック"}]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)
    a = r.one("attack", attacker="aoi")
    assert a["evade_check"] == "r1-c2" and a["evade_successes"] == 3 and a["hit"] is False
    assert a["overrides"][0]["was"] == 1 and a["overrides"][0]["now"] == 3


def test_r_gm_1_override_can_turn_a_miss_into_a_hit() -> None:
    ov = [{"check": "r1-c4", "successes": -1, "reason": "aoi trips"}]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)
    a = r.one("attack", attacker="oni1")
    assert a["evade_check"] == "r1-c4" and a["hit"] is True and a["damage"] == 4 + 2


def test_r_gm_1_check_ids_count_per_round() -> None:
    # round 2: oni1, now at 大破, attacks with 3 + 3 dice
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE + DICE + [6, 6, 6], rounds=2)
    ids = [(a["attack_check"], a["evade_check"]) for a in r.ev("attack")]
    assert ids == [("r1-c1", "r1-c2"), ("r1-c3", "r1-c4"), ("r2-c1", "r2-c2"), ("r2-c3", "r2-c4")]


def test_r_gm_1_scene_check_override() -> None:
    ov = [{"check": "r1-c1", "successes": 5, "reason": "inspired"}]
    r = run(encounter(pc(), enemy()), [order("aoi", major=check("芸術", 3))], [6, 6], overrides=ov)
    c = r.one("check", unit="aoi")
    assert c["dice"] == [6, 6] and c["successes"] == 5 and c["success"] is True
    assert c["overrides"][0]["was"] == 0


def test_r_gm_1_unused_overrides_reported() -> None:
    ov = [
        {"check": "r1-c2", "successes": 0, "reason": "used"},
        {"check": "r1-c9", "successes": 0, "reason": "never rolled"},
        {"check": "r3-c1", "successes": 0, "reason": "a later round"},
    ]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)
    assert sorted(r.res.unused_overrides) == ["r1-c9", "r3-c1"]


def test_r_gm_1_unused_overrides_in_roll_order_round_then_n_as_numbers() -> None:
    """Sorted as text, r1-c10 came before r1-c9 and r10-c1 before r2-c1; given in a shuffled order on purpose."""
    ids = ["r10-c1", "r1-c10", "r2-c1", "r1-c9", "r2-c10", "r1-c11"]
    ov = [{"check": cid, "successes": 0, "reason": "never rolled"} for cid in ids]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)
    assert r.res.unused_overrides == ["r1-c9", "r1-c10", "r1-c11", "r2-c1", "r2-c10", "r10-c1"]


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_r_gm_1_override_without_reason_is_bad_input(reason) -> None:
    ov = [{"check": "r1-c1", "successes": 0}]
    if reason is not None:
        ov[0]["reason"] = reason
    with pytest.raises(BadInput):
        run(encounter(pc(), enemy()), TWO_ATTACKS, DICE, overrides=ov)


def test_r_gm_1_bad_overrides_are_said_by_templates_and_the_cli_english_is_unchanged() -> None:
    """A page says each problem in its language (the GM's override form); the command line prints the English."""
    overrides = [3, {"check": "r1", "successes": 1, "reason": "fog"}, {"check": "r1-c1", "successes": 1},
                 {"check": "r1-c1", "successes": 1, "reason": "fog"}]  # fmt: skip
    problems = validate_overrides(overrides)
    assert [str(p) for p in problems] == [
        "overrides[0]: must be an object with check, successes and reason",
        "overrides[1].check: must be a check id like 'r1-c2', got 'r1'",
        "overrides[2].reason: an override needs a non-empty reason (R-GM-1: it is published)",
        "overrides[3].check: check 'r1-c1' is overridden twice",
    ]
    assert all(p.template is not None and p.template % dict(p.params) == p.message for p in problems)


def test_r_gm_1_seeded_override_keeps_later_dice() -> None:
    base = run(encounter(pc(), enemy()), TWO_ATTACKS, seed="gm-1")
    ov = [{"check": "r1-c1", "successes": 0, "reason": "fog"}]
    r = run(encounter(pc(), enemy()), TWO_ATTACKS, seed="gm-1", overrides=ov)
    dice = [(a["attack_dice"], a["evade_dice"]) for a in r.ev("attack")]
    assert dice == [(a["attack_dice"], a["evade_dice"]) for a in base.ev("attack")]


def test_r_gm_2_scene_check_success_and_failure() -> None:
    r = run(encounter(pc(), enemy()), [order("aoi", major=check("情報処理", 2))], [2, 3])
    c = r.one("check", unit="aoi")
    assert (c["skill"], c["need"], c["successes"], c["success"]) == ("情報処理", 2, 1, False)
    assert c.get("purpose", "scene") == "scene"
    r = run(encounter(pc(), enemy()), [order("aoi", major=check("情報処理", 2))], [2, 1])
    assert r.one("check", unit="aoi")["success"] is True


def test_r_gm_2_every_unit_checks_in_initiative_order() -> None:
    orders = [order("oni1", major=check("白兵", 1)), order("aoi", major=check("情報処理", 1))]
    r = run(encounter(pc(), enemy()), orders, [1, 1, 1, 1])
    assert [c["unit"] for c in r.ev("check")] == ["aoi", "oni1"]
    assert [c["check"] for c in r.ev("check")] == ["r1-c1", "r1-c2"]
