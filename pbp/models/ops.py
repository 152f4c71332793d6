"""Operational tables: the notification outbox (sent by a worker later), the audit log of GM actions and the
heartbeats of background processes."""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel, JSONField


class Outbox(BaseModel):
    recipient = peewee.ForeignKeyField(User, backref="notifications")
    kind = peewee.CharField(max_length=32)
    payload = JSONField()
    created_at = peewee.DateTimeField()
    sent_at = peewee.DateTimeField(null=True, index=True)


class AuditLog(BaseModel):
    actor = peewee.ForeignKeyField(User, null=True)  # None: the scheduler or the command line
    action = peewee.CharField(max_length=32)
    target = peewee.CharField(max_length=64)  # e.g. "round:12"
    detail = JSONField(default=dict)
    at = peewee.DateTimeField(index=True)


class Heartbeat(BaseModel):
    """When a background process last finished its work (the scheduler's tick), for `/healthz`."""

    name = peewee.CharField(max_length=32, unique=True)  # e.g. "scheduler"
    at = peewee.DateTimeField()
