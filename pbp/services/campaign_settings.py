"""A campaign's settings, as the GM's settings page and `pbp campaign set` change them: the publishing policy, the
guard's hold share, the webhook, the growth award, the time zone, the プレイング limit and the cap of a
プレイングボーナス. Each is checked here (the refusal names the settings form's field), stored in one transaction
with one audit line per setting that changed, and read by the scheduler at its next tick (nothing caches them). The
webhook's test event goes through the outbox like every notification, so the page tells how the last one fared."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from functools import cache
from typing import Any

from pbp.db import retried, write_transaction
from pbp.engine.pool.gm_actions import BONUS_MAX
from pbp.errors import N_, InvalidState, UserError
from pbp.models import AuditLog, Campaign, Outbox
from pbp.services import audit, gms
from pbp.services._common import get_or_fail, locked, storable_text
from pbp.services.clock import SYSTEM, Clock, to_db

#: The most growth points a round's publication may award each character.
GROWTH_AWARD_MAX = 100
#: The プレイング limit's range: enough for a line, never more than a page holds.
ENTRY_LIMIT_RANGE = (100, 10_000)
URL_LIMIT = 500
_URL = re.compile(r"https?://[^\s/?#]+[^\s]*")
#: The default cap of a プレイングボーナス per entry: one die and one success (issue 31, item 7).
BONUS_CAP_DEFAULT = 1
#: The outbox kind of the webhook's test event (`notifications.MESSAGES` words it).
WEBHOOK_TEST = "webhook.test"


@dataclass(frozen=True)
class Settings:
    """What the settings page shows and saves."""

    publish_automatically: bool
    hold_share: float
    webhook: str  # "" for none
    growth_award: int
    timezone: str
    entry_char_limit: int
    bonus_dice_max: int = BONUS_CAP_DEFAULT  # the most dice a プレイングボーナス may add to one entry
    bonus_successes_max: int = BONUS_CAP_DEFAULT  # the most successes


def bonus_cap(policies: dict[str, Any]) -> tuple[int, int]:
    """The campaign's cap of a プレイングボーナス (dice, successes), from its policies (the defaults where unset)."""
    return (
        int(policies.get("bonus_dice_max", BONUS_CAP_DEFAULT)),
        int(policies.get("bonus_successes_max", BONUS_CAP_DEFAULT)),
    )


def current(campaign: Campaign) -> Settings:
    """The campaign's settings as stored (the defaults where it set none)."""
    from pbp.services.rounds import policy

    return Settings(
        publish_automatically=policy(campaign.policies, "publish_automatically"),
        hold_share=campaign.hold_share,
        webhook=campaign.webhook_url or "",
        growth_award=campaign.growth_on_publish or 0,
        timezone=campaign.timezone,
        entry_char_limit=campaign.entry_char_limit,
        bonus_dice_max=bonus_cap(campaign.policies)[0],
        bonus_successes_max=bonus_cap(campaign.policies)[1],
    )


def publishing_automatically(campaign_ids: list[int]) -> set[int]:
    """Which of the campaigns publish each round as soon as it is resolved (the console says so at its top)."""
    from pbp.services.rounds import policy

    rows = Campaign.select(Campaign.id, Campaign.policies).where(Campaign.id.in_(campaign_ids))
    return {row.id for row in rows if policy(row.policies, "publish_automatically")}


def checked_hold_share(share: float) -> float:
    if not 0 <= share <= 1:  # NaN fails too
        raise UserError(
            N_("the share of missing entries must be from 0 to 1, got %(share)s", share=share), "hold_share"
        )
    return float(share)


def checked_webhook(url: str | None) -> str:
    """The URL as stored ("" for none): http(s) only."""
    value = storable_text(url, N_("webhook")).strip() if url else ""
    if value and (len(value) > URL_LIMIT or not _URL.fullmatch(value)):
        raise UserError(
            N_("the webhook must be an http:// or https:// URL of at most %(limit)d characters", limit=URL_LIMIT),
            "webhook",
        )
    return value


def checked_growth_award(points: int) -> int:
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= GROWTH_AWARD_MAX:
        raise UserError(
            N_("the growth award must be a whole number from 0 to %(max)s", max=GROWTH_AWARD_MAX), "growth_award"
        )
    return points


def checked_timezone(name: str) -> str:
    """An IANA time zone name (`Asia/Tokyo`), looked up among the system's, never opened as a path."""
    value = (name or "").strip()
    if value not in _zones():
        raise UserError(N_("unknown time zone '%(value)s' (e.g. Asia/Tokyo, UTC)", value=value[:64]), "timezone")
    return value


@cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def checked_entry_limit(limit: int) -> int:
    low, high = ENTRY_LIMIT_RANGE
    if isinstance(limit, bool) or not isinstance(limit, int) or not low <= limit <= high:
        raise UserError(
            N_("the prose limit must be a whole number from %(low)s to %(high)s", low=low, high=high),
            "entry_char_limit",
        )
    return limit


def _checked_cap(name: str) -> Callable[[int], int]:
    """The check of one cap of a プレイングボーナス (`name`: its field), within what the engine takes."""

    def check(value: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= BONUS_MAX:
            raise UserError(N_("the cap must be a whole number from 0 to %(max)s", max=BONUS_MAX), name)
        return value

    return check


_CHECKS = {
    "publish_automatically": bool,
    "hold_share": checked_hold_share,
    "webhook": checked_webhook,
    "growth_award": checked_growth_award,
    "timezone": checked_timezone,
    "entry_char_limit": checked_entry_limit,
    "bonus_dice_max": _checked_cap("bonus_dice_max"),
    "bonus_successes_max": _checked_cap("bonus_successes_max"),
}


def _store(campaign: Campaign, name: str, was: Any, value: Any, now: datetime, actor_id: int | None) -> None:
    """Inside the transaction: one setting's column and its audit line (the actions the log has always used)."""
    target = f"campaign:{campaign.id}"
    if name in ("publish_automatically", "bonus_dice_max", "bonus_successes_max"):
        Campaign.update(policies={**campaign.policies, name: value}).where(Campaign.id == campaign.id).execute()
        campaign.policies = {**campaign.policies, name: value}
        audit.log("campaign.policy", target, now, actor_id=actor_id, policy=name, value=value)
    elif name == "hold_share":
        Campaign.update(hold_share=value).where(Campaign.id == campaign.id).execute()
        audit.log("campaign.hold_share", target, now, actor_id=actor_id, share=value)
    elif name == "webhook":
        Campaign.update(webhook_url=value or None).where(Campaign.id == campaign.id).execute()
        audit.log("campaign.webhook", target, now, actor_id=actor_id, set=bool(value))
    elif name == "growth_award":
        Campaign.update(growth_on_publish=value).where(Campaign.id == campaign.id).execute()
        audit.log("campaign.growth_award", target, now, actor_id=actor_id, points=value)
    elif name == "timezone":
        Campaign.update(timezone=value).where(Campaign.id == campaign.id).execute()
        audit.log("campaign.timezone", target, now, actor_id=actor_id, was=was, to=value)
    else:
        Campaign.update(entry_char_limit=value).where(Campaign.id == campaign.id).execute()
        audit.log("campaign.entry_limit", target, now, actor_id=actor_id, was=was, to=value)


@retried
def change(campaign_id: int, *, actor_id: int | None, clock: Clock = SYSTEM, **values: Any) -> list[str]:
    """Set the named settings (`Settings`' fields) of the campaign, its GMs only (the operator: `actor_id` None).
    Every value is checked before anything is stored; then one transaction stores those that differ, each with
    its audit line. Returns the names that changed (none: nothing was written)."""
    unknown = set(values) - set(_CHECKS)
    if unknown:
        raise ValueError(f"no such campaign setting: {sorted(unknown)}")
    get_or_fail(Campaign, campaign_id, N_("campaign"))
    gms.require_gm(campaign_id, actor_id)
    wanted = {name: _CHECKS[name](value) for name, value in values.items()}
    now = to_db(clock.now())
    with write_transaction():
        campaign = locked(Campaign, campaign_id, N_("campaign"))
        was = current(campaign)
        changed = [name for name, value in wanted.items() if getattr(was, name) != value]
        for name in changed:
            _store(campaign, name, getattr(was, name), wanted[name], now, actor_id)
    return changed


def save(campaign_id: int, settings: Settings, *, actor_id: int | None, clock: Clock = SYSTEM) -> list[str]:
    """The settings page's form: every setting at once (`change`)."""
    values = {f.name: getattr(settings, f.name) for f in fields(settings)}
    return change(campaign_id, actor_id=actor_id, clock=clock, **values)


@retried
def test_webhook(campaign_id: int, *, actor_id: int | None, clock: Clock = SYSTEM) -> int:
    """Queue a test event for the campaign's webhook (the scheduler's next tick posts it) and log it; returns its
    outbox row. Refused when no webhook is set."""
    from pbp.services import notifications

    get_or_fail(Campaign, campaign_id, N_("campaign"))
    gms.require_gm(campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        campaign = locked(Campaign, campaign_id, N_("campaign"))
        if not campaign.webhook_url:
            raise InvalidState(N_("no webhook is set: save one first"), "webhook")
        en = (campaign.pack.get("campaign") or {}).get("en") or campaign.name
        payload = {"campaign": campaign.slug, "title": campaign.name, "title_en": en, "page": f"/blog/{campaign.slug}/"}
        row = notifications.queue_webhook(WEBHOOK_TEST, now, campaign.webhook_url, payload)
        audit.log("campaign.webhook_test", f"campaign:{campaign_id}", now, actor_id=actor_id, outbox=row)
    return row


@dataclass(frozen=True)
class WebhookTest:
    """How the last test event fared: queued at, its status (pending, sent, failed, skipped), the error if any."""

    at: datetime
    status: str
    error: str | None


def last_webhook_test(campaign_id: int) -> WebhookTest | None:
    """The campaign's latest test event, None if none was sent (or its outbox row is pruned)."""
    logged = (
        AuditLog.select(AuditLog.detail)
        .where(AuditLog.campaign == campaign_id, AuditLog.action == "campaign.webhook_test")
        .order_by(AuditLog.id.desc())
        .first()
    )
    if logged is None or not isinstance((logged.detail or {}).get("outbox"), int):
        return None
    row = Outbox.get_or_none(Outbox.id == logged.detail["outbox"])
    return None if row is None else WebhookTest(row.created_at, row.status, row.last_error)
