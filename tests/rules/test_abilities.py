"""Abilities (スキル) and gimmicks (ギミック): timings and the minimum effect vocabulary (spec: "Abilities and
gimmicks"); R-SETUP-1, R-CLEAN-1 (0), R-BS-4 (statuses from abilities and gimmicks), R-PLAY-3 (gimmicks are data)."""

from __future__ import annotations

import pytest
from pool_builders import attack, check, encounter, enemy, gauge, order, pc, run


def ability(aid: str, timing: str, effects: list[dict], uses: int | None = None) -> dict:
    return {"id": aid, "timing": timing, "uses": uses, "effects": effects}


def use(aid: str, target: str | None = None) -> dict:
    return {"type": "ability", "id": aid, "target": target}


@pytest.mark.rule("R-MINOR-1")
@pytest.mark.rule("R-CHECK-8")
def test_minor_ability_dice_effect_then_attack() -> None:
    aim = ability("aim", "minor", [{"kind": "dice", "value": 2, "skills": ["射撃"], "rounds": 1}])
    u = pc(abilities=[aim])
    r = run(encounter(u, enemy()), [order("aoi", minor=use("aim"), major=attack("rifle", "oni1"))], [6] * 8)
    ev = r.one("ability", unit="aoi")
    assert ev["id"] == "aim" and ev["effects"]
    assert r.events.index(ev) < r.index("attack", attacker="aoi")
    assert len(r.one("attack", attacker="aoi")["attack_dice"]) == 6
    assert r.dice_left == 0


@pytest.mark.rule("R-CHECK-8")
def test_ability_dice_effect_limited_to_its_skills() -> None:
    aim = ability("aim", "minor", [{"kind": "dice", "value": 2, "skills": ["白兵"], "rounds": 1}])
    r = run(encounter(pc(abilities=[aim]), enemy()), [order("aoi", minor=use("aim"), major=check("射撃", 1))], [6] * 4)
    assert len(r.one("check", unit="aoi")["dice"]) == 4


@pytest.mark.rule("R-CHECK-8")
def test_ability_successes_effect() -> None:
    luck = ability("luck", "minor", [{"kind": "successes", "value": 2, "skills": None, "rounds": 1}])
    r = run(encounter(pc(abilities=[luck]), enemy()), [order("aoi", minor=use("luck"), major=check("芸術", 2))], [6, 6])
    c = r.one("check", unit="aoi")
    assert c["successes"] == 2 and c["success"] is True


@pytest.mark.rule("R-MINOR-1")
def test_ability_uses_run_out() -> None:
    aim = ability("aim", "minor", [{"kind": "dice", "value": 1, "skills": None, "rounds": 1}], uses=1)
    orders = [order("aoi", minor=use("aim"), major=check("射撃", 1))]
    r = run(encounter(pc(abilities=[aim]), enemy()), orders, [6] * 5 + [6] * 4, rounds=2)
    assert len(r.ev("ability", unit="aoi")) == 1
    assert r.one("refused", unit="aoi")["reason"] == "no_uses"
    assert [len(c["dice"]) for c in r.ev("check", unit="aoi")] == [5, 4]


@pytest.mark.rule("R-MINOR-1")
def test_ability_wrong_timing_refused() -> None:
    strike = ability("strike", "major", [{"kind": "successes", "value": 1, "skills": None, "rounds": 1}])
    r = run(encounter(pc(abilities=[strike]), enemy()), [order("aoi", minor=use("strike"))], [])
    assert r.one("refused", unit="aoi")["reason"] == "wrong_timing"


@pytest.mark.rule("R-BS-4")
@pytest.mark.rule("R-MAJOR-1")
def test_ability_status_on_target() -> None:
    emp = ability("emp", "major", [{"kind": "status", "id": "stun", "on": "target"}])
    r = run(encounter(pc(abilities=[emp]), enemy()), [order("aoi", major=use("emp", "oni1"))], [])
    assert r.ev("status", unit="oni1", id="stun", change="applied")
    assert r.status("oni1", "stun") == {"id": "stun", "rounds_left": 2}
    assert r.status("aoi", "stun") is None


@pytest.mark.rule("R-MAJOR-1")
def test_ability_cure_on_self() -> None:
    fix = ability("fix", "major", [{"kind": "cure", "id": "leg_damage", "on": "self"}])
    u = pc(abilities=[fix], statuses=[{"id": "leg_damage"}])
    r = run(encounter(u, enemy()), [order("aoi", major=use("fix"))], [])
    assert r.ev("status", unit="aoi", id="leg_damage", change="ended")
    assert r.status("aoi", "leg_damage") is None


@pytest.mark.rule("R-MAJOR-1")
def test_ability_restore_on_self() -> None:
    rep = ability("repair", "major", [{"kind": "restore", "gauge": "damage", "value": 7, "on": "self"}])
    u = pc(abilities=[rep], vehicle_update={"damage": gauge([10] * 5, [10, 5, 0, 0, 0])})
    r = run(encounter(u, enemy()), [order("aoi", major=use("repair"))], [])
    assert r.one("restore", unit="aoi")["amount"] == 7
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [8, 0, 0, 0, 0]


@pytest.mark.rule("R-BS-4")
@pytest.mark.rule("R-PLAY-3")
def test_gimmick_round_start_status_in_area_every_round() -> None:
    storm = {
        "id": "storm",
        "timing": "round_start",
        "area": [[400, -100], [600, 100]],
        "effects": [{"kind": "status", "id": "heat", "on": "area"}],
    }
    orders = [order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(pc(), enemy(), gimmicks=[storm]), orders, [], rounds=2)
    gims = r.ev("gimmick", id="storm")
    assert [g["round"] for g in gims] == [1, 2]
    # oni1 is in the storm: heat before it attacks, so both its attacks are skipped (no dice)
    attacks = r.ev("attack", attacker="oni1")
    assert [a.get("skipped") for a in attacks] == ["heat", "heat"]
    assert r.events.index(gims[0]) < r.events.index(attacks[0])
    assert r.status("aoi", "heat") is None
    assert r.dice_used == 0


@pytest.mark.rule("R-CLEAN-1")
def test_gimmick_cleanup_fires_in_cleanup() -> None:
    nanites = {
        "id": "nanites",
        "timing": "cleanup",
        "area": None,
        "effects": [{"kind": "restore", "gauge": "damage", "value": 2, "on": "area"}],
    }
    u = pc(vehicle_update={"damage": gauge([10] * 5, [5, 0, 0, 0, 0])})
    r = run(encounter(u, enemy(), gimmicks=[nanites]), [], [])
    assert r.index("cleanup", round=1) < r.index("gimmick", id="nanites")
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [3, 0, 0, 0, 0]
