"""Characters: creation and edits within the rules (R-CHECK-3 levels 1-5, R-GEAR-2 gear limits), checked by the
campaign's ruleset, and growth requests (成長申請) that spend growth points."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbp.db import retried, write_transaction
from pbp.engine import BadInput, find_ruleset
from pbp.errors import Forbidden, UserError
from pbp.models import Campaign, Character, GrowthRequest, User
from pbp.services import audit
from pbp.services._common import (
    NAME_LIMIT,
    SHEET_LIMIT,
    checked_json,
    checked_text,
    get_or_fail,
    locked,
    storable_json,
)
from pbp.services.clock import SYSTEM, Clock, to_db

NOTE_LIMIT = 400
#: Parts of a sheet only a growth request or the GM may change (R-CHECK-3: levels rise with growth points).
GROWTH_KEYS = ("stats", "skills", "growth_points")


def _check_sheet(campaign: Campaign, sheet: dict[str, Any]) -> None:
    """Refuse a sheet the ruleset finds a problem in; the message lists every problem on one line."""
    checked_json(sheet, "sheet", SHEET_LIMIT)
    problems = find_ruleset(campaign.ruleset).validate_character(campaign.pack, sheet)
    if problems:
        raise UserError("; ".join(str(p) for p in problems), "sheet")


def unit_id(character_id: int) -> str:
    """The character's unit id in encounters, orders and events."""
    return f"pc{character_id}"


def character_id_of(unit: str) -> int | None:
    """The character behind a unit id (None for enemies)."""
    number = unit[2:]
    return int(number) if unit.startswith("pc") and number.isascii() and number.isdigit() else None


@retried
def create_character(campaign_id: int, owner_id: int, sheet: dict[str, Any], *, clock: Clock = SYSTEM) -> Character:
    """A new character from a sheet (its name is the sheet's `ja`); it starts with the pack's growth points."""
    campaign = get_or_fail(Campaign, campaign_id, "campaign")
    get_or_fail(User, owner_id, "user")
    checked_json(sheet, "sheet", SHEET_LIMIT)
    sheet = {**sheet, "growth_points": int(campaign.pack.get("creation", {}).get("growth_points", 0))}
    _check_sheet(campaign, sheet)
    now = to_db(clock.now())
    with write_transaction():
        return Character.create(
            campaign=campaign_id, owner=owner_id, name=_name(sheet), sheet=sheet, created_at=now, updated_at=now
        )


def _name(sheet: dict[str, Any]) -> str:
    return checked_text(str(sheet.get("ja", "")), "name", NAME_LIMIT)


def _own_character(character_id: int, user_id: int) -> tuple[Character, Campaign]:
    character = get_or_fail(Character, character_id, "character")
    if character.owner_id != user_id:
        raise Forbidden(f"character {character_id} is not yours")
    return character, Campaign.get_by_id(character.campaign_id)


def _current(character_id: int) -> Character:
    """Every sheet change starts from the character as locked in its transaction: a grant and an edit at once would
    otherwise lose one of them."""
    return locked(Character, character_id, "character")


def _save(character_id: int, sheet: dict[str, Any], now: datetime) -> None:
    Character.update(name=_name(sheet), sheet=sheet, updated_at=now).where(Character.id == character_id).execute()


@retried
def edit_character(character_id: int, user_id: int, sheet: dict[str, Any], *, clock: Clock = SYSTEM) -> Character:
    """Change the sheet's gear, abilities and text (R-GEAR-1: swapped freely within the limits); stats, skill levels
    and growth points change only through growth requests and the GM."""
    character, campaign = _own_character(character_id, user_id)
    changed = [k for k in GROWTH_KEYS if sheet.get(k) != character.sheet.get(k)]
    if changed:
        key = changed[0]
        raise UserError(
            f"{key} change only through a growth request (成長申請) or the GM: the sheet sent has {sheet.get(key)!r}, "
            f"the character {character.sheet.get(key)!r} (reload the sheet if it changed meanwhile)",
            key,
        )
    with write_transaction():
        current = _current(character_id).sheet
        # The growth parts as they are now: a grant or growth request committed since the read above stays.
        after = {**sheet, **{k: current[k] for k in GROWTH_KEYS if k in current}}
        _check_sheet(campaign, after)
        _save(character_id, after, to_db(clock.now()))
    return Character.get_by_id(character_id)


def unspent_growth(campaign: Campaign, sheet: dict[str, Any]) -> int:
    """Growth points not yet spent on skill levels (creation points plus points earned, minus levels' cost)."""
    spent, limit = find_ruleset(campaign.ruleset).budget(campaign.pack, sheet)["skills"]
    return limit - spent


@retried
def request_growth(
    character_id: int, user_id: int, skills: dict[str, int], *, note: str = "", clock: Clock = SYSTEM
) -> GrowthRequest:
    """A growth request (成長申請): raise the named skills to the given levels (R-CHECK-3: at most 5), paying
    the pack's growth costs from the character's unspent growth points."""
    character, campaign = _own_character(character_id, user_id)
    text = checked_text(note, "note", NOTE_LIMIT, required=False)
    storable_json(skills, "skills")
    now = to_db(clock.now())
    with write_transaction():
        before = _current(character_id).sheet
        try:
            cost = find_ruleset(campaign.ruleset).raise_cost(campaign.pack, before, skills)
        except BadInput as e:
            raise UserError("; ".join(str(p) for p in e.problems), "skills") from None
        if cost == 0:
            raise UserError("the request raises no skill", "skills")
        available = unspent_growth(campaign, before)
        if cost > available:
            raise UserError(f"the request costs {cost} growth points; {character.name} has {available} unspent")
        after = {**before, "skills": {**(before.get("skills") or {}), **skills}}
        _check_sheet(campaign, after)
        _save(character_id, after, now)
        return GrowthRequest.create(
            character=character_id, before=before, after=after, cost=cost, note=text, created_at=now
        )


@retried
def grant_growth_points(
    character_id: int, points: int, *, reason: str, actor_id: int | None = None, clock: Clock = SYSTEM
) -> Character:
    """The GM awards growth points (成長点), logged with the reason."""
    why = checked_text(reason, "reason", NOTE_LIMIT)
    if points <= 0:
        raise UserError("growth points to grant must be positive", "points")
    now = to_db(clock.now())
    with write_transaction():
        sheet = _current(character_id).sheet
        _save(character_id, {**sheet, "growth_points": int(sheet.get("growth_points", 0)) + points}, now)
        audit.log("character.grant", f"character:{character_id}", now, actor_id=actor_id, points=points, reason=why)
    return Character.get_by_id(character_id)
