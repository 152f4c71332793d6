"""Where each line of each プレイング went, for the GM's report page (issue 29): every entry of a resolved round read as
a master reads it (`pbp.reports.playing`), each line with its fate in the Japanese story as it stands (quoted, told,
a note to the GM, left out: `pbp.reports.weave.line_fates`), so the GM sees the notes addressed to them and can
restore a line the draft left out. A pure read: the fates are read back from the story text, never stored, so they
follow the GM's edits."""

from __future__ import annotations

from dataclasses import dataclass

from peewee import JOIN

from pbp.models import Character, Entry, Participation, Report
from pbp.reports.playing import read_playing
from pbp.reports.weave import NOTE, line_fates
from pbp.services.characters import unit_id
from pbp.services.publishing import reported_round


@dataclass(frozen=True)
class EntryFates:
    """One entry's lines with their fates. `lines`: (kind, the line as the preview shows it, its fate) in the
    entry's order, the notes to the GM apart in `notes`; `adlib`: the player's アドリブ wish (None: not said);
    `partners`: the PCs the player asks to share a scene with."""

    unit: str
    name: str
    name_en: str
    lines: tuple[tuple[str, str, str], ...]
    notes: tuple[str, ...]
    adlib: bool | None
    partners: tuple[str, ...]


def entry_fates(round_id: int, story: str | None = None, *, actor_id: int | None) -> list[EntryFates]:
    """Each entry of a resolved or published round (in character order, as the story reads them) with where its
    lines went in `story` (the Japanese story as the GM typed it; None: as stored, the GM's edit or the draft).
    The campaign's GMs only: the entries of an unpublished round are theirs and their players' alone."""
    rnd = reported_round(round_id, actor_id)
    if story is None:
        story = Report.select(Report.draft_md).where(Report.round == round_id).scalar() or ""
    on_round = (Entry.character == Character.id) & (Entry.round == round_id)
    cast = list(
        Character.select(Character.id, Character.name, Character.sheet, Entry.prose)
        .join(Participation)
        .switch(Character)
        .join(Entry, JOIN.LEFT_OUTER, on=on_round)
        .where(Participation.scenario == rnd.scenario_id)
        .order_by(Character.id)
        .objects()
    )
    names = tuple(_name(c, "ja") for c in cast)  # as the narrator reads them: a name is a name, not a noun
    out = []
    for c in cast:
        if c.prose is None:  # joined, no entry: nothing to show
            continue
        reading = read_playing(c.prose, names=names)
        fates = line_fates(reading, story)
        out.append(
            EntryFates(
                unit=unit_id(c.id),
                name=_name(c, "ja"),
                name_en=_name(c, "en"),
                lines=tuple(line for line in fates if line[2] != NOTE),
                notes=reading.notes,
                adlib=reading.adlib,
                partners=reading.partners,
            )
        )
    return out


def _name(character: Character, locale: str) -> str:
    return str((character.sheet or {}).get(locale) or character.name)
