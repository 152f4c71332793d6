"""The GM judges the プレイング (issue 31, item 7): a プレイングボーナス per entry within the campaign's cap, and ad-hoc
checks rolled from the round's seed after its other checks; both are inputs the bundle carries and verify re-applies."""

from __future__ import annotations

import copy
import json

import pytest

from pbp.engine import SeededDice, canonical, find_ruleset
from pbp.engine.pool.adhoc import roll_adhoc
from pbp.engine.verify import verify_bundle
from pbp.errors import Forbidden, InvalidState, UserError
from pbp.models import AuditLog, Resolution
from pbp.services import campaign_settings, entries, judging, publishing, rounds
from pbp.services.characters import unit_id
from tests.lifecycle.test_publishing import _rival_gm


def _enter(world, rid: int, who: int = 0) -> None:
    entries.save_entry(
        rid, world.characters[who], user_id=world.players[who], order=world.order("kagachi1"), prose="撃つ。",
        clock=world.clock,
    )  # fmt: skip


def _bonus(world, rid: int, dice: int = 1, successes: int = 0, reason: str = "見事な連携の描写", who: int = 0) -> None:
    judging.set_bonus(rid, world.characters[who], dice=dice, successes=successes, reason=reason, actor_id=world.gm,
                      clock=world.clock)  # fmt: skip


def _adhoc(world, rid: int, skill: str = "情報処理", need: int = 1, who: int = 0):
    return judging.add_adhoc_check(
        rid, world.characters[who], skill=skill, need=need, reason="無線を傍受する工夫",
        success_text="敵の通信を拾った", failure_text="雑音しか聞こえない", actor_id=world.gm, clock=world.clock,
    )  # fmt: skip


def _resolve(world, rid: int) -> Resolution:
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    return Resolution.get(Resolution.round == rid)


def _pc_checks(res: Resolution, uid: str) -> list[dict]:
    return [e for e in res.events if e.get("type") == "attack" and e["attacker"] == uid]


def test_a_bonus_within_the_cap_adds_to_the_pcs_checks_and_verify_reproduces_it(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    _bonus(world, rid, dice=1, successes=1)
    res = _resolve(world, rid)
    uid = unit_id(world.characters[0])
    bonus = next(a for a in res.gm_actions if a["kind"] == "bonus")
    assert bonus == {"kind": "bonus", "unit": uid, "dice": 1, "successes": 1, "reason": "見事な連携の描写"}
    attack = _pc_checks(res, uid)[0]
    assert ["playing_bonus", 1] in attack["attack_detail"]["mods"]
    assert ["playing_bonus", 1] in attack["attack_detail"]["bonus"]
    assert not any(m.get("source") == "playing_bonus" for u in res.state["units"] for m in u.get("modifiers") or [])
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert publishing.verify_round(rid) is None
    bundle = json.loads(canonical.dumps(publishing.round_bundle(rid)))
    assert verify_bundle(bundle) is None
    tampered = copy.deepcopy(bundle)
    next(a for a in tampered["gm_actions"] if a["kind"] == "bonus")["dice"] = 2
    assert verify_bundle(tampered) is not None  # the stored encounter no longer follows from the start
    line = AuditLog.get(AuditLog.action == "round.bonus")
    assert line.actor_id == world.gm and line.detail["reason"] == "見事な連携の描写"


def test_a_bonus_over_the_cap_or_without_a_reason_is_refused_and_nothing_is_stored(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    with pytest.raises(UserError) as refused:
        _bonus(world, rid, dice=2)
    assert refused.value.field == "dice" and "0 to 1" in str(refused.value)
    with pytest.raises(UserError) as refused:
        _bonus(world, rid, dice=1, reason="  ")
    assert refused.value.field == "reason"
    with pytest.raises(UserError):  # no entry: nothing to reward
        _bonus(world, rid, who=1)
    assert judging.judging_of(rid, {"units": []}, "open").bonuses == {}
    campaign_settings.change(world.campaign, actor_id=world.gm, bonus_dice_max=3, bonus_successes_max=0)
    _bonus(world, rid, dice=3)
    with pytest.raises(UserError) as refused:
        _bonus(world, rid, dice=0, successes=1)
    assert refused.value.field == "successes"
    with pytest.raises(UserError):
        campaign_settings.change(world.campaign, actor_id=world.gm, bonus_dice_max=6)


def test_only_the_campaigns_gm_judges_and_never_a_published_round(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    with pytest.raises(Forbidden):
        judging.set_bonus(rid, world.characters[0], dice=1, successes=0, reason="r", actor_id=world.players[0],
                          clock=world.clock)  # fmt: skip
    with pytest.raises(Forbidden):
        judging.set_bonus(rid, world.characters[0], dice=1, successes=0, reason="r", actor_id=_rival_gm(world),
                          clock=world.clock)  # fmt: skip
    _resolve(world, rid)
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    with pytest.raises(InvalidState):
        _bonus(world, rid)
    with pytest.raises(InvalidState):
        _adhoc(world, rid)


def test_a_bonus_on_a_round_resolved_for_review_works_it_out_again(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    before = _resolve(world, rid)
    _bonus(world, rid, dice=0, successes=1)
    after = Resolution.get(Resolution.round == rid)
    assert after.version == before.version + 1
    uid = unit_id(world.characters[0])
    was, now = _pc_checks(before, uid)[0], _pc_checks(after, uid)[0]
    assert now["attack_dice"] == was["attack_dice"]  # the same seed, the same dice
    assert now["attack_successes"] == was["attack_successes"] + 1
    _bonus(world, rid, dice=0, successes=0, reason="")  # taken away: as it was
    assert _pc_checks(Resolution.get(Resolution.round == rid), uid)[0] == was
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert publishing.verify_round(rid) is None


def test_an_adhoc_check_rolls_after_the_rounds_checks_from_its_seed_and_verify_rolls_it_again(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    _adhoc(world, rid, need=2)
    res = _resolve(world, rid)
    rolled = [e for e in res.events if e.get("purpose") == "adhoc"]
    assert len(rolled) == 1 and res.events[-1] == rolled[0]
    ids = [int(e[k].split("-c")[1]) for e in res.events for k in ("check", "attack_check", "evade_check") if e.get(k)]
    assert int(rolled[0]["check"].split("-c")[1]) == max(ids)  # the round's last check id
    assert rolled[0]["need"] == 2 and rolled[0]["label"] == "無線を傍受する工夫"
    assert res.adhoc_checks[0]["success_text"] == "敵の通信を拾った"
    # deterministic: the same round from the same seed rolls the same dice, and the stream continues the round's
    again = find_ruleset("pool").resolve(res.encounter, res.orders, SeededDice(world_seed(rid)), rounds=1)
    dice = SeededDice(world_seed(rid))
    first = find_ruleset("pool").resolve(res.encounter, res.orders, dice, rounds=1)
    assert first.events == again.events
    redone = roll_adhoc(res.encounter, first, res.adhoc_checks, dice, [])
    assert redone.events[-1] == rolled[0]
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    bundle = json.loads(canonical.dumps(publishing.round_bundle(rid)))
    assert bundle["adhoc_checks"] == res.adhoc_checks and verify_bundle(bundle) is None
    tampered = copy.deepcopy(bundle)
    tampered["adhoc_checks"][0]["need"] = 5
    assert verify_bundle(tampered) is not None


def world_seed(rid: int) -> str:
    from pbp.models import Round

    return Round.get_by_id(rid).seed


def test_an_adhoc_check_names_a_skill_of_the_pc_and_a_reason(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    with pytest.raises(UserError) as refused:
        _adhoc(world, rid, skill="料理")
    assert "料理" in str(refused.value)
    with pytest.raises(UserError) as refused:
        judging.add_adhoc_check(rid, world.characters[0], skill="情報処理", need=1, reason="", actor_id=world.gm,
                                clock=world.clock)  # fmt: skip
    assert refused.value.field == "reason"
    with pytest.raises(UserError) as refused:
        _adhoc(world, rid, need=11)
    assert refused.value.field == "need"
    row = _adhoc(world, rid)
    judging.remove_adhoc_check(rid, row.id, actor_id=world.gm, clock=world.clock)
    assert not _resolve(world, rid).adhoc_checks


def test_the_story_and_the_dice_log_tell_the_adhoc_check_and_the_bonus_in_words(world) -> None:
    from pbp.models import Report

    rid = world.new_round()
    _enter(world, rid)
    _bonus(world, rid, dice=1, successes=0)
    _adhoc(world, rid, need=0)  # needs nothing: a success, whatever the dice
    _resolve(world, rid)
    draft = Report.get(Report.round == rid).draft_md
    assert "敵の通信を拾った" in draft and "雑音しか聞こえない" not in draft
    assert "無線を傍受する工夫" not in draft and "見事な連携の描写" not in draft  # reasons go with the dice log


def test_the_gm_actions_form_records_no_bonus_past_the_cap(world) -> None:
    from pbp.services import shaping

    rid = world.new_round()
    _enter(world, rid)
    with pytest.raises(UserError) as refused:
        shaping.record_action(rid, "bonus", {"unit": unit_id(world.characters[0]), "dice": 5, "successes": 5},
                              reason="too generous", actor_id=world.gm, clock=world.clock)  # fmt: skip
    assert refused.value.field == "kind"
    _bonus(world, rid)
    assert [a["kind"] for a in rounds.gm_actions_of(rid)] == ["bonus"]
