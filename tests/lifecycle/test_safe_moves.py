"""Issue 31, deliverable 2, in the services: the GM's resolve-now applies the missing-entries guard unless the GM
chose to resolve anyway, a round resolved by hand waits for the GM's review even when its campaign publishes by
itself (the scheduler's tick leaves it alone), and `move_risk` says what an irreversible move would do."""

from __future__ import annotations

from datetime import timedelta

from pbp.models import AuditLog, Round
from pbp.services import campaigns, entries, rounds, schedule


def _enter(world, round_id: int, *players: int) -> None:
    for i in players:
        entries.save_entry(round_id, world.characters[i], user_id=world.players[i], order=world.order(), prose="行く",
                           clock=world.clock)  # fmt: skip


def test_move_risk_names_the_missing_characters_the_time_left_and_the_policy(world) -> None:
    rid = world.new_round(deadline_in=1800)
    _enter(world, rid, 0)
    risk = rounds.move_risk(rid, actor_id=world.gm, clock=world.clock)
    assert len(risk.missing) == 1 and risk.joined == 2  # both characters are Aoi: one name, the second's
    assert risk.time_left == timedelta(minutes=30) and not risk.auto_publish and not risk.would_hold
    assert risk.asks
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    _enter(world, rid, 1)
    world.clock.advance(1801)
    risk = rounds.move_risk(rid, actor_id=world.gm, clock=world.clock)
    assert (risk.missing, risk.time_left, risk.auto_publish, risk.asks) == ([], None, True, False)


def test_resolve_now_with_most_entries_missing_is_held_by_the_guard_and_nothing_is_resolved(world) -> None:
    rid = world.new_round(deadline_in=1800)  # nobody entered: 2 of 2 missing, over the default half
    outcome = rounds.resolve_by_hand(rid, actor_id=world.gm, clock=world.clock)
    rnd = Round.get_by_id(rid)
    assert outcome.status == "held" and (rnd.state, rnd.held_from) == ("held", "open")
    assert rnd.guard_held_at is not None and rnd.resolved_at is None
    hold = AuditLog.select().where(AuditLog.action == "round.hold").order_by(AuditLog.id.desc()).first()
    assert hold.actor_id == world.gm and hold.detail["reason"].startswith("2 of 2 characters have no entry when")


def test_resolve_anyway_resolves_past_the_guard_and_logs_the_hand(world) -> None:
    rid = world.new_round(deadline_in=1800)
    outcome = rounds.resolve_by_hand(rid, anyway=True, actor_id=world.gm, clock=world.clock)
    assert outcome.status == "resolved" and Round.get_by_id(rid).state == "resolved"
    resolved = AuditLog.get(AuditLog.action == "round.resolve", AuditLog.target == f"round:{rid}")
    assert resolved.detail["by_hand"] is True and resolved.actor_id == world.gm


def test_a_hand_resolved_round_in_an_auto_publishing_campaign_waits_for_the_gm_after_a_tick(world) -> None:
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    rid = world.new_round(deadline_in=1800)
    _enter(world, rid, 0, 1)
    assert rounds.resolve_by_hand(rid, actor_id=world.gm, clock=world.clock).status == "resolved"
    report = schedule.tick(clock=world.clock)
    assert report.published == [] and Round.get_by_id(rid).state == "resolved"
    assert Round.get_by_id(rid).seed_hash and rid not in rounds.to_publish()
    world.clock.advance(7200)  # and later ticks too
    assert schedule.tick(clock=world.clock).published == [] and Round.get_by_id(rid).state == "resolved"


def test_the_scheduler_resolved_path_still_publishes_by_itself(world) -> None:
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    rid = world.new_round(deadline_in=60)
    _enter(world, rid, 0, 1)
    world.clock.advance(61)
    report = schedule.tick(clock=world.clock)
    assert [o.status for o in report.rounds] == ["resolved"] and Round.get_by_id(rid).state == "published"
    resolved = AuditLog.get(AuditLog.action == "round.resolve", AuditLog.target == f"round:{rid}")
    assert "by_hand" not in resolved.detail
