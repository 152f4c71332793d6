"""The scheduler's tick, in process with an injected clock: closing at the deadline, the missing-entries guard,
resolving with any failure counted and quarantined, automatic publishing, reminders and the notifications they
cause, delivered to a real SMTP server and webhook on 127.0.0.1 in both languages, and what goes wrong on the way
(an unreachable server, a webhook answering 500 or hanging, a malformed address, a database that fails)."""

from __future__ import annotations

from datetime import timedelta

import peewee
import pytest

from pbp.models import Outbox, Round, User
from pbp.services import campaigns, entries, notifications, rounds, schedule
from pbp.services.clock import to_db
from pbp.services.notifications import Settings
from tests.lifecycle.receivers import free_port, smtp, webhook  # noqa: F401 (fixtures)


def kinds(**where) -> list[tuple]:
    """The outbox as (kind, recipient or 'webhook', round), in order."""
    rows = Outbox.select().order_by(Outbox.id)
    return [(o.kind, o.recipient_id or "webhook", o.payload.get("round")) for o in rows]


def enter(world, round_id: int, *players: int) -> None:
    for i in players:
        entries.save_entry(round_id, world.characters[i], user_id=world.players[i], order=world.order(), prose="行く",
                           clock=world.clock)  # fmt: skip


def statuses(report: schedule.TickReport) -> list[tuple[int, str]]:
    return [(o.round_id, o.status) for o in report.rounds]


# ---- the guard, publishing, the GM's notices ----------------------------------------------------------------------


def test_the_guard_holds_a_round_with_most_entries_missing_and_tells_the_gm(world) -> None:
    rid = world.new_round(deadline_in=60)
    enter(world, rid)  # nobody
    world.clock.advance(61)
    report = schedule.tick(clock=world.clock)
    assert report.held == [rid] and report.rounds == []
    assert Round.get_by_id(rid).state == "held"
    assert ("round.held", world.gm, rid) in kinds()
    # the GM releases it: it resolves as it stands, the guard does not hold it again
    rounds.release_round(rid, clock=world.clock)
    report = schedule.tick(clock=world.clock)
    assert report.held == [] and statuses(report) == [(rid, "resolved")]
    assert ("round.resolved", world.gm, rid) in kinds()


def test_half_the_entries_missing_is_not_more_than_the_default_share(world) -> None:
    rid = world.new_round(deadline_in=60)
    enter(world, rid, 0)  # one of two: 50 %, the guard holds only above it
    world.clock.advance(61)
    report = schedule.tick(clock=world.clock)
    assert report.closed == [rid] and report.held == [] and statuses(report) == [(rid, "resolved")]


def test_a_campaign_that_publishes_automatically_publishes_at_the_tick(world) -> None:
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    rid = world.new_round(deadline_in=60)
    enter(world, rid, 0, 1)
    world.clock.advance(61)
    report = schedule.tick(clock=world.clock)
    assert statuses(report) == [(rid, "resolved")] and report.published == [rid]
    assert Round.get_by_id(rid).state == "published"
    notices = [k for k in kinds() if k[2] == rid]
    assert ("round.published", world.players[0], rid) in notices and (
        "round.published",
        world.players[1],
        rid,
    ) in notices
    assert not [k for k in notices if k[0] == "round.resolved"]  # nothing for the GM to review


def test_by_default_the_round_waits_for_the_gm_who_is_told(world) -> None:
    rid = world.new_round(deadline_in=60)
    enter(world, rid, 0, 1)
    world.clock.advance(61)
    assert schedule.tick(clock=world.clock).published == []
    assert Round.get_by_id(rid).state == "resolved"
    assert [k for k in kinds() if k[0] == "round.resolved"] == [("round.resolved", world.gm, rid)]


# ---- failures: counted, quarantined, never blocking ---------------------------------------------------------------


def test_a_round_whose_tactics_raise_is_quarantined_after_three_ticks_and_blocks_nobody(world, monkeypatch) -> None:
    """The default tactics raise an unexpected error (not ResolutionFailed) for one scenario's round: each tick counts
    it, with its traceback, and resolves the other scenarios' rounds; the third quarantines it and tells the GM."""
    campaigns.set_hold_share(world.campaign, 1.0)
    bad = world.new_round(deadline_in=60)
    others = [world.new_round(deadline_in=60 + i, scenario=world.new_scenario(f"run-{i}")) for i in range(3)]
    real_encounter, real_ruleset = rounds.round_encounter, rounds.find_ruleset

    def encounter(rnd, scenario):
        return {**real_encounter(rnd, scenario), **({"boom": True} if rnd.id == bad else {})}

    class Exploding:
        def __init__(self, name):
            self.real = real_ruleset(name)

        def __getattr__(self, name):
            return getattr(self.real, name)

        def default_orders(self, enc, orders):
            if enc.get("boom"):
                raise RuntimeError("tactics bug")
            return self.real.default_orders(enc, orders)

    monkeypatch.setattr(rounds, "round_encounter", encounter)
    monkeypatch.setattr(rounds, "find_ruleset", Exploding)
    world.clock.advance(120)
    first = schedule.tick(clock=world.clock)
    assert statuses(first) == [(bad, "failed"), *((rid, "resolved") for rid in others)]
    assert "RuntimeError: tactics bug" in first.rounds[0].message and "attempt 1 of 3" in first.rounds[0].message
    assert "Traceback" in first.rounds[0].trace and "tactics bug" in first.rounds[0].trace
    for attempt in (2, 3):
        outcome = schedule.tick(clock=world.clock).rounds
        assert [(o.round_id, o.status) for o in outcome] == [(bad, "failed")]
        assert f"attempt {attempt} of 3" in outcome[0].message
    assert Round.get_by_id(bad).state == "quarantined" and Round.get_by_id(bad).failures == 3
    assert [k for k in kinds() if k[0] == "round.quarantined"] == [("round.quarantined", world.gm, bad)]
    assert schedule.tick(clock=world.clock).rounds == []  # never retried for ever


def test_a_database_failing_during_a_resolution_is_reported_not_counted(world, monkeypatch) -> None:
    rid = world.new_round(deadline_in=60)
    enter(world, rid, 0, 1)
    world.clock.advance(61)

    def gone(*args, **kwargs):
        raise peewee.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(rounds, "resolve_round", gone)
    report = schedule.tick(clock=world.clock)
    assert statuses(report) == [(rid, "error")] and Round.get_by_id(rid).failures == 0
    monkeypatch.undo()
    assert statuses(schedule.tick(clock=world.clock)) == [(rid, "resolved")]


def test_a_failing_step_is_a_problem_and_the_tick_goes_on(world, monkeypatch) -> None:
    campaigns.set_hold_share(world.campaign, 1.0)
    rid = world.new_round(deadline_in=60)
    world.clock.advance(61)

    def broken(**kwargs):
        raise peewee.InterfaceError("connection already closed")

    monkeypatch.setattr(notifications, "rounds_to_remind", broken)
    report = schedule.tick(clock=world.clock)
    assert statuses(report) == [(rid, "resolved")]
    assert [(p.step, "InterfaceError" in p.message, bool(p.trace)) for p in report.problems] == [("remind", True, True)]


def test_the_rounds_sharing_a_deadline_close_together_in_one_transaction(world, db) -> None:
    """Issue 33: 50 runs closed one by one moved the site's version 50 times in the seconds after their deadline."""
    from pbp.db import is_sqlite
    from pbp.models import AuditLog
    from pbp.models.site import current

    due = [world.new_round(deadline_in=60)]
    due += [world.new_round(deadline_in=60, scenario=world.new_scenario(f"run-{k}")) for k in (2, 3)]
    later = world.new_round(deadline_in=600, scenario=world.new_scenario("run-4"))
    world.clock.advance(61)
    before = current(db)
    assert rounds.close_past_deadline(clock=world.clock) == due
    rows = {r.id: r for r in Round.select()}
    assert [rows[rid].state for rid in due] == ["closed"] * 3 and rows[later].state == "open"
    assert len({rows[rid].closed_at for rid in due}) == 1
    logged = AuditLog.select().where(AuditLog.action == "round.close").order_by(AuditLog.target)
    assert sorted(a.target for a in logged) == sorted(f"round:{rid}" for rid in due)
    # one commit: a reader sees the version move once (SQLite's triggers count each row inside it)
    assert current(db) - before == (len(due) if is_sqlite() else 1)
    assert rounds.close_past_deadline(clock=world.clock) == []


def test_a_round_that_cannot_close_keeps_no_other_open(world, monkeypatch) -> None:
    campaigns.set_hold_share(world.campaign, 1.0)
    first = world.new_round(deadline_in=60)
    second = world.new_round(deadline_in=60, scenario=world.new_scenario("run-2"))
    world.clock.advance(61)
    from pbp.services import audit

    log = audit.log

    def refuse_first(action, target, at, **detail):  # the first round's close cannot be written down
        if action == "round.close" and target == f"round:{first}":
            raise peewee.OperationalError("disk I/O error")
        log(action, target, at, **detail)

    monkeypatch.setattr(audit, "log", refuse_first)
    report = schedule.tick(clock=world.clock)
    assert report.closed == [second] and Round.get_by_id(first).state == "open"
    assert [(p.step, p.item) for p in report.problems] == [("close", first)]
    assert (second, "resolved") in statuses(report)


def test_overdue_rounds_are_reported(world) -> None:
    rid = world.new_round(deadline_in=60)
    other = world.new_round(deadline_in=60, scenario=world.new_scenario("later"))
    rounds.hold_round(rid, reason="wait", clock=world.clock)
    rounds.release_round(rid, clock=world.clock)
    world.clock.advance(60 + schedule.OVERDUE_AFTER + 1)
    assert rounds.overdue(schedule.OVERDUE_AFTER, clock=world.clock) == [rid, other]
    schedule.tick(clock=world.clock)  # held by the guard: the GM was told, nothing overdue any more
    assert rounds.overdue(schedule.OVERDUE_AFTER, clock=world.clock) == []


# ---- reminders ----------------------------------------------------------------------------------------------------


def reminders() -> list[tuple[int, int, int]]:
    return [(o.recipient_id, o.payload["round"], o.payload["hours"]) for o in Outbox.select().where(
        Outbox.kind == "round.reminder").order_by(Outbox.id)]  # fmt: skip


def test_reminders_go_once_each_to_players_without_an_entry(world) -> None:
    p1, p2 = world.players
    rid = world.new_round(deadline_in=30 * 3600)
    world.clock.advance(5 * 3600)  # 25 h before
    schedule.tick(clock=world.clock)
    assert reminders() == []
    world.clock.advance(2 * 3600)  # 23 h before
    assert schedule.tick(clock=world.clock).reminded == {rid: [p1, p2]}
    assert schedule.tick(clock=world.clock).reminded == {}  # once
    enter(world, rid, 0)
    world.clock.advance(22 * 3600 + 10 * 60)  # 50 min before: only player 2 has no entry
    assert schedule.tick(clock=world.clock).reminded == {rid: [p2]}
    schedule.tick(clock=world.clock)
    assert reminders() == [(p1, rid, 23), (p2, rid, 23), (p2, rid, 1)]


def test_a_late_start_sends_the_nearest_reminder_only(world) -> None:
    rid = world.new_round(deadline_in=30 * 3600)
    world.clock.advance(29 * 3600 + 30 * 60)  # the scheduler was down until 30 minutes before the deadline
    schedule.tick(clock=world.clock)
    schedule.tick(clock=world.clock)
    assert reminders() == [(world.players[0], rid, 1), (world.players[1], rid, 1)]


def test_the_rounds_to_remind_are_the_rounds_remind_would_remind_in(world) -> None:
    """The tick asks `rounds_to_remind` which rounds to lock and remind in: at every step, the one query and
    `remind` itself agree (so a round whose reminders all went costs no write transaction at a tick)."""
    p1, p2 = world.players
    rid = world.new_round(deadline_in=30 * 3600)

    def step(expected: list[int]) -> None:
        assert (rid in notifications.rounds_to_remind(clock=world.clock)) == bool(expected)
        assert notifications.remind(rid, clock=world.clock) == expected

    world.clock.advance(5 * 3600)  # 25 h before: no lead yet
    step([])
    world.clock.advance(2 * 3600)  # within 24 h
    step([p1, p2])
    step([])  # sent
    enter(world, rid, 0)
    world.clock.advance(22 * 3600 + 10 * 60)  # within 1 h: only player 2 has no entry
    step([p2])
    step([])
    entries.withdraw_entry(rid, world.characters[0], user_id=p1, clock=world.clock)
    step([p1])  # no entry again, and no reminder at this lead yet
    enter(world, rid, 0, 1)
    world.clock.advance(60 * 60)  # past the deadline
    step([])


def test_a_kind_switched_off_is_not_queued(world) -> None:
    notifications.set_preference(world.players[0], "round.reminder", False)
    assert notifications.preferences(world.players[0])["round.reminder"] is False
    rid = world.new_round(deadline_in=1800)
    schedule.tick(clock=world.clock)
    assert reminders() == [(world.players[1], rid, 1)]


# ---- delivery -----------------------------------------------------------------------------------------------------


def published_round(world, *, locales=("ja", "en")) -> int:
    """A round resolved and published, the players with addresses and languages; the outbox holds only the
    publishing's notices (each player's and the webhook's)."""
    from pbp.services import accounts, publishing

    for uid, locale in zip(world.players, locales, strict=True):
        notifications.set_email(uid, f"p{uid}@example.org")
        accounts.set_locale(uid, locale)
    rid = world.new_round(deadline_in=60)
    Outbox.delete().execute()  # the opening's notices: not what these tests look at
    enter(world, rid, 0, 1)
    world.clock.advance(61)
    rounds.resolve_round(rid, clock=world.clock)
    publishing.publish_round(rid, clock=world.clock)
    Outbox.delete().where(Outbox.kind != "round.published").execute()
    return rid


def test_email_and_webhook_arrive_in_each_language(world, smtp, webhook) -> None:  # noqa: F811
    notifications.set_webhook(world.campaign, webhook.url)
    rid = published_round(world)
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port, sender="pbp@example.org",
                        site_url="https://pbp.example")  # fmt: skip
    report = schedule.tick(clock=world.clock, settings=settings)
    assert report.problems == []
    assert {d.status for d in report.deliveries} == {"sent"}
    mail = {m["To"]: m for m in smtp.messages}
    ja, en = (mail[f"p{uid}@example.org"] for uid in world.players)
    assert ja["Subject"].endswith("第1ラウンドの報告書を公開")
    assert "報告書が公開されました" in ja.get_content()
    assert "Round 1 is published" in en["Subject"] and "The report of round 1 is published." in en.get_content()
    assert "https://pbp.example/blog/demo/tama_river/round-1/" in en.get_content()
    assert "pbp@example.org" in ja["From"]
    published = [h for h in webhook.received if h["kind"] == "round.published"]
    assert len(published) == 1 and published[0]["round"] == rid
    assert "報告書が公開されました" in published[0]["text"] and "is published" in published[0]["text_en"]
    assert schedule.tick(clock=world.clock).deliveries == []  # each once
    assert len(smtp.messages) == 2


def test_unreachable_smtp_is_retried_with_backoff_then_given_up(world, smtp) -> None:  # noqa: F811
    published_round(world)
    dead = Settings(smtp_host="127.0.0.1", smtp_port=free_port())
    first = notifications.deliver_due(clock=world.clock, settings=dead)
    assert {d.status for d in first} == {"pending"} and all("ConnectionRefusedError" in d.error for d in first)
    assert notifications.deliver_due(clock=world.clock, settings=dead) == []  # not before its pause
    for _ in range(notifications.MAX_ATTEMPTS - 1):
        world.clock.advance(3600 * 24)
        notifications.deliver_due(clock=world.clock, settings=dead)
    assert {o.status for o in Outbox.select()} == {"failed"}
    assert {o.attempts for o in Outbox.select()} == {notifications.MAX_ATTEMPTS}
    assert smtp.messages == []


def test_a_webhook_answering_500_or_hanging_is_retried_and_sent_once(world, webhook, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(notifications, "SEND_TIMEOUT", 0.5)
    notifications.set_webhook(world.campaign, webhook.url)
    published_round(world)
    Outbox.delete().where(Outbox.channel != "webhook").execute()
    webhook.answers = [500, 2.0]
    assert [d.status for d in notifications.deliver_due(clock=world.clock, settings=Settings())] == ["pending"]
    world.clock.advance(61)
    hung = notifications.deliver_due(clock=world.clock, settings=Settings())
    assert [d.status for d in hung] == ["pending"] and "timed out" in hung[0].error
    world.clock.advance(121)
    assert [d.status for d in notifications.deliver_due(clock=world.clock, settings=Settings())] == ["sent"]
    assert len(webhook.received) == 1  # the 500 and the hung POST were not kept (the hook said so)


def test_deliveries_stop_at_their_budget_and_go_on_at_the_next_tick(world) -> None:
    published_round(world)  # two e-mails
    sent = []
    assert notifications.deliver_due(clock=world.clock, sender=lambda row, s: sent.append(row.id), budget=0) == []
    done = notifications.deliver_due(clock=world.clock, sender=lambda row, s: sent.append(row.id), budget=60)
    assert [d.status for d in done] == ["sent", "sent"] and len(sent) == 2


def test_a_malformed_address_is_refused_and_never_retried(world, smtp) -> None:  # noqa: F811
    with pytest.raises(notifications.UserError, match="not an e-mail address"):
        notifications.set_email(world.players[0], "not an address")
    published_round(world)
    User.update(email="broken@@example").where(User.id == world.players[0]).execute()  # stored before validation
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port)
    done = {d.status for d in notifications.deliver_due(clock=world.clock, settings=settings)}
    assert done == {"failed", "sent"} and len(smtp.messages) == 1


def outbox_states() -> dict[int, tuple]:
    return {o.id: (o.status, o.last_error, o.attempts, o.claimed_until) for o in Outbox.select()}


@pytest.mark.parametrize("mail", [False, True], ids=["no SMTP server", "SMTP server"])
def test_emails_with_nowhere_to_go_are_skipped_together_as_each_would_be(world, smtp, mail) -> None:  # noqa: F811
    """A site without mail, or a player without an address: every such notice is skipped at once, beyond a tick's
    delivery limit, each with the reason and state the row-by-row delivery gives it (the same rows run again through
    `send` one at a time: the same outcome); an addressed player's e-mail is still sent."""
    published_round(world)  # each player's notice
    User.update(email=None).where(User.id == world.players[0]).execute()
    payload = Outbox.get().payload
    for _ in range(3):  # more than `limit` rows with nowhere to go
        notifications.queue("round.published", to_db(world.clock.now()), users=world.players, **payload)
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port) if mail else Settings()
    done = notifications.deliver_due(clock=world.clock, settings=settings, limit=2)  # the first tick's
    while notifications.deliver_due(clock=world.clock, settings=settings, limit=2):  # the addressed e-mails' rest
        pass
    together = outbox_states()
    unaddressed = {o.id for o in Outbox.select().where(Outbox.recipient == world.players[0])}
    skipped = {d.outbox_id for d in done if d.status == "skipped"}
    assert skipped == (unaddressed if mail else set(together)) and len(skipped) >= 4
    assert {together[i][1] for i in unaddressed} == {notifications.NO_ADDRESS}
    assert {together[i][1] for i in skipped - unaddressed} <= {notifications.NO_SMTP}
    assert {together[i][2] for i in skipped} == {1} and len(smtp.messages) == (4 if mail else 0)
    Outbox.update(status="pending", last_error=None, attempts=0, next_attempt_at=None).where(
        Outbox.id.in_(skipped)
    ).execute()
    one_by_one = []

    def each(row: Outbox, s: Settings) -> None:  # `send` itself, but not the default: no skipping together
        notifications.send(row, s)

    while batch := notifications.deliver_due(clock=world.clock, settings=settings, sender=each):
        one_by_one += batch
    assert {d.outbox_id for d in one_by_one} == skipped
    assert {i: s[:3] for i, s in outbox_states().items()} == {i: s[:3] for i, s in together.items()}


def test_two_deliverers_claim_each_notification_once(world) -> None:
    published_round(world)
    [row_id, *_] = notifications.due_notifications(clock=world.clock)
    assert notifications.claim(row_id, clock=world.clock) is not None
    assert notifications.claim(row_id, clock=world.clock) is None  # the second deliverer
    world.clock.advance(notifications.LEASE + 1)  # the first died without recording: the lease lets it go
    assert notifications.claim(row_id, clock=world.clock) is not None


# ---- the command line ---------------------------------------------------------------------------------------------


def test_the_settings_from_the_command_line(world, capsys) -> None:
    from pbp.cli import main
    from pbp.models import Campaign

    hook_url = "https://h.example/x"
    main(["campaign", "set", "demo", "--publish-automatically", "--hold-share", "0.25", "--webhook", hook_url])
    campaign = Campaign.get_by_id(world.campaign)
    assert campaign.policies["publish_automatically"] is True and campaign.hold_share == 0.25
    assert campaign.webhook_url == hook_url
    main(["notifications", "player1", "--email", "p1@example.org", "--off", "round.reminder"])
    out = capsys.readouterr().out
    assert "player1: e-mail p1@example.org" in out and "round.reminder: off" in out
    with pytest.raises(SystemExit) as refused:
        main(["notifications", "player1", "--off", "round.nap"])
    assert refused.value.code == 2 and "unknown notification kind 'round.nap'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(["campaign", "set", "demo", "--hold-share", "1.5"])
    assert refused.value.code == 2 and "from 0 to 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("round.opened", "/"),  # the home page lists the player's entries to write
        ("round.reminder", "/"),
        ("round.published", "/blog/demo/tama_river/round-3/"),
        ("round.resolved", "/gm/demo/rounds/12/report"),
        ("round.publish_refused", "/gm/demo/rounds/12/report"),
        ("round.held", "/gm/demo/rounds/12/"),
        ("round.quarantined", "/gm/demo/rounds/12/"),
    ],
)
def test_each_notice_ends_with_a_link_to_the_page_it_is_about(kind, path) -> None:
    payload = {
        "round": 12, "number": 3, "scenario": "多摩川", "campaign": "demo", "path": "/blog/demo/tama_river/round-3/",
        "deadline": "2026-12-04 09:00", "hours": 1, "missing": 1, "joined": 2, "failures": 3, "error": "x",
    }  # fmt: skip
    for locale in ("ja", "en"):
        _subject, body = notifications.message(kind, payload, locale, "https://pbp.example")
        assert body.endswith(f"\n\nhttps://pbp.example{path}")
    assert "http" not in notifications.message(kind, payload, "ja")[1]  # no site URL set: no link


def test_a_reset_mail_that_could_not_go_out_within_the_hour_is_skipped_not_sent_with_a_dead_link(world) -> None:
    from pbp.services import accounts

    uid = world.players[0]
    notifications.set_email(uid, "p1@example.org")
    name = User.get_by_id(uid).name
    sent: list[str] = []

    def sender(row: Outbox, settings: Settings) -> None:
        sent.append(row.kind)

    settings = Settings(smtp_host="smtp.example.org")
    for minutes, expected in ((59, "sent"), (61, "skipped")):
        Outbox.delete().execute()
        assert accounts.request_password_reset(name, lambda user, fp: "https://pbp.example/r", clock=world.clock) == 1
        world.clock.advance(minutes * 60)
        done = notifications.deliver_due(clock=world.clock, settings=settings, sender=sender)
        assert [(d.status, d.error) for d in done] == [
            (expected, None if expected == "sent" else notifications.EXPIRED)
        ]
    assert sent == ["account.password_reset"]  # the first only


# ---- the outbox's old rows -----------------------------------------------------------------------------------------


def _outbox_row(status: str, at) -> int:
    return Outbox.create(kind="round.opened", payload={}, created_at=at, next_attempt_at=at, status=status).id


def test_finished_notifications_are_deleted_once_kept_long_enough_and_pending_ones_never(world, monkeypatch) -> None:
    """Sent, skipped and given-up rows older than OUTBOX_KEPT go, oldest first, PRUNE_BATCH at a time; a pending
    row of any age and a finished one not yet that old stay."""
    now = to_db(world.clock.now())
    kept_for = notifications.OUTBOX_KEPT
    gone = [_outbox_row(status, now - kept_for - timedelta(days=d)) for d, status in ((3, "sent"), (2, "skipped"),
                                                                                     (1, "failed"))]  # fmt: skip
    stay = [_outbox_row("pending", now - kept_for - timedelta(days=9))]
    stay += [_outbox_row(status, now - kept_for + timedelta(hours=1)) for status in ("sent", "skipped", "failed")]
    monkeypatch.setattr(notifications, "PRUNE_BATCH", 2)
    left = lambda: [o.id for o in Outbox.select().order_by(Outbox.id)]  # noqa: E731
    assert notifications.prune(clock=world.clock) == 2 and left() == gone[2:] + stay  # the two oldest first
    assert notifications.prune(clock=world.clock) == 1 and left() == stay
    assert notifications.prune(clock=world.clock) == 0 and left() == stay


def test_the_tick_deletes_the_old_finished_notifications(world) -> None:
    old = _outbox_row("sent", to_db(world.clock.now()) - notifications.OUTBOX_KEPT - timedelta(days=1))
    report = schedule.tick(clock=world.clock)
    assert report.pruned == 1 and Outbox.get_or_none(Outbox.id == old) is None
    assert schedule.tick(clock=world.clock).pruned == 0
