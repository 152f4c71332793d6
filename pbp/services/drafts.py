"""Drafts: never lose a プレイング. While a player writes, the entry form autosaves the text here (one draft per
character and round, the latest text replacing the last); a draft is its writer's alone and is never an entry: the
round takes only what `entries.save_entry` saved, and the deadline rule is untouched (a draft written after the
deadline is kept, and said to be no entry).

A save that meets an ended session (a logout on another device) parks its text under a random token held by that
browser's session (`park`); when the same user logs in there, the text becomes the draft (`claim_parked`) and the
form shows it again. Parked text nobody claims is forgotten after `PARKED_KEPT`."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

import peewee

from pbp.db import retried, write_transaction
from pbp.errors import N_, Forbidden, NotFound, UserError
from pbp.models import Campaign, Character, EntryDraft, Notice, ParkedText, Participation, Round, Scenario
from pbp.services import notifications
from pbp.services._common import is_text, lf_lines, storable_text
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.rounds import OPEN

#: Seconds a draft is not written again after it was (a typing player's saves coalesce; the form sends the latest
#: text when the pause is over, so nothing typed is lost, and a flood of requests costs one read each).
DRAFT_GAP = 2.0
#: A draft may hold this many times the campaign's prose limit: text pasted over the limit is kept while trimmed.
DRAFT_FACTOR = 4
#: How long parked text waits for its writer to log in again.
PARKED_KEPT = timedelta(days=1)


class TooSoon(UserError):
    """A draft sent again within `DRAFT_GAP`: nothing written; the form sends its latest text after `retry_after`."""

    def __init__(self, retry_after: float):
        seconds = max(1, math.ceil(retry_after))
        super().__init__(N_("the draft was saved a moment ago: it is saved again in %(s)d s", s=seconds))
        self.retry_after = retry_after


@dataclass(frozen=True)
class Draft:
    """A draft as the form shows it: its text, when it was saved, and whether that was after the round stopped
    taking entries (then it is plainly no entry)."""

    prose: str
    prose_en: str
    saved_at: datetime  # naive UTC, as stored
    late: bool
    timezone: str = "UTC"  # the campaign's, which the form's times are in


def _normalised(text: str | None, label: str) -> str:
    """As the entry's prose is stored and counted: newlines as LF."""
    return lf_lines(storable_text(text or "", label))


class _Writer(NamedTuple):
    rnd: Round
    limit: int  # the campaign's prose limit
    zone: str  # the campaign's time zone
    name: str  # the character's


def _writers_round(round_id: int, character_id: int, user_id: int) -> _Writer:
    """The round, the campaign's prose limit and time zone and the character's name when `user_id`'s character
    takes part in the round's scenario; else refused like the entry form (NotFound, Forbidden). Two reads: a late
    save's draft is written in the seconds after a deadline, when every round trip counts (issue 33)."""
    rnd = Round.get_or_none(Round.id == round_id)
    if rnd is None:
        raise NotFound(N_("no %(label)s %(id)s", label=N_("round"), id=round_id))
    joined = (
        (Participation.character == Character.id)
        & (Participation.scenario == rnd.scenario_id)
        & (Participation.status == "joined")
    )
    row = (
        Character.select(
            Character.owner, Character.name, Participation.id, Campaign.entry_char_limit, Campaign.timezone
        )
        .join_from(Character, Participation, peewee.JOIN.LEFT_OUTER, on=joined)
        .join_from(Character, Scenario, on=Scenario.id == rnd.scenario_id)
        .join_from(Scenario, Campaign, on=Campaign.id == Scenario.campaign)
        .where(Character.id == character_id)
        .tuples()
        .first()
    )
    if row is None:
        raise NotFound(N_("no %(label)s %(id)s", label=N_("character"), id=character_id))
    owner, name, participation, limit, zone = row
    if owner != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
    if participation is None:
        raise Forbidden(N_("%(name)s is not taking part in this scenario", name=name))
    return _Writer(rnd, int(limit), str(zone), str(name))


def _is_late(rnd: Round, saved_at: datetime) -> bool:
    return rnd.state != OPEN or saved_at >= rnd.deadline


@retried
def save_draft(
    round_id: int, character_id: int, *, user_id: int, prose: str, prose_en: str = "", clock: Clock = SYSTEM
) -> Draft:
    """Keep the text being written as the character's draft for the round (the writer's only). Refused within
    `DRAFT_GAP` of the last save (`TooSoon`), over `DRAFT_FACTOR` times the prose limit, or for another's character.
    Text the same as the draft is not written again. Never an entry, whatever the round's state."""
    rnd, limit, zone, _name = _writers_round(round_id, character_id, user_id)
    prose, prose_en = _normalised(prose, N_("the prose")), _normalised(prose_en, N_("the English version"))
    for text, field in ((prose, "prose"), (prose_en, "prose_en")):
        if len(text) > limit * DRAFT_FACTOR:
            raise UserError(N_("a draft holds at most %(limit)d characters", limit=limit * DRAFT_FACTOR), field)
    now = to_db(clock.now())
    mine = (EntryDraft.round == round_id) & (EntryDraft.character == character_id)
    last = EntryDraft.get_or_none(mine)
    if last is not None and (last.prose, last.prose_en or "") == (prose, prose_en):
        return Draft(prose, prose_en, last.saved_at, _is_late(rnd, last.saved_at), zone)
    if last is not None and (now - last.saved_at).total_seconds() < DRAFT_GAP:
        raise TooSoon(DRAFT_GAP - (now - last.saved_at).total_seconds())
    with write_transaction():
        _store(round_id, character_id, prose, prose_en, now)
    return Draft(prose, prose_en, now, _is_late(rnd, now), zone)


def _store(round_id: int, character_id: int, prose: str, prose_en: str, now: datetime) -> None:
    """Write the draft (one row per character and round), inside the caller's transaction."""
    EntryDraft.insert(
        round=round_id, character=character_id, prose=prose, prose_en=prose_en or None, saved_at=now
    ).on_conflict(
        conflict_target=[EntryDraft.round, EntryDraft.character],
        update={EntryDraft.prose: prose, EntryDraft.prose_en: prose_en or None, EntryDraft.saved_at: now},
    ).execute()


@retried
def refused_late(
    round_id: int, character_id: int, *, user_id: int, prose: str, prose_en: str = "", clock: Clock = SYSTEM
) -> None:
    """A save refused because the round no longer takes entries (its deadline passed, or it closed): the text is
    kept as the draft, plainly no entry, and the player is told so in the notice list (and by e-mail) as well as on
    the refused form, in one transaction. Told once per round and character: a player who tries again and again in
    the minute after the deadline gets one e-mail, and the later texts replace the draft."""
    rnd, limit, _zone, name = _writers_round(round_id, character_id, user_id)
    prose, prose_en = _normalised(prose, N_("the prose")), _normalised(prose_en, N_("the English version"))
    now = to_db(clock.now())
    page = f"/rounds/{round_id}/entry/{character_id}"
    told = _told_late(rnd, user_id, page)
    with write_transaction():
        if max(len(prose), len(prose_en)) <= limit * DRAFT_FACTOR:
            _store(round_id, character_id, prose, prose_en, now)
        if not told:
            payload = notifications.round_payload(rnd)
            notifications.queue("entry.late", now, users=[user_id], **payload, character=name, page=page)


def _told_late(rnd: Round, user_id: int, page: str) -> bool:
    """Whether the user was told of a late save on `page` since the round stopped taking entries (a new deadline
    opens it again, and a late save after that one is told again)."""
    ended = min(rnd.deadline, rnd.closed_at) if rnd.closed_at is not None else rnd.deadline
    told = Notice.select(Notice.payload).where(
        Notice.user == user_id, Notice.kind == "entry.late", Notice.created_at >= ended
    )
    return any(notice.payload.get("page") == page for notice in told)


def draft_of(round_id: int, character_id: int, *, user_id: int) -> Draft | None:
    """The character's draft for the round, for its writer only (None: none)."""
    rnd, _limit, zone, _name = _writers_round(round_id, character_id, user_id)
    row = EntryDraft.get_or_none(EntryDraft.round == round_id, EntryDraft.character == character_id)
    if row is None:
        return None
    return Draft(row.prose, row.prose_en or "", row.saved_at, _is_late(rnd, row.saved_at), zone)


@retried
def park(
    round_id: int, character_id: int, *, user_id: int, prose: str, prose_en: str = "", clock: Clock = SYSTEM
) -> str | None:
    """Keep the text of a save whose session had ended (`user_id`: the user that session named): the token to keep
    in that browser's session, or None when the character is not that user's (nothing kept). Text already past
    `PARKED_KEPT` is forgotten meanwhile."""
    try:
        _writers_round(round_id, character_id, user_id)
        prose, prose_en = _normalised(prose, N_("the prose")), _normalised(prose_en, N_("the English version"))
    except UserError:
        return None
    now = to_db(clock.now())
    token = secrets.token_urlsafe(32)
    with write_transaction():
        ParkedText.delete().where(ParkedText.parked_at < now - PARKED_KEPT).execute()
        ParkedText.create(
            token=token,
            user=user_id,
            round=round_id,
            character=character_id,
            prose=prose,
            prose_en=prose_en or None,
            parked_at=now,
        )
    return token


@retried
def claim_parked(token: str, *, user_id: int, clock: Clock = SYSTEM) -> tuple[int, int] | None:
    """After `user_id` logged in where `token` was parked: the text becomes the character's draft, and the round and
    character to return to; None when the token holds nothing of this user's (another user logging in there)."""
    if not is_text(token):
        return None
    now = to_db(clock.now())
    with write_transaction():
        row = ParkedText.get_or_none(
            ParkedText.token == token, ParkedText.user == user_id, ParkedText.parked_at >= now - PARKED_KEPT
        )
        if row is None:
            return None
        _store(row.round_id, row.character_id, row.prose, row.prose_en or "", now)
        row.delete_instance()
    return row.round_id, row.character_id
