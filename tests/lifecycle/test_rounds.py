"""The round lifecycle's services: seeds, exactly-once resolution, the due query, overrides, publishing, the GM's
hold/extend/cancel, and quarantine after three failures."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import peewee
import pytest

from pbp.errors import UserError
from pbp.models import AuditLog, Character, Outbox, Report, Resolution, ResolutionVersion, Round
from pbp.services import campaigns, entries, publishing, rounds
from pbp.services._common import MARKDOWN_LIMIT


def _enter_all(world, rid: int, n: int | None = None) -> None:
    for uid, cid in list(zip(world.players, world.characters, strict=True))[:n]:
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)


def _resolved(world, *, entries_from: int | None = None) -> int:
    rid = world.new_round()
    _enter_all(world, rid, entries_from)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    return rid


def test_opening_draws_a_secret_seed_and_shows_its_hash(world) -> None:
    a = Round.get_by_id(world.new_round())
    b = Round.get_by_id(world.new_round(scenario=world.new_scenario("another-run")))
    assert len(a.seed) == 64 and a.seed != b.seed
    assert a.seed_hash == hashlib.sha256(a.seed.encode()).hexdigest()
    assert "seed" not in AuditLog.get(AuditLog.action == "round.open").detail
    notices = Outbox.select().where(Outbox.kind == "round.opened", Outbox.payload["round"] == a.id)
    assert sorted(n.recipient_id for n in notices) == sorted(world.players)


def test_a_round_is_resolved_once_and_resolving_again_says_so(world) -> None:
    rid = _resolved(world)
    again = rounds.resolve_round(rid, clock=world.clock)
    assert (again.status, again.message) == ("already", f"round {rid} is already resolved")
    assert Resolution.select().where(Resolution.round == rid).count() == 1
    rnd = Round.get_by_id(rid)
    assert rnd.state == "resolved" and rnd.closed_at and rnd.resolved_at
    assert Report.get(Report.round == rid).draft_md


def test_pcs_without_entries_do_nothing_and_enemies_follow_default_tactics(world) -> None:
    rid = _resolved(world, entries_from=1)
    res = Resolution.get(Resolution.round == rid)
    sides = {u["id"]: u["side"] for u in res.encounter["units"]}
    ordered = [o["unit"] for o in res.orders["orders"]]
    assert [u for u in ordered if sides[u] == "pc"] == [f"pc{world.characters[0]}"]
    enemies = [uid for uid, side in sides.items() if side == "enemy"]
    assert enemies and set(enemies) <= set(ordered)  # stored with the inputs, so `pbp verify` replays them
    assert not [e for e in res.events if e.get("attacker") == f"pc{world.characters[1]}"]


def test_the_due_query_waits_for_missing_entries_only_until_the_deadline(world) -> None:
    open_past = world.new_round(deadline_in=60)
    closed_missing = world.new_round(deadline_in=7200, scenario=world.new_scenario("missing"))
    _enter_all(world, closed_missing, 1)
    rounds.close_round(closed_missing, clock=world.clock)
    closed_complete = world.new_round(deadline_in=7200, scenario=world.new_scenario("complete"))
    _enter_all(world, closed_complete)
    rounds.close_round(closed_complete, clock=world.clock)
    world.new_round(deadline_in=7200, scenario=world.new_scenario("ahead"))  # open, before its deadline
    draft = world.new_round(deadline_in=60, open_it=False, scenario=world.new_scenario("draft"))
    world.clock.advance(61)
    assert rounds.due_round_ids(clock=world.clock) == [open_past, closed_complete]
    world.clock.advance(7200)
    assert closed_missing in rounds.due_round_ids(clock=world.clock)
    assert draft not in rounds.due_round_ids(clock=world.clock)
    outcomes = rounds.resolve_due(clock=world.clock)
    assert {o.status for o in outcomes} == {"resolved"} and rounds.due_round_ids(clock=world.clock) == []


def test_a_dead_character_does_not_hold_up_an_early_resolution(world) -> None:
    """resolve_when_complete waits for the living: the dead (R-GAUGE-7) can no longer write an entry."""
    rid = world.new_round(deadline_in=7200)
    _enter_all(world, rid, 1)
    Character.update(alive=False).where(Character.id == world.characters[1]).execute()
    rounds.close_round(rid, clock=world.clock)
    assert rounds.due_round_ids(clock=world.clock) == [rid]


def test_a_seed_is_drawn_once_whatever_happens_to_the_round(world) -> None:
    """Opening again would draw the dice again: only a draft opens; a closed round reopens by extension and a held
    one by release, both keeping the seed the players were shown."""
    rid = world.new_round()
    shown = Round.get_by_id(rid).seed_hash
    with pytest.raises(UserError, match="only a draft round opens"):
        rounds.open_round(rid, clock=world.clock)
    rounds.close_round(rid, clock=world.clock)
    with pytest.raises(UserError, match="only a draft round opens.*extend its deadline"):
        rounds.open_round(rid, clock=world.clock)
    rounds.extend_round(rid, world.clock.now() + timedelta(hours=2), clock=world.clock)
    rounds.hold_round(rid, reason="a rules question", clock=world.clock)
    with pytest.raises(UserError, match="release it"):
        rounds.open_round(rid, clock=world.clock)
    assert rounds.release_round(rid, clock=world.clock).state == "open"
    assert Round.get_by_id(rid).seed_hash == shown


def test_a_round_waits_for_the_scenarios_earlier_rounds(world) -> None:
    """Round 2 starts where round 1 ended: it neither opens nor resolves nor falls due before round 1 is resolved
    (or cancelled), so the battle cannot fork."""
    first = world.new_round()
    second = world.new_round(open_it=False)
    with pytest.raises(UserError, match=f"round {second} cannot be opened before round {first} .*open"):
        rounds.open_round(second, clock=world.clock)
    assert Round.get_by_id(second).state == "draft"
    # A database from before this guard may hold round 2 closed beside an open round 1.
    Round.update(state="closed", seed="s" * 64, seed_hash="h" * 64).where(Round.id == second).execute()
    world.clock.advance(3601)
    assert rounds.due_round_ids(clock=world.clock) == [first]
    with pytest.raises(UserError, match=f"round {second} cannot be resolved before round {first}"):
        rounds.resolve_round(second, clock=world.clock)
    assert Resolution.select().where(Resolution.round == second).count() == 0
    assert rounds.resolve_round(first, clock=world.clock).status == "resolved"
    assert rounds.due_round_ids(clock=world.clock) == [second]


def test_a_cancelled_round_does_not_hold_up_the_next(world) -> None:
    first = world.new_round()
    rounds.cancel_round(first, reason="the GM moved the scene", clock=world.clock)
    assert Round.get_by_id(world.new_round()).state == "open"


@pytest.mark.rule("R-GM-1")
def test_an_override_re_resolves_with_the_same_dice_and_keeps_history(world) -> None:
    rid = _resolved(world)
    first = Resolution.get(Resolution.round == rid)
    attack = next(e for e in first.events if e["type"] == "attack")
    check, was = attack["attack_check"], attack["attack_successes"]
    res = rounds.override_check(rid, check, 0, reason="the fog blinds the gunner", actor_id=world.gm, clock=world.clock)
    assert res.version == 2 and res.overrides == [
        {"check": check, "successes": 0, "reason": "the fog blinds the gunner"}
    ]
    changed = next(e for e in res.events if e["type"] == "attack" and e["attack_check"] == check)
    assert changed["attack_dice"] == attack["attack_dice"]  # the dice are still drawn
    assert changed["overrides"] == [{"check": check, "was": was, "now": 0, "reason": "the fog blinds the gunner"}]
    history = list(ResolutionVersion.select().where(ResolutionVersion.round == rid))
    assert [(h.version, h.events) for h in history] == [(1, first.events)]
    assert Resolution.select().where(Resolution.round == rid).count() == 1
    assert AuditLog.get(AuditLog.action == "round.override").detail["reason"] == "the fog blinds the gunner"


@pytest.mark.parametrize(
    ("check", "successes", "reason", "message"),
    [
        ("r1-c99", 0, "why not", "has no check r1-c99"),
        ("r1", 0, "why not", "must be a check id like 'r1-c2', got 'r1'"),  # R-GM-1: said before the engine runs
        ("r1-c1", 0, "  ", "reason must not be empty"),
        ("r1-c1", 10**20, "why not", "successes must be between -1000 and 1000"),
    ],
)
def test_a_bad_override_changes_nothing(world, check: str, successes: int, reason: str, message: str) -> None:
    rid = _resolved(world)
    before = Resolution.get(Resolution.round == rid)
    with pytest.raises(UserError, match=message):
        rounds.override_check(rid, check, successes, reason=reason, clock=world.clock)
    after = Resolution.get(Resolution.round == rid)
    assert (after.version, after.events) == (before.version, before.events)


def test_publishing_reveals_the_seed_and_freezes_the_round(world) -> None:
    rid = _resolved(world)
    with pytest.raises(UserError, match="seed stays secret"):
        publishing.round_bundle(rid)
    publishing.edit_report(rid, "# 多摩川\n\n霧の中で。", actor_id=world.gm, clock=world.clock)
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    bundle = publishing.round_bundle(rid)
    assert bundle["seed"] == Round.get_by_id(rid).seed and bundle["format"] == "pbp-round-bundle/1"
    assert publishing.verify_round(rid) is None
    report = Report.get(Report.round == rid)
    assert report.published_md.startswith("# 多摩川") and "霧の中で" in report.html
    with pytest.raises(UserError, match="only a resolved, unpublished round"):
        rounds.override_check(rid, "r1-c1", 0, reason="too late", clock=world.clock)
    with pytest.raises(UserError, match="published already: correct its report instead"):
        publishing.publish_round(rid, clock=world.clock)


def test_verify_finds_a_round_that_does_not_start_where_the_previous_one_ended(world) -> None:
    """Each round re-running to its own result proves nothing if it started from a state the previous round no
    longer ends in (an override committed beside the next round's resolution left such a chain)."""
    first = _resolved(world)
    publishing.publish_round(first, clock=world.clock)
    second = _resolved(world)
    publishing.publish_round(second, clock=world.clock)
    assert publishing.verify_round(second) is None
    res = Resolution.get(Resolution.round == first)
    state = res.state
    x, y = state["units"][0]["position"]
    state["units"][0]["position"] = [x + 7, y]
    Resolution.update(state=state).where(Resolution.id == res.id).execute()
    assert publishing.verify_round(second) == (
        f"round 2 does not start where round 1 ended: encounter.units[0].position[0]: stored {x}, "
        f"previous round's final state {x + 7}"
    )
    assert publishing.verify_round(first).startswith("state.units[0].position[0]: stored")  # its own re-run


def test_the_gm_may_write_the_english_story_and_publishing_caches_it(world) -> None:
    rid = _resolved(world)
    generated, by_gm = publishing.english_story(rid)
    assert not by_gm and " the " in generated and generated != Report.get(Report.round == rid).draft_md
    assert publishing.english_story(rid) == (generated, False)  # the same picks every time
    publishing.edit_report(rid, story_en="# Tama River\n\nThe fog *lifted*.", clock=world.clock)
    assert publishing.english_story(rid) == ("# Tama River\n\nThe fog *lifted*.", True)
    publishing.edit_report(rid, story_en="  ", clock=world.clock)  # empty: back to the generated one
    assert publishing.english_story(rid) == (generated, False)
    publishing.edit_report(rid, story_en="The fog <script>x()</script>*lifted*.", clock=world.clock)
    assert Report.get(Report.round == rid).html_en is None  # rendered once, when published
    publishing.publish_round(rid, clock=world.clock)
    html_en = Report.get(Report.round == rid).html_en
    assert "<em>lifted</em>" in html_en and "<script" not in html_en
    with pytest.raises(UserError, match="only a resolved round"):
        publishing.edit_report(rid, story_en="too late", clock=world.clock)


def test_the_english_story_has_a_length_limit_and_needs_a_resolved_round(world) -> None:
    rid = _resolved(world)
    with pytest.raises(UserError, match="English story"):
        publishing.edit_report(rid, story_en="x" * (MARKDOWN_LIMIT + 1), clock=world.clock)
    assert Report.get(Report.round == rid).story_en_md is None
    with pytest.raises(UserError, match="not resolved yet"):
        publishing.english_story(world.new_round())


def test_a_narration_failure_in_english_is_a_clear_error(world, monkeypatch) -> None:
    rid = _resolved(world)

    def broken(*_args, **_kwargs):
        raise KeyError("no phrasing")

    monkeypatch.setattr(rounds.reports, "draft_report", broken)
    with pytest.raises(UserError, match=f"round {rid}'s English story cannot be generated: .*KeyError"):
        publishing.english_story(rid)


def test_hold_release_extend_and_cancel_are_logged(world) -> None:
    rid = world.new_round(deadline_in=600)
    rounds.hold_round(rid, reason="a rules question", actor_id=world.gm, clock=world.clock)
    world.clock.advance(601)
    assert rid not in rounds.due_round_ids(clock=world.clock)
    with pytest.raises(UserError, match="is held: only an open or closed round"):
        rounds.resolve_round(rid, clock=world.clock)
    rounds.extend_round(rid, world.clock.now() + timedelta(hours=1), actor_id=world.gm, clock=world.clock)
    assert rounds.release_round(rid, actor_id=world.gm, clock=world.clock).state == "open"
    rounds.close_round(rid, clock=world.clock)
    reopened = rounds.extend_round(rid, world.clock.now() + timedelta(hours=2), actor_id=world.gm, clock=world.clock)
    assert reopened.state == "open"
    rounds.cancel_round(rid, reason="the table split up", actor_id=world.gm, clock=world.clock)
    actions = [a.action for a in AuditLog.select().where(AuditLog.target == f"round:{rid}").order_by(AuditLog.id)]
    assert actions == [
        "round.create",
        "round.open",
        "round.hold",
        "round.extend",
        "round.release",
        "round.close",
        "round.extend",
        "round.cancel",
    ]
    assert all(
        a.actor_id == world.gm for a in AuditLog.select().where(AuditLog.action.in_(["round.hold", "round.cancel"]))
    )


def test_three_failures_quarantine_a_round_and_each_leaves_nothing_behind(world, monkeypatch) -> None:
    rid = world.new_round()
    _enter_all(world, rid)
    world.clock.advance(3600)

    def broken(*args, **kwargs):
        raise RuntimeError("engine on fire")

    monkeypatch.setattr(rounds, "run_engine", broken)
    for attempt in (1, 2, 3):
        with pytest.raises(UserError, match=f"attempt {attempt} of 3.*engine on fire"):
            rounds.resolve_round(rid, clock=world.clock)
        assert Resolution.select().count() == 0
    assert Round.get_by_id(rid).state == "quarantined"
    assert rid not in rounds.due_round_ids(clock=world.clock)
    monkeypatch.undo()
    rounds.release_round(rid, actor_id=world.gm, clock=world.clock)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"


def test_the_complete_early_policy_can_make_closed_rounds_wait_for_their_deadline(world) -> None:
    campaigns.set_policy(world.campaign, "resolve_when_complete", False, actor_id=world.gm, clock=world.clock)
    rid = world.new_round(deadline_in=7200)
    _enter_all(world, rid)
    rounds.close_round(rid, clock=world.clock)
    assert rounds.due_round_ids(clock=world.clock) == []
    world.clock.advance(7200)
    assert rounds.due_round_ids(clock=world.clock) == [rid]
    with pytest.raises(UserError, match="unknown policy"):
        campaigns.set_policy(world.campaign, "sleep_in", True, clock=world.clock)


def test_the_unique_constraint_is_the_last_guard(world) -> None:
    rid = _resolved(world)
    Round.update(state="closed").where(Round.id == rid).execute()  # as if a claim had gone wrong
    with pytest.raises(peewee.IntegrityError):
        rounds.resolve_round(rid, clock=world.clock)
    assert Resolution.select().where(Resolution.round == rid).count() == 1
    assert Round.get_by_id(rid).state == "closed"  # the whole attempt was rolled back


@pytest.mark.rule("R-GM-2")
def test_a_scene_round_rolls_the_checks_the_players_chose(world) -> None:
    from pbp.services import campaigns, scenarios

    scene = campaigns.create_scenario(world.campaign, "hangar_eve", slug="eve", clock=world.clock)
    for uid, cid in zip(world.players, world.characters, strict=True):
        scenarios.join_scenario(scene.id, cid, user_id=uid, clock=world.clock)
    rid = rounds.create_round(scene.id, world.clock.now() + timedelta(hours=1), clock=world.clock).id
    rounds.open_round(rid, clock=world.clock)
    check = {"minor": None, "major": {"type": "check", "label": "repair", "item": None}}  # skill and need: the pack's
    entries.save_entry(
        rid, world.characters[0], user_id=world.players[0], order=check, prose="徹夜で直す。", clock=world.clock
    )
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    checks = [e for e in Resolution.get(Resolution.round == rid).events if e["type"] == "check"]
    assert [(c["unit"], c["skill"], c["need"]) for c in checks] == [(f"pc{world.characters[0]}", "整備", 3)]


@pytest.mark.rule("R-GAUGE-7")
def test_a_character_who_died_in_a_published_round_stays_dead(world, monkeypatch) -> None:
    from pbp.engine.ruleset import Resolution as EngineResult
    from pbp.models import Character

    victim = f"pc{world.characters[1]}"
    monkeypatch.setattr(
        rounds,
        "run_engine",
        lambda ruleset, encounter, orders, seed, overrides, adhoc_checks=None: EngineResult(
            state=encounter, events=[{"type": "death", "round": 1, "unit": victim, "cause": "injury"}]
        ),
    )
    rid = _resolved(world)
    assert Character.get_by_id(world.characters[1]).alive  # not before publishing: an override may still save it
    publishing.publish_round(rid, clock=world.clock)
    assert [c.alive for c in Character.select().order_by(Character.id)] == [True, False]
