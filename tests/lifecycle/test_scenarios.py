"""Joining scenarios: first come while slots last; over-subscribed sign-ups go to a seeded, logged lottery."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from pbp.errors import UserError
from pbp.models import AuditLog, Campaign, Character, Participation, Scenario, User
from pbp.paths import DEMO_PACK_DIR
from pbp.services import accounts, campaigns, characters, rounds, scenarios
from pbp.services.clock import FixedClock


def _extra_characters(world, n: int) -> list[tuple[int, int]]:
    """`n` new characters, each of a new player (R-FIX-18: one character per player in a scenario)."""
    sheet = Campaign.get_by_id(world.campaign).pack["characters"]["makoto"]
    out = []
    for _ in range(n):
        uid = accounts.create_user(f"extra{User.select().count()}", "player-password", clock=world.clock).id
        out.append((uid, characters.create_character(world.campaign, uid, sheet, clock=world.clock).id))
    return out


def _signup_run(world, slug: str, *, slots: int, ahead: timedelta) -> Scenario:
    """A run of the battle whose sign-up closes `ahead` from now (over-subscribed: a lottery then)."""
    deadline = world.clock.now() + ahead
    return campaigns.create_scenario(
        world.campaign, "tama_river", slug=slug, slots=slots, signup_deadline=deadline, clock=world.clock
    )


def _statuses(scenario_id: int) -> dict[int, str]:
    return {p.character_id: p.status for p in Participation.select().where(Participation.scenario == scenario_id)}


def test_join_while_slots_last_then_the_waitlist(world) -> None:
    run = campaigns.create_scenario(world.campaign, "tama_river", slug="tama-b", slots=1, clock=world.clock)
    (u1, c1), (u2, c2) = _extra_characters(world, 2)
    assert scenarios.join_scenario(run.id, c1, user_id=u1, clock=world.clock).status == "joined"
    assert scenarios.join_scenario(run.id, c2, user_id=u2, clock=world.clock).status == "waitlisted"
    assert scenarios.waitlist(Scenario.get_by_id(run.id)) == [c2]
    with pytest.raises(UserError, match="already signed up"):
        scenarios.join_scenario(run.id, c1, user_id=u1, clock=world.clock)


def test_an_oversubscribed_signup_is_decided_by_a_logged_seeded_lottery(world) -> None:
    deadline = world.clock.now() + timedelta(days=1)
    run = campaigns.create_scenario(
        world.campaign, "tama_river", slug="tama-c", slots=2, signup_deadline=deadline, clock=world.clock
    )
    applicants = _extra_characters(world, 5)
    for uid, cid in applicants:
        assert scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock).status == "applied"
    world.clock.advance(86400)
    assert scenarios.due_signups(clock=world.clock) == [run.id]
    late_uid, late_cid = _extra_characters(world, 1)[0]
    with pytest.raises(UserError, match="sign-up closed at .*lottery is pending"):
        scenarios.join_scenario(run.id, late_cid, user_id=late_uid, clock=world.clock)

    chosen = scenarios.close_signup(run.id, clock=world.clock)
    assert len(chosen) == 2
    statuses = {p.character_id: p.status for p in Participation.select().where(Participation.scenario == run.id)}
    assert sorted(statuses.values()) == ["joined"] * 2 + ["waitlisted"] * 3
    log = AuditLog.get(AuditLog.action == "scenario.lottery")
    assert scenarios.lottery_order(log.detail["seed"], log.detail["applicants"])[:2] == chosen
    assert scenarios.close_signup(run.id, clock=world.clock) == []  # a second close changes nothing
    assert scenarios.due_signups(clock=world.clock) == []
    # After the draw, a free slot would go first come, first served; there is none: the late one waits in line,
    # behind those the lottery left out.
    assert scenarios.join_scenario(run.id, late_cid, user_id=late_uid, clock=world.clock).status == "waitlisted"
    assert scenarios.waitlist(Scenario.get_by_id(run.id))[-1] == late_cid


def test_a_signup_that_fits_needs_no_lottery(world) -> None:
    run = _signup_run(world, "tama-d", slots=3, ahead=timedelta(hours=1))
    for uid, cid in _extra_characters(world, 2):
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    world.clock.advance(3600)
    assert len(scenarios.close_signup(run.id, clock=world.clock)) == 2
    assert AuditLog.get(AuditLog.action == "scenario.signup_closed").detail["seed"] is None


def test_the_scheduler_tick_closes_due_signups_and_resolves_due_rounds(world) -> None:
    from pbp.services import schedule

    run = _signup_run(world, "tama-e", slots=1, ahead=timedelta(minutes=30))
    for uid, cid in _extra_characters(world, 2):
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    campaigns.set_hold_share(world.campaign, 1.0)  # the round has no entries: the guard would hold it
    rid = world.new_round(deadline_in=3600)
    world.clock.advance(3600)
    report = schedule.tick(clock=world.clock)
    assert report.signups_closed == [run.id]
    assert [(o.round_id, o.status) for o in report.rounds] == [(rid, "resolved")]
    assert schedule.tick(clock=world.clock) == schedule.TickReport([], [])


@pytest.mark.rule("R-GAUGE-7")
def test_a_character_who_died_since_signing_up_takes_no_slot(world) -> None:
    run = _signup_run(world, "tama-dead", slots=1, ahead=timedelta(hours=1))
    (u1, c1), (u2, c2) = _extra_characters(world, 2)
    for uid, cid in ((u1, c1), (u2, c2)):
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    Character.update(alive=False).where(Character.id == c1).execute()
    world.clock.advance(3600)
    assert scenarios.close_signup(run.id, clock=world.clock) == [c2]  # one living applicant, one slot: no lottery
    assert _statuses(run.id) == {c1: "waitlisted", c2: "joined"}
    assert AuditLog.get(AuditLog.action == "scenario.signup_closed").detail["dead"] == [c1]


def test_the_lottery_fills_only_the_slots_nobody_holds(world) -> None:
    """A deadline set after characters joined: they keep their slots and the lottery draws for the rest."""
    run = campaigns.create_scenario(world.campaign, "tama_river", slug="tama-f", slots=4, clock=world.clock)
    (u1, c1), (u2, c2), *applicants = _extra_characters(world, 6)
    for uid, cid in ((u1, c1), (u2, c2)):
        assert scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock).status == "joined"
    scenarios.set_signup_deadline(run.id, world.clock.now() + timedelta(hours=1), clock=world.clock)
    for uid, cid in applicants:
        assert scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock).status == "applied"
    world.clock.advance(3600)

    chosen = scenarios.close_signup(run.id, clock=world.clock)
    assert len(chosen) == 2
    assert sorted(_statuses(run.id).values()) == ["joined"] * 4 + ["waitlisted"] * 2
    log = AuditLog.get(AuditLog.action == "scenario.lottery").detail
    assert log["free_slots"] == 2
    assert scenarios.lottery_order(log["seed"], log["applicants"])[: log["free_slots"]] == chosen


def test_clearing_the_deadline_is_refused_while_applicants_wait(world, meanwhile) -> None:
    """Without a deadline no lottery would ever pick them: they would stay applied forever."""
    deadline = world.clock.now() + timedelta(hours=1)
    run = campaigns.create_scenario(
        world.campaign, "tama_river", slug="tama-g", slots=2, signup_deadline=deadline, clock=world.clock
    )
    (u1, c1), (u2, c2) = _extra_characters(world, 2)
    scenarios.join_scenario(run.id, c1, user_id=u1, clock=world.clock)
    with pytest.raises(UserError, match="1 applicant.* wait for the lottery .*move the deadline") as refused:
        scenarios.set_signup_deadline(run.id, None, clock=world.clock)
    assert refused.value.field == "deadline"
    assert Scenario.get_by_id(run.id).signup_deadline is not None

    # Also when the applicant signs up after the GM's request read the scenario.
    other = campaigns.create_scenario(
        world.campaign, "tama_river", slug="tama-h", slots=2, signup_deadline=deadline, clock=world.clock
    )
    meanwhile(scenarios, lambda: scenarios.join_scenario(other.id, c2, user_id=u2, clock=world.clock))
    with pytest.raises(UserError, match="wait for the lottery"):
        scenarios.set_signup_deadline(other.id, None, clock=world.clock)

    # Moving the deadline is the way: the lottery then picks them.
    scenarios.set_signup_deadline(run.id, world.clock.now(), clock=world.clock)
    assert scenarios.close_signup(run.id, clock=world.clock) == [c1]


def test_a_join_racing_the_close_of_the_signup_is_not_left_applied(world, meanwhile) -> None:
    """A sign-up read as pending but closed before the join's transaction: the join goes first come, first served
    (an applicant created after the draw would wait for a lottery that never comes)."""
    deadline = world.clock.now() + timedelta(hours=1)
    run = campaigns.create_scenario(
        world.campaign, "tama_river", slug="tama-i", slots=2, signup_deadline=deadline, clock=world.clock
    )
    (u1, c1), (u2, c2) = _extra_characters(world, 2)
    scenarios.join_scenario(run.id, c1, user_id=u1, clock=world.clock)
    world.clock.advance(3599)  # the join reads a second before the deadline; the scheduler closes at it
    meanwhile(scenarios, lambda: scenarios.close_signup(run.id, clock=FixedClock(deadline)))
    assert scenarios.join_scenario(run.id, c2, user_id=u2, clock=world.clock).status == "joined"
    assert _statuses(run.id) == {c1: "joined", c2: "joined"}


def _resolve_first_round(world, scenario_id: int) -> None:
    rnd = rounds.create_round(scenario_id, world.clock.now() + timedelta(hours=1), clock=world.clock)
    rounds.open_round(rnd.id, clock=world.clock)
    assert rounds.resolve_round(rnd.id, clock=world.clock).status == "resolved"


def test_no_one_joins_once_a_round_is_resolved(world) -> None:
    """From round 2 on the encounter is the previous round's resolution: a late joiner is not on the map and every
    entry of theirs would be refused as an unknown unit."""
    (u1, c1), (u2, c2) = _extra_characters(world, 2)
    rid = world.new_round()
    # While round 1 is open the encounter is not built yet: joining is still fine.
    assert scenarios.join_scenario(world.scenario, c1, user_id=u1, clock=world.clock).status == "joined"
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    with pytest.raises(UserError, match=r"under way \(round 1 is resolved\).*not be on its map"):
        scenarios.join_scenario(world.scenario, c2, user_id=u2, clock=world.clock)
    assert c2 not in _statuses(world.scenario)


def test_the_lottery_admits_no_one_once_a_round_is_resolved(world) -> None:
    """Applicants of a scenario that started before its sign-up closed are waitlisted, not put off the map."""
    run = campaigns.create_scenario(world.campaign, "tama_river", slug="tama-j", slots=4, clock=world.clock)
    (u1, c1), *applicants = _extra_characters(world, 3)
    scenarios.join_scenario(run.id, c1, user_id=u1, clock=world.clock)
    scenarios.set_signup_deadline(run.id, world.clock.now() + timedelta(hours=2), clock=world.clock)
    for uid, cid in applicants:
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    _resolve_first_round(world, run.id)
    world.clock.advance(7200)
    assert scenarios.close_signup(run.id, clock=world.clock) == []
    assert _statuses(run.id) == {c1: "joined", **{cid: "waitlisted" for _, cid in applicants}}


def test_a_duplicate_sign_up_past_the_check_is_refused_clearly(world, monkeypatch) -> None:
    """The unique (scenario, character) index is the last guard against a sign-up racing another; what it refuses
    reads like the check's refusal, not like a raw IntegrityError."""
    monkeypatch.setattr(scenarios, "signup_of", lambda scenario_id, character_id: None)
    with pytest.raises(UserError, match="already signed up"):
        scenarios.join_scenario(world.scenario, world.characters[0], user_id=world.players[0], clock=world.clock)
    assert len(_statuses(world.scenario)) == 2


def _full_run_with_a_waitlist(world, slug: str) -> tuple[Scenario, list[tuple[int, int]]]:
    """A run of 2 slots, 5 applicants: after the lottery 2 joined and 3 waitlisted."""
    run = _signup_run(world, slug, slots=2, ahead=timedelta(hours=1))
    applicants = _extra_characters(world, 5)
    for uid, cid in applicants:
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    world.clock.advance(3600)
    scenarios.close_signup(run.id, clock=world.clock)
    return Scenario.get_by_id(run.id), applicants


def test_a_freed_slot_goes_to_the_waitlist_in_the_lotterys_order(world) -> None:
    run, applicants = _full_run_with_a_waitlist(world, "tama-w1")
    owners = dict((cid, uid) for uid, cid in applicants)
    queue = scenarios.waitlist(run)
    assert queue == [
        c for c in scenarios.lottery_order(run.lottery_seed, list(owners)) if _statuses(run.id)[c] == "waitlisted"
    ]
    leaver = next(c for c, s in _statuses(run.id).items() if s == "joined")
    assert scenarios.leave_scenario(run.id, leaver, user_id=owners[leaver], clock=world.clock) == [queue[0]]
    statuses = _statuses(run.id)
    assert leaver not in statuses and statuses[queue[0]] == "joined" and scenarios.waitlist(run) == queue[1:]
    assert AuditLog.select().where(AuditLog.action == "scenario.waitlist").count() == 1


def test_leaving_the_waitlist_frees_nothing_and_a_dead_character_is_passed_over(world) -> None:
    run, applicants = _full_run_with_a_waitlist(world, "tama-w2")
    owners = dict((cid, uid) for uid, cid in applicants)
    first, second, third = scenarios.waitlist(run)
    assert scenarios.leave_scenario(run.id, first, user_id=owners[first], clock=world.clock) == []
    Character.update(alive=False).where(Character.id == second).execute()
    leaver = next(c for c, s in _statuses(run.id).items() if s == "joined")
    assert scenarios.leave_scenario(run.id, leaver, user_id=owners[leaver], clock=world.clock) == [third]


def test_leaving_is_refused_for_someone_elses_character_and_without_a_sign_up(world) -> None:
    run, applicants = _full_run_with_a_waitlist(world, "tama-w3")
    uid, cid = applicants[0]
    stranger = next(u for u in world.players if u != uid)
    with pytest.raises(UserError, match="not yours"):
        scenarios.leave_scenario(run.id, cid, user_id=stranger, clock=world.clock)
    scenarios.leave_scenario(run.id, cid, user_id=uid, clock=world.clock)
    with pytest.raises(UserError, match="has not signed up"):
        scenarios.leave_scenario(run.id, cid, user_id=uid, clock=world.clock)


def test_a_joined_character_cannot_leave_once_the_scenario_is_under_way(world) -> None:
    rnd = world.new_round(deadline_in=60)
    world.clock.advance(61)
    rounds.resolve_round(rnd, clock=world.clock)
    with pytest.raises(UserError, match="under way"):
        scenarios.leave_scenario(world.scenario, world.characters[0], user_id=world.players[0], clock=world.clock)


def _second_character(world) -> int:
    """Another character of the first player, whose first already joined the world's scenario."""
    sheet = Campaign.get_by_id(world.campaign).pack["characters"]["makoto"]
    return characters.create_character(world.campaign, world.players[0], sheet, clock=world.clock).id


def test_r_fix_18_a_players_second_character_is_refused_and_told_why(world) -> None:
    second = _second_character(world)
    with pytest.raises(UserError, match="already take part in .* with 葵: one player, one character per scenario") as e:
        scenarios.join_scenario(world.scenario, second, user_id=world.players[0], clock=world.clock)
    assert "several_pcs_per_player" in str(e.value)  # and how the GM may allow it
    assert second not in _statuses(world.scenario)
    # One character per player per scenario: the same character joins another run of the battle.
    other = campaigns.create_scenario(world.campaign, "tama_river", slug="tama-k", clock=world.clock)
    assert scenarios.join_scenario(other.id, second, user_id=world.players[0], clock=world.clock).status == "joined"


def test_r_fix_18_a_dead_character_does_not_hold_its_players_place(world) -> None:
    Character.update(alive=False).where(Character.id == world.characters[0]).execute()
    second = _second_character(world)
    assert scenarios.join_scenario(world.scenario, second, user_id=world.players[0], clock=world.clock)


def test_r_fix_18_the_campaign_setting_lets_the_gm_allow_several(world) -> None:
    campaigns.set_policy(world.campaign, "several_pcs_per_player", True, actor_id=world.gm, clock=world.clock)
    second = _second_character(world)
    assert scenarios.join_scenario(world.scenario, second, user_id=world.players[0], clock=world.clock)
    assert _statuses(world.scenario)[second] == "joined"


def test_r_fix_18_the_pack_sets_the_setting_when_loaded(world, tmp_path) -> None:
    pack = Path(shutil.copytree(DEMO_PACK_DIR, tmp_path / "demo"))
    toml = pack / "campaign.toml"
    text = toml.read_text(encoding="utf-8")
    assert "several_pcs_per_player = false" in text  # the demo states the default
    toml.write_text(text.replace("several_pcs_per_player = false", "several_pcs_per_player = true"))
    assert campaigns.load_campaign(pack, clock=world.clock).policies["several_pcs_per_player"] is True  # a reload
    second = _second_character(world)
    assert scenarios.join_scenario(world.scenario, second, user_id=world.players[0], clock=world.clock)


def test_a_scenario_the_gm_imports_may_not_hold_text_that_reorders_or_hides_characters(world) -> None:
    """The pack loader's rule (pbp.text.unfit_to_show) for the console's imports: by key, nothing imported."""
    from pbp.errors import UserError
    from pbp.models import Scenario
    from pbp.services import authoring
    from tests.scenario_toml import SCENE

    before = Scenario.select().count()
    text = SCENE.replace('ja = "作戦会議"', 'ja = "作戦\\u2066会議"').replace('ja = "抜け道"', 'ja = "\\u202e抜け道"')
    with pytest.raises(UserError) as refused:
        authoring.import_scenarios(world.campaign, text, actor_id=world.gm, clock=world.clock)
    message = str(refused.value)
    assert "briefing.ja" in message and "U+2066" in message
    assert "U+202E" in message
    assert Scenario.select().count() == before
