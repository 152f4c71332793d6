"""The audit trail of GM (and scheduler) actions: written inside the caller's transaction so a rolled-back action
leaves no trace (the notifications' outbox does the same: `pbp.services.notifications`). Each row names the
campaign it concerns, which its GMs read (`page`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import peewee

from pbp.models import AuditLog, Campaign, Character, Round, Scenario, User
from pbp.services import gms

#: Rows per page of the campaign's log.
PAGE_SIZE = 50


def campaign_of(target: str) -> int | None:
    """The campaign a target ("round:12", "scenario:3", "character:5", "campaign:1") belongs to, None if none."""
    kind, _, number = target.partition(":")
    if not number.isdigit():
        return None
    ident = int(number)
    query = {
        "campaign": Campaign.select(Campaign.id.alias("cid")).where(Campaign.id == ident),
        "scenario": Scenario.select(Scenario.campaign.alias("cid")).where(Scenario.id == ident),
        "round": Round.select(Scenario.campaign.alias("cid")).join(Scenario).where(Round.id == ident),
        "character": Character.select(Character.campaign.alias("cid")).where(Character.id == ident),
    }.get(kind)
    row = query.dicts().first() if query is not None else None
    return row["cid"] if row else None


def log(action: str, target: str, at: datetime, *, actor_id: int | None = None, **detail: Any) -> None:
    """Record one action (`target` like "round:12", whose campaign the row is filed under); `actor_id` None means
    the scheduler or the command line."""
    campaign = campaign_of(target)
    AuditLog.create(actor=actor_id, campaign=campaign, action=action, target=target, detail=detail, at=at)


@dataclass(frozen=True)
class Page:
    """One page of a campaign's log, newest first: the rows (each with `.actor` joined, None for the operator),
    the page's number and whether an older page follows."""

    rows: list[AuditLog]
    number: int
    more: bool


def page(campaign_id: int, number: int = 1, *, actor_id: int | None) -> Page:
    """The campaign's audit log, newest first, `PAGE_SIZE` rows a page (page 1 the newest); its GMs only."""
    gms.require_gm(campaign_id, actor_id)
    number = max(number, 1)
    query = (
        AuditLog.select(AuditLog, User)
        .join(User, peewee.JOIN.LEFT_OUTER, on=(AuditLog.actor == User.id))
        .where(AuditLog.campaign == campaign_id)
        .order_by(AuditLog.at.desc(), AuditLog.id.desc())
        .offset((number - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
    )
    rows = list(query)
    return Page(rows[:PAGE_SIZE], number, len(rows) > PAGE_SIZE)
