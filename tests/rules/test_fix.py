"""Section 5 readings not covered beside their sections: R-FIX-3 (items in orders), R-FIX-7, R-FIX-10."""

from __future__ import annotations

from pool_builders import attack, encounter, enemy, gauge, on_foot, order, pc, run, weapon


def walker(**kw):
    u = on_foot(pc(**kw), weapons=[weapon("pistol", damage=5, ammo=6, rng=(0, 600))])
    u["items"] = [
        {"id": "charm", "dice": 1, "successes": 0, "skills": ["回避"]},
        {"id": "scope", "dice": 1, "successes": 1, "skills": ["射撃"]},
        {"id": "manual", "dice": 2, "successes": 0, "skills": ["情報処理"]},
    ]
    return u


def test_r_fix_3_evade_item_applies_to_every_evasion_this_round() -> None:
    units = [walker(), enemy("oni1"), enemy("oni2")]
    orders = [
        order("aoi", evade_item="charm"),
        order("oni1", major=attack("spit", "aoi")),
        order("oni2", major=attack("spit", "aoi")),
    ]
    r = run(encounter(*units), orders, [6] * 3 + [6] * 4 + [6] * 3 + [6] * 4)
    attacks = r.ev("attack")
    assert [len(a["evade_dice"]) for a in attacks] == [4, 4]  # 肉体 3 + charm 1, on each evasion
    assert r.dice_left == 0


def test_r_fix_3_evade_item_does_not_touch_the_attack() -> None:
    units = [walker(), enemy("oni1")]
    orders = [order("aoi", major=attack("pistol", "oni1"), evade_item="charm")]
    r = run(encounter(*units), orders, [6] * 4 + [6] * 2)
    assert len(r.one("attack", attacker="aoi")["attack_dice"]) == 4


def test_r_fix_3_attack_item() -> None:
    r = run(
        encounter(walker(), enemy()),
        [order("aoi", major=attack("pistol", "oni1", item="scope"))],
        [1, 6, 6, 6, 6, 6, 6],
    )
    a = r.one("attack", attacker="aoi")
    assert len(a["attack_dice"]) == 5 and a["attack_successes"] == 2
    assert a["hit"] is True and a["damage"] == 5 + 2


def test_r_fix_3_recover_item() -> None:
    u = walker(statuses=[{"id": "system_down", "elapsed": 2}])
    r = run(
        encounter(u, enemy()),
        [order("aoi", major={"type": "recover", "status": "system_down", "item": "manual"})],
        [1, 1, 1, 1],
    )
    c = r.one("check", unit="aoi")
    assert len(c["dice"]) == 4 and c["need"] == 4 and c["success"] is True  # 理知 2 + 2 dice
    assert r.status("aoi", "system_down") is None


def test_r_fix_3_evade_item_not_covering_evasion_adds_nothing() -> None:
    units = [walker(), enemy("oni1")]
    orders = [order("aoi", evade_item="scope"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(*units), orders, [6] * 3 + [6] * 3)
    assert len(r.one("attack", attacker="oni1")["evade_dice"]) == 3
    assert r.dice_left == 0


def test_r_fix_7_dead_units_orders_refused_later_in_round() -> None:
    """oni1 (faster) kills the dying walker; the walker's own attack later in the round is refused `dead`."""
    u = walker(stats_update={"感覚": 1}, injury=gauge([1, 1, 1, 1, 1], [1, 1, 0, 0, 0]))
    orders = [order("aoi", major=attack("pistol", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [1, 1, 1, 6, 6, 6])
    assert r.one("death", unit="aoi")
    assert r.one("refused", unit="aoi")["reason"] == "dead"
    assert r.dice_left == 0


def test_r_fix_10_stun_factor_and_engagement_cap_without_a_pack() -> None:
    """The seed's numbers work with no campaign pack (they are code): stun x0.75 on a stat of 4 gives 3 dice."""
    u = pc(statuses=[{"id": "stun", "rounds_left": 3}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 5)
    assert len(r.one("attack", attacker="aoi")["attack_dice"]) == 3
