"""Publishing: the GM edits the draft story, then publishes the round, which reveals its seed and makes its
resolution inputs public (what lets anyone verify it). Also the round bundle and its verification from the
database."""

from __future__ import annotations

import logging
from typing import Any

from pbp import reports
from pbp.db import retried, write_transaction
from pbp.engine.verify import build_bundle, chain_difference, verify_bundle
from pbp.errors import InvalidState, UserError
from pbp.models import Character, Report, Resolution, Round
from pbp.services import audit, notifications
from pbp.services._common import MARKDOWN_LIMIT, checked_text, get_or_fail
from pbp.services.characters import character_id_of
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.rounds import (
    PUBLISHED,
    RESOLVED,
    ResolutionFailed,
    generated_story,
    lock_round,
    move_state,
    players_of,
    previous_resolution,
    round_context,
    round_info,
)

log = logging.getLogger(__name__)


@retried
def edit_report(
    round_id: int,
    markdown: str | None = None,
    *,
    intro: str | None = None,
    outro: str | None = None,
    story_en: str | None = None,
    actor_id: int | None = None,
    clock: Clock = SYSTEM,
) -> Report:
    """Replace the draft story, the GM's intro and outro and/or the English story (Markdown) of a resolved,
    unpublished round; a part given as None is left as it is. An empty English story goes back to the generated
    one."""
    parts: dict[str, str | None] = {
        column: checked_text(text, label, MARKDOWN_LIMIT, required=column == "draft_md")
        for column, label, text in (("draft_md", "report", markdown), ("intro_md", "intro", intro),
                                    ("outro_md", "outro", outro), ("story_en_md", "English story", story_en))
        if text is not None
    }  # fmt: skip
    if parts.get("story_en_md") == "":
        parts["story_en_md"] = None
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state != RESOLVED:
            raise InvalidState(f"round {round_id} is {rnd.state}: only a resolved round's draft can be edited")
        if parts:
            Report.update(updated_at=now, **parts).where(Report.round == round_id).execute()
        chars = {column: len(text or "") for column, text in parts.items()}
        audit.log("report.edit", f"round:{round_id}", now, actor_id=actor_id, **chars)
    return Report.get(Report.round == round_id)


def report_html(report: Report) -> str:
    """The published page's HTML: each part rendered and sanitised on its own, in its own section."""
    # Images only in the GM's own parts: the story carries players' prose, and players never get images.
    sections = [
        ("intro", report.intro_md, True),
        ("narrative", report.draft_md, False),
        ("outro", report.outro_md, True),
    ]
    return "\n".join(
        f'<section class="{name}">{reports.render_markdown(text, allow_images=gm)}</section>'
        for name, text, gm in sections
        if text.strip()
    )


def english_story(round_id: int) -> tuple[str, bool]:
    """A resolved round's English story (Markdown) and whether the GM wrote it: the GM's own when set, else one
    generated from the stored resolution."""
    rnd = get_or_fail(Round, round_id, "round")
    report = Report.get_or_none(Report.round == round_id)
    if report is None:
        raise InvalidState(f"round {round_id} has no report (it is not resolved yet)")
    if report.story_en_md:
        return report.story_en_md, True
    try:
        return generated_story(rnd, Resolution.get(Resolution.round == round_id), "en"), False
    except ResolutionFailed as e:  # a narration bug: said in one line, the GM can still write the story
        raise UserError(f"round {round_id}'s English story cannot be generated: {e}") from e


def _english_html(round_id: int) -> str | None:
    """The English story as published: the GM's, or the generated one frozen now (growth points, names and the
    pack may change later; a published page does not). A narration failure does not stop the publishing: the page
    then writes the story when it is read."""
    try:
        return reports.render_markdown(english_story(round_id)[0])
    except UserError as e:
        log.warning("round %s: no English story published: %s", round_id, e)
        return None


@retried
def publish_round(round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """Publish: the story (the draft as it stands, rendered and sanitised) and the English story, the seed, the
    inputs. Characters that died in the round are marked dead (R-GAUGE-7) and every participant's player is
    notified."""
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        move_state(rnd, PUBLISHED, now, published_at=now)
        report = Report.get(Report.round == round_id)
        published = "\n\n".join(text for text in (report.intro_md, report.draft_md, report.outro_md) if text.strip())
        html_en = _english_html(round_id)
        Report.update(published_md=published, html=report_html(report), html_en=html_en, updated_at=now).where(
            Report.round == round_id
        ).execute()
        events = Resolution.get(Resolution.round == round_id).events
        dead = [cid for e in events if e.get("type") == "death" and (cid := character_id_of(e["unit"])) is not None]
        if dead:
            Character.update(alive=False, updated_at=now).where(Character.id.in_(dead)).execute()
        notifications.notify_round("round.published", rnd, now, users=players_of(rnd.scenario_id))
        audit.log("round.publish", f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=PUBLISHED, dead=dead)
    return Round.get_by_id(round_id)


def round_bundle(round_id: int) -> dict[str, Any]:
    """The bundle of a published round (seed revealed): what `pbp export-round` writes and the blog offers."""
    rnd = get_or_fail(Round, round_id, "round")
    if rnd.state != PUBLISHED:
        raise InvalidState(f"round {round_id} is {rnd.state}: its seed stays secret until it is published")
    res = Resolution.get(Resolution.round == round_id)
    return build_bundle(
        round_info=round_info(rnd, round_context(rnd)),
        ruleset=res.ruleset,
        seed=rnd.seed,
        seed_hash=rnd.seed_hash,
        encounter=res.encounter,
        orders=res.orders,
        overrides=res.overrides,
        events=res.events,
        state=res.state,
    )


def verify_round(round_id: int) -> str | None:
    """Re-run a published round from its stored inputs and revealed seed, and check that it starts from the final
    state the scenario's previous round stored: None, or the first difference."""
    bundle = round_bundle(round_id)
    difference = verify_bundle(bundle)
    previous = previous_resolution(Round.get_by_id(round_id))
    if difference or previous is None:
        return difference
    return chain_difference(
        bundle["encounter"], previous.state, number=bundle["round"]["number"], previous_number=previous.round.number
    )
