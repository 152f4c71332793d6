"""A published report's corrections: each keeps the page as it was, numbered in the round and dated, under the note
the public page shows above the corrected report (`publishing.correct_report` for the story, `master_comments` for
the comments under it)."""

from __future__ import annotations

from datetime import datetime

from peewee import fn

from pbp.models import Report, ReportCorrection


def keep_correction(
    report: Report, why: str, now: datetime, actor_id: int | None, *, old_html: str | None = None
) -> ReportCorrection:
    """Inside the caller's transaction: the report's page as it was, kept under the round's next correction number
    with its dated note (the story's corrections and the comments' alike); `old_html`, when the page held more than
    the story's HTML (the comments under it)."""
    latest = ReportCorrection.select(fn.MAX(ReportCorrection.number)).where(ReportCorrection.round == report.round_id)
    number = 1 + (latest.scalar() or 0)
    return ReportCorrection.create(
        round=report.round_id, number=number, note=why, corrected_at=now, corrected_by=actor_id,
        old_md=report.published_md or "", old_html=(report.html or "") if old_html is None else old_html,
        old_html_en=report.html_en,
    )  # fmt: skip
