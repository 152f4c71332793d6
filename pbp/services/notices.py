"""The on-site notice list: every event the outbox tells a user (`notifications.queue`) is also kept for them here,
whether or not any e-mail goes out and whatever their e-mail switches say, so a site without a mail server still
tells its players that a round opened, that their entry is missing, that a report is out. A notice is its user's
alone; it is unread until they open it or mark the list read."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from pbp.db import retried, write_transaction
from pbp.errors import N_, NotFound
from pbp.models import Campaign, Notice, Round
from pbp.services.clock import SYSTEM, Clock, to_db

#: Notices a page lists at most (the newest first).
SHOWN = 50
#: How long a read notice is kept; an unread one stays until it is read. The user's own reads forget theirs.
READ_KEPT = timedelta(days=90)


#: A notice that makes an unread one of the same round moot: a round opening says all its "planned" did.
SUPERSEDES = {"round.opened": "round.scheduled"}


def record(kind: str, at: datetime, users: Iterable[int], payload: dict[str, Any]) -> None:
    """Keep `kind` for each of `users`, inside the transaction of the change it tells of (a rolled-back change
    leaves no notice); an unread notice it supersedes (`SUPERSEDES`) of the same round goes."""
    recipients = sorted(set(users))
    if not recipients:
        return
    if kind in SUPERSEDES and "round" in payload:
        unread = Notice.select(Notice.id, Notice.payload).where(
            Notice.user.in_(recipients), Notice.kind == SUPERSEDES[kind], Notice.read_at.is_null()
        )
        moot = [n.id for n in unread if n.payload.get("round") == payload["round"]]
        if moot:
            Notice.delete().where(Notice.id.in_(moot)).execute()
    Notice.insert_many([{"user": u, "kind": kind, "payload": payload, "created_at": at} for u in recipients]).execute()


def unread_count(user_id: int) -> int:
    """How many of the user's notices are unread (the header's badge)."""
    return Notice.select().where(Notice.user == user_id, Notice.read_at.is_null()).count()


def latest(user_id: int, *, unread_only: bool = False, limit: int = SHOWN) -> list[Notice]:
    """The user's newest notices (only the unread ones when asked: "since your last visit")."""
    query = Notice.select().where(Notice.user == user_id)
    if unread_only:
        query = query.where(Notice.read_at.is_null())
    return list(query.order_by(Notice.id.desc()).limit(limit))


def gone_rounds(notices: list[Notice]) -> set[int]:
    """The rounds these notices name that no longer exist (deleted since): the list says so instead of a dead link."""
    named = {n.payload["round"] for n in notices if isinstance(n.payload.get("round"), int)}
    if not named:
        return set()
    return named - {r.id for r in Round.select(Round.id).where(Round.id.in_(list(named)))}


def time_zones(notices: list[Notice]) -> dict[str, str]:
    """The time zone of each campaign these notices tell of, by its slug (their times shown as its pages show)."""
    slugs = {n.payload["campaign"] for n in notices if isinstance(n.payload.get("campaign"), str)}
    if not slugs:
        return {}
    return dict(Campaign.select(Campaign.slug, Campaign.timezone).where(Campaign.slug.in_(list(slugs))).tuples())


@retried
def open_notice(notice_id: int, *, user_id: int, clock: Clock = SYSTEM) -> Notice:
    """Mark one of the user's notices read and return it (its page is where the reader goes next). Another user's
    notice is not found, as if it did not exist."""
    now = to_db(clock.now())
    with write_transaction():
        notice = Notice.get_or_none(Notice.id == notice_id, Notice.user == user_id)
        if notice is None:
            raise NotFound(N_("no %(label)s %(id)s", label=N_("notice"), id=notice_id))
        if notice.read_at is None:
            Notice.update(read_at=now).where(Notice.id == notice_id).execute()
        _forget_old(user_id, now)
    return notice


@retried
def mark_all_read(user_id: int, *, clock: Clock = SYSTEM) -> int:
    """Mark every unread notice of the user read; how many were."""
    now = to_db(clock.now())
    with write_transaction():
        _forget_old(user_id, now)
        return Notice.update(read_at=now).where(Notice.user == user_id, Notice.read_at.is_null()).execute()


def _forget_old(user_id: int, now: datetime) -> None:
    """Delete the user's notices read more than `READ_KEPT` ago (inside the caller's transaction): the list stays
    short without a sweep over every user's."""
    Notice.delete().where(Notice.user == user_id, Notice.read_at < now - READ_KEPT).execute()
