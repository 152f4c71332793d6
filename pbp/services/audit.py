"""The audit trail of GM (and scheduler) actions: written inside the caller's transaction so a rolled-back action
leaves no trace (the notifications' outbox does the same: `pbp.services.notifications`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbp.models import AuditLog


def log(action: str, target: str, at: datetime, *, actor_id: int | None = None, **detail: Any) -> None:
    """Record one action (`target` like "round:12"); `actor_id` None means the scheduler or the command line."""
    AuditLog.create(actor=actor_id, action=action, target=target, detail=detail, at=at)
