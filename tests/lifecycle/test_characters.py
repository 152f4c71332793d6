"""Characters are created and edited within the rules (R-CHECK-3, R-GEAR-2) and grow through growth requests."""

from __future__ import annotations

import pytest

from pbp.errors import UserError
from pbp.models import Campaign, Character, GrowthRequest
from pbp.services import characters


def _sheet(world, **changes) -> dict:
    return {**Campaign.get_by_id(world.campaign).pack["characters"]["aoi"], **changes}


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
def test_a_growth_request_spends_growth_points(world) -> None:
    cid, uid = world.characters[0], world.players[0]
    # Aoi spends 23 of the 24 creation skill points: 1 unspent.
    with pytest.raises(UserError, match="costs 4 growth points; 葵 has 1 unspent"):
        characters.request_growth(cid, uid, {"射撃": 4}, clock=world.clock)
    characters.grant_growth_points(cid, 5, reason="survived the Tama river", actor_id=world.gm, clock=world.clock)
    request = characters.request_growth(cid, uid, {"射撃": 4}, note="training", clock=world.clock)
    assert request.cost == 4
    assert Character.get_by_id(cid).sheet["skills"]["射撃"] == 4
    with pytest.raises(UserError, match="costs 4 growth points; 葵 has 2 unspent"):
        characters.request_growth(cid, uid, {"回避": 4}, clock=world.clock)
    with pytest.raises(UserError, match="only up"):
        characters.request_growth(cid, uid, {"射撃": 2}, clock=world.clock)
    with pytest.raises(UserError, match="levels go 1..5"):
        characters.request_growth(cid, uid, {"射撃": 6}, clock=world.clock)
    assert GrowthRequest.select().count() == 1


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
    sheet = Character.get_by_id(cid).sheet
    assert (sheet["skills"]["射撃"], sheet["items"], sheet["growth_points"]) == (4, ["charm"], 5)
    assert request.before["items"] == ["charm"] and request.after == sheet
