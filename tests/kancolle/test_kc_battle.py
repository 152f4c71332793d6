"""The fleet battle (§7, §12.2-5): targets, shelling, torpedoes, the night, abyssals, removal."""

from __future__ import annotations

import pytest
from kc_builders import encounter, enemy, of, pc, piece, run, state_unit

GUN = piece("g")
TOUGH = {"装甲": 50}


def shell(uid: str, *targets: str, **fields: object) -> dict:
    return {"unit": uid, "shelling": {"targets": list(targets), **fields}}


@pytest.mark.rule("K-PLAY-5")
@pytest.mark.rule("K-FIX-9")
def test_k_play_5_the_first_listed_target_still_in_the_battle_is_attacked() -> None:
    gone = enemy("e1", removed=True, steps=4)
    enc = encounter([pc("a", equipment=[GUN]), gone, enemy("e2")], rnd=2)
    res = run(enc, [shell("a", "e1", "e2")], [3, 3, 1, 2, 1])
    (attack,) = of(res, "attack")
    assert (attack["target"], attack["hit"]) == ("e2", True)


@pytest.mark.rule("K-PLAY-5")
def test_k_play_5_a_pc_order_without_targets_is_refused_at_its_turn() -> None:
    enc = encounter([pc("a", equipment=[GUN]), enemy("e")], rnd=2)
    res = run(enc, [{"unit": "a", "shelling": {}}])
    assert [(e["unit"], e["action"], e["reason"]) for e in of(res, "refused")] == [("a", "shelling", "target_gone")]
    assert not of(res, "check")


@pytest.mark.rule("K-FLEET-3")
def test_k_fleet_3_a_target_is_a_unit_of_the_other_side() -> None:
    from pbp.engine.errors import BadInput

    enc = encounter([pc("a", equipment=[GUN]), pc("b"), enemy("e")], rnd=2)
    with pytest.raises(BadInput) as bad:
        run(enc, [shell("a", "b")])
    assert [(p.file, p.path) for p in bad.value.problems] == [("orders", "orders[0].shelling.targets[0]")]


@pytest.mark.rule("K-FLEET-5")
@pytest.mark.rule("K-FIX-11")
def test_k_fleet_5_a_torpedo_piece_shells_as_a_short_piece_then_fires_again_in_the_torpedo_phase() -> None:
    torp = piece("t", "torpedo", "短", firepower=2, torpedo=3)
    enc = encounter([pc("a", equipment=[torp]), enemy("e", ratings=TOUGH)], rnd=2)
    orders = [{**shell("a", "e", chain=["t"]), "torpedo": [{"piece": "t", "targets": ["e"]}]}]
    res = run(enc, orders, [3, 3, 1, 2, 1, 1, 1, 4, 4, 1, 1, 1], rounds=2)
    (attack,) = of(res, "attack")
    assert attack["pass"] == "短" and attack["pool"]["pieces"] == 2
    (torpedo,) = of(res, "torpedo")
    assert (torpedo["round"], torpedo["piece"], torpedo["hit"], torpedo["pool"]["value"]) == (3, "t", True, 3)


@pytest.mark.rule("K-SHEET-3")
@pytest.mark.rule("K-DMG-1")
def test_k_sheet_3_hit_adds_meichuu_evasion_adds_kaihi_and_firepower_is_dice() -> None:
    gunner = pc("a", equipment=[piece("g", firepower=1)], ratings={"命中": 2, "火力": 2})
    enc = encounter([gunner, enemy("e", ratings={"回避": 1, "装甲": 50})], rnd=2)
    res = run(enc, [shell("a", "e")], [3, 4, 5, 5])
    hit, evade = of(res, "check")
    assert (hit["tries"][0]["rating"], hit["tries"][0]["total"]) == (2, 9)
    assert (evade["tries"][0]["rating"], evade["tries"][0]["total"]) == (1, 11) and evade["success"]
    assert not of(res, "damage")
    res = run(enc, [shell("a", "e")], [3, 4, 1, 2, 2, 3, 4])
    (damage,) = of(res, "damage")
    assert damage["dice"] == [2, 3, 4] and damage["total"] == 9  # 火力 2 + the gun's 1


@pytest.mark.rule("K-TORP-4")
def test_k_torp_4_an_enemy_torpedo_check_uses_the_pieces_dc_else_5() -> None:
    torp = piece("t", "torpedo", "短", torpedo=1, dc=7)
    enc = encounter([pc("a"), enemy("e", equipment=[torp])], rnd=3)
    res = run(enc, dice=[1, 3, 3])
    (check,) = of(res, "check")
    assert (check["designated"], check["used"]["trait"], check["dc"], check["success"]) == ("魚雷", None, 7, False)
    plain = encounter([pc("a"), enemy("e", equipment=[{**torp, "dc": None}])], rnd=3)
    res = run(plain, dice=[1, 3, 3, 1])
    assert of(res, "check")[0]["dc"] == 5 and of(res, "torpedo")[0]["hit"]


@pytest.mark.rule("K-NIGHT-4")
@pytest.mark.rule("K-ABYSS-1")
def test_k_night_4_a_taiha_abyssal_still_attacks_at_night() -> None:
    enc = encounter([pc("a", position=2), enemy("e", steps=3, equipment=[GUN])], rnd=4)
    enc["battle"]["night"] = True
    res = run(enc, dice=[1, 3, 3, 3, 3])
    assert not of(res, "refused")
    (attack,) = of(res, "attack")
    assert (attack["attacker"], attack["phase"], attack["hit"]) == ("e", "night", False)
    assert of(res, "battle_end")[0]["outcome"] == "draw"


@pytest.mark.rule("K-DMG-5")
def test_k_dmg_5_a_chuuha_ship_girl_attacks_at_night_and_a_taiha_one_does_not() -> None:
    night = {"unit": "a", "night": {"targets": ["e"]}}
    for steps, refused in ((2, []), (3, ["taiha_night"])):
        enc = encounter([pc("a", steps=steps, equipment=[GUN]), enemy("e", ratings=TOUGH)], rnd=4)
        enc["battle"]["night"] = True
        res = run(enc, [night], [] if refused else [3, 3, 3, 3])
        assert [e["reason"] for e in of(res, "refused")] == refused


@pytest.mark.rule("K-OUT-2")
def test_k_out_2_an_abyssal_at_0_ap_leaves_at_the_round_start() -> None:
    res = run(encounter([pc("a"), enemy("e1", ap=0), enemy("e2")], rnd=2))
    assert [(e["type"], e["unit"]) for e in res.events[1:3]] == [("unable_to_act", "e1"), ("removed", "e1")]
    assert res.events[1]["reason"] == "ap0" and state_unit(res, "e1")["removed"]


@pytest.mark.rule("K-DMG-4")
def test_k_dmg_4_a_sunk_ship_is_unable_to_act_and_leaves_the_battle() -> None:
    enc = encounter([pc("a", equipment=[piece("g", firepower=3)]), enemy("e", ratings={"装甲": 1}), enemy("f")], rnd=2)
    res = run(enc, [shell("a", "e")], [3, 3, 1, 2, 6, 6, 6, 6])
    (damage,) = of(res, "damage")
    assert (damage["after"], damage["state"]) == (4, "轟沈")
    after = res.events[res.events.index(damage) + 1 :][:2]
    assert [(e["type"], e.get("reason")) for e in after] == [("unable_to_act", "sunk"), ("removed", None)]


@pytest.mark.rule("K-FIX-7")
def test_k_fix_7_night_rules_hold_for_the_whole_chain_and_the_evasion() -> None:
    chain = [piece("g1"), piece("g2")]
    enc = encounter([pc("a", equipment=chain), enemy("e", ratings=TOUGH)], rnd=4)
    enc["battle"]["night"] = True
    orders = [{"unit": "a", "night": {"targets": ["e"], "chain": ["g1", "g2"]}}]
    res = run(enc, orders, [3, 3, 4, 6, 1, 1, 2, 1, 1, 1, 1, 1])
    first, second, evade = of(res, "check")
    assert (first["special"], second["special"], second["tries"][0]["natural"]) == (False, True, 10)
    assert evade["fumble"] and not of(res, "accident")  # an abyssal's fumble is a plain failure
    (attack,) = of(res, "attack")
    assert attack["pool"]["pieces"] == 2 and attack["pool"]["special"] == 2 and attack["pool"]["total"] == 5


@pytest.mark.rule("K-FIX-8")
def test_k_fix_8_two_specials_in_a_chain_add_2_dice_once_and_each_recovers_ap() -> None:
    chain = [piece("g1"), piece("g2")]
    enc = encounter([pc("a", ap=5, equipment=chain), enemy("e", ratings=TOUGH)], rnd=2)
    res = run(enc, [shell("a", "e", chain=["g1", "g2"])], [6, 6, 1, 6, 6, 1, 1, 2, 1, 1, 1])
    (attack,) = of(res, "attack")
    assert attack["special"] and attack["pool"]["special"] == 2 and attack["pool"]["total"] == 3
    assert [e["after"] for e in of(res, "ap")] == [6, 7]


@pytest.mark.rule("K-FIX-12")
def test_k_fix_12_an_enemy_by_default_fires_one_piece_of_its_longest_range_after_one_mht_roll() -> None:
    guns = [piece("s", rng="短"), piece("l1", rng="長"), piece("l2", rng="長")]
    enc = encounter([pc("a", ratings=TOUGH), enemy("e", equipment=guns)], rnd=2)
    res = run(enc, dice=[1, 3, 3, 3, 3])
    assert len(of(res, "target_roll")) == 1
    (attack,) = of(res, "attack")
    assert (attack["chain"], attack["pass"]) == (["l1"], "長")


@pytest.mark.rule("K-FIX-14")
def test_k_fix_14_a_refusal_known_when_a_pass_begins_follows_its_phase_event() -> None:
    enc = encounter([pc("a", equipment=[GUN]), enemy("e")], rnd=2)
    res = run(enc, [shell("a", "e", **{"pass": "長"})])
    types = [(e["type"], e.get("pass")) for e in res.events]
    at = types.index(("phase", "長"))
    assert types[at + 1] == ("refused", "長") and res.events[at]["order"] == []
    assert res.events[at + 1]["reason"] == "out_of_range"
