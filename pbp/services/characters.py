"""Characters: creation and edits within the rules (R-CHECK-3 levels 1-5, R-GEAR-2 gear limits), checked by the
campaign's ruleset, and growth requests (成長申請) that spend growth points."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from pbp.db import retried, write_transaction
from pbp.engine import BadInput, Problem, canonical, find_ruleset
from pbp.engine import errors as engine_errors
from pbp.errors import N_, Conflict, Forbidden, InvalidState, UserError
from pbp.models import Campaign, Character, GrowthRequest, User
from pbp.services import audit, gms, notifications
from pbp.services._common import (
    SHEET_LIMIT,
    checked_json,
    checked_name,
    checked_text,
    get_or_fail,
    locked,
    said_problems,
    storable_json,
)
from pbp.services.clock import SYSTEM, Clock, to_db

NOTE_LIMIT = 400
#: Characters of a character's description: said beside the field with the ruleset's problems, so the sheet's
#: whole-JSON limit (SHEET_LIMIT) is never the one a player meets.
DESCRIPTION_LIMIT = 2_000
#: Parts of a sheet only a growth request or the GM may change (R-CHECK-3: levels rise with growth points).
GROWTH_KEYS = ("stats", "skills", "growth_points")


class BadSheet(UserError):
    """A sheet the ruleset finds problems in: the message lists them on one line (`said_problems`: a page says
    each in its language), `problems` keeps each with its path inside the sheet (`skills.射撃`), for a form to show
    beside its field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__(said_problems(problems), "sheet")


def _check_sheet(campaign: Campaign, sheet: dict[str, Any]) -> None:
    """Refuse a sheet the ruleset finds a problem in."""
    problems = _text_problems(sheet)
    if not problems:  # the description is the only free text a sheet form holds: past it, the sheet is no form's
        checked_json(sheet, N_("sheet"), SHEET_LIMIT)
    problems += find_ruleset(campaign.ruleset).validate_character(campaign.pack, sheet)
    if problems:
        raise BadSheet(problems)


def _text_problems(sheet: dict[str, Any]) -> list[Problem]:
    """The sheet's description over its limit, as a problem beside its field (said with every other one)."""
    text = sheet.get("description")
    if not isinstance(text, str) or len(text.strip()) <= DESCRIPTION_LIMIT:
        return []
    template = engine_errors.N_("description: %(count)d characters, over the limit of %(limit)d")
    return [Problem.said("description", template, count=len(text.strip()), limit=DESCRIPTION_LIMIT)]


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
    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    get_or_fail(User, owner_id, N_("user"))
    sheet = {**sheet, "growth_points": int(campaign.pack.get("creation", {}).get("growth_points", 0))}
    _check_sheet(campaign, sheet)
    now = to_db(clock.now())
    with write_transaction():
        return Character.create(
            campaign=campaign_id, owner=owner_id, name=_name(sheet), sheet=sheet, created_at=now, updated_at=now
        )


def _name(sheet: dict[str, Any]) -> str:
    """The character's name (its sheet's `ja`); its English name, when it has one, is held to the same rule."""
    if str(sheet.get("en") or "").strip():
        checked_name(str(sheet["en"]), N_("en"))
    return checked_name(str(sheet.get("ja", "")), N_("name"))


def _own_character(character_id: int, user_id: int) -> tuple[Character, Campaign]:
    character = get_or_fail(Character, character_id, N_("character"))
    if character.owner_id != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
    return character, Campaign.get_by_id(character.campaign_id)


def _current(character_id: int) -> Character:
    """Every sheet change starts from the character as locked in its transaction: a grant and an edit at once would
    otherwise lose one of them."""
    return locked(Character, character_id, N_("character"))


def _save(character_id: int, sheet: dict[str, Any], now: datetime) -> None:
    Character.update(name=_name(sheet), sheet=sheet, updated_at=now).where(Character.id == character_id).execute()


class StaleSheet(Conflict):
    """The sheet changed since the form that edits it was loaded."""


def sheet_version(sheet: dict[str, Any]) -> str:
    """A short fingerprint of a sheet: a form carries the one it was loaded with, and a save from a form whose
    sheet changed meanwhile (a growth approved, a grant, an edit in another tab) is refused."""
    return hashlib.sha256(canonical.dumps(sheet).encode()).hexdigest()[:16]


@retried
def edit_character(
    character_id: int, user_id: int, sheet: dict[str, Any], *, version: str | None = None, clock: Clock = SYSTEM
) -> Character:
    """Change the sheet's gear, abilities and text (R-GEAR-1: swapped freely within the limits); stats, skill levels
    and growth points change only through growth requests and the GM. With `version` (`sheet_version` of the sheet
    the edit started from), an edit of a sheet that changed since is refused (StaleSheet)."""
    character, campaign = _own_character(character_id, user_id)
    changed = [k for k in GROWTH_KEYS if sheet.get(k) != character.sheet.get(k)]
    if changed:
        key = changed[0]
        raise UserError(
            N_(
                "%(key)s change only through a growth request (成長申請) or the GM: the sheet sent has %(sent)r, "
                "the character %(stored)r (reload the sheet if it changed meanwhile)",
                key=key,
                sent=sheet.get(key),
                stored=character.sheet.get(key),
            ),
            key,
        )
    with write_transaction():
        current = _current(character_id).sheet
        if version is not None and version != sheet_version(current):
            raise StaleSheet(
                N_("character %(id)s changed since this sheet was read: reload it", id=character_id), "version"
            )
        # The growth parts as they are now: a grant or growth request committed since the read above stays.
        after = {**sheet, **{k: current[k] for k in GROWTH_KEYS if k in current}}
        _check_sheet(campaign, after)
        _save(character_id, after, to_db(clock.now()))
    return Character.get_by_id(character_id)


def unspent_growth(campaign: Campaign, sheet: dict[str, Any]) -> int:
    """Growth points not yet spent on skill levels (creation points plus points earned, minus levels' cost); none
    under a ruleset whose budget has no skills (kancolle's traits change by discovery, not by points)."""
    spent, limit = find_ruleset(campaign.ruleset).budget(campaign.pack, sheet).get("skills", (0, 0))
    return limit - spent


PENDING, APPROVED, DENIED = "pending", "approved", "denied"
GROWTH_STATUSES = (PENDING, APPROVED, DENIED)


def requested_levels(request: GrowthRequest) -> dict[str, int]:
    """The skill levels a growth request asks for: the skills its `after` sheet changes."""
    before, after = request.before.get("skills") or {}, request.after.get("skills") or {}
    return {skill: level for skill, level in after.items() if before.get(skill) != level}


def _priced(campaign: Campaign, sheet: dict[str, Any], skills: dict[str, int]) -> tuple[int, dict[str, Any]]:
    """What raising `sheet`'s skills to `skills` costs, and the sheet after, within the character's unspent growth
    points (R-CHECK-3: levels go 1..5 and only up)."""
    try:
        cost = find_ruleset(campaign.ruleset).raise_cost(campaign.pack, sheet, skills)
    except BadInput as e:
        raise UserError(said_problems(e.problems), "skills") from None
    if cost == 0:
        raise UserError(N_("the request raises no skill"), "skills")
    available = unspent_growth(campaign, sheet)
    if cost > available:
        raise UserError(
            N_(
                "the request costs %(cost)s growth points; %(name)s has %(available)s unspent",
                cost=cost,
                name=sheet.get("ja"),
                available=available,
            ),
            "skills",
        )
    after = {**sheet, "skills": {**(sheet.get("skills") or {}), **skills}}
    _check_sheet(campaign, after)
    return cost, after


@retried
def request_growth(
    character_id: int, user_id: int, skills: dict[str, int], *, note: str = "", clock: Clock = SYSTEM
) -> GrowthRequest:
    """A growth request (成長申請): raise the named skills to the given levels (R-CHECK-3: at most 5), priced by
    the pack's growth costs within the character's unspent growth points. It waits for the GM (`decide_growth`);
    a character has at most one pending request, so the points it would spend are never promised twice."""
    _, campaign = _own_character(character_id, user_id)
    text = checked_text(note, N_("note"), NOTE_LIMIT, required=False)
    storable_json(skills, N_("skills"))
    now = to_db(clock.now())
    with write_transaction():
        before = _current(character_id).sheet
        waiting = _pending_of(character_id)
        if waiting is not None:
            raise Conflict(
                N_(
                    "growth request %(id)s is still waiting for the GM: one pending request per character",
                    id=waiting.id,
                ),
                "skills",
            )
        cost, after = _priced(campaign, before, skills)
        return GrowthRequest.create(
            character=character_id, before=before, after=after, cost=cost, note=text, created_at=now, status=PENDING
        )


def _pending_of(character_id: int) -> GrowthRequest | None:
    query = GrowthRequest.select().where(GrowthRequest.character == character_id, GrowthRequest.status == PENDING)
    return query.first()


@retried
def decide_growth(
    request_id: int, approve: bool, reason: str = "", *, actor_id: int, clock: Clock = SYSTEM
) -> GrowthRequest:
    """The campaign's GM approves or denies a pending growth request (a denial says why). Approval prices the raise
    again against the sheet as it is now (a grant, an edit or the GM's change since the request counts) and applies
    it in the same transaction; a raise the sheet can no longer pay for is refused and stays pending."""
    request = get_or_fail(GrowthRequest, request_id, N_("growth request"))
    character = Character.get_by_id(request.character_id)
    campaign = Campaign.get_by_id(character.campaign_id)
    if not gms.is_gm(campaign.id, actor_id):
        raise Forbidden(N_("only the GMs of %(campaign)s decide its growth requests", campaign=campaign.slug))
    why = checked_text(reason, N_("reason"), NOTE_LIMIT, required=not approve)
    now = to_db(clock.now())
    with write_transaction():
        sheet = _current(character.id).sheet  # locks the character: one decision at a time, no lost edit
        current = locked(GrowthRequest, request_id, N_("growth request"))
        if current.status != PENDING:
            raise InvalidState(
                N_(
                    "growth request %(id)s was already %(status)s",
                    id=request_id,
                    status={APPROVED: N_("approved"), DENIED: N_("denied")}.get(current.status, current.status),
                )
            )
        changes: dict[str, Any] = {"status": APPROVED if approve else DENIED, "decided_at": now}
        if approve:
            cost, after = _priced(campaign, sheet, requested_levels(current))
            _save(character.id, after, now)
            changes |= {"before": sheet, "after": after, "cost": cost}
        GrowthRequest.update(**changes, decided_by=actor_id, reason=why).where(GrowthRequest.id == request_id).execute()
        audit.log(
            "growth.approve" if approve else "growth.deny",
            f"character:{character.id}",
            now,
            actor_id=actor_id,
            request=request_id,
            reason=why,
        )
        notifications.queue(
            "growth.approved" if approve else "growth.denied",
            now,
            users=[character.owner_id],
            character=character.name,
            campaign=campaign.slug,
            reason=why,
            page=f"/characters/{character.id}/growth",
        )
    return GrowthRequest.get_by_id(request_id)


def pending_growth(campaign_id: int) -> list[GrowthRequest]:
    """The campaign's growth requests waiting for its GM, oldest first (the GM console's list)."""
    get_or_fail(Campaign, campaign_id, N_("campaign"))
    query = (
        GrowthRequest.select(GrowthRequest, Character)
        .join(Character)
        .where(Character.campaign == campaign_id, GrowthRequest.status == PENDING)
        .order_by(GrowthRequest.id)
    )
    return list(query)


def growth_requests(character_id: int) -> list[GrowthRequest]:
    """A character's growth requests, newest first."""
    query = GrowthRequest.select().where(GrowthRequest.character == character_id)
    return list(query.order_by(GrowthRequest.id.desc()))


@retried
def grant_growth_points(
    character_id: int, points: int, *, reason: str, actor_id: int | None = None, clock: Clock = SYSTEM
) -> Character:
    """The GM awards growth points (成長点), logged with the reason. The campaign's GMs only."""
    why = checked_text(reason, N_("reason"), NOTE_LIMIT)
    if points <= 0:
        raise UserError(N_("growth points to grant must be positive"), "points")
    character = get_or_fail(Character, character_id, N_("character"))
    gms.require_gm(character.campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        add_growth_points(character_id, points, reason=why, actor_id=actor_id, now=now)
    return Character.get_by_id(character_id)


def add_growth_points(character_id: int, points: int, *, reason: str, actor_id: int | None, now: datetime) -> None:
    """Inside the caller's write transaction: add growth points to the character's sheet as it is now (locked),
    logged with the reason (`grant_growth_points`, and the campaign's award when a round is published)."""
    sheet = _current(character_id).sheet
    _save(character_id, {**sheet, "growth_points": int(sheet.get("growth_points", 0)) + points}, now)
    audit.log("character.grant", f"character:{character_id}", now, actor_id=actor_id, points=points, reason=reason)
