"""The on-site notice list: every event the outbox tells a user is kept for them too, whatever their e-mail switches
say and with no mail server; the events the issue names (a round planned, opened, held, published; a reminder; a
late save; a sign-up's result; a growth decision) each reach the right users, in the transaction of the change."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.errors import NotFound
from pbp.models import Notice, Outbox, Round
from pbp.services import campaigns, characters, drafts, notices, notifications, rounds, scenarios
from tests.lifecycle.test_scenarios import _extra_characters


def kinds_of(user_id: int) -> list[str]:
    return [n.kind for n in Notice.select().where(Notice.user == user_id).order_by(Notice.id)]


def test_a_round_told_in_the_list_whatever_the_e_mail_switches_say(world) -> None:
    player1, player2 = world.players
    notifications.set_preference(player1, "round.opened", False, clock=world.clock)
    round_id = world.new_round(open_it=False)
    for player in world.players:
        assert kinds_of(player) == ["round.scheduled"]
    rounds.open_round(round_id, clock=world.clock)
    for player in world.players:
        assert kinds_of(player) == ["round.opened"]  # the unread "planned" said nothing more: gone
    mailed = Outbox.select().where(Outbox.kind == "round.opened", Outbox.channel == "email")
    assert {o.recipient_id for o in mailed} == {player2}  # the switch is for e-mail only
    notice = Notice.get(Notice.user == player1, Notice.kind == "round.opened")
    assert notice.payload["round"] == round_id and notice.read_at is None
    assert notices.unread_count(player1) == 1 and notices.unread_count(world.gm) == 0


def test_a_password_reset_is_no_notice(world) -> None:
    notifications.queue(notifications.PASSWORD_RESET, world.clock.now(), users=[world.players[0]], name="p", link="x")
    assert kinds_of(world.players[0]) == []


def test_a_reminder_and_a_held_round_reach_the_players(world) -> None:
    round_id = world.new_round(deadline_in=3 * 3600)
    world.clock.advance(2 * 3600 + 60)
    assert set(notifications.remind(round_id, clock=world.clock)) == set(world.players)
    world.clock.advance(3600)
    assert rounds.guard(round_id, clock=world.clock)  # nobody wrote: held for the GM
    for player in world.players:
        assert kinds_of(player)[-2:] == ["round.reminder", "round.waiting"]
    assert kinds_of(world.gm) == ["round.held"]
    held = Notice.get(Notice.user == world.players[0], Notice.kind == "round.waiting")
    assert held.payload["missing"] == 2 and held.payload["joined"] == 2


def test_a_late_save_keeps_its_text_as_the_draft_and_tells_the_player(world) -> None:
    round_id = world.new_round()
    world.clock.advance(3601)
    cid, uid = world.characters[0], world.players[0]
    drafts.refused_late(round_id, cid, user_id=uid, prose="遅れた一文", clock=world.clock)
    assert drafts.draft_of(round_id, cid, user_id=uid).late
    late = Notice.get(Notice.user == uid, Notice.kind == "entry.late")
    assert late.payload["page"] == f"/rounds/{round_id}/entry/{cid}" and late.payload["character"] == "葵"
    subject, body = notifications.message("entry.late", late.payload, "ja")
    assert "葵" in subject and "下書き" in body


def test_late_saves_tell_the_player_once_per_round_until_a_new_deadline(world) -> None:
    """Issue 33: every refused save after the deadline queued its own notice and e-mail (a player trying three
    times got three mails, and each cost the rush's busiest seconds two more writes)."""
    from pbp.models import Outbox

    round_id = world.new_round()
    world.clock.advance(3601)
    cid, uid = world.characters[0], world.players[0]

    def late(prose: str) -> None:
        drafts.refused_late(round_id, cid, user_id=uid, prose=prose, clock=world.clock)
        world.clock.advance(5)

    def told() -> tuple[int, int]:
        mails = Outbox.select().where(Outbox.kind == "entry.late", Outbox.recipient == uid).count()
        return kinds_of(uid).count("entry.late"), mails

    late("一度目")
    late("二度目")
    assert told() == (1, 1) and drafts.draft_of(round_id, cid, user_id=uid).prose == "二度目"
    other = world.characters[1]
    drafts.refused_late(round_id, other, user_id=world.players[1], prose="別の人", clock=world.clock)
    assert kinds_of(world.players[1]).count("entry.late") == 1  # told per character
    rounds.extend_round(round_id, world.clock.now() + timedelta(hours=1), clock=world.clock)
    world.clock.advance(3601)
    late("新しい締切のあと")
    assert told() == (2, 2)


def test_a_signups_result_and_a_growth_decision_reach_the_player(world) -> None:
    deadline = world.clock.now() + timedelta(days=1)
    run = campaigns.create_scenario(
        world.campaign, "tama_river", slug="tama-n", slots=1, signup_deadline=deadline, clock=world.clock
    )
    applicants = _extra_characters(world, 2)
    for uid, cid in applicants:
        scenarios.join_scenario(run.id, cid, user_id=uid, clock=world.clock)
    world.clock.advance(86400)
    chosen = scenarios.close_signup(run.id, clock=world.clock)
    for uid, cid in applicants:
        told = Notice.get(Notice.user == uid)
        assert told.kind == ("signup.joined" if cid in chosen else "signup.waitlisted")
        assert told.payload["page"] == "/campaigns/demo/scenarios/tama-n/"

    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 5, reason="a fine round", actor_id=world.gm, clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    characters.decide_growth(request.id, False, "not yet", actor_id=world.gm, clock=world.clock)
    denied = Notice.get(Notice.user == uid, Notice.kind == "growth.denied")
    assert denied.payload["reason"] == "not yet" and denied.payload["page"] == f"/characters/{cid}/growth"
    assert "not yet" in notifications.message("growth.denied", denied.payload, "en")[1]


def test_opening_a_notice_is_its_users_alone_and_a_deleted_round_is_said_gone(world) -> None:
    round_id = world.new_round(open_it=False)
    player1, player2 = world.players
    mine = Notice.get(Notice.user == player1, Notice.kind == "round.scheduled")
    with pytest.raises(NotFound):
        notices.open_notice(mine.id, user_id=player2, clock=world.clock)
    assert Notice.get_by_id(mine.id).read_at is None
    assert notices.open_notice(mine.id, user_id=player1, clock=world.clock).id == mine.id
    assert Notice.get_by_id(mine.id).read_at is not None
    Round.delete().where(Round.id == round_id).execute()
    assert notices.gone_rounds(notices.latest(player1)) == {round_id}
    assert notices.mark_all_read(player2, clock=world.clock) == 1 and notices.unread_count(player2) == 0


def test_read_notices_are_forgotten_after_a_while_unread_ones_kept(world) -> None:
    player1, player2 = world.players
    world.new_round()
    assert notices.mark_all_read(player1, clock=world.clock) == 1
    world.clock.advance(notices.READ_KEPT.total_seconds() + 60)
    world.new_round(scenario=world.new_scenario("later"))
    assert notices.mark_all_read(player1, clock=world.clock) == 1  # the new one; the old read one goes
    assert kinds_of(player1) == ["round.opened"]
    assert kinds_of(player2) == ["round.opened", "round.opened"]  # never read: kept
