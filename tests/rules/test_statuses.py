"""Section 2.5: bad statuses (the table, R-BS-1..4) and R-FIX-4 / R-FIX-6."""

from __future__ import annotations

import pytest
from pool_builders import attack, check, claw, encounter, enemy, gauge, move, on_foot, order, pc, rifle, run, spit


def big_enemy(**kw):
    return enemy(vehicle_update={"damage": gauge([20] * 5)}, **kw)


# lock_on -------------------------------------------------------------------------------------------------------


def test_r_fix_6_lock_on_applied_in_round_1_fires_at_cleanup_of_round_2() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=1, ammo_max=1, inflicts="lock_on")]})
    orders = [order("aoi", major=attack("rifle", "oni1"))]
    dice = [1, 1, 1, 1, 6, 6]  # round 1: hit for 12; round 2: no ammo, nothing rolled
    one = run(encounter(u, big_enemy()), orders, dice)
    assert one.ev("status", unit="oni1", id="lock_on", change="applied")
    assert one.status("oni1", "lock_on") == {"id": "lock_on", "fires_at_round": 2}
    assert one.ev("damage", source="lock_on") == []
    two = run(encounter(u, big_enemy()), orders, dice, rounds=2)
    beam = two.one("damage", unit="oni1", source="lock_on")
    assert beam["round"] == 2 and beam["amount"] == 30 and beam["gauge"] == "damage"
    fired = two.one("status", unit="oni1", id="lock_on", change="fired")
    assert fired["round"] == 2
    assert two.index("cleanup", round=2) < two.events.index(fired)
    assert two.unit("oni1")["vehicle"]["damage"]["taken"] == [20, 20, 2, 0, 0]  # 12 + 30
    assert two.status("oni1", "lock_on") is None
    assert two.dice_used == 6


def test_r_fix_10_lock_on_beam_is_30_and_unavoidable() -> None:
    """The beam rolls nothing (no evasion) and deals exactly 30 (a rule constant, no pack needed)."""
    u = pc(statuses=[{"id": "lock_on", "fires_at_round": 1}], vehicle_update={"damage": gauge([50] * 5)})
    r = run(encounter(u, enemy()), [], [])
    assert r.one("damage", unit="aoi", source="lock_on")["amount"] == 30
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [30, 0, 0, 0, 0]
    assert r.dice_used == 0


def test_r_fix_4_lock_on_beam_into_the_gauge_chosen_this_round() -> None:
    u = pc(statuses=[{"id": "lock_on", "fires_at_round": 1}], injury=gauge([20] * 5))
    r = run(encounter(u, enemy()), [order("aoi", damage_to="injury")], [])
    assert r.one("damage", unit="aoi", source="lock_on")["gauge"] == "injury"
    assert r.unit("aoi")["injury"]["taken"] == [20, 10, 0, 0, 0]


def test_r_fix_6_lock_on_does_not_stack() -> None:
    u = pc(vehicle_update={"weapons": [rifle(ammo=1, ammo_max=1, inflicts="lock_on")]})
    e = big_enemy(statuses=[{"id": "lock_on", "fires_at_round": 2}])
    r = run(encounter(u, e), [order("aoi", major=attack("rifle", "oni1"))], [1, 1, 1, 1, 6, 6], rounds=2)
    assert [s for s in r.unit("oni1")["statuses"] if s["id"] == "lock_on"] == []
    assert len(r.ev("damage", unit="oni1", source="lock_on")) == 1
    one = run(encounter(u, e), [order("aoi", major=attack("rifle", "oni1"))], [1, 1, 1, 1, 6, 6])
    assert [s for s in one.unit("oni1")["statuses"] if s["id"] == "lock_on"] == [{"id": "lock_on", "fires_at_round": 2}]


# heat ----------------------------------------------------------------------------------------------------------


def test_r_bs_3_heat_skips_attack_no_dice_no_ammo_10_damage() -> None:
    u = pc(statuses=[{"id": "heat"}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    a = r.one("attack", attacker="aoi")
    assert a["skipped"] == "heat"
    assert a.get("attack_dice") in (None, [])
    assert r.dice_used == 0
    d = r.one("damage", unit="aoi")
    assert d["source"] == "heat" and d["amount"] == 10 and d["gauge"] == "damage"
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [10, 0, 0, 0, 0]
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 6
    assert r.ev("status", unit="aoi", id="heat", change="ended")
    assert r.status("aoi", "heat") is None
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [0] * 5


def test_r_bs_3_heat_skipped_attack_event_is_an_attack_that_rolled_nothing() -> None:
    """Contract: `attack` events carry the attack fields, with `skipped: "heat"` when heat fired. Nothing was rolled:
    no check ids (none is counted), no dice, 0 successes, no hit, no damage."""
    u = pc(statuses=[{"id": "heat"}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [])
    a = r.one("attack", attacker="aoi")
    assert a == {
        "type": "attack", "round": 1, "attacker": "aoi", "target": "oni1", "targets": ["oni1"], "weapon": "rifle",
        "skill": "射撃", "skipped": "heat", "attack_check": None, "attack_dice": [], "attack_successes": 0,
        "attack_detail": None, "evade_check": None, "evade_dice": [], "evade_successes": 0, "evade_detail": None,
        "hit": False, "margin": 0, "damage": 0,
    }  # fmt: skip


@pytest.mark.rule("R-FIX-4")
def test_r_bs_3_heat_fires_like_a_lock_on_beam_then_deals_then_ends() -> None:
    """The status event says heat `fired` (a contract `change` value) as the attack is skipped, before its damage,
    as a lock-on beam's `fired` comes before its 30; then heat ends after that damage (R-BS table)."""
    u = pc(statuses=[{"id": "heat"}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    kinds = [
        (e["type"], e.get("change") or e.get("source")) for e in r.events if e.get("unit", e.get("attacker")) == "aoi"
    ]
    assert kinds == [("attack", None), ("status", "fired"), ("damage", "heat"), ("status", "ended")]
    assert r.one("status", unit="aoi", id="heat", change="fired")["by"] is None
    assert r.dice_used == 0


@pytest.mark.rule("R-GM-1")
def test_r_bs_3_heat_skipped_attack_takes_no_check_id() -> None:
    """Spec: a check that rolls nothing has no id and is not counted; the next attack's checks are r1-c1 and r1-c2."""
    u = pc(statuses=[{"id": "heat"}])
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [1, 6, 6, 6, 6, 6])
    assert r.index("attack", attacker="aoi") < r.index("attack", attacker="oni1")
    b = r.one("attack", attacker="oni1")
    assert (b["attack_check"], b["evade_check"]) == ("r1-c1", "r1-c2")


def test_r_fix_4_heat_that_kills_fires_and_does_not_end() -> None:
    u = on_foot(pc(statuses=[{"id": "heat"}], injury=gauge([1] * 5)))
    r = run(encounter(u, enemy(position=[50, 0])), [order("aoi", major=attack("pistol", "oni1"))], [])
    types = [e["type"] for e in r.events if e["type"] not in ("initiative", "cleanup")]
    assert types == ["attack", "status", "damage", "death", "removed"]
    assert r.one("status", unit="aoi")["change"] == "fired"


def test_r_fix_4_heat_stays_when_attack_refused_for_range() -> None:
    u = pc(statuses=[{"id": "heat"}])
    r = run(encounter(u, enemy(position=[2000, 0])), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.one("refused", unit="aoi")["reason"] == "out_of_range"
    assert r.ev("damage") == []
    assert r.status("aoi", "heat") == {"id": "heat"}


def test_r_fix_4_heat_stays_when_attack_refused_for_ammo() -> None:
    u = pc(statuses=[{"id": "heat"}], vehicle_update={"weapons": [rifle(ammo=0, ammo_max=6)]})
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.one("refused", unit="aoi")["reason"] == "no_ammo"
    assert r.status("aoi", "heat") == {"id": "heat"}


def test_r_fix_4_heat_damage_into_chosen_gauge() -> None:
    u = pc(statuses=[{"id": "heat"}])
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"), damage_to="injury")], [])
    d = r.one("damage", unit="aoi", source="heat")
    assert d["gauge"] == "injury"
    assert r.unit("aoi")["injury"]["taken"] == [10, 0, 0, 0, 0]


def test_r_fix_10_heat_is_10_damage() -> None:
    u = on_foot(pc(statuses=[{"id": "heat"}], injury=gauge([50] * 5)))
    r = run(encounter(u, enemy(position=[50, 0])), [order("aoi", major=attack("pistol", "oni1"))], [])
    assert r.one("damage", unit="aoi", source="heat")["amount"] == 10


# stun ----------------------------------------------------------------------------------------------------------


def test_r_bs_3_stun_lasts_three_cleanups() -> None:
    u = pc(statuses=[{"id": "stun", "rounds_left": 3}])
    r1 = run(encounter(u, enemy()), [], [])
    assert r1.status("aoi", "stun") == {"id": "stun", "rounds_left": 2}
    r3 = run(encounter(u, enemy()), [], [], rounds=3)
    ended = r3.one("status", unit="aoi", id="stun", change="ended")
    assert ended["round"] == 3
    assert r3.status("aoi", "stun") is None
    r2 = run(encounter(u, enemy()), [], [], rounds=2)
    assert r2.status("aoi", "stun") == {"id": "stun", "rounds_left": 1}


def test_r_bs_3_stun_shrinks_move() -> None:
    u = pc(statuses=[{"id": "stun", "rounds_left": 3}])
    r = run(encounter(u, enemy(position=[0, 3000])), [order("aoi", minor=move([1000, 0]))], [])
    assert r.unit("aoi")["position"] == [75, 0]
    r = run(encounter(u, enemy(position=[0, 3000])), [order("aoi", major=move([1000, 0], "full_move"))], [])
    assert r.unit("aoi")["position"] == [225, 0]


def test_r_fix_6_stun_reapplied_restarts_three_rounds() -> None:
    e = enemy(vehicle_update={"weapons": [spit(inflicts="stun")]})
    u = pc(statuses=[{"id": "stun", "rounds_left": 1}])
    # aoi stunned: 感覚 floor(3) ties oni1, acts first (idle); oni1 hits (2 vs 0)
    r = run(encounter(u, e), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 6, 6, 6])
    stuns = [s for s in r.unit("aoi")["statuses"] if s["id"] == "stun"]
    assert stuns == [{"id": "stun", "rounds_left": 2}]  # back to 3, then one cleanup
    assert r.ev("status", unit="aoi", id="stun", change="ended") == []


def test_r_fix_6_stun_reapplied_is_applied_again_marked_renewed() -> None:
    """The contract's `change` is applied|ended|fired: a renewal is `applied` with the optional `renewed: true`; a
    first application carries no `renewed`."""
    e = enemy(vehicle_update={"weapons": [spit(inflicts="stun")]})
    r = run(encounter(pc(statuses=[{"id": "stun", "rounds_left": 1}]), e), [order("oni1", major=attack("spit", "aoi"))],
            [1, 1, 6, 6, 6])  # fmt: skip
    assert r.one("status", unit="aoi", id="stun") == {
        "type": "status", "round": 1, "unit": "aoi", "id": "stun", "change": "applied", "by": "oni1", "renewed": True,
    }  # fmt: skip
    first = run(encounter(pc(), e), [order("oni1", major=attack("spit", "aoi"))], [1, 6, 6, 6, 6, 6])
    assert "renewed" not in first.one("status", unit="aoi", id="stun", change="applied")
    assert {ev["change"] for ev in r.ev("status") + first.ev("status")} <= {"applied", "ended", "fired"}


def test_r_bs_4_status_from_weapon_inflicts_only_on_hit() -> None:
    e = enemy(vehicle_update={"weapons": [spit(inflicts="stun")]})
    r = run(encounter(pc(), e), [order("oni1", major=attack("spit", "aoi"))], [6, 6, 6, 6, 6, 6])
    assert r.one("attack", attacker="oni1")["hit"] is False
    assert r.status("aoi", "stun") is None
    r = run(encounter(pc(), e), [order("oni1", major=attack("spit", "aoi"))], [1, 6, 6, 6, 6, 6])
    assert r.ev("status", unit="aoi", id="stun", change="applied")
    assert r.status("aoi", "stun") == {"id": "stun", "rounds_left": 2}  # applied (3) then one cleanup


# leg_damage ----------------------------------------------------------------------------------------------------


def test_r_bs_4_leg_damage_blocks_every_move_and_never_ends() -> None:
    u = pc(statuses=[{"id": "leg_damage"}])
    for o in (
        order("aoi", minor=move([0, 100])),
        order("aoi", major=move([0, 100], "full_move")),
    ):
        r = run(encounter(u, enemy()), [o], [], rounds=2)
        assert {x["reason"] for x in r.ev("refused", unit="aoi")} == {"leg_damage"}
        assert r.unit("aoi")["position"] == [0, 0]
        assert r.status("aoi", "leg_damage") == {"id": "leg_damage"}
    engaged = pc(statuses=[{"id": "leg_damage"}], engagement="e1")
    r = run(
        encounter(engaged, enemy(position=[0, 0], engagement="e1")),
        [order("aoi", major={"type": "leave", "toward": [0, 100]})],
        [],
    )
    assert r.one("refused", unit="aoi")["reason"] == "leg_damage"
    assert r.unit("aoi")["engagement"] == "e1"


# arm_damage ----------------------------------------------------------------------------------------------------


def test_r_bs_4_arm_damage_unequips_arm_weapons_and_blocks_attacks() -> None:
    u = pc(vehicle_update={"weapons": [rifle(inflicts="arm_damage")]})
    orders = [order("aoi", major=attack("rifle", "oni1")), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [1, 1, 1, 1, 6, 6] + [6] * 6, rounds=2)
    applied = r.one("status", unit="oni1", id="arm_damage", change="applied")
    assert applied["unequipped"] == ["claw"]
    slots = {w["id"]: w["slot"] for w in r.unit("oni1")["vehicle"]["weapons"]}
    assert slots == {"claw": "spare", "spit": "torso"}
    refused = r.ev("refused", unit="oni1")
    assert [x["reason"] for x in refused] == ["arm_damage", "arm_damage"]  # even the torso weapon, both rounds
    assert r.ev("attack", attacker="oni1") == []
    assert r.status("oni1", "arm_damage") == {"id": "arm_damage"}


def test_r_fix_6_arm_damage_twice_changes_nothing() -> None:
    u = pc(vehicle_update={"weapons": [rifle(inflicts="arm_damage")]})
    e = enemy(statuses=[{"id": "arm_damage"}], vehicle_update={"weapons": [claw(slot="spare"), spit()]})
    r = run(encounter(u, e), [order("aoi", major=attack("rifle", "oni1"))], [1, 1, 1, 1, 6, 6])
    assert r.one("attack", attacker="aoi")["hit"] is True
    assert r.status_ids("oni1").count("arm_damage") == 1
    assert {w["id"]: w["slot"] for w in r.unit("oni1")["vehicle"]["weapons"]} == {"claw": "spare", "spit": "torso"}


# system_down ---------------------------------------------------------------------------------------------------


def sysdown(elapsed: int, **kw):
    return pc(statuses=[{"id": "system_down", "elapsed": elapsed}], **kw)


def test_r_bs_2_system_down_no_checks_and_zero_evasion() -> None:
    u = sysdown(0)
    r = run(encounter(u, enemy()), [order("aoi", major=attack("rifle", "oni1"))], [])
    assert r.one("refused", unit="aoi")["reason"] == "system_down"
    r = run(encounter(u, enemy()), [order("aoi", major=check("射撃", 1))], [])
    assert r.one("refused", unit="aoi")["reason"] == "system_down"
    r = run(encounter(u, enemy()), [order("oni1", major=attack("spit", "aoi"))], [1, 6, 6])
    a = r.one("attack", attacker="oni1")
    assert a["evade_successes"] == 0 and a["evade_dice"] == [] and a["evade_check"] is None
    assert a["attack_check"] == "r1-c1" and a["hit"] is True and a["damage"] == 5
    assert r.dice_left == 0


def test_r_bs_2_system_down_evader_leaves_no_gap_in_check_ids() -> None:
    u = sysdown(0)
    orders = [order("oni1", major=attack("spit", "aoi")), order("oni2", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy("oni1"), enemy("oni2")), orders, [6, 6, 6, 6, 6, 6])
    assert [a["attack_check"] for a in r.ev("attack")] == ["r1-c1", "r1-c2"]


def test_r_bs_1_recover_needs_6_minus_elapsed() -> None:
    recover = {"type": "recover", "status": "system_down"}
    r = run(encounter(sysdown(2), enemy()), [order("aoi", major=recover)], [1, 1])
    c = r.one("check", unit="aoi")
    assert c["skill"] == "情報処理" and c["need"] == 4 and c["dice"] == [1, 1] and c["success"] is False
    assert c["check"] == "r1-c1"
    assert r.status("aoi", "system_down") == {"id": "system_down", "elapsed": 3}
    r = run(encounter(sysdown(5), enemy()), [order("aoi", major=recover)], [1, 6])
    c = r.one("check", unit="aoi")
    assert c["need"] == 1 and c["success"] is True
    assert r.ev("status", unit="aoi", id="system_down", change="ended")
    assert r.status("aoi", "system_down") is None


def test_r_bs_1_recover_at_zero_or_less_succeeds_without_a_roll() -> None:
    recover = {"type": "recover", "status": "system_down"}
    for elapsed in (6, 7):
        r = run(encounter(sysdown(elapsed), enemy()), [order("aoi", major=recover)], [])
        c = r.one("check", unit="aoi")
        assert c["check"] is None and c["dice"] == [] and c["success"] is True
        assert r.status("aoi", "system_down") is None
        assert r.dice_used == 0


def test_r_bs_1_elapsed_counts_cleanups() -> None:
    r = run(encounter(sysdown(0), enemy()), [], [], rounds=2)
    assert r.status("aoi", "system_down") == {"id": "system_down", "elapsed": 2}


def test_r_bs_1_recover_after_cleanups_needs_less() -> None:
    """Applied with elapsed 0; two rounds later (elapsed 2) a recover needs 4."""
    recover = {"type": "recover", "status": "system_down"}
    r = run(encounter(sysdown(0), enemy()), [order("aoi", major=recover)], [6, 6] * 3, rounds=3)
    assert [c["need"] for c in r.ev("check", unit="aoi")] == [6, 5, 4]


def test_r_bs_4_status_not_in_table_ends_at_next_cleanup() -> None:
    r = run(encounter(pc(statuses=[{"id": "blind"}]), enemy()), [], [])
    ended = r.one("status", unit="aoi", id="blind", change="ended")
    assert ended["round"] == 1 and r.index("cleanup", round=1) < r.events.index(ended)
    assert r.status("aoi", "blind") is None


def test_r_bs_4_table_statuses_without_ending_persist() -> None:
    u = pc(statuses=[{"id": "leg_damage"}, {"id": "arm_damage"}])
    r = run(encounter(u, enemy()), [], [], rounds=3)
    assert sorted(r.status_ids("aoi")) == ["arm_damage", "leg_damage"]


def test_r_bs_4_status_outside_table_with_duration_lasts_it() -> None:
    r = run(encounter(pc(statuses=[{"id": "blind", "rounds_left": 2}]), enemy()), [], [])
    assert r.ev("status", unit="aoi", id="blind", change="ended") == []
    assert r.status("aoi", "blind") == {"id": "blind", "rounds_left": 1}


def test_r_fix_6_a_status_listed_twice_is_bad_input() -> None:
    from pool_builders import problems

    u = pc(statuses=[{"id": "stun", "rounds_left": 2}, {"id": "stun", "rounds_left": 3}])
    assert any("statuses" in p.path for p in problems(encounter(u, enemy())))
