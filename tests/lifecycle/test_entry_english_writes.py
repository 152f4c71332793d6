"""The English version of an entry is written by every save path on both databases: the first save (an insert), a
re-save (PostgreSQL: the one-statement edit) and one that drops it; each revision keeps what that save held."""

from __future__ import annotations

from pbp.models import Entry, EntryRevision
from pbp.services import entries

ORDER = {"major": None, "minor": None}


def test_every_save_path_writes_the_english_version(world) -> None:
    rid, character, player = world.new_round(), world.characters[0], world.players[0]

    def save(prose_en: str | None) -> None:
        entries.save_entry(
            rid, character, user_id=player, order=ORDER, prose="撃つ。", prose_en=prose_en, clock=world.clock
        )

    save("I fire.")
    save("I fire twice.")  # a re-save while nothing changed
    save(None)
    revisions = EntryRevision.select().where(EntryRevision.round == rid).order_by(EntryRevision.id)
    assert [(r.action, r.prose_en) for r in revisions] == [
        ("submit", "I fire."),
        ("edit", "I fire twice."),
        ("edit", None),
    ]
    assert Entry.get(Entry.round == rid).prose_en is None
