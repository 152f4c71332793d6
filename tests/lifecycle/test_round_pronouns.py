"""A round's story gets each PC's English pronoun (issue 29): the sheet's, else the pack's ready-made character the
sheet was copied from, else `they`, passed by the service to `reports.draft_report`."""

from __future__ import annotations

from typing import Any

import pytest

from pbp import reports
from pbp.models import Character, Resolution, Round
from pbp.services import characters, entries, rounds


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keyword arguments of every `reports.draft_report` call the services make (the story is still written)."""
    calls: list[dict[str, Any]] = []
    real = reports.draft_report

    def spy(bundle: dict[str, Any], **kwargs: Any) -> str:
        calls.append(kwargs)
        return real(bundle, **kwargs)

    monkeypatch.setattr(reports, "draft_report", spy)
    return calls


def _resolve(world) -> int:
    rid = world.new_round()
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    return rid


def test_the_english_story_gets_each_pcs_pronoun_from_the_sheet_the_pack_or_they(world, told) -> None:
    first, second = world.characters
    sheet = Character.get_by_id(first).sheet
    assert sheet["pronoun"] == "she"  # copied from the pack's aoi
    characters.edit_character(first, world.players[0], {**sheet, "pronoun": "he"}, clock=world.clock)
    # A sheet of its own with no pronoun, as written before pronouns existed: they.
    other = {k: v for k, v in Character.get_by_id(second).sheet.items() if k != "pronoun"}
    Character.update(sheet={**other, "ja": "春", "en": "Haru"}, name="春").where(Character.id == second).execute()

    rid = _resolve(world)
    assert told[-1]["locale"] == "ja"
    told.clear()
    rounds.generated_story(Round.get_by_id(rid), Resolution.get(Resolution.round == rid), "en")

    assert len(told) == 1 and told[0]["locale"] == "en"
    unit = characters.unit_id
    assert told[0]["pronouns"] == {unit(first): "he", unit(second): "they"}


def test_a_copy_of_a_ready_made_character_without_a_pronoun_gets_the_packs(world, told) -> None:
    """A sheet copied from the pack before the pack had pronouns: the pack's aoi is `she`."""
    for cid in world.characters:
        bare = {k: v for k, v in Character.get_by_id(cid).sheet.items() if k != "pronoun"}
        Character.update(sheet=bare).where(Character.id == cid).execute()
    _resolve(world)
    assert set(told[-1]["pronouns"].values()) == {"she"}
