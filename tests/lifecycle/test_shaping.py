"""The GM shapes the battle between rounds (issue 10, item 3): GM actions and enemy orders recorded for the next
round, applied when it resolves, published in its bundle, and re-applied by `pbp verify` (R-GM-1, R-GAUGE-7)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from pbp.engine import canonical
from pbp.engine.verify import verify_bundle
from pbp.errors import Forbidden, InvalidState, NotFound, Text, UserError
from pbp.models import AuditLog, Character, GmAction, GmOrder, Report, Resolution
from pbp.services import entries, publishing, rounds, shaping
from pbp.services.characters import unit_id
from tests.lifecycle.test_publishing import _rival_gm

KILL = [10, 10, 10, 10, 1]  # a full injury gauge of the demo's PCs: 死亡 checked


def _resolve_and_publish(world, rid: int) -> None:
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)


def _enter(world, rid: int, who: int = 0, target: str = "kagachi1") -> None:
    entries.save_entry(
        rid, world.characters[who], user_id=world.players[who], order=world.order(target), prose="撃つ。",
        clock=world.clock,
    )  # fmt: skip


def _act(world, rid: int, kind: str, reason: str = "the GM decides", **fields) -> GmAction:
    return shaping.record_action(rid, kind, fields, reason=reason, actor_id=world.gm, clock=world.clock)


@pytest.mark.rule("R-GM-1")
@pytest.mark.rule("R-GAUGE-7")
def test_verify_reproduces_a_round_with_enemy_orders_a_reinforcement_a_revive_and_an_override(world) -> None:
    pc2 = unit_id(world.characters[1])
    first = world.new_round()
    _enter(world, first)
    _act(world, first, "set_gauge", "struck down by the flood", unit=pc2, gauge="injury", taken=KILL)
    _resolve_and_publish(world, first)
    assert not Character.get_by_id(world.characters[1]).alive  # R-GAUGE-7: dead in the campaign

    second = world.new_round()
    _act(world, second, "revive", "the medics arrive", unit=pc2)
    assert Character.get_by_id(world.characters[1]).alive  # alive again: its player may enter
    _act(world, second, "add_unit", "the swarm grows", enemy="kagachi", id="kagachi9", position=[300, 20])
    shaping.save_enemy_order(
        second, "kagachi1", {"minor": None, "major": {"type": "full_move", "toward": [500, 0]}}, actor_id=world.gm,
        clock=world.clock,
    )  # fmt: skip
    _enter(world, second, 0, "kagachi9")
    _enter(world, second, 1)
    world.clock.advance(3600)
    assert rounds.resolve_round(second, clock=world.clock).status == "resolved"
    res = Resolution.get(Resolution.round == second)
    assert [a["kind"] for a in res.gm_actions] == ["revive", "add_unit"]
    assert res.gm_actions[0]["reason"] == "the medics arrive"
    assert any(u["id"] == "kagachi9" for u in res.encounter["units"])
    assert not any(u["id"] == "kagachi9" for u in res.start["units"])
    moved = next(e for e in res.events if e["type"] == "move" and e["unit"] == "kagachi1")
    assert moved["action"] == "major" and moved["kind"] == "full_move"  # the GM's order, not the default tactics
    check = next(e["attack_check"] for e in res.events if e["type"] == "attack" and e.get("attack_check"))
    rounds.override_check(second, check, 0, reason="the river floods the sights", actor_id=world.gm, clock=world.clock)
    publishing.publish_round(second, actor_id=world.gm, clock=world.clock)

    assert publishing.verify_round(first) is None
    assert publishing.verify_round(second) is None
    bundle = json.loads(canonical.dumps(publishing.round_bundle(second)))  # as `pbp export-round` writes it
    assert bundle["start"] == res.start and bundle["gm_actions"] == res.gm_actions
    assert verify_bundle(bundle) is None

    tampered = copy.deepcopy(bundle)
    tampered["gm_actions"][1]["unit"]["position"] = [310, 20]
    assert verify_bundle(tampered).startswith("encounter.units[")
    tampered = copy.deepcopy(bundle)
    del tampered["gm_actions"][0]  # the revive left out: the encounter no longer follows from the start
    assert verify_bundle(tampered) == "encounter.units[1].dead: stored False, start after the GM actions True"
    tampered["gm_actions"][0]["kind"] = "smite"
    assert verify_bundle(tampered).startswith("gm_actions: they do not apply to start: actions[0].kind:")
    # a database whose stored actions were changed no longer verifies either
    Resolution.update(gm_actions=tampered["gm_actions"]).where(Resolution.round == second).execute()
    assert publishing.verify_round(second) is not None


def test_a_round_without_gm_actions_keeps_the_bundle_as_before(world) -> None:
    rid = world.new_round()
    _enter(world, rid)
    _resolve_and_publish(world, rid)
    bundle = publishing.round_bundle(rid)
    assert "start" not in bundle and "gm_actions" not in bundle
    assert verify_bundle(bundle) is None


def test_the_draft_tells_the_gms_actions_without_their_reasons_and_publishes(world) -> None:
    """A reinforcement of the hidden 古カガチ and Hayachi's retreat: the generated story, Japanese and English, tells
    both in its first paragraph, before the fighting, in its own words and never the GM's reasons (the page shows
    those with the actions). The elder is on the field now, so naming it is no leak: the round publishes."""
    rid = world.new_round()
    _act(world, rid, "add_unit", "上流の群れが合流したため", enemy="kagachi_elder", id="elder1", position=[700, 0])
    _act(world, rid, "retreat", "プレイヤー都合により離脱", unit="hayachi1")
    _enter(world, rid)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    draft = Report.get(Report.round == rid).draft_md
    english = publishing.english_story(rid)[0]
    first, first_en = (next(p for p in s.split("\n\n") if not p.startswith("### ")) for s in (draft, english))
    assert {"古カガチ", "ハヤチ"} <= set(re.findall(r"古カガチ|ハヤチ", first))  # under the round's title
    assert {"Elder Kagachi", "Hayachi"} <= set(re.findall(r"Elder Kagachi|Hayachi", first_en))
    for reason in ("上流の群れが合流したため", "プレイヤー都合により離脱"):
        assert reason not in draft and reason not in english
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)  # no LeakFound


def test_refusals_name_their_field_and_change_nothing(world) -> None:
    rid = world.new_round()
    pc1 = unit_id(world.characters[0])
    cases = [
        ("add_unit", {"enemy": "kagachi", "id": "kagachi9", "position": [0, 0]}, "position", "is on 'pc"),
        ("add_unit", {"enemy": "kagachi", "id": "kagachi9", "position": [2_000_000, 0]}, "position", "off the map"),
        ("add_unit", {"enemy": "dragon", "id": "kagachi9", "position": [300, 0]}, "enemy", "unknown enemy type"),
        ("add_unit", {"enemy": "kagachi", "id": "pc7", "position": [300, 0]}, "id", "unit id"),
        ("retreat", {"unit": "nobody"}, "unit", "no unit 'nobody'"),
        ("set_gauge", {"unit": pc1, "gauge": "injury", "taken": [11, 0, 0, 0, 0]}, "taken", "outside 0..10"),
        ("revive", {"unit": pc1}, "unit", "is not dead"),
    ]
    for kind, fields, field, message in cases:
        with pytest.raises(UserError, match=message) as refused:
            _act(world, rid, kind, **fields)
        assert refused.value.field == field, kind
        assert isinstance(refused.value.message, Text), kind  # a page says it in its language
    with pytest.raises(UserError) as no_reason:
        _act(world, rid, "retreat", "  ", unit="kagachi1")
    assert no_reason.value.field == "reason"
    with pytest.raises(UserError, match="over the limit"):
        _act(world, rid, "retreat", "x" * 501, unit="kagachi1")
    assert GmAction.select().count() == 0


def test_only_the_campaigns_gms_shape_and_only_before_resolution(world) -> None:
    rid = world.new_round()
    rival = _rival_gm(world)
    for actor in (rival, world.players[0]):
        with pytest.raises(Forbidden):
            shaping.record_action(rid, "retreat", {"unit": "kagachi1"}, reason="x", actor_id=actor, clock=world.clock)
        with pytest.raises(Forbidden):
            shaping.shaping_desk(rid, actor_id=actor)
    row = _act(world, rid, "retreat", unit="kagachi2")
    assert AuditLog.select().where(AuditLog.action == "round.gm_action").count() == 1
    _enter(world, rid)
    world.clock.advance(3600)
    rounds.resolve_round(rid, clock=world.clock)
    with pytest.raises(InvalidState):
        _act(world, rid, "retreat", unit="kagachi1")
    with pytest.raises(InvalidState):
        shaping.delete_action(rid, row.id, actor_id=world.gm, clock=world.clock)
    assert [a.kind for a in shaping.shaping_desk(rid, actor_id=world.gm).actions] == ["retreat"]  # as resolved
    cancelled = world.new_round(open_it=False)
    rounds.cancel_round(cancelled, reason="rain", clock=world.clock)
    with pytest.raises(InvalidState):
        shaping.shaping_desk(cancelled, actor_id=world.gm)


def test_delete_refuses_to_break_a_later_action_or_an_order(world) -> None:
    rid = world.new_round()
    added = _act(world, rid, "add_unit", enemy="kagachi", id="kagachi9", position=[300, 20])
    _act(world, rid, "set_position", unit="kagachi9", position=[320, 20])
    with pytest.raises(UserError, match="no longer apply"):
        shaping.delete_action(rid, added.id, actor_id=world.gm, clock=world.clock)
    later = GmAction.get(GmAction.seq == 2)
    shaping.delete_action(rid, later.id, actor_id=world.gm, clock=world.clock)
    _enter(world, rid, 0, "kagachi9")
    with pytest.raises(UserError, match="would no longer fit"):
        shaping.delete_action(rid, added.id, actor_id=world.gm, clock=world.clock)
    assert GmAction.select().count() == 1


def test_enemy_orders_are_checked_like_entries(world) -> None:
    rid = world.new_round()
    attack = {"minor": None, "major": {"type": "attack", "weapon": "no_such_gun", "targets": ["kagachi2"]}}
    with pytest.raises(UserError) as refused:
        shaping.save_enemy_order(rid, "kagachi1", attack, actor_id=world.gm, clock=world.clock)
    assert refused.value.field == "order"
    with pytest.raises(NotFound):
        shaping.save_enemy_order(rid, unit_id(world.characters[0]), {}, actor_id=world.gm, clock=world.clock)
    move = {"minor": {"type": "move", "toward": "kagachi2"}, "major": None}
    shaping.save_enemy_order(rid, "kagachi1", move, actor_id=world.gm, clock=world.clock)
    assert GmOrder.get().order == move
    shaping.clear_enemy_order(rid, "kagachi1", actor_id=world.gm, clock=world.clock)
    assert GmOrder.select().count() == 0


def test_a_reason_that_tells_a_gm_secret_is_refused_when_it_is_given(world) -> None:
    """A reason is published beside the report and cannot change once the round resolves: a GM note or a hidden
    enemy's name in it is refused at once, beside the field, and nothing is recorded. The reinforcement a GM adds
    may be named in its own reason (it is on the field from this round on)."""
    from tests.lifecycle.test_publishing import SECRET

    rid = world.new_round()
    with pytest.raises(UserError, match="GM-secret") as refused:
        _act(world, rid, "retreat", f"{SECRET}ので退く", unit="hayachi1")
    assert refused.value.field == "reason" and GmAction.select().count() == 0
    with pytest.raises(UserError, match="GM-secret"):
        _act(world, rid, "retreat", "古カガチに怯えて", unit="hayachi1")  # the elder is not on the field
    _act(world, rid, "add_unit", "古カガチが上流から来た", enemy="kagachi_elder", id="elder1", position=[700, 0])
    assert GmAction.select().count() == 1
    _enter(world, rid)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    events = Resolution.get(Resolution.round == rid).events
    check = next(e["attack_check"] for e in events if e["type"] == "attack" and e.get("attack_check"))
    with pytest.raises(UserError, match="GM-secret") as refused:
        rounds.override_check(rid, check, 3, reason=f"{SECRET}", actor_id=world.gm, clock=world.clock)
    assert refused.value.field == "reason"
    rounds.override_check(rid, check, 3, reason="審判の判断", actor_id=world.gm, clock=world.clock)
