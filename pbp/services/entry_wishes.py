"""What a player asks of the GM beside a round's entry, as PBW players do (issue 30, item 6): the PCs to act with
(連携: named characters taking part in the same scenario, who are told they were named), whether the GM may add to
what is written (アドリブ) and whether the character may meet the other PCs (絡み), and a note to the GM.

The writer's and the campaign's GMs' alone: a named partner sees only who named them, never the note; nothing of it
is published, exported into a round's bundle or part of the entry's receipt. Saved with the entry, in its
transaction (`entries.save_entry`, `write_wish`), and checked first (`check_wish`) so that a save refused for its
wish writes nothing: under the same rule as the entry (the writer's character, taking part, the round open before
its deadline).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pbp.errors import N_, InvalidState, UserError
from pbp.models import EntryWish, Participation, Round
from pbp.services._common import checked_text

NOTE_LIMIT = 400  # characters of the note to the GM
MOST_PARTNERS = 3
ADLIB = ("", "welcome", "little", "none")  # "": not said
CONTACT = ("", "welcome", "none")


@dataclass(frozen=True)
class Wish:
    partners: tuple[int, ...] = ()  # character ids
    adlib: str = ""
    contact: str = ""
    gm_note: str = ""
    saved_at: datetime | None = None


def partners_offered(round_id: int, character_id: int) -> list[int]:
    """The characters a wish may name: the others taking part in the round's scenario, in the order they joined."""
    scenario = Round.select(Round.scenario).where(Round.id == round_id)
    joined = Participation.select(Participation.character).where(
        Participation.scenario == scenario, Participation.status == "joined", Participation.character != character_id
    )  # one query: the round's scenario as a subquery
    return [p.character_id for p in joined.order_by(Participation.id)]


def check_wish(
    round_id: int, character_id: int, *, partners: Sequence[str], adlib: str, contact: str, gm_note: str
) -> Wish:
    """The wish as it would be stored, or a UserError beside its field (`partners`, `adlib`, `contact`, `gm_note`).
    The partners on offer are read only when some are named (most saves name none)."""
    offered = partners_offered(round_id, character_id) if partners else []
    chosen: list[int] = []
    for raw in partners:
        value = int(raw) if raw.isascii() and raw.isdigit() else None
        if value not in offered:
            raise UserError(N_("a partner is a character taking part in this scenario"), "partners")
        if value not in chosen:
            chosen.append(value)
    if len(chosen) > MOST_PARTNERS:
        raise UserError(N_("at most %(most)s partners", most=MOST_PARTNERS), "partners")
    if adlib not in ADLIB:
        raise UserError(N_("not a choice the form offers"), "adlib")
    if contact not in CONTACT:
        raise UserError(N_("not a choice the form offers"), "contact")
    try:
        note = checked_text(gm_note, N_("the note to the GM"), NOTE_LIMIT, required=False)
    except UserError as refused:
        raise UserError(refused.message, "gm_note") from None
    return Wish(tuple(chosen), adlib, contact, note)


def write_wish(round_id: int, character_id: int, wish: Wish, now: datetime) -> None:
    """Store the wish `check_wish` made (one per character and round, replaced) inside the entry's write transaction
    (`entries.save_entry`, which checked the writer and the round): a partner who left since the check refuses the
    whole save, so the entry and the wish beside it are stored together or not at all."""
    if not set(wish.partners) <= set(partners_offered(round_id, character_id)):  # a partner left meanwhile
        raise InvalidState(N_("a partner is a character taking part in this scenario"), "partners")
    values = {"partners": list(wish.partners), "adlib": wish.adlib, "contact": wish.contact,
              "gm_note": wish.gm_note, "saved_at": now}  # fmt: skip
    updated = EntryWish.update(**values).where(EntryWish.round == round_id, EntryWish.character == character_id)
    if not updated.execute():
        EntryWish.create(round=round_id, character=character_id, **values)


def digest(wish: Wish) -> str:
    """A short digest of what a wish says (not when it was saved): the entry form carries the stored wish's as a
    hidden field, and a save that sends the same wish back is the entry's save alone, without reading the stored
    one (a browser sends the wish with every save; on PostgreSQL a re-save is then one statement)."""
    said = [sorted(wish.partners), wish.adlib, wish.contact, wish.gm_note]
    return hashlib.sha256(json.dumps(said, ensure_ascii=False).encode()).hexdigest()[:16]


def _wish(row: EntryWish) -> Wish:
    return Wish(tuple(row.partners or ()), row.adlib, row.contact, row.gm_note, row.saved_at)


def wish_of(round_id: int, character_id: int) -> Wish | None:
    """The character's wish in the round (the writer's entry form; the caller checked whose it is)."""
    row = EntryWish.get_or_none(EntryWish.round == round_id, EntryWish.character == character_id)
    return None if row is None else _wish(row)


def named_by(round_id: int, character_id: int) -> list[int]:
    """The characters whose wish in the round names this one as a partner (told to it: never their notes)."""
    rows = EntryWish.select(EntryWish.character, EntryWish.partners).where(EntryWish.round == round_id)
    return [row.character_id for row in rows.order_by(EntryWish.id) if character_id in (row.partners or ())]


def wishes_in(round_id: int) -> dict[int, Wish]:
    """Every wish of the round by character id: the GM's (the caller checked that the user is one)."""
    return {row.character_id: _wish(row) for row in EntryWish.select().where(EntryWish.round == round_id)}
