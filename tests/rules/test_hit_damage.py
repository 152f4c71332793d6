"""Section 2.3: hit and damage (R-HIT-1..3, R-DMG-1..3) and R-FIX-5 (a weapon's named gauge)."""

from __future__ import annotations

from pool_builders import attack, encounter, enemy, gauge, on_foot, order, pc, rifle, run, spit, weapon


def shoot(dice: list[int], *, u=None, e=None, **enc_kw):
    r = run(encounter(u or pc(), e or enemy(), **enc_kw), [order("aoi", major=attack("rifle", "oni1"))], dice)
    return r, r.one("attack", attacker="aoi")


def test_r_hit_1_attack_uses_weapon_skill_and_evasion_uses_body() -> None:
    r, a = shoot([1, 3, 4, 6, 2, 3])  # 4 dice of 感覚 at 射撃 3; 2 dice of 肉体 at 回避 2
    assert a["skill"] == "射撃"
    assert a["attack_dice"] == [1, 3, 4, 6] and a["attack_successes"] == 2
    assert a["evade_dice"] == [2, 3] and a["evade_successes"] == 1
    assert r.dice_left == 0


def test_r_hit_1_melee_weapon_uses_its_own_skill() -> None:
    u, e = pc(engagement="e1"), enemy(position=[0, 0], engagement="e1")
    r = run(encounter(u, e), [order("aoi", major=attack("blade", "oni1"))], [2, 3, 3, 6, 6])
    a = r.one("attack", attacker="aoi")
    assert a["skill"] == "白兵"
    assert a["attack_dice"] == [2, 3, 3]  # 肉体 3 dice at 白兵 2
    assert a["attack_successes"] == 1


def test_r_hit_1_evasion_parent_stat_follows_mapping() -> None:
    e = enemy(skill_stats_update={"回避": "感覚"})  # 3 dice instead of 2
    r, a = shoot([6, 6, 6, 6, 1, 1, 1], e=e)
    assert a["evade_dice"] == [1, 1, 1] and a["evade_successes"] == 3
    assert r.dice_left == 0


def test_r_hit_2_more_successes_hit() -> None:
    _, a = shoot([1, 1, 6, 6, 1, 6])
    assert (a["attack_successes"], a["evade_successes"], a["hit"]) == (2, 1, True)


def test_r_hit_2_tie_favours_evader() -> None:
    r, a = shoot([1, 1, 6, 6, 1, 2])
    assert (a["attack_successes"], a["evade_successes"], a["hit"]) == (2, 2, False)
    assert r.ev("damage") == []
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [0] * 5


def test_r_hit_2_zero_against_zero_misses() -> None:
    _, a = shoot([6, 6, 6, 6, 6, 6])
    assert a["hit"] is False


def test_r_hit_3_area_weapon_one_roll_evasions_in_named_order() -> None:
    missiles = weapon("missiles", damage=8, ammo=4, rng=(0, 1000), slot="torso", targets=2)
    u = pc(vehicle_update={"weapons": [missiles]})
    e1, e2 = enemy("oni1"), enemy("oni2", position=[400, 0])
    orders = [order("aoi", major=attack("missiles", "oni2", "oni1"))]
    # one attack roll (4 dice: 3 successes), oni2's evasion (1), oni1's evasion (0)
    r = run(encounter(u, e1, e2), orders, [1, 1, 1, 6, 1, 6, 6, 6])
    attacks = r.ev("attack")
    assert [a["target"] for a in attacks] == ["oni2", "oni1"]
    assert attacks[0]["attack_dice"] == attacks[1]["attack_dice"] == [1, 1, 1, 6]
    assert attacks[0]["attack_check"] == attacks[1]["attack_check"] == "r1-c1"
    assert [a["evade_check"] for a in attacks] == ["r1-c2", "r1-c3"]
    assert attacks[0]["evade_dice"] == [1, 6] and attacks[1]["evade_dice"] == [6, 6]
    assert [a["damage"] for a in attacks] == [10, 11]
    # per target: its attack event, then its damage event
    i_a2, i_d2 = r.index("attack", target="oni2"), r.index("damage", unit="oni2")
    i_a1, i_d1 = r.index("attack", target="oni1"), r.index("damage", unit="oni1")
    assert i_a2 < i_d2 < i_a1 < i_d1
    assert r.unit("aoi")["vehicle"]["weapons"][0]["ammo"] == 3  # one round for the whole attack
    assert r.dice_left == 0


def test_r_hit_3_single_target_attacks_in_named_order_for_evaders() -> None:
    """A plain weapon with one target: the attacker's pool then the target's."""
    r, a = shoot([1, 2, 3, 4, 5, 6])
    assert a["attack_dice"] == [1, 2, 3, 4] and a["evade_dice"] == [5, 6]


def test_r_dmg_1_fixed_damage_plus_margin() -> None:
    r, a = shoot([1, 1, 1, 1, 6, 6])
    assert a["damage"] == 8 + 4
    d = r.one("damage", unit="oni1")
    assert d["amount"] == 12 and d["gauge"] == "damage"
    assert r.unit("oni1")["vehicle"]["damage"]["taken"] == [5, 5, 2, 0, 0]


def test_r_dmg_1_every_target_hit_takes_its_own_margin() -> None:
    missiles = weapon("missiles", damage=5, ammo=4, rng=(0, 1000), targets=3)
    u = pc(vehicle_update={"weapons": [missiles]})
    units = [u, enemy("oni1"), enemy("oni2"), enemy("oni3")]
    # attack 2 successes; oni1 0 (hit, +2), oni2 2 (tie: miss), oni3 1 (hit, +1)
    r = run(
        encounter(*units),
        [order("aoi", major=attack("missiles", "oni1", "oni2", "oni3"))],
        [1, 1, 6, 6, 6, 6, 1, 1, 1, 6],
    )
    hits = {a["target"]: (a["hit"], a["damage"] if a["hit"] else None) for a in r.ev("attack")}
    assert hits == {"oni1": (True, 7), "oni2": (False, None), "oni3": (True, 6)}
    assert {d["unit"]: d["amount"] for d in r.ev("damage")} == {"oni1": 7, "oni3": 6}


def test_r_dmg_2_target_chooses_injury() -> None:
    orders = [order("aoi", damage_to="injury"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(pc(), enemy()), orders, [1, 1, 6, 6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 6
    assert r.unit("aoi")["injury"]["taken"] == [6, 0, 0, 0, 0]
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [0] * 5


def test_r_dmg_2_riding_default_is_damage_gauge() -> None:
    r = run(encounter(pc(), enemy()), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 6, 6, 6, 6])
    assert r.one("damage", unit="aoi")["gauge"] == "damage"
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [6, 0, 0, 0, 0]


def test_r_dmg_2_on_foot_only_injury() -> None:
    u = on_foot(pc())
    orders = [order("aoi", damage_to="damage"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(u, enemy()), orders, [1, 1, 6, 6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 6
    assert r.unit("aoi")["injury"]["taken"] == [6, 0, 0, 0, 0]


def test_r_dmg_3_damage_weapon_against_unit_on_foot_plus_6() -> None:
    e = enemy(vehicle_update={"weapons": [spit(gauge_="damage")]})
    r = run(encounter(on_foot(pc()), e), [order("oni1", major=attack("spit", "aoi"))], [1, 1, 6, 6, 6, 6])
    a = r.one("attack", attacker="oni1")
    assert a["damage"] == 6  # before R-DMG-3
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 12 and d["redirected"] is True
    assert r.unit("aoi")["injury"]["taken"] == [10, 2, 0, 0, 0]


def test_r_dmg_3_named_gauge_fully_checked_plus_6_into_the_other() -> None:
    # 感覚 6: six attack successes beat the evader's 0 + 5 (破壊 gives +5 successes while riding)
    e = enemy(stats_update={"感覚": 6}, vehicle_update={"weapons": [spit(gauge_="damage")]})
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = run(encounter(u, e), [order("oni1", major=attack("spit", "aoi"))], [1] * 6 + [6, 6, 6])
    a = r.one("attack", attacker="oni1")
    assert (a["attack_successes"], a["evade_successes"], a["damage"]) == (6, 5, 5)
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 11 and d["redirected"] is True
    assert d["taken"] == [10, 1, 0, 0, 0]  # (the 破壊 at cleanup then checks the pilot's 死亡 stage)


def test_r_dmg_3_injury_weapon_against_full_damage_gauge_is_not_redirected() -> None:
    e = enemy(stats_update={"感覚": 6}, vehicle_update={"weapons": [spit(gauge_="injury")]})
    u = pc(vehicle_update={"damage": gauge([10] * 5, [10] * 5)})
    r = run(encounter(u, e), [order("oni1", major=attack("spit", "aoi"))], [1] * 6 + [6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 5 and not d.get("redirected")


def test_r_fix_5_named_gauge_overrides_target_choice() -> None:
    e = enemy(vehicle_update={"weapons": [spit(gauge_="injury")]})
    orders = [order("aoi", damage_to="damage"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(pc(), e), orders, [1, 1, 6, 6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "injury" and d["amount"] == 6 and not d.get("redirected")
    assert r.unit("aoi")["injury"]["taken"] == [6, 0, 0, 0, 0]
    assert r.unit("aoi")["vehicle"]["damage"]["taken"] == [0] * 5


def test_r_fix_5_damage_weapon_against_rider_choosing_injury() -> None:
    e = enemy(vehicle_update={"weapons": [spit(gauge_="damage")]})
    orders = [order("aoi", damage_to="injury"), order("oni1", major=attack("spit", "aoi"))]
    r = run(encounter(pc(), e), orders, [1, 1, 6, 6, 6, 6])
    d = r.one("damage", unit="aoi")
    assert d["gauge"] == "damage" and d["amount"] == 6 and not d.get("redirected")
    assert r.unit("aoi")["injury"]["taken"] == [0] * 5


def test_r_fix_10_redirect_bonus_is_six_without_a_pack() -> None:
    """The +6 is a rule constant (R-FIX-10): it holds with no campaign pack at all."""
    e = enemy(vehicle_update={"weapons": [spit(gauge_="damage", damage=1)]})
    r = run(encounter(on_foot(pc()), e), [order("oni1", major=attack("spit", "aoi"))], [1, 6, 6, 6, 6, 6])
    assert r.one("damage", unit="aoi")["amount"] == 1 + 1 + 6


def test_r_hit_1_rifle_range_reference() -> None:
    """The default rifle reaches the default enemy at 500 m (a sanity check of the builders)."""
    u = pc(vehicle_update={"weapons": [rifle()]})
    r, a = shoot([6] * 6, u=u)
    assert a["target"] == "oni1" and r.dice_left == 0
