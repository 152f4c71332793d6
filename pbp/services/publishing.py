"""Publishing: the GM edits the draft story, then publishes the round, which reveals its seed and makes its
resolution inputs public (what lets anyone verify it). Also the round bundle and its verification from the
database."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbp import reports
from pbp.db import database, is_sqlite, retried, write_transaction
from pbp.engine.verify import build_bundle, chain_difference, verify_bundle
from pbp.errors import N_, InvalidState, UserError
from pbp.models import (
    AuditLog,
    Campaign,
    Character,
    Entry,
    GmAction,
    Report,
    ReportCorrection,
    Resolution,
    Round,
    Scenario,
    site,
)
from pbp.reports.leaks import Leak
from pbp.services import audit, campaign_settings, characters, gms, leaks, master_comments, notifications
from pbp.services._common import MARKDOWN_LIMIT, REASON_LIMIT, checked_text, get_or_fail, lf_lines
from pbp.services.characters import character_id_of
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.corrections import keep_correction
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
    state_word,
)

log = logging.getLogger(__name__)


#: The report's parts: (column, what a refusal calls it). The story is required; an empty English story is the
#: generated one.
_PARTS = (
    ("draft_md", N_("report")),
    ("intro_md", N_("intro")),
    ("outro_md", N_("outro")),
    ("story_en_md", N_("English story")),
)


class LeakFound(InvalidState):
    """Publishing refused: the public text holds GM-secret text (`leaks` says where)."""

    def __init__(self, leaks: list[Leak], doing: str = "publication"):
        self.leaks = leaks
        found = "; ".join(f"{leak.part}: {leak.found!r} ({leak.secret.kind} of {leak.secret.source})" for leak in leaks)
        super().__init__(f"{doing} refused: the public text holds GM-secret text: {found}", "report")


def _checked_parts(
    markdown: str | None, intro: str | None, outro: str | None, story_en: str | None
) -> dict[str, str | None]:
    """The parts given (None: left as they are), each checked, its line breaks made `\\n` (a browser sends
    `\\r\\n`: the text as generated must compare equal); an empty English story is None (generated)."""
    parts: dict[str, str | None] = {
        column: checked_text(lf_lines(text), label, MARKDOWN_LIMIT, required=column == "draft_md")
        for (column, label), text in zip(_PARTS, (markdown, intro, outro, story_en), strict=True)
        if text is not None
    }
    if parts.get("story_en_md") == "":
        parts["story_en_md"] = None
    return parts


def campaign_of(round_id: int) -> int:
    """The campaign a round belongs to (a NotFound for no round)."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    return Scenario.select(Scenario.campaign).where(Scenario.id == rnd.scenario_id).scalar()


def _generated_english(rnd: Round) -> str | None:
    """The English story written from the round's facts now (None when the narrator fails: the GM writes it)."""
    try:
        return generated_story(rnd, Resolution.get(Resolution.round == rnd.id), "en")
    except ResolutionFailed as e:
        log.warning("round %s: no English story generated: %s", rnd.id, e)
        return None


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
    unpublished round; a part given as None is left as it is. An empty English story, or one that is the generated
    story word for word, goes back to the generated one. The campaign's GMs only."""
    parts = _checked_parts(markdown, intro, outro, story_en)
    gms.require_gm(campaign_of(round_id), actor_id)
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state != RESOLVED:
            raise InvalidState(
                N_(
                    "round %(round)s is %(state)s: only a resolved round's draft can be edited",
                    round=round_id,
                    state=state_word(rnd.state),
                )
            )
        _generated_english_as_none(rnd, parts)
        if parts:
            Report.update(updated_at=now, **parts).where(Report.round == round_id).execute()
        chars = {column: len(text or "") for column, text in parts.items()}
        audit.log("report.edit", f"round:{round_id}", now, actor_id=actor_id, **chars)
    return Report.get(Report.round == round_id)


def _generated_english_as_none(rnd: Round, parts: dict[str, Any]) -> None:
    """An English story that is the generated one word for word is not the GM's: stored as None (the generated one),
    so that it is not taken for the GM's edit once the facts it was written from move on (a growth award)."""
    if parts.get("story_en_md") and parts["story_en_md"] == (_generated_english(rnd) or "").strip():
        parts["story_en_md"] = None


def render_parts(intro: str, story: str, outro: str) -> str:
    """The Japanese page's HTML from its parts: each rendered and sanitised on its own, in its own section."""
    # Images only in the GM's own parts: the story carries players' prose, and players never get images.
    sections = [("intro", intro, True), ("narrative", story, False), ("outro", outro, True)]
    return "\n".join(
        f'<section class="{name}">{reports.render_markdown(text, allow_images=gm)}</section>'
        for name, text, gm in sections
        if text.strip()
    )


def report_html(report: Report) -> str:
    """The published page's HTML: each part rendered and sanitised on its own, in its own section."""
    return render_parts(report.intro_md, report.draft_md, report.outro_md)


def _published_md(intro: str, story: str, outro: str) -> str:
    return "\n\n".join(text for text in (intro, story, outro) if text.strip())


def english_story(round_id: int) -> tuple[str, bool]:
    """A resolved round's English story (Markdown) and whether the GM wrote it: the GM's own when set, else one
    generated from the stored resolution."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    report = Report.get_or_none(Report.round == round_id)
    if report is None:
        raise InvalidState(N_("round %(round)s has no report (it is not resolved yet)", round=round_id))
    if report.story_en_md:
        return report.story_en_md, True
    try:
        return generated_story(rnd, Resolution.get(Resolution.round == round_id), "en"), False
    except ResolutionFailed as e:  # a narration bug: said in one line, the GM can still write the story
        raise UserError(
            N_("round %(round)s's English story cannot be generated: %(error)s", round=round_id, error=str(e))
        ) from e


def _english_md(round_id: int) -> str | None:
    """The English story to publish: the GM's, or the generated one frozen now (growth points, names and the pack
    may change later; a published page does not). A narration failure does not stop the publishing: the page then
    writes the story when it is read."""
    try:
        return english_story(round_id)[0]
    except UserError as e:
        log.warning("round %s: no English story published: %s", round_id, e)
        return None


def _scenario_text(rnd: Round) -> str:
    """The scenario's public face shown with its reports: its title and public text."""
    scenario = Scenario.select(Scenario.title, Scenario.public_text).where(Scenario.id == rnd.scenario_id).get()
    return f"{scenario.title}\n\n{scenario.public_text}"


def _leaks_in(rnd: Round, intro: str, story: str, outro: str, story_en: str | None) -> list[Leak]:
    parts = {
        "intro": intro,
        "story": story,
        "outro": outro,
        "comments": master_comments.public_text(rnd.id),
        "story_en": story_en or "",
        "scenario": _scenario_text(rnd),
    }
    return leaks.check(rnd.id, parts)


def _refuse_leaks(rnd: Round, intro: str, story: str, outro: str, story_en: str | None, doing: str) -> None:
    found = _leaks_in(rnd, intro, story, outro, story_en)
    if found:
        raise LeakFound(found, doing)


@dataclass(frozen=True)
class _Prepared:
    """A resolved round's publication worked out from a read before the write lock is taken (the English story,
    the leak check over every part and both pages are a publication's time: a deadline's saves must not wait for
    them, issue 33). Used only if the report and everything else a reader sees are still as read (`holds`)."""

    version: int  # the site's version: the secret terms, the scenario, the names and the pack as read
    updated_at: datetime  # the report's
    story_en_md: str | None
    found: list[Leak]
    html: str
    html_en: str | None

    def holds(self, version: int, report: Report) -> bool:
        return (self.version, self.updated_at) == (version, report.updated_at)


def _prepared(round_id: int) -> _Prepared | None:
    """The round's publication from one read transaction, or None when the round is not resolved."""
    with database.atomic():  # one snapshot on SQLite (a deferred transaction only reads)
        version = site.current(database.obj)
        rnd = Round.get_or_none(Round.id == round_id)
        report = Report.get_or_none(Report.round == round_id)
        if rnd is None or report is None or rnd.state != RESOLVED:
            return None
        return _publication(rnd, report, version)


def _publication(rnd: Round, report: Report, version: int) -> _Prepared:
    """The English story frozen now (the GM's, or generated: growth points, names and the pack may change later; a
    published page does not), what the leak check finds in every part, and both pages."""
    story_en_md = _english_md(rnd.id)
    found = _leaks_in(rnd, report.intro_md, report.draft_md, report.outro_md, story_en_md)
    html_en = reports.render_markdown(story_en_md) if story_en_md is not None else None
    return _Prepared(version, report.updated_at, story_en_md, found, report_html(report), html_en)


def _not_publishable(rnd: Round) -> InvalidState:
    if rnd.state == PUBLISHED:
        return InvalidState(N_("round %(round)s is published already: correct its report instead", round=rnd.id))
    return InvalidState(
        N_(
            "round %(round)s is %(state)s: only a resolved round can be published (resolve it first)",
            round=rnd.id,
            state=state_word(rnd.state),
        )
    )


@retried
def publish_round(
    round_id: int,
    markdown: str | None = None,
    *,
    intro: str | None = None,
    outro: str | None = None,
    story_en: str | None = None,
    actor_id: int | None = None,
    clock: Clock = SYSTEM,
) -> Round:
    """Publish: the story (the draft as it stands, or with the parts given replacing its own, as `edit_report`
    does), rendered and sanitised, and the English story, the seed, the inputs. Refused (LeakFound, nothing
    changed, the parts given not saved) when the public text holds GM-secret text (`pbp.services.leaks`).
    Characters that died in the round are marked dead (R-GAUGE-7), every participant's player is notified, and the
    campaign's growth award (`set_growth_award`) goes to every character with an entry. The campaign's GMs only."""
    parts = _checked_parts(markdown, intro, outro, story_en)
    campaign_id = campaign_of(round_id)
    gms.require_gm(campaign_id, actor_id)
    now = to_db(clock.now())
    ahead = None if parts else _prepared(round_id)  # the parts given change the report: worked out under the lock
    with write_transaction():
        version = site.current(database.obj)  # SQLite: before this transaction's own writes move it
        rnd = lock_round(round_id)
        if not is_sqlite():  # PostgreSQL: after the round's lock (triggers fire at commit): what committed counts
            version = site.current(database.obj)
        if rnd.state != RESOLVED:
            raise _not_publishable(rnd)
        _generated_english_as_none(rnd, parts)  # the form sends the generated English back: not the GM's own
        if parts:
            Report.update(updated_at=now, **parts).where(Report.round == round_id).execute()
        report = Report.get(Report.round == round_id)
        if ahead is None or not ahead.holds(version, report):  # something it read moved: worked out as it is now
            ahead = _publication(rnd, report, version)
        if ahead.found:
            raise LeakFound(ahead.found, "publication")
        move_state(rnd, PUBLISHED, now, published_at=now)
        published = _published_md(report.intro_md, report.draft_md, report.outro_md)
        Report.update(published_md=published, html=ahead.html, html_en=ahead.html_en, updated_at=now).where(
            Report.round == round_id
        ).execute()
        dead = _fallen(rnd, Resolution.get(Resolution.round == round_id))
        if dead:
            Character.update(alive=False, updated_at=now).where(Character.id.in_(dead)).execute()
        awarded = _award_growth(rnd, campaign_id, actor_id=actor_id, now=now)
        notifications.notify_round("round.published", rnd, now, users=players_of(rnd.scenario_id))
        audit.log(
            "round.publish", f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=PUBLISHED, dead=dead,
            awarded=awarded,
        )  # fmt: skip
    return Round.get_by_id(round_id)


def _award_growth(rnd: Round, campaign_id: int, *, actor_id: int | None, now: datetime) -> dict[str, int]:
    """Inside publish_round's transaction: the campaign's growth award to every character with an entry in the
    round (each grant logged); returns {character id: points}."""
    points = Campaign.select(Campaign.growth_on_publish).where(Campaign.id == campaign_id).scalar() or 0
    if points <= 0:
        return {}
    entered = [
        e.character_id for e in Entry.select(Entry.character).where(Entry.round == rnd.id).order_by(Entry.character)
    ]
    reason = f"round {rnd.number} published (round:{rnd.id})"
    for character_id in entered:
        characters.add_growth_points(character_id, points, reason=reason, actor_id=actor_id, now=now)
    return {str(cid): points for cid in entered}


def set_growth_award(campaign_id: int, points: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """The campaign's growth award: growth points (成長点) every character with an entry gets when a round is
    published (0: none). The campaign's GMs only; logged."""
    campaign_settings.change(campaign_id, actor_id=actor_id, clock=clock, growth_award=points)
    return Campaign.get_by_id(campaign_id)


@retried
def correct_report(
    round_id: int,
    note: str,
    markdown: str | None = None,
    *,
    intro: str | None = None,
    outro: str | None = None,
    story_en: str | None = None,
    actor_id: int | None = None,
    clock: Clock = SYSTEM,
) -> ReportCorrection:
    """Correct a published report: the parts given replace its own (an empty English story: the generated one,
    written now; not given, or the generated story word for word, the English page stays as published), the page
    is rendered again, and a correction with the GM's note (shown, dated, on the public page) keeps the text as it
    was. Refused when nothing changes, and (LeakFound) when the corrected text holds GM-secret text. The
    campaign's GMs only."""
    why = checked_text(note, N_("the correction note"), REASON_LIMIT)
    parts = _checked_parts(markdown, intro, outro, story_en)
    gms.require_gm(campaign_of(round_id), actor_id)
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state != PUBLISHED:
            raise InvalidState(
                N_(
                    "round %(round)s is %(state)s: only a published report is corrected",
                    round=round_id,
                    state=state_word(rnd.state),
                )
            )
        report = Report.get(Report.round == round_id)
        as_generated = parts.get("story_en_md") and report.story_en_md is None
        if as_generated and parts["story_en_md"] == (_generated_english(rnd) or "").strip():
            del parts["story_en_md"]  # the English story as generated: the page stays as published
        new = {column: parts[column] if column in parts else getattr(report, column) for column, _ in _PARTS}
        html = render_parts(new["intro_md"], new["draft_md"], new["outro_md"])
        if "story_en_md" in parts:
            story_en_md = new["story_en_md"] or _generated_english(rnd)
            html_en = reports.render_markdown(story_en_md) if story_en_md is not None else None
        else:
            story_en_md = report.story_en_md or reports.plain_text(report.html_en or "")
            html_en = report.html_en
        if html == report.html and html_en == report.html_en:
            raise UserError(N_("nothing to correct: the text is as published"), "report")
        _refuse_leaks(rnd, new["intro_md"], new["draft_md"], new["outro_md"], story_en_md, "the correction")
        correction = keep_correction(report, why, now, actor_id)
        published = _published_md(new["intro_md"], new["draft_md"], new["outro_md"])
        Report.update(
            **new, published_md=published, html=html, html_en=html_en, corrected_at=now, updated_at=now
        ).where(Report.round == round_id).execute()
        changed = sorted(column for column in parts if parts[column] != getattr(report, column))
        audit.log("report.correct", f"round:{round_id}", now, actor_id=actor_id, number=correction.number, note=why,
                  parts=changed)  # fmt: skip
    return correction


def corrections(round_id: int) -> list[ReportCorrection]:
    """A round's corrections, oldest first."""
    query = ReportCorrection.select().where(ReportCorrection.round == round_id).order_by(ReportCorrection.number)
    return list(query)


@retried
def publish_automatically(round_id: int, *, clock: Clock = SYSTEM) -> Round:
    """The scheduler's publication (a campaign that publishes automatically). When the leak check refuses it, the
    campaign's GMs are told (`round.publish_refused`, audit-logged) and the round waits for them: the scheduler
    does not try it again until its report changes (`rounds.to_publish`)."""
    try:
        return publish_round(round_id, clock=clock)
    except LeakFound as refused:
        now = to_db(clock.now())
        with write_transaction():
            rnd = Round.get_by_id(round_id)
            campaign_id = campaign_of(round_id)
            notifications.notify_round("round.publish_refused", rnd, now, users=gms.gm_ids(campaign_id))
            audit.log("round.publish_refused", f"round:{round_id}", now, leaks=len(refused.leaks))
        raise


def _fallen(rnd: Round, res: Resolution) -> list[int]:
    """The characters who fell in the round (R-GAUGE-7: killed in it, or by a GM's action before it), save those a
    GM action of a later round of the scenario already revives."""

    def dead(encounter: dict[str, Any]) -> set[int]:
        units = encounter.get("units", [])
        return {cid for u in units if u.get("dead") and (cid := character_id_of(u["id"])) is not None}

    revived = {
        character_id_of(a.payload.get("unit", ""))
        for a in GmAction.select(GmAction.payload)
        .join(Round)
        .where(Round.scenario == rnd.scenario_id, Round.number > rnd.number, GmAction.kind == "revive")
    }
    died = {cid for e in res.events if e.get("type") == "death" and (cid := character_id_of(e["unit"])) is not None}
    return sorted((died | dead(res.state) - dead(res.start or res.encounter)) - revived)


def round_bundle(round_id: int) -> dict[str, Any]:
    """The bundle of a published round (seed revealed): what `pbp export-round` writes and the blog offers."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    if rnd.state != PUBLISHED:
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: its seed stays secret until it is published",
                round=round_id,
                state=state_word(rnd.state),
            )
        )
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
        start=res.start,
        gm_actions=res.gm_actions,
        adhoc_checks=res.adhoc_checks,
    )


def verify_round(round_id: int) -> str | None:
    """Re-run a published round from its stored inputs and revealed seed (its GM actions re-applied), and check that
    it starts (before the GM's actions) from the final state the scenario's previous round stored: None, or the
    first difference."""
    bundle = round_bundle(round_id)
    difference = verify_bundle(bundle)
    previous = previous_resolution(Round.get_by_id(round_id))
    if difference or previous is None:
        return difference
    return chain_difference(
        bundle.get("start", bundle["encounter"]),
        previous.state,
        number=bundle["round"]["number"],
        previous_number=previous.round.number,
    )


@dataclass
class Review:
    """What the GM's report page shows of a resolved or published round: the texts (as typed, else as stored),
    the pages they make (sanitised exactly as publishing does), the generated drafts they are compared with, which
    language was edited, the corrections, and what the leak check finds."""

    round: Round
    intro: str
    story: str
    outro: str
    story_en: str | None  # the GM's English story; None: the generated one
    english: str | None  # the English story the page shows (the GM's or the generated one; None: not available)
    html: str
    html_en: str | None
    generated: str | None  # the Japanese draft as generated at resolution (or now, for a round resolved before 0011)
    generated_en: str | None
    leaks: list[Leak]
    corrections: list[ReportCorrection]
    #: When an override last wrote the generated draft again while the GM's edited draft was kept, unless the GM
    #: saved the draft since (naive UTC, as stored): the diff then shows the override's changes as well as the GM's.
    regenerated_at: datetime | None = None

    @property
    def edited(self) -> bool:
        return self.generated is not None and self.story.strip() != self.generated.strip()

    @property
    def edited_en(self) -> bool:
        return self.story_en is not None

    @property
    def english_reworded(self) -> bool:
        """The English page keeps the generated story as it was published, and the story generated now (the form's)
        reads otherwise: the phrasings changed since. The page stays as published unless a correction changes it."""
        if self.story_en is not None or self.html_en is None or self.english is None:
            return False
        return reports.plain_text(self.html_en) != reports.plain_text(reports.render_markdown(self.english))

    @property
    def one_language_edited(self) -> str | None:
        """ "ja" or "en" when only that language's story differs from the generated one, else None."""
        if self.edited != self.edited_en:
            return "ja" if self.edited else "en"
        return None


def reported_round(round_id: int, actor_id: int) -> Round:
    """A round whose report the GM may read: the campaign's GMs only, a resolved or published round only."""
    gms.require_gm(campaign_of(round_id), actor_id)
    rnd = Round.get_by_id(round_id)
    if rnd.state not in (RESOLVED, PUBLISHED):
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: its report is written when it is resolved",
                round=round_id,
                state=state_word(rnd.state),
            )
        )
    return rnd


def review(
    round_id: int,
    markdown: str | None = None,
    *,
    intro: str | None = None,
    outro: str | None = None,
    story_en: str | None = None,
    actor_id: int | None = None,
) -> Review:
    """The GM's view of a round's report with the parts given (as the GM typed them; None: as stored) in place of
    the stored ones, changing nothing: the page as it would be published, the generated drafts, the corrections and
    the leak check's finds. A resolved or published round only; the campaign's GMs only."""
    parts = _checked_parts(markdown, intro, outro, story_en)
    rnd = reported_round(round_id, actor_id)
    report = Report.get(Report.round == round_id)
    texts = {column: parts[column] if column in parts else getattr(report, column) for column, _ in _PARTS}
    generated = report.generated_md  # as the narrator wrote it at resolution, else written again now
    if generated is None:
        try:
            generated = generated_story(rnd, Resolution.get(Resolution.round == round_id), "ja")
        except ResolutionFailed:
            generated = None
    generated_en = _generated_english(rnd)
    gm_english = texts["story_en_md"]
    if gm_english is not None and gm_english.strip() == (generated_en or "").strip():
        gm_english = None
    english = gm_english or generated_en
    if rnd.state == PUBLISHED and "story_en_md" not in parts and report.story_en_md is None and report.html_en:
        html_en: str | None = report.html_en  # the generated English story, frozen when it was published
    else:
        html_en = reports.render_markdown(english) if english is not None else None
    intro_md, story_md, outro_md = texts["intro_md"], texts["draft_md"], texts["outro_md"]
    english_text = english or reports.plain_text(html_en or "")
    parts_checked = {"intro": intro_md, "story": story_md, "outro": outro_md, "story_en": english_text,
                     "scenario": _scenario_text(rnd), "comments": master_comments.public_text(round_id)}  # fmt: skip
    return Review(
        round=rnd,
        intro=intro_md,
        story=story_md,
        outro=outro_md,
        story_en=gm_english,
        english=english,
        html=render_parts(intro_md, story_md, outro_md),
        html_en=html_en,
        generated=generated,
        generated_en=generated_en,
        leaks=leaks.check(round_id, parts_checked),
        corrections=corrections(round_id),
        regenerated_at=_regenerated_since_edit(round_id) if rnd.state == RESOLVED else None,
    )


def _regenerated_since_edit(round_id: int) -> datetime | None:
    """When the generated draft was last written again under the GM's edited draft (`rounds._store` logs it as
    `report.regenerated`), if the GM has not saved the draft since."""
    target = f"round:{round_id}"
    rows = AuditLog.select(AuditLog.id, AuditLog.action, AuditLog.at).where(
        AuditLog.target == target, AuditLog.action.in_(("report.regenerated", "report.edit"))
    )
    last = rows.order_by(AuditLog.id.desc()).first()
    return last.at if last is not None and last.action == "report.regenerated" else None
