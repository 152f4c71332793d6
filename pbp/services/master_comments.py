"""マスターコメント: the GM's short comment on each character of a round, published under the story with the report
(issue 31, item 7). Written on the report page while the round is resolved; once it is published, a change is a
correction like the story's (`publishing.correct_report`): a dated note on the public page, the page as it was
kept, an audit line. Leak-checked as the report is, since it is public text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from markupsafe import escape

from pbp import reports
from pbp.db import retried, write_transaction
from pbp.errors import N_, InvalidState, Text, UserError
from pbp.models import Character, MasterComment, Report, Resolution, Round, Scenario
from pbp.services import audit, gms, leaks
from pbp.services._common import REASON_LIMIT, checked_text, get_or_fail, lf_lines, storable_text
from pbp.services.characters import character_id_of
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.corrections import keep_correction
from pbp.services.rounds import PUBLISHED, RESOLVED, lock_round, state_word

#: The characters a comment may have (a few sentences; the story is the place for more).
COMMENT_LIMIT = 1000


@dataclass(frozen=True)
class Comment:
    """One character's comment as typed (`text` Japanese, `text_en` English or "")."""

    character_id: int
    text: str
    text_en: str = ""


def cast(round_id: int, locale: str = "ja") -> list[tuple[int, str]]:
    """The round's characters as (id, name in `locale`, else Japanese), in the order the battle lists them: whom a
    comment may be on."""
    encounter = Resolution.select(Resolution.encounter).where(Resolution.round == round_id).scalar()
    ids = [
        cid
        for u in (encounter or {}).get("units") or []
        if isinstance(u, dict) and u.get("side") == "pc" and (cid := character_id_of(str(u.get("id")))) is not None
    ]
    rows = Character.select(Character.id, Character.name, Character.sheet).where(Character.id.in_(ids)) if ids else []
    names = {c.id: str((c.sheet or {}).get(locale) or c.name) for c in rows}
    return [(cid, names[cid]) for cid in ids if cid in names]


def stored(round_id: int) -> dict[int, MasterComment]:
    """The round's comments by character."""
    return {c.character_id: c for c in MasterComment.select().where(MasterComment.round == round_id)}


def _checked(comments: list[Comment], cast_ids: set[int]) -> dict[int, tuple[str, str | None]]:
    """Each comment checked (its field named `comment-<id>` or `comment_en-<id>`): text, within the limit, on a
    character of the round."""
    checked: dict[int, tuple[str, str | None]] = {}
    for c in comments:
        if c.character_id not in cast_ids:
            raise UserError(N_("character %(id)s is not in this round", id=c.character_id), f"comment-{c.character_id}")
        ja = _text(c.text, N_("the comment"), f"comment-{c.character_id}")
        en = _text(c.text_en, N_("the English comment"), f"comment_en-{c.character_id}")
        if en and not ja:
            raise UserError(
                N_("write the Japanese comment first: the English one goes beside it"), f"comment-{c.character_id}"
            )
        checked[c.character_id] = (ja, en or None)
    return checked


def _text(value: str, label: str, field: str) -> str:
    """A comment checked (`checked_text`), its refusal placed beside its own field."""
    try:
        return checked_text(lf_lines(value), label, COMMENT_LIMIT, required=False)
    except UserError as refusal:
        refusal.field = field
        raise


def public_text(round_id: int) -> str:
    """Every comment of the round, Japanese and English, one after another: what the leak check reads."""
    rows = MasterComment.select(MasterComment.text, MasterComment.text_en).where(MasterComment.round == round_id)
    return "\n\n".join(t for row in rows for t in (row.text, row.text_en or "") if t)


def _refuse_leaks(round_id: int, texts: dict[int, tuple[str, str | None]]) -> None:
    joined = "\n\n".join(t for ja, en in texts.values() for t in (ja, en or "") if t)
    found = leaks.check(round_id, {"comments": joined}) if joined else []
    if found:
        finds = {
            f"find{i}": N_("'%(text)s' (%(what)s)", text=leak.found, what=leaks.secret_name(leak.secret))
            for i, leak in enumerate(found)
        }
        listed = Text("; ".join(f"%({key})s" for key in finds), **finds)
        raise UserError(
            N_("the comments hold GM-secret text, and they are published: %(found)s", found=listed), "comments"
        )


def section_html(comments: list[tuple[str, str]]) -> str:
    """The comments as the page as it was before a correction keeps them: each under its character's name."""
    if not comments:
        return ""
    items = "".join(
        f'<div class="master-comment"><h3>{escape(name)}</h3>{reports.render_markdown(text)}</div>'
        for name, text in comments
    )
    return f'<section class="master-comments">{items}</section>'


def _note(note: str) -> str:
    try:
        return checked_text(note, N_("the correction note"), REASON_LIMIT)
    except UserError as refusal:
        refusal.field = "note"
        raise


@retried
def save_comments(
    round_id: int, comments: list[Comment], *, note: str = "", actor_id: int | None = None, clock: Clock = SYSTEM
) -> int:
    """Store the comments given (an empty one is taken away) for a resolved round, or correct them on a published
    one (`note` required, shown dated on the public page; the page as it was kept). Refused when they hold GM-secret
    text, and on a published round when nothing changes. The campaign's GMs only; returns how many changed."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    campaign_id = Scenario.select(Scenario.campaign).where(Scenario.id == rnd.scenario_id).scalar()
    gms.require_gm(campaign_id, actor_id)
    names = dict(cast(round_id))
    texts = _checked(comments, set(names))
    storable_text(note, "note")  # kept only once the round is published, but never text that is not text
    why = _note(note) if rnd.state == PUBLISHED else ""
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state not in (RESOLVED, PUBLISHED):
            raise InvalidState(
                N_(
                    "round %(round)s is %(state)s: comments are written once it is resolved",
                    round=round_id,
                    state=state_word(rnd.state),
                )
            )
        before = stored(round_id)
        was = {cid: (c.text, c.text_en) for cid, c in before.items()}
        changed = {cid: t for cid, t in texts.items() if was.get(cid, ("", None)) != t}
        if not changed:
            if rnd.state == PUBLISHED:
                raise UserError(N_("nothing to correct: the comments are as published"), "comments")
            return 0
        _refuse_leaks(round_id, {cid: t for cid, t in changed.items() if t[0]})
        if rnd.state == PUBLISHED:
            _keep_as_published(rnd, before, names, why, actor_id, now)
        for cid, (ja, en) in changed.items():
            if not ja:
                MasterComment.delete().where(MasterComment.round == round_id, MasterComment.character == cid).execute()
            elif cid in before:
                MasterComment.update(text=ja, text_en=en, updated_at=now, updated_by=actor_id).where(
                    MasterComment.id == before[cid].id
                ).execute()
            else:
                MasterComment.create(
                    round=round_id, character=cid, text=ja, text_en=en, updated_at=now, updated_by=actor_id
                )
        action = "comment.correct" if rnd.state == PUBLISHED else "comment.edit"
        chars = {str(cid): len(ja) for cid, (ja, _en) in sorted(changed.items())}
        audit.log(
            action, f"round:{round_id}", now, actor_id=actor_id, characters=chars, **({"note": why} if why else {})
        )
    return len(changed)


def _keep_as_published(
    rnd: Round, before: dict[int, MasterComment], names: dict[int, str], why: str, actor_id: int | None, now: datetime
) -> None:
    """Inside `save_comments`' transaction: a correction that keeps the page as published (its story and its
    comments), dated on the public page like a story's (`publishing.correct_report`)."""
    report = Report.get(Report.round == rnd.id)
    shown = [(names.get(cid, str(cid)), c.text) for cid, c in before.items() if c.text]
    keep_correction(report, why, now, actor_id, old_html=(report.html or "") + section_html(shown))
    Report.update(corrected_at=now, updated_at=now).where(Report.round == rnd.id).execute()


@dataclass(frozen=True)
class Shown:
    """A comment as a public page shows it: the character, its HTML, and whether it is the GM's Japanese original
    on an English page."""

    character_id: int
    name: str
    html: str
    original: bool = False


def shown(round_id: int, names: dict[int, str], locale: str) -> list[Shown]:
    """A published round's comments for a page in `locale`, in the order of `names` (the cast as the page names
    it): on an English page the GM's English, else the Japanese marked as the original."""
    rows = stored(round_id)
    out = []
    for cid, name in names.items():
        row = rows.get(cid)
        if row is None or not row.text:
            continue
        english = locale == "en" and bool(row.text_en)
        text = row.text_en if english else row.text
        out.append(Shown(cid, name, reports.render_markdown(text or ""), original=locale == "en" and not english))
    return out
