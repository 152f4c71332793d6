"""Entries: accepted only while the round is open and before its deadline, validated by the ruleset, every save
kept in the history and answered with a receipt."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

import pytest

from pbp.errors import UserError
from pbp.models import Entry, EntryRevision
from pbp.services import entries, publishing, rounds
from pbp.services.clock import to_db


def _save(world, rid: int, i: int = 0, **kw):
    args = {"order": world.order(), "prose": "照準を合わせる。", **kw}
    return entries.save_entry(rid, world.characters[i], user_id=world.players[i], clock=world.clock, **args)


def test_a_receipt_is_the_hash_of_the_canonical_entry_and_the_server_time(world) -> None:
    rid = world.new_round()
    receipt = _save(world, rid)
    again = entries.receipt_for(rid, world.characters[0], world.order(), "照準を合わせる。", to_db(world.clock.now()))
    assert receipt == again
    assert str(receipt) == f"sha256:{receipt.digest} at 2026-12-01T12:00:00Z"
    assert Entry.get(Entry.round == rid).receipt == receipt.digest


def test_a_receipt_holds_what_it_hashes_so_the_player_can_recompute_it(world) -> None:
    """The order is kept without its `unit` key: the receipt carries the entry as stored, not as sent."""
    rid = world.new_round()
    sent = {**world.order(), "unit": f"pc{world.characters[0]}"}
    receipt = _save(world, rid, order=sent)
    body = json.dumps(receipt.entry, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(body.encode("utf-8")).hexdigest() == receipt.digest
    assert receipt.entry["order"] == Entry.get(Entry.round == rid).order == world.order()


def test_every_save_and_withdrawal_is_kept(world) -> None:
    rid = world.new_round()
    _save(world, rid)
    world.clock.advance(60)
    _save(world, rid, prose="書き直した。")
    world.clock.advance(60)
    entries.withdraw_entry(rid, world.characters[0], user_id=world.players[0], clock=world.clock)
    assert [r.action for r in EntryRevision.select().order_by(EntryRevision.id)] == ["submit", "edit", "withdraw"]
    assert Entry.select().count() == 0
    with pytest.raises(UserError, match="no entry to withdraw"):
        entries.withdraw_entry(rid, world.characters[0], user_id=world.players[0], clock=world.clock)


def test_a_late_entry_is_refused_in_the_campaign_time_zone(world) -> None:
    rid = world.new_round(deadline_in=3600)
    world.clock.advance(3600)
    with pytest.raises(UserError) as refused:
        _save(world, rid)
    assert str(refused.value) == "the deadline passed at 2026-12-01 22:00 (Asia/Tokyo)"
    assert EntryRevision.select().count() == 0


@pytest.mark.parametrize("state", ["draft", "closed", "held"])
def test_no_entry_outside_open(world, state: str) -> None:
    rid = world.new_round(open_it=state != "draft")
    if state == "closed":
        rounds.close_round(rid, clock=world.clock)
    if state == "held":
        rounds.hold_round(rid, reason="a rules question", clock=world.clock)
    with pytest.raises(UserError, match=f"is {state}: entries are accepted only while it is open"):
        _save(world, rid)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"prose": "あ" * 801}, "801 characters, over the limit of 800"),
        ({"order": {"major": {"type": "attack", "weapon": "beam_rifle", "targets": ["ghost"]}}}, "ghost"),
        ({"order": {"major": {"type": "attack", "weapon": "bfg", "targets": ["kagachi1"]}}}, "bfg"),
        ({"order": {"unit": "kagachi1", "major": None}}, "not for this character"),
    ],
)
def test_bad_entries_are_refused_and_change_nothing(world, changes: dict, message: str) -> None:
    rid = world.new_round()
    with pytest.raises(UserError, match=message):
        _save(world, rid, **changes)
    assert Entry.select().count() == 0 and EntryRevision.select().count() == 0


def test_only_the_owner_enters_for_a_character(world) -> None:
    rid = world.new_round()
    with pytest.raises(UserError, match="not yours"):
        entries.save_entry(
            rid, world.characters[0], user_id=world.players[1], order=world.order(), prose="", clock=world.clock
        )


def test_other_players_never_see_an_entry_before_publishing(world, monkeypatch) -> None:
    rid = world.new_round()
    _save(world, rid, 0)
    _save(world, rid, 1)
    mine = entries.entries_visible_to(rid, world.players[0])
    assert [e.character_id for e in mine] == [world.characters[0]]
    assert entries.entries_visible_to(rid, None) == []
    assert len(entries.entries_visible_to(rid, world.gm)) == 2
    world.clock.advance(3600)
    rounds.resolve_round(rid, clock=world.clock)
    publishing.publish_round(rid, clock=world.clock)
    assert len(entries.entries_visible_to(rid, None)) == 2


@pytest.mark.rule("R-GM-2")
@pytest.mark.parametrize(
    ("major", "said"),
    [
        ({"type": "check", "skill": "射撃", "need": 0, "label": "repair"}, "major.skill: the check 'repair' is 整備"),
        ({"type": "check", "label": "repair", "need": -3}, "major.need: the check 'repair' is 整備 needing 3"),
        ({"type": "check", "skill": "整備", "need": 1}, "major.label: a check names one the scenario offers"),
        ({"type": "check", "label": "sleep"}, "(repair, petition, procure, analysis, concert, drill), got 'sleep'"),
    ],
)  # fmt: skip
def test_a_scene_check_is_one_the_scenario_offers_at_its_own_difficulty(world, major: dict, said: str) -> None:
    """A player chooses which offered check to attempt, never its skill or how many successes it needs."""
    from pbp.services import campaigns, scenarios

    scene = campaigns.create_scenario(world.campaign, "hangar_eve", slug="eve", clock=world.clock)
    for uid, cid in zip(world.players, world.characters, strict=True):
        scenarios.join_scenario(scene.id, cid, user_id=uid, clock=world.clock)
    rid = rounds.create_round(scene.id, world.clock.now() + timedelta(hours=1), clock=world.clock).id
    rounds.open_round(rid, clock=world.clock)
    uid, cid = world.players[0], world.characters[0]
    with pytest.raises(UserError, match=re.escape(said)):
        entries.save_entry(rid, cid, user_id=uid, order={"minor": None, "major": major}, prose="", clock=world.clock)
    assert Entry.select().where(Entry.round == rid).count() == 0
    chosen = {"minor": None, "major": {"type": "check", "label": "repair", "skill": "整備"}}
    entries.save_entry(rid, cid, user_id=uid, order=chosen, prose="", clock=world.clock)
    stored = Entry.get(Entry.round == rid).order["major"]
    assert stored == {"type": "check", "label": "repair", "skill": "整備", "need": 3}


def _spy(monkeypatch, module, name: str) -> list:
    calls, real = [], getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **kw: calls.append(a) or real(*a, **kw))
    return calls


@pytest.mark.parametrize("earlier", [0, 1], ids=["first save", "re-save"])
def test_a_save_validated_before_its_transaction_is_refused_if_the_round_closed_meanwhile(
    world, meanwhile, earlier
) -> None:
    """A re-save on PostgreSQL is one statement (`entry_writes.edit_if_unchanged`): it finds the round closed too."""
    rid = world.new_round()
    for _ in range(earlier):
        _save(world, rid)
    meanwhile(entries, lambda: rounds.close_round(rid, clock=world.clock))
    with pytest.raises(UserError, match=f"round {rid} is closed: entries are accepted only while it is open"):
        _save(world, rid, prose="もう一度。")
    assert EntryRevision.select().count() == earlier
    assert [e.prose for e in Entry.select()] == ["照準を合わせる。"] * earlier


@pytest.mark.parametrize("earlier", [0, 1], ids=["first save", "re-save"])
def test_a_save_is_validated_again_when_what_it_read_changed_meanwhile(world, meanwhile, monkeypatch, earlier) -> None:
    """The first round's encounter is built from the joined characters' sheets: a sheet edited between the save's
    validation and its write transaction is seen under the lock (the vehicle has no beam rifle now). A re-save of
    the same order, whose validation was kept under the version, is validated again too."""
    from pbp.models import Character
    from pbp.services import characters

    rid = world.new_round()
    for _ in range(earlier):
        _save(world, rid)
    sheet = {**Character.get_by_id(world.characters[0]).sheet, "vehicle": "fighter"}
    edit = lambda: characters.edit_character(world.characters[0], world.players[0], sheet, clock=world.clock)  # noqa: E731
    meanwhile(entries, edit)
    validated = _spy(monkeypatch, entries, "_check_order")
    with pytest.raises(UserError, match="beam_rifle"):
        _save(world, rid, prose="もう一度。")
    assert len(validated) == 2 - earlier  # a re-save's first validation was kept from the earlier save
    assert EntryRevision.select().count() == earlier


def test_a_save_is_not_validated_again_when_only_other_entries_changed_meanwhile(world, meanwhile, monkeypatch) -> None:
    rid = world.new_round()
    meanwhile(entries, lambda: _save(world, rid, 1))
    validated = _spy(monkeypatch, entries, "_check_order")
    receipt = _save(world, rid)
    assert len(validated) == 2  # one for each save: the other player's, then this one's, once
    assert Entry.get(Entry.character == world.characters[0]).receipt == receipt.digest


def test_a_save_is_checked_again_when_the_campaign_was_reloaded_meanwhile(world, meanwhile, monkeypatch) -> None:
    from pbp.models import Campaign
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import campaigns

    rid = world.new_round()
    limit = Campaign.get_by_id(world.campaign).entry_char_limit
    real_load = campaigns.packs.load_valid_pack

    def shorter(pack_dir):  # the same pack with a smaller prose limit
        pack = real_load(pack_dir)
        pack.data["campaign"]["entry_limit"] = 5
        return pack

    def reload() -> None:
        monkeypatch.setattr(campaigns.packs, "load_valid_pack", shorter)
        campaigns.load_campaign(DEMO_PACK_DIR, clock=world.clock)

    meanwhile(entries, reload)
    assert limit > 8
    with pytest.raises(UserError, match="the prose has 8 characters, over the limit of 5"):
        _save(world, rid, prose="照準を合わせる。")
    assert EntryRevision.select().count() == 0


def test_an_order_re_saved_with_other_prose_is_validated_once_per_site_version(world, monkeypatch) -> None:
    """A player editing their prose sends the same order again: its validation is kept under the site's version
    (its context is); another order, or another version, is validated afresh."""
    from pbp.models import Character
    from pbp.services import characters

    rid = world.new_round()
    validated = _spy(monkeypatch, entries, "_check_order")
    for prose in ("一。", "二。", "三。"):
        _save(world, rid, prose=prose)
    assert len(validated) == 1
    _save(world, rid, order=world.order("kagachi2"))
    _save(world, rid, 1)
    assert len(validated) == 3
    sheet = Character.get_by_id(world.characters[1]).sheet
    characters.edit_character(world.characters[1], world.players[1], {**sheet, "ja": "改名"}, clock=world.clock)
    _save(world, rid, order=world.order("kagachi2"))
    assert len(validated) == 4
    assert [r.action for r in EntryRevision.select().where(EntryRevision.character == world.characters[0])] == [
        "submit", "edit", "edit", "edit", "edit"
    ]  # fmt: skip
    assert Entry.get(Entry.character == world.characters[0]).order == world.order("kagachi2")


def test_saves_in_a_round_read_it_once_until_the_site_version_moves(world, monkeypatch) -> None:
    """What an order is validated against is kept under the site's version (pbp.models.site): the rush's saves
    build the round's encounter once; an edited sheet (a watched table) makes the next save build it again."""
    from pbp.models import Character
    from pbp.services import characters

    rid = world.new_round()
    built = _spy(monkeypatch, entries, "shaped_encounter")
    parts = _spy(monkeypatch, entries, "_part")
    _save(world, rid, 0)
    _save(world, rid, 1)
    _save(world, rid, 0, prose="もう一度。")
    assert len(built) == 1
    assert [args[1] for args in parts] == world.characters  # each character's part read once
    sheet = Character.get_by_id(world.characters[1]).sheet
    characters.edit_character(world.characters[1], world.players[1], {**sheet, "ja": "改名"}, clock=world.clock)
    _save(world, rid, 0)
    assert len(built) == 2 and len(parts) == 3
