"""Characters are created and edited within the rules (R-CHECK-3, R-GEAR-2) and grow through growth requests."""

from __future__ import annotations

import pytest

from pbp.errors import Conflict, Forbidden, InvalidState, UserError
from pbp.models import AuditLog, Campaign, Character, GrowthRequest
from pbp.services import characters


def _sheet(world, **changes) -> dict:
    return {**Campaign.get_by_id(world.campaign).pack["characters"]["aoi"], **changes}


def last_audit(action: str) -> dict:
    return AuditLog.select().where(AuditLog.action == action).order_by(AuditLog.id.desc()).get().detail


def _count() -> int:
    return Character.select().count()


@pytest.mark.rule("R-CHECK-3")
def test_a_skill_above_5_is_refused_and_nothing_is_stored(world) -> None:
    before = _count()
    sheet = _sheet(world, skills={"射撃": 6})
    with pytest.raises(UserError, match="skills.射撃"):
        characters.create_character(world.campaign, world.players[0], sheet, clock=world.clock)
    assert _count() == before


@pytest.mark.rule("R-GEAR-2")
def test_weapons_over_the_petition_limit_are_refused(world) -> None:
    # 陳情 1 allows weapons costing 2 at most; pistol + marker laser cost more.
    sheet = _sheet(world, skills={**_sheet(world)["skills"], "陳情": 1})
    with pytest.raises(UserError, match="R-GEAR-2"):
        characters.create_character(world.campaign, world.players[0], sheet, clock=world.clock)


def test_a_character_takes_its_name_from_the_sheet(world) -> None:
    character = characters.create_character(world.campaign, world.players[0], _sheet(world), clock=world.clock)
    assert character.name == "葵" and character.alive and character.sheet["growth_points"] == 0


@pytest.mark.rule("R-GEAR-1")
def test_gear_may_be_swapped_but_skills_change_only_by_growth(world) -> None:
    cid, uid = world.characters[0], world.players[0]
    swapped = _sheet(world, items=["charm"])
    assert characters.edit_character(cid, uid, swapped, clock=world.clock).sheet["items"] == ["charm"]
    with pytest.raises(UserError, match="growth request"):
        characters.edit_character(
            cid, uid, _sheet(world, skills={**_sheet(world)["skills"], "射撃": 4}), clock=world.clock
        )
    with pytest.raises(UserError, match="not yours"):
        characters.edit_character(cid, world.players[1], swapped, clock=world.clock)


def test_a_sheet_from_before_a_grant_is_refused_saying_why(world) -> None:
    """A player's form read before the GM's grant: the refusal names both values and says to reload."""
    cid, uid = world.characters[0], world.players[0]
    stale = Character.get_by_id(cid).sheet
    characters.grant_growth_points(cid, 3, reason="a fine round", clock=world.clock)
    with pytest.raises(UserError, match=r"growth_points .* the sheet sent has 0, the character 3 \(reload"):
        characters.edit_character(cid, uid, {**stale, "items": ["charm"]}, clock=world.clock)


@pytest.mark.rule("R-CHECK-3")
def test_a_growth_request_waits_for_the_gm_and_approval_spends_growth_points(world) -> None:
    cid, uid = world.characters[0], world.players[0]
    # Aoi spends 23 of the 24 creation skill points: 1 unspent.
    with pytest.raises(UserError, match="costs 4 growth points; 葵 has 1 unspent"):
        characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    characters.grant_growth_points(cid, 5, reason="survived the Tama river", actor_id=world.gm, clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, note="training", clock=world.clock)
    assert (request.cost, request.status) == (4, "pending")
    assert Character.get_by_id(cid).sheet["skills"]["射撃"] == 3  # nothing changes before the GM decides
    assert [r.id for r in characters.pending_growth(world.campaign)] == [request.id]
    decided = characters.decide_growth(request.id, True, "well trained", actor_id=world.gm, clock=world.clock)
    assert (decided.status, decided.decided_by_id, decided.reason, decided.cost) == (
        "approved",
        world.gm,
        "well trained",
        4,
    )
    assert Character.get_by_id(cid).sheet["skills"]["射撃"] == 4
    assert characters.pending_growth(world.campaign) == []
    assert last_audit("growth.approve") == {"request": request.id, "reason": "well trained"}
    with pytest.raises(UserError, match="costs 4 growth points; 葵 has 2 unspent"):
        characters.request_growth(cid, uid, {"回避": 4}, clock=world.clock)
    with pytest.raises(UserError, match="only up"):
        characters.request_growth(cid, uid, {"射撃": 2}, clock=world.clock)
    with pytest.raises(UserError, match="levels go 1..5"):
        characters.request_growth(cid, uid, {"射撃": 6}, clock=world.clock)
    with pytest.raises(InvalidState, match="already approved"):
        characters.decide_growth(request.id, False, "changed my mind", actor_id=world.gm, clock=world.clock)
    assert GrowthRequest.select().count() == 1


def test_a_denied_request_changes_nothing_and_says_why(world) -> None:
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 5, reason="survived", actor_id=world.gm, clock=world.clock)
    before = Character.get_by_id(cid).sheet
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    with pytest.raises(UserError, match="reason"):  # a denial says why
        characters.decide_growth(request.id, False, "", actor_id=world.gm, clock=world.clock)
    denied = characters.decide_growth(request.id, False, "not this season", actor_id=world.gm, clock=world.clock)
    assert (denied.status, denied.reason) == ("denied", "not this season")
    assert Character.get_by_id(cid).sheet == before
    assert last_audit("growth.deny") == {"request": request.id, "reason": "not this season"}
    # the points stay unspent: a new request may spend them
    assert characters.request_growth(cid, uid, {"回避": 4}, clock=world.clock).status == "pending"


def test_only_the_campaigns_gm_decides(world) -> None:
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 5, reason="survived", actor_id=world.gm, clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    for someone in (uid, world.players[1]):
        with pytest.raises(Forbidden, match="only the GM"):
            characters.decide_growth(request.id, True, actor_id=someone, clock=world.clock)
    assert GrowthRequest.get_by_id(request.id).status == "pending"
    assert Character.get_by_id(cid).sheet["skills"]["射撃"] == 3


def test_one_pending_request_per_character(world) -> None:
    """Points promised to a pending request cannot be promised again: a second request waits for the first."""
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 20, reason="survived", actor_id=world.gm, clock=world.clock)
    first = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    with pytest.raises(Conflict, match=f"growth request {first.id} is still waiting"):
        characters.request_growth(cid, uid, {"回避": 4}, clock=world.clock)
    characters.decide_growth(first.id, False, "no", actor_id=world.gm, clock=world.clock)
    assert characters.request_growth(cid, uid, {"回避": 4}, clock=world.clock).status == "pending"


@pytest.mark.rule("R-CHECK-3")
def test_approval_prices_the_raise_against_the_sheet_as_it_is_then(world) -> None:
    """The GM's own change since the request (here a sheet whose points were spent elsewhere) is counted: a raise
    the character can no longer pay for is refused and the request stays pending."""
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 4, reason="survived", actor_id=world.gm, clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)  # 4 of the 5 unspent
    sheet = Character.get_by_id(cid).sheet
    Character.update(sheet={**sheet, "skills": {**sheet["skills"], "回避": 4}}).where(Character.id == cid).execute()
    with pytest.raises(UserError, match="costs 4 growth points; 葵 has 1 unspent"):
        characters.decide_growth(request.id, True, actor_id=world.gm, clock=world.clock)
    assert GrowthRequest.get_by_id(request.id).status == "pending"


def test_an_edit_from_a_stale_form_is_refused(world) -> None:
    """A form carries the sheet_version it was loaded with; a growth approved meanwhile makes it stale."""
    cid, uid = world.characters[0], world.players[0]
    loaded = Character.get_by_id(cid).sheet
    version = characters.sheet_version(loaded)
    characters.grant_growth_points(cid, 3, reason="a fine round", clock=world.clock)
    fresh = {**Character.get_by_id(cid).sheet, "items": ["charm"]}
    with pytest.raises(characters.StaleSheet, match="changed since"):
        characters.edit_character(cid, uid, fresh, version=version, clock=world.clock)
    assert Character.get_by_id(cid).sheet["items"] == loaded["items"]
    new_version = characters.sheet_version(Character.get_by_id(cid).sheet)
    assert characters.edit_character(cid, uid, fresh, version=new_version, clock=world.clock).sheet == fresh


@pytest.mark.parametrize("concurrent", ["grant", "edit"])
def test_a_grant_and_an_edit_at_once_both_survive(world, meanwhile, concurrent: str) -> None:
    """Each change is applied to the sheet as it is inside its own transaction, so the change another process
    commits between this one's read and its write is kept, not overwritten with the stale sheet."""
    cid, uid = world.characters[0], world.players[0]
    changes = {
        "grant": lambda: characters.grant_growth_points(cid, 5, reason="survived", clock=world.clock),
        "edit": lambda: characters.edit_character(cid, uid, _sheet(world, items=["charm"]), clock=world.clock),
    }
    meanwhile(characters, changes[concurrent])
    changes["edit" if concurrent == "grant" else "grant"]()
    sheet = Character.get_by_id(cid).sheet
    assert (sheet["growth_points"], sheet["items"]) == (5, ["charm"])


@pytest.mark.rule("R-CHECK-3")
def test_a_growth_request_and_an_edit_at_once_both_survive(world, meanwhile) -> None:
    """A growth request starts from the sheet as it is in its transaction too (the same way as grants and edits)."""
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 5, reason="survived", clock=world.clock)
    charm = {**Character.get_by_id(cid).sheet, "items": ["charm"]}
    meanwhile(characters, lambda: characters.edit_character(cid, uid, charm, clock=world.clock))
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    assert request.before["items"] == ["charm"] and request.after["items"] == ["charm"]


@pytest.mark.rule("R-CHECK-3")
def test_an_approval_and_an_edit_at_once_both_survive(world, meanwhile) -> None:
    """The approval applies the raise to the sheet as it is in its transaction: a gear edit committed meanwhile
    stays."""
    cid, uid = world.characters[0], world.players[0]
    characters.grant_growth_points(cid, 5, reason="survived", clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    charm = {**Character.get_by_id(cid).sheet, "items": ["charm"]}
    meanwhile(characters, lambda: characters.edit_character(cid, uid, charm, clock=world.clock))
    decided = characters.decide_growth(request.id, True, actor_id=world.gm, clock=world.clock)
    sheet = Character.get_by_id(cid).sheet
    assert (sheet["skills"]["射撃"], sheet["items"], sheet["growth_points"]) == (4, ["charm"], 5)
    assert decided.after == sheet and decided.before["items"] == ["charm"]
