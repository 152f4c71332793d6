"""Notifications: an outbox row written in the same transaction as the change that causes it (a rolled-back change
leaves none), delivered after the commit by the scheduler's tick, by e-mail (SMTP) to a user and by a JSON POST to
the campaign's webhook.

Delivery is claimed row by row (a conditional update that must change one row, with a lease), so two schedulers
never send the same row; a failed attempt is tried again with a growing pause and given up after `MAX_ATTEMPTS`.
The only way a notification goes out twice is a deliverer killed between the send and its commit (the lease then
lets another deliverer send it again): at least once, never lost.
"""

from __future__ import annotations

import json
import logging
import os
import re
import runpy
import smtplib
import time
import urllib.request
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any

from email_validator import EmailNotValidError, validate_email
from peewee import Case, fn

from pbp.db import Busy, is_sqlite, retried, write_transaction
from pbp.errors import N_, UserError
from pbp.models import Campaign, Character, Entry, NotificationOptOut, Outbox, Participation, Reminder, Round, User
from pbp.models import Scenario as ScenarioModel
from pbp.paths import instance_dir
from pbp.services import notices
from pbp.services._common import get_or_fail, locked, storable_text
from pbp.services.clock import SYSTEM, Clock, iso_utc, local_text, to_db

log = logging.getLogger(__name__)

#: The mail with the link to set a forgotten password (`accounts.request_password_reset`).
PASSWORD_RESET = "account.password_reset"
#: Every kind of notification, with its subject and body in each language ({...} from the payload).
MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    "round.opened": {
        "ja": (
            "【{scenario}】第{number}ラウンド受付開始",
            "第{number}ラウンドの行動を受け付けています。締切は {deadline} です。",
        ),
        "en": ("[{scenario}] Round {number} is open", "Round {number} takes entries until {deadline}."),
    },
    "round.extended": {
        "ja": (
            "【{scenario}】第{number}ラウンドの締切変更",
            "第{number}ラウンドの締切が {deadline} に変更されました。",
        ),
        "en": ("[{scenario}] Round {number} has a new deadline", "Round {number} now takes entries until {deadline}."),
    },
    "round.reminder": {
        "ja": (
            "【{scenario}】締切まであと{hours}時間",
            "第{number}ラウンドの行動がまだ提出されていません。締切は {deadline} です。",
        ),
        "en": (
            "[{scenario}] {hours} h left for round {number}",
            "You have not sent your entry for round {number} yet. The deadline is {deadline}.",
        ),
    },
    "round.published": {
        "ja": ("【{scenario}】第{number}ラウンドの報告書を公開", "第{number}ラウンドの報告書が公開されました。"),
        "en": ("[{scenario}] Round {number} is published", "The report of round {number} is published."),
    },
    "round.publish_refused": {
        "ja": (
            "【{scenario}】第{number}ラウンドの自動公開を止めました",
            "第{number}ラウンドの報告書にGMの秘密情報が含まれているため、自動公開できませんでした。"
            "報告書を直して公開してください。",
        ),
        "en": (
            "[{scenario}] Round {number} was not published automatically",
            "The report of round {number} holds GM-secret text, so it was not published. "
            "Fix the report and publish it.",
        ),
    },
    "round.resolved": {
        "ja": (
            "【{scenario}】第{number}ラウンド処理完了・確認待ち",
            "第{number}ラウンドを処理しました。確認して公開してください。",
        ),
        "en": (
            "[{scenario}] Round {number} resolved, waiting for your review",
            "Round {number} is resolved: review its report and publish it.",
        ),
    },
    "round.held": {
        "ja": (
            "【{scenario}】第{number}ラウンド保留",
            "締切時点で{missing}/{joined}人の行動が未提出のため、第{number}ラウンドを保留しました。"
            "下のリンクのページ（または pbp round release {round}）で解除すると処理されます。",
        ),
        "en": (
            "[{scenario}] Round {number} is held",
            "{missing} of {joined} characters had no entry at the deadline, so round {number} is held for you. "
            "Release it on the page below (or with pbp round release {round}) to resolve it.",
        ),
    },
    "round.quarantined": {
        "ja": (
            "【{scenario}】第{number}ラウンド隔離",
            "第{number}ラウンドの処理が{failures}回失敗したため隔離しました。最後のエラー: {error}\n"
            "原因を直したら、下のリンクのページ（または pbp round release {round}）で解除してください。",
        ),
        "en": (
            "[{scenario}] Round {number} is quarantined",
            "Round {number} failed to resolve {failures} times and is quarantined. Last error: {error}\n"
            "Once its cause is fixed, release it on the page below (or with pbp round release {round}).",
        ),
    },
    "round.scheduled": {
        "ja": (
            "【{scenario}】第{number}ラウンドの予定",
            "第{number}ラウンドが予定されました（締切 {deadline}）。受付が始まったらお知らせします。",
        ),
        "en": (
            "[{scenario}] Round {number} is planned",
            "Round {number} is planned, with its deadline at {deadline}. You will be told when it opens.",
        ),
    },
    "round.waiting": {
        "ja": (
            "【{scenario}】第{number}ラウンドはGMの判断待ち",
            "締切時点で{missing}/{joined}人の行動が未提出のため、第{number}ラウンドは保留になりました。"
            "GMが再開すると処理されます。",
        ),
        "en": (
            "[{scenario}] Round {number} waits for the GM",
            "{missing} of {joined} characters had no entry at the deadline, so round {number} is held. "
            "It is resolved once the GM releases it.",
        ),
    },
    "entry.late": {
        "ja": (
            "【{scenario}】{character}の行動は保存されませんでした",
            "第{number}ラウンドの締切（{deadline}）を過ぎていたため、{character}の行動は保存されませんでした。"
            "書いた文章は下書きとして残っています。",
        ),
        "en": (
            "[{scenario}] {character}'s entry was not saved",
            "The deadline of round {number} ({deadline}) had passed, so {character}'s entry was not saved. "
            "What you wrote is kept as a draft.",
        ),
    },
    "signup.joined": {
        "ja": ("【{scenario}】{character}の参加が決まりました", "{character}は「{scenario}」に参加します。"),
        "en": ("[{scenario}] {character} takes part", "{character} takes part in {scenario}."),
    },
    "signup.waitlisted": {
        "ja": (
            "【{scenario}】{character}はキャンセル待ちです",
            "「{scenario}」の参加枠が埋まったため、{character}はキャンセル待ちになりました。枠が空けば順に参加します。",
        ),
        "en": (
            "[{scenario}] {character} is on the waiting list",
            "{scenario} is full, so {character} is on its waiting list and joins in turn when a place frees up.",
        ),
    },
    "growth.approved": {
        "ja": ("{character}の成長申請が承認されました", "{character}の成長申請がGMに承認され、反映されました。"),
        "en": (
            "{character}'s growth request is approved",
            "The GM approved {character}'s growth request: it is applied.",
        ),
    },
    "growth.denied": {
        "ja": ("{character}の成長申請は却下されました", "{character}の成長申請はGMに却下されました。理由：{reason}"),
        "en": (
            "{character}'s growth request is denied",
            "The GM denied {character}'s growth request. Reason: {reason}",
        ),
    },
    "roster.accept": {
        "ja": ("【{scenario}】{character}の参加が決まりました", "GMが{character}の参加を認めました。"),
        "en": ("[{scenario}] {character} takes part", "The GM accepted {character} into {scenario}."),
    },
    "roster.waitlist": {
        "ja": ("【{scenario}】{character}はキャンセル待ちになりました", "GMが{character}をキャンセル待ちにしました。"),
        "en": ("[{scenario}] {character} is on the waitlist", "The GM put {character} on the waitlist of {scenario}."),
    },
    "roster.reject": {
        "ja": ("【{scenario}】{character}の参加は見送られました", "GMが{character}の参加申し込みを見送りました。"),
        "en": ("[{scenario}] {character} does not take part", "The GM turned down {character}'s sign-up."),
    },
    "roster.remove": {
        "ja": ("【{scenario}】{character}は参加者から外れました", "GMが{character}を参加者から外しました。"),
        "en": ("[{scenario}] {character} no longer takes part", "The GM took {character} off {scenario}."),
    },
    "note.new": {
        "ja": ("【{scenario}】{who}さんから新しいメモ", "「{scenario}」の非公開メモに{who}さんが書き込みました。"),
        "en": ("[{scenario}] A new note from {who}", "{who} wrote in your private notes of {scenario}."),
    },
    "webhook.test": {
        "ja": (
            "【{title}】Webhookのテスト",
            "pbp からのテスト通知です。これが届いていれば、このキャンペーンの通知はここに届きます。",
        ),
        "en": (
            "[{title}] Webhook test",
            "A test notice from pbp: if you can read this, the campaign's notifications reach this channel.",
        ),
    },
    PASSWORD_RESET: {
        "ja": (
            "パスワードの再設定",
            "{name} さんのパスワードを再設定するには、1時間以内に次のリンクを開いてください。\n"
            "心当たりがなければ、このメールは無視してください（パスワードは変わりません）。\n\n{link}",
        ),
        "en": (
            "Set a new password",
            "To set a new password for {name}, open this link within an hour.\n"
            "If you did not ask for it, ignore this mail (the password stays as it is).\n\n{link}",
        ),
    },
}
#: Told to the campaign's GMs only, never to its webhook (a players' channel, as often as not): that the leak check
#: stopped a publication tells the players a secret is near.
GM_ONLY = frozenset({"round.publish_refused"})
#: Sent because the user asked for them, whatever their preferences: no switch on the notifications page.
ASKED_FOR = (PASSWORD_RESET, "webhook.test")
#: How long a kind's mail is worth sending: a reset link works for an hour (the web app refuses it after), so a mail
#: that could not go out by then (SMTP down) is skipped rather than sent with a dead link.
EXPIRES = {PASSWORD_RESET: timedelta(hours=1)}
#: The kinds a user may switch off.
KINDS = tuple(kind for kind in MESSAGES if kind not in ASKED_FOR)
LOCALES = ("ja", "en")
#: Seconds before a deadline when players without an entry are reminded (each once; a late start sends the nearest).
REMINDER_LEADS = (24 * 3600, 3600)
MAX_ATTEMPTS = 5  # deliveries tried before a notification is given up
RETRY_AFTER = 60  # seconds before the second attempt, doubled for each further one
LEASE = 120  # seconds a deliverer holds its claim on a row (longer than any send may take)
SEND_TIMEOUT = 10.0  # seconds an SMTP server or webhook may take to answer
DELIVERY_BUDGET = 30.0  # seconds a tick spends starting deliveries (the rest go at the next tick)
SKIP_BATCH = 1000  # e-mails with nowhere to go skipped in one transaction (the rest at the next tick)
#: How long a finished notification (sent, skipped or given up) is kept: the operator's record of what went out.
OUTBOX_KEPT = timedelta(days=90)
PRUNE_BATCH = 500  # finished notifications deleted a tick at most: a backlog drains over ticks, none of them long
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
ADDRESS_LIMIT = 254
PENDING, SENT, FAILED, SKIPPED = "pending", "sent", "failed", "skipped"
FINISHED = (SENT, SKIPPED, FAILED)  # a row's last statuses: it never turns pending again


# ---- writing notifications (inside the caller's transaction) -----------------------------------------------------


def scenario_names(scenario: ScenarioModel, pack: dict[str, Any] | None) -> dict[str, str]:
    """A scenario's title for a payload, and the pack's English one (`scenario_en`, which English texts use; the title
    when the pack gives none)."""
    spec = ((pack or {}).get("scenarios") or {}).get(scenario.pack_scenario) or {}
    english = spec.get("en") if isinstance(spec, dict) else None
    return {
        "scenario": scenario.title,
        "scenario_en": english if isinstance(english, str) and english else scenario.title,
    }


def round_payload(rnd: Round, *, published: bool = False) -> dict[str, Any]:
    """What every round notification says: its id, number, scenario title (and the pack's English one, which English
    texts use), campaign and deadline; `path` the page it links: the report once `published`, else the scenario's
    public page (the report's address is a 404 until then)."""
    scenario = ScenarioModel.select(ScenarioModel, Campaign.slug, Campaign.timezone, Campaign.pack).join(Campaign)
    scenario = scenario.where(ScenarioModel.id == rnd.scenario_id).get()
    slug = scenario.campaign.slug
    return {
        "round": rnd.id,
        "number": rnd.number,
        **scenario_names(scenario, scenario.campaign.pack),
        "campaign": slug,
        "path": (
            f"/blog/{slug}/{scenario.slug}/round-{rnd.number}/"
            if published
            else f"/campaigns/{slug}/scenarios/{scenario.slug}/"
        ),
        "deadline": local_text(rnd.deadline, scenario.campaign.timezone),
        "deadline_utc": iso_utc(rnd.deadline),
    }


def queue(kind: str, at: datetime, *, users: Iterable[int], campaign_id: int | None = None, **payload: Any) -> None:
    """Queue `kind` for each of `users` who has not switched it off and, when `campaign_id` is given and the
    campaign set a webhook, once for the webhook; and keep it in each user's notice list (`notices`). Call inside
    the transaction of the change it tells of."""
    recipients = set(users)
    if kind not in ASKED_FOR:  # the site's own list tells every user, whatever their e-mail switches say
        notices.record(kind, at, recipients, payload)
    if recipients:
        off = NotificationOptOut.select(NotificationOptOut.user).where(
            NotificationOptOut.kind == kind, NotificationOptOut.user.in_(recipients)
        )
        recipients -= {o.user_id for o in off}
    rows = [_row(kind, at, payload, recipient=uid, channel="email") for uid in sorted(recipients)]
    if campaign_id is not None:
        url = Campaign.select(Campaign.webhook_url).where(Campaign.id == campaign_id).scalar()
        if url:
            rows.append(_row(kind, at, payload, recipient=None, channel="webhook", address=url))
    if rows:
        Outbox.insert_many(rows).execute()


def notify_round(kind: str, rnd: Round, at: datetime, *, users: Iterable[int], **extra: Any) -> None:
    """Queue a round's notification (its `round_payload` and `extra`) for `users` and, unless it is for the GMs only
    (`GM_ONLY`), the campaign's webhook."""
    payload = round_payload(rnd, published=kind == "round.published")
    campaign_id = ScenarioModel.select(ScenarioModel.campaign).where(ScenarioModel.id == rnd.scenario_id).scalar()
    queue(kind, at, users=users, campaign_id=None if kind in GM_ONLY else campaign_id, **payload, **extra)


def queue_webhook(kind: str, at: datetime, url: str, payload: dict[str, Any]) -> int:
    """Queue `kind` for a webhook alone (the GM's test event: no user is told); returns the outbox row's id."""
    return int(Outbox.insert(_row(kind, at, payload, recipient=None, channel="webhook", address=url)).execute())


def unanswered(kind: str, at: datetime) -> None:
    """Record a notification asked for that goes to nobody (`ASKED_FOR`: a reset mail for a name no account with an
    address has): one row, skipped from the start, with no recipient and nothing of what was asked. Asking costs
    the same write whether or not it is answered, so the commit's flush tells nothing."""
    row = _row(kind, at, {}, recipient=None, channel="email")
    Outbox.insert({**row, "status": SKIPPED, "last_error": UNANSWERED}).execute()


def forget_unanswered(kind: str, at: datetime) -> None:
    """Delete the unanswered asks of `kind` older than `UNANSWERED_KEPT`: anyone may ask, so their rows must not
    pile up (the rate limit bounds them per address, not in all). Every ask calls it, answered or not."""
    Outbox.delete().where(
        Outbox.kind == kind,
        Outbox.recipient.is_null(),
        Outbox.status == SKIPPED,
        Outbox.created_at < at - UNANSWERED_KEPT,
    ).execute()


def _row(
    kind: str, at: datetime, payload: dict[str, Any], *, recipient: int | None, channel: str, address: str | None = None
) -> dict[str, Any]:
    """One outbox row (every row has the same keys: `insert_many` takes the first row's)."""
    return {
        "kind": kind, "payload": payload, "created_at": at, "next_attempt_at": at, "status": PENDING,
        "recipient": recipient, "channel": channel, "address": address,
    }  # fmt: skip


# ---- a user's and a campaign's settings ---------------------------------------------------------------------------


def checked_email(address: str | None) -> str | None:
    """An e-mail address as stored (trimmed; None or empty: none), or a refusal of one that is not an address.

    Checked by `email-validator` without a DNS look-up (a sign-up must not wait on, nor leak to, the network): a
    domain of one label (`a@b`) and a local part outside ASCII (it needs SMTPUTF8 from every server on the way) are
    refused; an internationalised domain is stored in ASCII (`user@例え.jp` as `user@xn--r8jz45g.jp`), which every
    mail server delivers to, and a domain in lower case."""
    value = storable_text(address, N_("email")).strip() if address else ""
    if not value:
        return None
    refused = UserError(N_("%(value)r is not an e-mail address", value=value[:60]), "email")
    if len(value) > ADDRESS_LIMIT:
        raise refused
    try:
        checked = validate_email(value, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError:
        raise refused from None
    return str(checked.ascii_email or checked.normalized)


@retried
def set_email(user_id: int, address: str | None, *, clock: Clock = SYSTEM) -> User:
    """Where the user's notifications go by e-mail (None or empty: nowhere); a malformed address is refused."""
    _store_settings(user_id, {}, address=checked_email(address), set_address=True)
    return User.get_by_id(user_id)


@retried
def save_settings(user_id: int, address: str | None, enabled: dict[str, bool], *, clock: Clock = SYSTEM) -> None:
    """The notifications page's save, in one transaction: where e-mail goes and each kind given switched on or off
    (a kind not given keeps its setting). Nothing is stored when any of it is refused."""
    _store_settings(user_id, enabled, address=checked_email(address), set_address=True)


def _store_settings(user_id: int, enabled: dict[str, bool], *, address: str | None = None, set_address: bool) -> None:
    for kind in enabled:
        _checked_kind(kind)
    with write_transaction():
        locked(User, user_id, N_("user"))
        if set_address:
            User.update(email=address).where(User.id == user_id).execute()
        if enabled:
            mine = NotificationOptOut.user == user_id
            NotificationOptOut.delete().where(mine, NotificationOptOut.kind.in_(list(enabled))).execute()
            off = [{"user": user_id, "kind": kind} for kind, on in enabled.items() if not on]
            if off:
                NotificationOptOut.insert_many(off).execute()


def _checked_kind(kind: str) -> str:
    if storable_text(kind, N_("kind")) not in KINDS:
        raise UserError(
            N_("unknown notification kind %(kind)r (known: %(known)s)", kind=kind[:40], known=", ".join(KINDS)), "kind"
        )
    return kind


@retried
def set_preference(user_id: int, kind: str, enabled: bool, *, clock: Clock = SYSTEM) -> dict[str, bool]:
    """Switch one kind of notification on or off for the user; returns every kind's setting."""
    _store_settings(user_id, {kind: enabled}, set_address=False)
    return preferences(user_id)


def preferences(user_id: int) -> dict[str, bool]:
    """Each kind of notification: whether the user receives it."""
    get_or_fail(User, user_id, N_("user"))
    off = {o.kind for o in NotificationOptOut.select().where(NotificationOptOut.user == user_id)}
    return {kind: kind not in off for kind in KINDS}


def set_webhook(campaign_id: int, url: str | None, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """The URL the campaign's notifications are POSTed to as JSON (None or empty: none); http(s) only."""
    from pbp.services import campaign_settings

    campaign_settings.change(campaign_id, actor_id=actor_id, clock=clock, webhook=url)
    return Campaign.get_by_id(campaign_id)


# ---- reminders ----------------------------------------------------------------------------------------------------


def rounds_to_remind(*, clock: Clock = SYSTEM) -> list[int]:
    """Open rounds with someone `remind` would remind now: a joined, living character without an entry whose owner
    has had no reminder at the lead the deadline lies within. One query for every round: a tick no longer opens a
    write transaction (and locks the round) for each open round whose reminders all went."""
    now = to_db(clock.now())
    leads = sorted(REMINDER_LEADS)
    lead_now = Case(None, [(Round.deadline <= now + timedelta(seconds=x), x) for x in leads])  # the nearest
    entered = Entry.select(Entry.id).where(Entry.round == Round.id, Entry.character == Character.id)
    reminded = Reminder.select(Reminder.id).where(
        Reminder.round == Round.id, Reminder.user == Character.owner, Reminder.lead == lead_now
    )
    waiting = (
        Character.select(Character.id)
        .join(Participation)
        .where(
            Participation.scenario == Round.scenario,
            Participation.status == "joined",
            Character.alive,
            ~fn.EXISTS(entered),
            ~fn.EXISTS(reminded),
        )
    )
    window = now + timedelta(seconds=leads[-1])
    query = Round.select(Round.id).where(
        Round.state == "open", Round.deadline > now, Round.deadline <= window, fn.EXISTS(waiting)
    )
    return [r.id for r in query.order_by(Round.id)]


@retried
def remind(round_id: int, *, clock: Clock = SYSTEM) -> list[int]:
    """Remind each player with a joined, living character that has no entry in the open round, once for the nearest
    lead the deadline is within (the farther leads count as sent: a late start sends one reminder, not two); returns
    the users reminded. The round row is locked, so two schedulers remind once."""
    now = to_db(clock.now())
    with write_transaction():
        rnd = locked(Round, round_id, N_("round"))
        left = (rnd.deadline - now).total_seconds()
        if rnd.state != "open" or left <= 0 or left > max(REMINDER_LEADS):
            return []
        lead = min(x for x in REMINDER_LEADS if left <= x)
        owners = (
            Character.select(Character.id, Character.owner)
            .join(Participation)
            .where(Participation.scenario == rnd.scenario_id, Participation.status == "joined", Character.alive)
        )
        entered = {e.character_id for e in Entry.select(Entry.character).where(Entry.round == round_id)}
        missing = {c.owner_id for c in owners if c.id not in entered}
        done = {
            r.user_id for r in Reminder.select(Reminder.user).where(Reminder.round == round_id, Reminder.lead == lead)
        }
        users = sorted(missing - done)
        if not users:
            return []
        farther = [x for x in REMINDER_LEADS if x >= lead]
        already = {(r.user_id, r.lead) for r in Reminder.select().where(Reminder.round == round_id)}
        Reminder.insert_many(
            [
                {"round": round_id, "user": uid, "lead": x, "sent_at": now}
                for uid in users
                for x in farther
                if (uid, x) not in already
            ]
        ).execute()
        hours = max(1, round(left / 3600))
        queue("round.reminder", now, users=users, **round_payload(rnd), hours=hours)
    return users


# ---- delivery -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Where e-mail goes: an SMTP server (no credentials in the repository: the environment or the instance's
    config.py give them). `tls`: "starttls", "ssl" or "none"."""

    smtp_host: str | None = None
    smtp_port: int = 25
    tls: str = "none"
    sender: str = "pbp@localhost"
    user: str | None = None
    password: str | None = None
    site_url: str = ""

    @classmethod
    def load(cls) -> Settings:
        """PBP_SMTP_HOST, PBP_SMTP_PORT, PBP_SMTP_TLS, PBP_SMTP_FROM, PBP_SMTP_USER, PBP_SMTP_PASSWORD and
        PBP_SITE_URL from the environment, else SMTP_HOST, ... and SITE_URL from `$PBP_INSTANCE/config.py`."""
        config: dict[str, Any] = {}
        path = instance_dir() / "config.py"
        if path.is_file():
            config = runpy.run_path(str(path))

        def get(name: str, default: Any = None) -> Any:
            return os.environ.get(f"PBP_{name}") or config.get(name) or default

        tls = str(get("SMTP_TLS", "none")).lower()
        if tls not in ("starttls", "ssl", "none"):
            raise UserError(N_("SMTP_TLS must be starttls, ssl or none, got %(got)r", got=tls))
        port = get("SMTP_PORT", 465 if tls == "ssl" else 587 if tls == "starttls" else 25)
        try:
            port = int(port)
        except ValueError:
            raise UserError(N_("SMTP_PORT must be a port number, got %(got)r", got=port)) from None
        return cls(
            smtp_host=get("SMTP_HOST"),
            smtp_port=port,
            tls=tls,
            sender=get("SMTP_FROM", "pbp@localhost"),
            user=get("SMTP_USER"),
            password=get("SMTP_PASSWORD"),
            site_url=str(get("SITE_URL", "")).rstrip("/"),
        )


class Undeliverable(Exception):
    """A notification that no retry can deliver (a malformed address): given up at once."""


class Nowhere(Undeliverable):
    """Nowhere to send it (no address, no SMTP server): skipped."""


def deadline_in(payload: dict[str, Any], timezone: str | None) -> dict[str, Any]:
    """The payload with its deadline worded in the user's chosen time zone instead of the campaign's (as it is
    without a choice, or when it tells of no deadline)."""
    if not timezone or not isinstance(payload.get("deadline_utc"), str):
        return payload
    try:
        at = datetime.strptime(payload["deadline_utc"], "%Y-%m-%dT%H:%M:%SZ")  # naive UTC, as stored
    except ValueError:
        return payload
    return {**payload, "deadline": local_text(at, timezone)}


def message(kind: str, payload: dict[str, Any], locale: str, site_url: str = "") -> tuple[str, str]:
    """The subject and body of a notification in `locale` (ja, en; else ja), the body ending with a link to the page
    it is about (`page_path`), unless it holds its own (`link`: a password reset's)."""
    locale = locale if locale in LOCALES else "ja"
    subject, body = MESSAGES[kind][locale]
    if locale == "en":  # the English names a payload carries beside the Japanese (`scenario_en` for `scenario`)
        payload = {**payload, **{key[:-3]: value for key, value in payload.items() if key.endswith("_en") and value}}
    if "link" in payload:
        return subject.format_map(payload), body.format_map(payload)
    link = site_url + page_path(kind, payload)
    return subject.format_map(payload), f"{body.format_map(payload)}\n\n{link}" if site_url else body.format_map(
        payload
    )


#: Where a GM's notice leads in the GM's console (under /gm/<campaign>/rounds/<round>/): the report to edit and
#: publish, or the round's page with its actions.
GM_PAGES = {"round.resolved": "report", "round.publish_refused": "report", "round.held": "", "round.quarantined": ""}


def page_path(kind: str, payload: dict[str, Any]) -> str:
    """The page a notice leads to: its own (`page`: a scenario's, a growth request's, an entry form); the published
    report; for the GM, the round in the GM's console; else the home page, which lists the player's entries to
    write."""
    if isinstance(payload.get("page"), str):
        return str(payload["page"])
    if kind == "round.published" and "path" in payload:
        return str(payload["path"])
    if kind in GM_PAGES and "campaign" in payload and "round" in payload:
        return f"/gm/{payload['campaign']}/rounds/{payload['round']}/{GM_PAGES[kind]}"
    return "/"


def send_email(settings: Settings, to: str, subject: str, body: str, *, headers: dict[str, str] | None = None) -> None:
    """One e-mail over SMTP (SSL, STARTTLS or plain, as set), within SEND_TIMEOUT."""
    if not _EMAIL.fullmatch(to):
        raise Undeliverable(f"{to!r} is not an e-mail address")
    mail = EmailMessage()
    mail["From"] = formataddr(("pbp", settings.sender))
    mail["To"] = to
    mail["Subject"] = subject
    for name, value in (headers or {}).items():
        mail[name] = value
    mail.set_content(body)
    smtp_class = smtplib.SMTP_SSL if settings.tls == "ssl" else smtplib.SMTP
    with smtp_class(settings.smtp_host, settings.smtp_port, timeout=SEND_TIMEOUT) as smtp:
        if settings.tls == "starttls":
            smtp.starttls()
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        try:
            smtp.send_message(mail)
        except smtplib.SMTPRecipientsRefused as e:
            raise Undeliverable(f"the server refused {to!r}: {e.recipients}") from None


def post_webhook(url: str, kind: str, payload: dict[str, Any], site_url: str = "") -> None:
    """One JSON POST: `text` (Japanese, what chat hooks show), `text_en`, `kind` and the payload."""
    texts = {loc: "\n".join(message(kind, payload, loc, site_url)) for loc in LOCALES}
    body = json.dumps({"text": texts["ja"], "text_en": texts["en"], "kind": kind, **payload}, ensure_ascii=False)
    try:  # urllib says ValueError for a URL it cannot use
        request = urllib.request.Request(
            url, data=body.encode(), method="POST", headers={"Content-Type": "application/json; charset=utf-8"}
        )
        with urllib.request.urlopen(request, timeout=SEND_TIMEOUT) as response:  # noqa: S310 (http(s) checked)
            response.read(1024)
    except ValueError as e:
        raise Undeliverable(f"the webhook URL cannot be used: {e}") from None


def due_notifications(*, clock: Clock = SYSTEM, limit: int = 100) -> list[int]:
    """Pending notifications whose next attempt is due and that nobody holds a claim on, oldest first."""
    now = to_db(clock.now())
    query = Outbox.select(Outbox.id).where(
        Outbox.status == PENDING,
        (Outbox.next_attempt_at.is_null()) | (Outbox.next_attempt_at <= now),
        (Outbox.claimed_until.is_null()) | (Outbox.claimed_until <= now),
    )
    return [o.id for o in query.order_by(Outbox.id).limit(limit)]


@retried
def claim(outbox_id: int, *, clock: Clock = SYSTEM) -> Outbox | None:
    """Claim one notification for delivery (a conditional update that must change one row): None when another
    deliverer has it or it is no longer due."""
    now = to_db(clock.now())
    with write_transaction():
        changed = (
            Outbox.update(claimed_until=now + timedelta(seconds=LEASE), attempts=Outbox.attempts + 1)
            .where(
                Outbox.id == outbox_id,
                Outbox.status == PENDING,
                (Outbox.claimed_until.is_null()) | (Outbox.claimed_until <= now),
            )
            .execute()
        )
    return Outbox.get_by_id(outbox_id) if changed == 1 else None


@retried
def finish(outbox_id: int, *, error: str | None = None, give_up: str | None = None, clock: Clock = SYSTEM) -> str:
    """Record an attempt: sent (no `error`), or failed: tried again after a growing pause, given up (failed) after
    MAX_ATTEMPTS, or at once as `give_up` says (failed or skipped) when no retry can help. Returns the status."""
    now = to_db(clock.now())
    with write_transaction():
        row = locked(Outbox, outbox_id, N_("notification"))
        if error is None:
            changes = {"status": SENT, "sent_at": now, "claimed_until": None, "last_error": None}
        else:
            status = give_up or (FAILED if row.attempts >= MAX_ATTEMPTS else PENDING)
            pause = timedelta(seconds=RETRY_AFTER * 2 ** (row.attempts - 1))
            changes = {
                "status": status,
                "claimed_until": None,
                "last_error": error[:500],
                "next_attempt_at": now + pause,
            }
        Outbox.update(**changes).where(Outbox.id == outbox_id).execute()
    return changes["status"]


Sender = Callable[[Outbox, Settings], None]


NO_ADDRESS = "the user has no e-mail address"
NO_SMTP = "no SMTP server is set (PBP_SMTP_HOST)"
EXPIRED = "expired: what it links to no longer works"
UNANSWERED = "asked for, but no account by that name or address may be sent one now"
UNANSWERED_KEPT = timedelta(days=1)  # how long an unanswered ask's row is kept (for an operator who looks into abuse)


def send(row: Outbox, settings: Settings) -> None:
    """Deliver one claimed row: e-mail to its recipient in their language, or the webhook POST."""
    if row.channel == "webhook":
        post_webhook(row.address, row.kind, row.payload, settings.site_url)
        return
    user = User.get_or_none(User.id == row.recipient_id)
    if user is None or not user.email:
        raise Nowhere(NO_ADDRESS)
    if not settings.smtp_host:
        raise Nowhere(NO_SMTP)
    subject, body = message(row.kind, deadline_in(row.payload, user.timezone), user.locale or "ja", settings.site_url)
    headers = {"X-PBP-Kind": row.kind, "X-PBP-Notification": str(row.id)}
    if "round" in row.payload:
        headers["X-PBP-Round"] = str(row.payload["round"])
    send_email(settings, user.email, subject, body, headers=headers)


@dataclass(frozen=True)
class Delivery:
    outbox_id: int
    status: str  # sent | pending (tried again later) | failed (given up) | skipped | busy
    error: str | None = None


@retried
def skip_nowhere(settings: Settings, *, clock: Clock = SYSTEM) -> list[Delivery]:
    """`send`'s own refusals, for many rows at once: every due e-mail with nowhere to go (its recipient has no
    address; else no SMTP server is set) is skipped in one transaction, with the reason `send` gives, instead of
    being claimed, tried and recorded row by row (two write transactions each): a site without mail skips a round's
    notices to 200 players in one statement, not 400 transactions."""
    now = to_db(clock.now())
    addressed = User.select(User.id).where(User.email.is_null(False), User.email != "")
    nowhere = [
        Outbox.status == PENDING,
        Outbox.channel == "email",
        (Outbox.next_attempt_at.is_null()) | (Outbox.next_attempt_at <= now),
        (Outbox.claimed_until.is_null()) | (Outbox.claimed_until <= now),
    ]
    if settings.smtp_host:  # an addressed recipient's e-mail goes out, claimed row by row
        nowhere.append(Outbox.recipient.not_in(addressed))
    query = Outbox.select(Outbox.id, Outbox.recipient).where(*nowhere).order_by(Outbox.id).limit(SKIP_BATCH)
    with write_transaction():  # a row a deliverer claims meanwhile is locked (PostgreSQL) or waits (SQLite)
        rows = list(query if is_sqlite() else query.for_update())
        recipients = [r.recipient_id for r in rows]
        reached = set() if settings.smtp_host or not rows else {u.id for u in addressed.where(User.id.in_(recipients))}
        skipped = {r.id: NO_SMTP if r.recipient_id in reached else NO_ADDRESS for r in rows}
        for reason in (NO_ADDRESS, NO_SMTP):
            ids = [i for i, why in skipped.items() if why == reason]
            if ids:
                Outbox.update(
                    status=SKIPPED, attempts=Outbox.attempts + 1, claimed_until=None, last_error=reason,
                    next_attempt_at=now,
                ).where(Outbox.id.in_(ids)).execute()  # fmt: skip
    return [Delivery(i, SKIPPED, why) for i, why in skipped.items()]


def deliver_due(
    *,
    clock: Clock = SYSTEM,
    settings: Settings | None = None,
    sender: Sender = send,
    limit: int = 100,
    budget: float = DELIVERY_BUDGET,
) -> list[Delivery]:
    """Deliver the due notifications, each claimed first; a failed one is recorded and tried again later. A busy
    database leaves a row for the next tick; nothing here raises. No row is started after `budget` seconds (hanging
    servers cannot hold the next tick back for long: the rest waits for it)."""
    settings = settings or Settings.load()
    done: list[Delivery] = []
    if sender is send:  # the default sender's refusals need no claim: skipped together first
        with suppress(Busy):  # else left to the rows' own deliveries below, or the next tick
            done = skip_nowhere(settings, clock=clock)
    stop_at = time.monotonic() + budget
    for outbox_id in due_notifications(clock=clock, limit=limit):
        if time.monotonic() >= stop_at:
            break
        try:
            row = claim(outbox_id, clock=clock)
        except Busy:
            done.append(Delivery(outbox_id, "busy"))
            continue
        if row is None:
            continue
        error, give_up = None, None
        try:
            if row.kind in EXPIRES and to_db(clock.now()) - row.created_at > EXPIRES[row.kind]:
                raise Nowhere(EXPIRED)
            sender(row, settings)
        except Undeliverable as e:
            error, give_up = str(e), SKIPPED if isinstance(e, Nowhere) else FAILED
        except Exception as e:  # unreachable, refused, timed out, a 5xx, anything: tried again later
            error = f"{type(e).__name__}: {e}"
        try:
            status = finish(outbox_id, error=error, give_up=give_up, clock=clock)
        except Busy:  # the claim lapses after LEASE and the row is sent again: the one way to a double
            status = "busy"
        done.append(Delivery(outbox_id, status, error))
    return done


def prune(*, clock: Clock = SYSTEM) -> int:
    """Delete the oldest finished notifications older than `OUTBOX_KEPT`, at most `PRUNE_BATCH`; how many. Reads
    first (the creation time is indexed, so it reads only old rows) and writes only when there is something to
    delete: a tick takes no write lock for it otherwise."""
    cutoff = to_db(clock.now()) - OUTBOX_KEPT
    old = Outbox.select(Outbox.id).where(Outbox.created_at < cutoff, Outbox.status.in_(FINISHED))
    old = old.order_by(Outbox.created_at)
    ids = [row.id for row in old.limit(PRUNE_BATCH)]
    return _delete_finished(ids) if ids else 0


@retried
def _delete_finished(ids: list[int]) -> int:
    with write_transaction():  # what was read still holds: a finished row stays finished
        return Outbox.delete().where(Outbox.id.in_(ids), Outbox.status.in_(FINISHED)).execute()
