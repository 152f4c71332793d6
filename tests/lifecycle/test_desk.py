"""Issue 31, deliverable 1, in the services: `desk.needs` lists what needs the GM, most urgent first, with its
numbers; only the campaigns the GM runs; in a fixed number of queries however many rounds there are."""

from __future__ import annotations

from datetime import timedelta

from pbp.models import Round
from pbp.services import accounts, characters, desk, entries, publishing, rounds, scenarios
from tests.lifecycle.test_publishing import SECRET


def _kinds(world, **kw) -> list[str]:
    return [n.kind for n in desk.needs(world.gm, clock=world.clock, **kw)]


def _enter(world, round_id: int, i: int) -> None:
    entries.save_entry(round_id, world.characters[i], user_id=world.players[i], order=world.order(), prose="行く",
                       clock=world.clock)  # fmt: skip


def test_nothing_needs_a_gm_with_a_distant_deadline(world) -> None:
    world.new_round(deadline_in=3 * 24 * 3600)
    assert _kinds(world) == []


def test_a_deadline_within_a_day_with_entries_missing_says_how_many(world) -> None:
    rid = world.new_round(deadline_in=20 * 3600)
    _enter(world, rid, 0)
    [need] = desk.needs(world.gm, clock=world.clock)
    assert (need.kind, need.round_id, need.count, need.of) == ("deadline", rid, 1, 2)
    assert need.deadline and "Asia/Tokyo" in need.deadline and need.scenario.id == world.scenario
    _enter(world, rid, 1)
    assert _kinds(world) == []  # every entry in: nothing to do


def test_every_kind_in_the_order_of_urgency(world) -> None:
    # a round resolved with a leak in its report, its automatic publication refused
    refused = world.new_round(deadline_in=60, scenario=world.new_scenario("leaky"))
    world.clock.advance(61)
    rounds.resolve_round(refused, clock=world.clock)
    publishing.edit_report(refused, intro=SECRET, clock=world.clock)
    rounds.audit.log("round.publish_refused", f"round:{refused}", rounds.to_db(world.clock.now()), leaks=1)
    # a round resolved and waiting for review
    review = world.new_round(deadline_in=60, scenario=world.new_scenario("review"))
    world.clock.advance(61)
    rounds.resolve_round(review, clock=world.clock)
    # a round quarantined after three failures
    sick = world.new_round(deadline_in=60, scenario=world.new_scenario("sick"))
    world.clock.advance(61)
    rounds.close_round(sick, clock=world.clock)
    for _ in range(rounds.MAX_FAILURES):
        rounds.count_failure(sick, "boom", now=rounds.to_db(world.clock.now()))
    # the world's round, held by the guard (nobody entered)
    held = world.new_round(deadline_in=60)
    world.clock.advance(61)
    assert rounds.guard(held, clock=world.clock)
    # a sign-up with an applicant, its lottery an hour away
    signup = world.new_scenario("signup")
    Round.delete().where(Round.scenario == signup).execute()
    scenarios.set_signup_deadline(signup, world.clock.now() + timedelta(hours=1), clock=world.clock)
    late = accounts.create_user("late", "player-password", clock=world.clock)
    pack = rounds.Campaign.get_by_id(world.campaign).pack
    newcomer = characters.create_character(world.campaign, late.id, pack["characters"]["aoi"], clock=world.clock)
    scenarios.join_scenario(signup, newcomer.id, user_id=late.id, clock=world.clock)
    # a growth request
    rounds.Character.update(sheet={**newcomer.sheet, "growth_points": 50}).where(
        rounds.Character.id == newcomer.id
    ).execute()
    skill = next(iter(newcomer.sheet["skills"]))
    characters.request_growth(newcomer.id, late.id, {skill: newcomer.sheet["skills"][skill] + 1}, clock=world.clock)

    found = desk.needs(world.gm, clock=world.clock)
    assert [n.kind for n in found] == ["held", "review", "publish_refused", "quarantined", "signup", "growth"]
    assert [n.round_id for n in found[:4]] == [held, review, refused, sick]
    assert (found[4].scenario.id, found[4].count, found[4].of) == (signup, 1, found[4].scenario.slots)
    assert found[5].count == 1


def test_another_campaigns_gm_and_a_player_see_nothing_of_it(world) -> None:
    world.new_round(deadline_in=3600)  # 2 of 2 missing within the day
    assert _kinds(world) == ["deadline"]
    assert desk.needs(world.players[0], clock=world.clock) == []
    assert desk.needs(world.gm, world.campaign + 1, clock=world.clock) == []


def test_the_panel_reads_in_the_same_few_queries_for_many_rounds(world, db) -> None:
    def count() -> int:
        executed = []
        real = db.execute_sql
        db.execute_sql = lambda sql, *a, **kw: executed.append(sql) or real(sql, *a, **kw)
        try:
            desk.needs(world.gm, clock=world.clock)
        finally:
            db.execute_sql = real
        return len(executed)

    world.new_round(deadline_in=3600)
    few = count()
    for slug in ("b", "c", "d"):
        world.new_round(deadline_in=3600, scenario=world.new_scenario(slug))
    assert len(desk.needs(world.gm, clock=world.clock)) == 4
    assert count() == few
