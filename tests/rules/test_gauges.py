"""Section 2.4: gauges (R-GAUGE-1..7) and R-FIX-7's `dead`/`removed` refusals."""

from __future__ import annotations

import pytest
from pool_builders import attack, check, encounter, enemy, gauge, on_foot, order, pc, run, weapon


def shoot(dice, u=None, e=None, rounds=1, **enc_kw):
    r = run(
        encounter(u or pc(), e or enemy(), **enc_kw), [order("aoi", major=attack("rifle", "oni1"))], dice, rounds=rounds
    )
    return r


def test_r_gauge_1_damage_fills_stages_in_order_and_spills() -> None:
    r = shoot([1, 1, 1, 1, 6, 6])  # 8 + 4 = 12 into [5, 5, 5, 5, 5]
    d = r.one("damage", unit="oni1")
    assert d["checked"] == [0, 1]
    assert d["taken"] == [5, 5, 2, 0, 0]
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [5, 5, 2, 0, 0]


def test_r_gauge_1_partly_filled_stage_continues() -> None:
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [3, 0, 0, 0, 0])})
    r = shoot([1, 6, 6, 6, 6, 6], e=e)  # 8 + 1 = 9: 2 fill stage 0, 5 fill stage 1, 2 into stage 2
    d = r.one("damage", unit="oni1")
    assert d["checked"] == [0, 1]
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [5, 5, 2, 0, 0]


def test_r_gauge_1_capacities_are_per_unit_data() -> None:
    e = enemy(vehicle_update={"damage": gauge([3, 20, 1, 1, 1])})
    r = shoot([1, 6, 6, 6, 6, 6], e=e)  # 9
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [3, 6, 0, 0, 0]
    assert r.one("damage", unit="oni1")["checked"] == [0]


def test_r_gauge_2_injury_stage_bonuses_on_foot() -> None:
    for taken, dice in [([10, 10, 0, 0, 0], 4), ([10, 10, 10, 0, 0], 5), ([10, 10, 10, 10, 0], 7)]:
        u = on_foot(pc(injury=gauge([10, 10, 10, 10, 1], taken)))
        r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [6] * 10)
        assert len(r.one("check", unit="aoi")["dice"]) == dice, taken


def test_r_gauge_2_death_the_moment_death_stage_is_checked() -> None:
    # 軽傷 checked (no bonus): 5 more damage checks 重傷, 瀕死 and 死亡
    u = on_foot(pc(stats_update={"感覚": 2}, injury=gauge([1, 1, 1, 1, 1], [1, 1, 0, 0, 0])))
    orders = [order("oni1", major=attack("spit", "aoi")), order("aoi", major=attack("pistol", "oni1"))]
    # oni1 (感覚 3) acts before aoi (感覚 2): 1 success; aoi evades with 肉体 3 dice, all misses: 4 + 1 damage
    r = run(encounter(u, enemy(position=[50, 0])), orders, [1, 6, 6, 6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and 4 in d["checked"]
    i_death, i_removed = r.index("death", unit="aoi"), r.index("removed", unit="aoi")
    assert r.index("damage", unit="aoi") < i_death < i_removed
    assert i_removed < r.index("cleanup", round=1)
    aoi = r.unit("aoi")
    assert aoi["dead"] is True and aoi["removed"] is True
    assert r.one("refused", unit="aoi")["reason"] == "dead"
    assert r.ev("attack", attacker="aoi") == []
    assert r.dice_left == 0


def test_r_gauge_2_light_and_serious_wounds_do_not_kill() -> None:
    u = on_foot(pc())
    r = run(encounter(u, enemy(position=[50, 0])), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 1, 6, 6, 6])
    assert r.unit("aoi")["injury"]["taken"] == [7, 0, 0, 0, 0]
    assert not r.unit("aoi").get("dead")


def test_r_gauge_3_damage_stage_bonuses_while_riding() -> None:
    for taken, dice in [([10, 10, 0, 0, 0], 4), ([10, 10, 10, 0, 0], 5), ([10, 10, 10, 10, 0], 7)]:
        u = pc(vehicle_update={"damage": gauge([10] * 5, taken)})
        r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [6] * 10)
        assert len(r.one("check", unit="aoi")["dice"]) == dice, taken


def test_r_gauge_3_moderate_damage_helps_evasion_too() -> None:
    """Vector 03's situation: oni1 at 中破 evades with 2 + 1 dice."""
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 0, 0])})
    r = shoot([1, 1, 1, 6, 1, 2, 6], e=e)
    a = r.one("attack", attacker="aoi")
    assert a["evade_dice"] == [1, 2, 6] and a["evade_successes"] == 2 and a["damage"] == 9
    assert r.one("damage", unit="oni1")["checked"] == [3]


def test_r_gauge_3_destroyed_plus_5_on_evasion_too() -> None:
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [5] * 5)})
    r = shoot([1, 1, 1, 1, 6, 6], e=e)
    a = r.one("attack", attacker="aoi")
    assert len(a["evade_dice"]) == 2  # 破壊 gives successes, not 大破's +3 dice
    assert a["evade_successes"] == 5 and a["hit"] is False


def test_r_gauge_3_destroyed_unit_still_acts_then_is_removed_at_cleanup() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = shoot([6] * 6, u=u)
    assert r.one("attack", attacker="aoi")  # acts during the round
    assert r.index("cleanup", round=1) < r.index("removed", unit="aoi")
    assert r.unit("aoi")["removed"] is True


def test_r_gauge_3_injury_bonus_ignored_while_riding_damage_bonus_ignored_on_foot() -> None:
    u = pc(injury=gauge([10, 10, 10, 10, 1], [10, 10, 10, 10, 0]))
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [6] * 10)
    assert len(r.one("check", unit="aoi")["dice"]) == 4


def test_r_gauge_4_deepest_stage_only() -> None:
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10, 10, 10, 10, 3])})
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [6] * 10)
    assert len(r.one("check", unit="aoi")["dice"]) == 7  # +3, not +1 +3
    u = on_foot(pc(injury=gauge([10, 10, 10, 10, 1], [10, 10, 10, 10, 0])))
    r = run(encounter(u, enemy()), [order("aoi", major=check("回避", 1))], [6] * 10)
    assert len(r.one("check", unit="aoi")["dice"]) == 6  # 3 + 3, not 3 + 1 + 3


def test_r_gauge_5_damage_beyond_last_stage_is_lost() -> None:
    e = enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 5, 4])})
    r = shoot([1, 1, 6, 6] + [6] * 5, e=e)  # 10 damage, 1 fits (大破: oni1 evades with 2 + 3 dice)
    d = r.one("damage", unit="oni1")
    assert d["amount"] == 10 and d["checked"] == [4]
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [5, 5, 5, 5, 5]


def test_r_gauge_5_injury_overflow_lost() -> None:
    u = on_foot(pc(injury=gauge([10, 10, 10, 10, 1], [10, 10, 10, 10, 0])))
    r = run(encounter(u, enemy(position=[50, 0])), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 1] + [6] * 6)
    assert r.unit("aoi")["injury"]["taken"] == [10, 10, 10, 10, 1]


@pytest.mark.parametrize("kills", [True, False])
def test_r_gauge_6_destroyed_at_cleanup(kills: bool) -> None:
    r = shoot(
        [1, 1, 1, 1] + [6] * 5,  # 大破: oni1 evades with 2 + 3 dice
        e=enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 5, 0])}),
        options={"destroyed_kills_pilot": kills},
    )
    assert r.one("damage", unit="oni1")["checked"] == [4]
    oni = r.unit("oni1")
    assert oni["removed"] is True
    i_clean, i_removed = r.index("cleanup", round=1), r.index("removed", unit="oni1")
    assert i_clean < i_removed
    if kills:
        assert oni["dead"] is True
        death = r.one("death", unit="oni1")
        assert death.get("cause", "destroyed") == "destroyed"
        assert i_clean < r.events.index(death) < i_removed
        assert oni["injury"]["taken"][4] == oni["injury"]["capacity"][4]  # the rider's 死亡 stage checked
    else:
        assert not oni.get("dead")
        assert r.ev("death") == []


def test_r_gauge_6_destroyed_unit_gone_next_round() -> None:
    r = shoot([1, 1, 1, 1] + [6] * 5, e=enemy(vehicle_update={"damage": gauge([5] * 5, [5, 5, 5, 5, 0])}), rounds=2)
    assert "oni1" not in r.one("initiative", round=2)["order"]
    # aoi's repeated attack on a removed unit does not happen
    assert len(r.ev("attack", attacker="aoi")) == 1
    assert r.dice_used == 9
    assert r.one("refused", unit="aoi", round=2)["reason"] == "target_gone"


def test_r_gauge_7_dead_unit_stays_dead_and_out_of_initiative() -> None:
    u = on_foot(pc(stats_update={"感覚": 2}, injury=gauge([1, 1, 1, 1, 1], [1, 1, 0, 0, 0])))
    orders = [order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy(position=[50, 0])), orders, [1, 6, 6, 6, 6, 6] + [6] * 6, rounds=2)
    assert r.unit("aoi")["dead"] is True
    assert "aoi" not in r.one("initiative", round=2)["order"]
    assert len(r.ev("attack", attacker="oni1")) == 1  # no second attack on a dead unit that rolls dice
    assert r.dice_used == 6


def test_r_gauge_7_dead_unit_in_input_takes_no_action() -> None:
    u = pc(dead=True, removed=True)
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.ev("attack") == []
    assert "aoi" not in r.one("initiative")["order"]
    assert r.unit("aoi")["dead"] is True


def test_r_fix_7_orders_of_a_unit_killed_earlier_are_refused_dead() -> None:
    """Two attacks in one round: oni1 kills aoi before her turn; her minor and major are refused `dead`."""
    u = on_foot(
        pc(stats_update={"感覚": 1}, injury=gauge([1, 1, 1, 1, 1])),
        weapons=[weapon("pistol", damage=5, ammo=6, rng=(0, 100))],
    )
    orders = [
        order("aoi", minor={"type": "reload", "weapon": "pistol"}, major=attack("pistol", "oni1")),
        order("oni1", major=attack("spit", "aoi")),
    ]
    r = run(encounter(u, enemy(position=[50, 0])), orders, [1, 1, 1, 6, 6, 6])
    assert r.unit("aoi")["dead"] is True
    reasons = {(x["action"], x["reason"]) for x in r.ev("refused", unit="aoi")}
    assert ("major", "dead") in reasons
    assert all(reason == "dead" for _, reason in reasons)


def test_r_fix_7_removed_unit_orders_refused_removed() -> None:
    """With destroyed_kills_pilot false the pilot is removed, not dead: its later orders never run."""
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = run(
        encounter(u, enemy(), options={"destroyed_kills_pilot": False}),
        [order("aoi", major=attack("rifle", "oni1"))],
        [6] * 6,
        rounds=2,
    )
    assert r.unit("aoi")["removed"] is True and not r.unit("aoi").get("dead")
    assert len(r.ev("attack", attacker="aoi")) == 1
    for x in r.ev("refused", unit="aoi"):
        assert x["reason"] == "removed"
    assert r.dice_used == 6


def test_r_gauge_1_stages_filled_out_of_order_is_bad_input() -> None:
    from pool_builders import problems

    u = pc(vehicle_update={"damage": gauge([10] * 5, [0, 0, 10, 0, 0])})
    assert any("taken" in p.path for p in problems(encounter(u, enemy())))
