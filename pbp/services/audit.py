"""The audit trail of GM (and scheduler) actions, and the outbox of notifications: written inside the caller's
transaction so a rolled-back action leaves no trace."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbp.models import AuditLog, Outbox


def log(action: str, target: str, at: datetime, *, actor_id: int | None = None, **detail: Any) -> None:
    """Record one action (`target` like "round:12"); `actor_id` None means the scheduler or the command line."""
    AuditLog.create(actor=actor_id, action=action, target=target, detail=detail, at=at)


def notify(recipient_ids: set[int], kind: str, at: datetime, **payload: Any) -> None:
    """Queue a notification per recipient; a separate sender delivers them (never inside a transaction)."""
    rows = [
        {"recipient": rid, "kind": kind, "payload": payload, "created_at": at, "sent_at": None}
        for rid in sorted(recipient_ids)
    ]
    if rows:
        Outbox.insert_many(rows).execute()
