"""Operational tables: the notification outbox (sent by a worker later), the audit log of GM actions and the
heartbeats of background processes."""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel, JSONField
from pbp.models.campaigns import Campaign


class Outbox(BaseModel):
    """One notification to deliver after the change that caused it committed (written in its transaction): an
    e-mail to a user (`recipient`) or a webhook POST to a campaign's URL (`address`, recipient None)."""

    recipient = peewee.ForeignKeyField(User, backref="notifications", null=True)
    kind = peewee.CharField(max_length=32)
    payload = JSONField()
    created_at = peewee.DateTimeField(index=True)  # the prune's (`notifications.prune`)
    sent_at = peewee.DateTimeField(null=True, index=True)
    channel = peewee.CharField(max_length=16, default="email")  # email | webhook
    address = peewee.CharField(max_length=500, null=True)  # the webhook's URL (an e-mail's is the user's, read late)
    #: pending -> sent, or failed (given up after the last attempt), or skipped (nowhere to send it)
    status = peewee.CharField(max_length=16, default="pending", index=True)
    attempts = peewee.IntegerField(default=0)
    next_attempt_at = peewee.DateTimeField(null=True)
    #: A deliverer's claim: nobody else sends the row before this time (a deliverer that died lets it go then).
    claimed_until = peewee.DateTimeField(null=True)
    last_error = peewee.CharField(max_length=500, null=True)


class NotificationOptOut(BaseModel):
    """A kind of notification a user switched off (every kind is on until then)."""

    user = peewee.ForeignKeyField(User, backref="notification_optouts")
    kind = peewee.CharField(max_length=32)

    class Meta:
        indexes = ((("user", "kind"), True),)


class AuditLog(BaseModel):
    actor = peewee.ForeignKeyField(User, null=True)  # None: the scheduler or the command line
    #: The campaign the action concerns (its GMs read the log, `/gm/<campaign>/audit`); None for none.
    campaign = peewee.ForeignKeyField(Campaign, null=True, index=True)
    action = peewee.CharField(max_length=32)
    target = peewee.CharField(max_length=64)  # e.g. "round:12"
    detail = JSONField(default=dict)
    at = peewee.DateTimeField(index=True)


class Heartbeat(BaseModel):
    """When a background process last finished its work (the scheduler's tick), for `/healthz`."""

    name = peewee.CharField(max_length=32, unique=True)  # e.g. "scheduler"
    at = peewee.DateTimeField()


class RateCount(BaseModel):
    """A rate limit's counter for one key (an address's or an account name's login attempts) and the end of its
    window, seconds since the epoch: kept in the database so that every web worker counts the same attempts."""

    key = peewee.CharField(max_length=255, primary_key=True)
    count = peewee.IntegerField()
    expires_at = peewee.DoubleField(index=True)
