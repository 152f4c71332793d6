"""Behaviour checks (§2-5, §12.1): the trait and DC, weakness accidents, specials and fumbles, support and
re-challenges, for ship girls and for abyssals."""

from __future__ import annotations

import pytest
from kc_builders import encounter, enemy, free_checks, of, pc, run, state_unit

from pbp.engine.kancolle.core import emotion_entry


def one(res_events: list[dict], kind: str = "check") -> dict:
    (found,) = [e for e in res_events if e["type"] == kind]
    return found


@pytest.mark.rule("K-CHECK-1")
def test_k_check_1_a_held_trait_checks_at_5_a_missing_one_through_the_nearest() -> None:
    enc = free_checks([pc("a")], {"unit": "a", "designated": "砲撃"}, {"unit": "a", "designated": "規律"})
    held, substituted = of(run(enc, dice=[3, 3, 3, 3]), "check")
    assert (held["used"]["trait"], held["dc"], held["success"]) == ("砲撃", 5, True)
    # 規律 (5,5) from 砲撃 (6,7) with gap 5 blacked: 2 rows + 1 category + 0 gaps = 3 -> DC 8; 6 < 8 fails.
    assert (substituted["used"]["trait"], substituted["distance"], substituted["dc"]) == ("砲撃", 3, 8)
    assert substituted["success"] is False


@pytest.mark.rule("K-CHECK-14")
def test_k_check_14_no_designated_trait_is_dc_5_with_no_trait_and_no_accident() -> None:
    weak = pc("a", traits=[{"name": "元気", "kind": "weakness"}])
    ev = one(run(free_checks([weak], {"unit": "a", "designated": None}), dice=[2, 3]).events)
    assert (ev["dc"], ev["used"], ev["distance"], ev["success"]) == (5, {"trait": None, "weakness": False}, None, True)


@pytest.mark.rule("K-CHECK-15")
def test_k_check_15_a_special_ends_the_check_and_the_check_reads_its_last_roll() -> None:
    enc = free_checks([pc("a")], {"unit": "a", "designated": "規律"})
    orders = [{"unit": "a", "rechallenge": {"max": 3, "keep": 0}}]
    ev = one(run(enc, orders, [1, 2, 1, 6, 6, 3]).events)
    assert [t["natural"] for t in ev["tries"]] == [3, 12]
    assert (ev["special"], ev["fumble"], ev["success"]) == (True, False, True)
    assert ev["tries"][1]["special_die"] == 3


@pytest.mark.rule("K-RETRY-3")
def test_k_retry_3_no_rechallenge_after_a_fumble_nor_at_0_ap() -> None:
    enc = free_checks([pc("a")], {"unit": "a", "designated": "規律"})
    fumbled = one(run(enc, [{"unit": "a", "rechallenge": {"max": 3}}], [1, 1, 1]).events)
    assert len(fumbled["tries"]) == 1 and fumbled["fumble"]
    broke = free_checks([pc("a", ap=1)], {"unit": "a", "designated": "規律"})
    res = run(broke, [{"unit": "a", "rechallenge": {"max": 3, "keep": 0}}], [2, 3, 1, 2, 3])
    ev = one(res.events)
    assert len(ev["tries"]) == 2 and ev["tries"][0]["ap_after"] == 0 and "cost_die" not in ev["tries"][1]
    assert state_unit(res, "a")["ap"] == 0


@pytest.mark.rule("K-RETRY-5")
def test_k_retry_5_a_weakness_rolls_its_accident_again_before_each_roll() -> None:
    weak = pc("a", traits=[{"name": "元気", "kind": "weakness"}])
    enc = free_checks([weak], {"unit": "a", "designated": "元気"})
    res = run(enc, [{"unit": "a", "rechallenge": {"max": 1}}], [1, 1, 2, 1, 1, 3, 3])
    assert len(of(res, "accident")) == 2
    ev = one(res.events)
    assert ev["dc"] == 5 and [t["dice"] for t in ev["tries"]] == [[1, 2], [3, 3]] and ev["success"]


@pytest.mark.rule("K-RETRY-7")
def test_k_retry_7_an_enemy_rechallenges_only_by_the_gms_order() -> None:
    enc = free_checks([pc("a"), {**pc("e"), "side": "enemy"}], {"unit": "e"})
    assert len(one(run(enc, dice=[1, 2]).events)["tries"]) == 1
    ordered = one(run(enc, [{"unit": "e", "rechallenge": {"max": 1}}], [1, 2, 1, 3, 3]).events)
    assert len(ordered["tries"]) == 2 and ordered["success"]


@pytest.mark.rule("K-ACC-3")
def test_k_acc_3_the_flip_of_entry_2_stays_on_the_sheet() -> None:
    weak = pc("a", traits=[{"name": "元気", "kind": "weakness"}])
    enc = free_checks([weak], {"unit": "a", "designated": "元気"}, {"unit": "a", "designated": "元気"})
    res = run(enc, dice=[2, 3, 3, 3, 3])
    assert [a["effects"] for a in of(res, "accident")] == [{"flip": {"元気": "merit"}}]  # no accident the 2nd time
    assert state_unit(res, "a")["traits"] == [{"name": "元気", "kind": "merit"}]


@pytest.mark.rule("K-ACC-5")
@pytest.mark.rule("K-DMG-6")
def test_k_acc_5_outside_a_battle_entry_5_is_one_step_to_the_unit_alone_with_no_roll() -> None:
    weak = pc("a", traits=[{"name": "元気", "kind": "weakness"}], steps=1)
    enc = free_checks([weak, pc("b")], {"unit": "a", "designated": "元気"})
    res = run(enc, dice=[5, 3, 3])
    assert one(res.events, "accident")["effects"] == {"steps": [{"unit": "a", "n": 1}]}
    assert not of(res, "damage")
    assert (state_unit(res, "a")["steps"], state_unit(res, "b")["steps"]) == (2, 0)


@pytest.mark.rule("K-ACC-6")
@pytest.mark.rule("K-FIX-5")
@pytest.mark.rule("K-SHEET-13")
def test_k_acc_6_an_enemy_checks_at_dc_5_with_no_trait_no_accident_and_its_special_ap() -> None:
    foe = {**pc("e", ap=8), "side": "enemy"}
    enc = free_checks([pc("a"), foe], {"unit": "e", "designated": "規律"}, {"unit": "e", "designated": "規律"})
    res = run(enc, dice=[1, 1, 6, 6, 2])
    fumble, special = of(res, "check")
    assert (fumble["dc"], fumble["used"]["trait"], fumble["fumble"]) == (5, None, True)
    assert not of(res, "accident")
    assert special["special"] and state_unit(res, "e")["ap"] == 10


@pytest.mark.rule("K-SUP-5")
def test_k_sup_5_a_fumble_is_never_supported() -> None:
    fan = pc("b", emotions={"a": {"value": 5, "attribute": None, "box": "clear"}})
    enc = free_checks([pc("a"), fan], {"unit": "a", "designated": "砲撃"})
    res = run(enc, [{"unit": "b", "support": [{"for": "a", "kind": "check"}]}], [1, 1, 1])
    assert not of(res, "support") and one(res.events)["success"] is False
    assert emotion_entry(state_unit(res, "b"), state_unit(res, "a"))["box"] == "clear"


@pytest.mark.rule("K-FIX-3")
def test_k_fix_3_support_comes_before_a_rechallenge() -> None:
    fan = pc("b", emotions={"a": {"value": 3, "attribute": None, "box": "clear"}})
    enc = free_checks([pc("a"), fan], {"unit": "a", "designated": "規律"})
    orders = [{"unit": "a", "rechallenge": {"max": 2}}, {"unit": "b", "support": [{"for": "a", "kind": "check"}]}]
    res = run(enc, orders, [2, 3])
    ev = one(res.events)
    assert (
        ev["success"] and ev["tries"][0]["support"] == [{"from": "b", "value": 3}] and "cost_die" not in ev["tries"][0]
    )


@pytest.mark.rule("K-FIX-10")
def test_k_fix_10_unable_to_act_is_read_again_after_a_weakness_accident() -> None:
    weak = pc("a", ap=2, traits=[{"name": "元気", "kind": "weakness"}])
    res = run(free_checks([weak], {"unit": "a", "designated": "元気"}), dice=[6, 3])
    ev = one(res.events)
    assert ev["id"] == "r1-c1" and ev["tries"] == [{"auto_fail": "ap0"}] and ev["auto_fail"] == "ap0"
    assert [e["type"] for e in res.events] == ["accident", "ap", "check", "unable_to_act"]


@pytest.mark.rule("K-SHEET-4")
@pytest.mark.rule("K-FIX-16")
def test_k_sheet_4_ap_stays_within_0_and_its_maximum_and_an_unchanged_ap_says_nothing() -> None:
    weak = pc("a", ap=3, traits=[{"name": "元気", "kind": "weakness"}])
    drained = run(free_checks([weak], {"unit": "a", "designated": "元気"}), dice=[6, 6])
    assert [(e["before"], e["after"]) for e in of(drained, "ap")] == [(3, 0)]
    full = run(free_checks([pc("a")], {"unit": "a", "designated": "砲撃"}), dice=[6, 6, 4])
    assert one(full.events)["special"] and not of(full, "ap") and state_unit(full, "a")["ap"] == 10


@pytest.mark.rule("K-PLAY-2")
def test_k_play_2_without_a_policy_a_failed_check_stays_failed() -> None:
    enc = free_checks([pc("a")], {"unit": "a", "designated": "規律"})
    assert len(one(run(enc, dice=[2, 3]).events)["tries"]) == 1
    retried = one(run(enc, [{"unit": "a", "rechallenge": {"max": 1}}], [2, 3, 1, 4, 4]).events)
    assert len(retried["tries"]) == 2 and retried["success"]


@pytest.mark.rule("K-FIX-1")
def test_k_fix_1_a_retreat_check_is_a_behaviour_check_with_its_weakness_accident() -> None:
    timid = pc("a", traits=[{"name": "退却", "kind": "weakness"}])
    res = run(encounter([timid, enemy("e")]), [{"unit": "a", "retreat": True}], [1, 4, 4])
    (accident,) = of(res, "accident")
    (check,) = of(res, "check")
    assert (accident["check"], check["kind"], check["used"]) == (
        "r1-c1",
        "retreat",
        {"trait": "退却", "weakness": True},
    )
    assert of(res, "battle_end")[0]["outcome"] == "defeat"
