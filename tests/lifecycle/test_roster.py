"""Issue 31, deliverable 5, in the services: the GM's roster lists sign-ups by name with the lottery's draw, and
accepts, waitlists, rejects and removes — each audited and told to the player; refused while a round runs, for a
joined character once the scenario is under way, on a full scenario, and for a move the status does not take."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.errors import Conflict, Forbidden, InvalidState
from pbp.models import AuditLog, Outbox, Participation, Scenario
from pbp.services import accounts, campaigns, characters, roster, rounds, scenarios


def _newcomers(world, slug: str, n: int) -> tuple[int, list[int]]:
    """A fresh run of the battle with a sign-up deadline and `n` new players' characters applied to it."""
    run = campaigns.create_scenario(world.campaign, "tama_river", slug=slug, clock=world.clock)
    scenarios.set_signup_deadline(run.id, world.clock.now() + timedelta(hours=1), clock=world.clock)
    pack = campaigns.Campaign.get_by_id(world.campaign).pack
    ids = []
    for i in range(n):
        user = accounts.create_user(f"{slug}{i}", "player-password", clock=world.clock)
        made = characters.create_character(world.campaign, user.id, pack["characters"]["aoi"], clock=world.clock)
        scenarios.join_scenario(run.id, made.id, user_id=user.id, clock=world.clock)
        ids.append(made.id)
    return run.id, ids


def _status(scenario_id: int, character_id: int) -> str | None:
    row = Participation.get_or_none(Participation.scenario == scenario_id, Participation.character == character_id)
    return row.status if row else None


def _signups(scenario_id: int) -> list[tuple[int, str]]:
    return [(p.character_id, p.status) for p in Participation.select().where(Participation.scenario == scenario_id)]


def test_the_lottery_and_each_move_with_its_audit_line_and_notice(world) -> None:
    run, ids = _newcomers(world, "crowd", 3)
    Scenario.update(slots=1).where(Scenario.id == run).execute()
    joined = scenarios.close_signup(run, actor_id=world.gm, clock=world.clock)
    listed = roster.roster_of(run, actor_id=world.gm)
    assert [m.status for m in listed.members] == ["joined", "waitlisted", "waitlisted"]
    assert [m.character_id for m in listed.members][0] == joined[0]
    assert listed.lottery and listed.lottery.free_slots == 1 and listed.lottery.drawn[0] == joined[0]
    assert sorted(listed.lottery.drawn) == sorted(ids)
    first, second = (m.character_id for m in listed.members[1:])
    with pytest.raises(Conflict):  # every slot taken
        roster.change(run, first, roster.ACCEPT, actor_id=world.gm, clock=world.clock)
    roster.change(run, joined[0], roster.REMOVE, actor_id=world.gm, clock=world.clock)
    roster.change(run, first, roster.ACCEPT, actor_id=world.gm, clock=world.clock)
    roster.change(run, second, roster.REJECT, actor_id=world.gm, clock=world.clock)
    roster.change(run, first, roster.WAITLIST, actor_id=world.gm, clock=world.clock)
    assert (_status(run, joined[0]), _status(run, first), _status(run, second)) == (None, "waitlisted", None)
    lines = AuditLog.select().where(AuditLog.action == "scenario.roster").order_by(AuditLog.id)
    assert [(a.detail["move"], a.detail["was"], a.actor_id) for a in lines] == [
        ("remove", "joined", world.gm), ("accept", "waitlisted", world.gm), ("reject", "waitlisted", world.gm),
        ("waitlist", "joined", world.gm),
    ]  # fmt: skip
    told = Outbox.select().where(Outbox.kind.startswith("roster.")).order_by(Outbox.id)
    assert [(o.kind, o.payload["character"]) for o in told] == [
        ("roster.remove", "葵"), ("roster.accept", "葵"), ("roster.reject", "葵"), ("roster.waitlist", "葵"),
    ]  # fmt: skip
    assert all(o.channel == "email" and o.recipient_id is not None for o in told)  # never the campaign's webhook


def test_a_move_the_status_does_not_take_is_refused_with_the_reason(world) -> None:
    run, (applicant,) = _newcomers(world, "one", 1)
    with pytest.raises(Conflict) as refused:
        roster.change(run, applicant, roster.REMOVE, actor_id=world.gm, clock=world.clock)
    assert "reject the sign-up instead" in str(refused.value.message)
    roster.change(run, applicant, roster.ACCEPT, actor_id=world.gm, clock=world.clock)  # before the lottery too
    with pytest.raises(Conflict, match="joined already"):
        roster.change(run, applicant, roster.ACCEPT, actor_id=world.gm, clock=world.clock)
    with pytest.raises(InvalidState, match="has not signed up"):
        roster.change(run, world.characters[0], roster.ACCEPT, actor_id=world.gm, clock=world.clock)


def test_a_running_round_freezes_the_roster_and_nothing_changes(world) -> None:
    rid = world.new_round()
    before = [
        (p.character_id, p.status) for p in Participation.select().where(Participation.scenario == world.scenario)
    ]
    for move in (roster.REMOVE, roster.WAITLIST):
        with pytest.raises(InvalidState) as refused:
            roster.change(world.scenario, world.characters[0], move, actor_id=world.gm, clock=world.clock)
        assert "the roster changes only between rounds" in str(refused.value.message)
        assert refused.value.field == "action"
    assert roster.roster_of(world.scenario, actor_id=world.gm).running == rounds.Round.get_by_id(rid).number
    assert _signups(world.scenario) == before
    assert not AuditLog.select().where(AuditLog.action == "scenario.roster").exists()


def test_between_rounds_a_joined_character_stays_on_the_map(world) -> None:
    rid = world.new_round(deadline_in=60)
    world.clock.advance(61)
    rounds.resolve_round(rid, clock=world.clock)
    rounds.Round.update(state="published").where(rounds.Round.id == rid).execute()
    with pytest.raises(InvalidState, match="under way"):
        roster.change(world.scenario, world.characters[0], roster.REMOVE, actor_id=world.gm, clock=world.clock)
    assert roster.roster_of(world.scenario, actor_id=world.gm).under_way


def test_only_the_campaigns_gms_see_or_change_the_roster(world) -> None:
    with pytest.raises(Forbidden):
        roster.roster_of(world.scenario, actor_id=world.players[0])
    with pytest.raises(Forbidden):
        roster.change(world.scenario, world.characters[0], roster.REMOVE, actor_id=world.players[0], clock=world.clock)
