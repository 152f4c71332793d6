"""Entries: a player's orders and prose for a round. Accepted only while the round is open and before its deadline
(the server's clock); validated by the ruleset against the round's encounter; every save and withdrawal is kept in
the entry's history and answered with a receipt the player can keep."""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import peewee

from pbp.db import database, is_sqlite, retried, write_transaction
from pbp.engine import canonical, find_ruleset
from pbp.engine.errors import Problem
from pbp.errors import N_, Forbidden, InvalidState, NotFound, UserError
from pbp.models import (
    Character,
    Entry,
    EntryRevision,
    Participation,
    Round,
    Scenario,
    entry_writes,
    site,
)
from pbp.reports.battlemap import field_box
from pbp.services import gms
from pbp.services._common import (
    ORDER_LIMIT,
    checked_json,
    get_or_fail,
    lf_lines,
    order_refusal,
    storable_text,
    text_problem,
)
from pbp.services.characters import unit_id
from pbp.services.clock import SYSTEM, Clock, iso_utc, local_text, to_db
from pbp.services.entry_wishes import Wish, write_wish
from pbp.services.rounds import OPEN, PUBLISHED, round_context, shaped_encounter, state_word
from pbp.services.rounds import ruleset_of as round_ruleset
from pbp.services.scenarios import scenario_checks
from pbp.services.versioned import KeptUnderVersion


@dataclass(frozen=True)
class Receipt:
    """sha256 of the canonical entry (round, character, order, prose, server time) and that server time, with the
    entry itself as stored and hashed: the order as the service keeps it (no `unit` key; a check's skill and need
    as the scenario sets them), so the player can recompute the digest from what the receipt holds."""

    digest: str
    saved_at: datetime
    entry: dict[str, Any]

    def __str__(self) -> str:
        return f"sha256:{self.digest} at {iso_utc(self.saved_at)}"


def receipt_for(
    round_id: int,
    character_id: int,
    order: dict[str, Any] | None,
    prose: str | None,
    saved_at: datetime,
    prose_en: str | None = None,
) -> Receipt:
    """The receipt of one save (order and prose None for a withdrawal): anyone holding the entry can recompute it.
    The English version is hashed only when there is one, so a receipt given before it existed still checks."""
    body = {"round": round_id, "character": character_id, "order": order, "prose": prose, "saved_at": iso_utc(saved_at)}
    if prose_en is not None:
        body["prose_en"] = prose_en
    return Receipt(canonical.digest(body), saved_at, body)


def _round(round_id: int, *, lock: bool = False) -> Round:
    """What a save reads of the round. With `lock`, inside the write transaction: the round as it is now, locked
    (PostgreSQL: FOR SHARE, so a close waits for this save)."""
    columns = (Round.id, Round.scenario, Round.number, Round.state, Round.deadline)
    query = Round.select(*columns).where(Round.id == round_id)
    if lock and not is_sqlite():
        query = query.for_update("FOR SHARE")
    rows = list(query)
    if not rows:
        raise NotFound(N_("no %(label)s %(id)s", label=N_("round"), id=round_id))
    return rows[0]


def ruleset_of(round_id: int) -> str:
    """The ruleset a posted entry form is read by: kept under the site's version with the rest of a save's reading,
    so a re-save still reads nothing before its one write (`rounds.ruleset_of` once per version)."""
    return _KEPT.get(("ruleset", round_id), site.seen(database.obj), lambda: round_ruleset(round_id))


def closed_reason_of(rnd: Round, now: datetime) -> str | None:
    """Why a round takes no entries at `now`: "not_open", "deadline", or None while it does."""
    if rnd.state != OPEN:
        return "not_open"
    return "deadline" if now >= rnd.deadline else None


class Closed(InvalidState):
    """A save refused because the round takes no entries now: `reason` is `closed_reason_of`'s ("not_open" or
    "deadline"). The page answers a late save from it alone (the rush's refusals must not queue behind anything,
    issue 33)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def _refuse_unless_open(rnd: Round, now: datetime) -> None:
    reason = closed_reason_of(rnd, now)
    if reason == "not_open":
        raise Closed(
            N_(
                "round %(round)s is %(state)s: entries are accepted only while it is open",
                round=rnd.id,
                state=state_word(rnd.state),
            ),
            reason,
        )
    if reason == "deadline":
        raise Closed(N_("the deadline passed at %(at)s", at=local_text(rnd.deadline, _zone(rnd))), reason)


def _zone(rnd: Round) -> str:
    """The campaign's time zone the deadline is said in, kept under the site's version like the rest of a save's
    reading (a late save would otherwise read the scenario and campaign for one word of its message)."""
    return _KEPT.get(("zone", rnd.scenario_id), site.seen(database.obj), lambda: round_context(rnd).campaign.timezone)


def _part(rnd: Round, character_id: int) -> tuple[int, str, bool, str | None] | None:
    """The character's owner, name, whether alive, and its part in the round's scenario (None: no such character)."""
    joined = (Participation.character == Character.id) & (Participation.scenario == rnd.scenario_id)
    row: tuple[int, str, bool, str | None] | None = (
        Character.select(Character.owner, Character.name, Character.alive, Participation.status)
        .join(Participation, peewee.JOIN.LEFT_OUTER, on=joined & (Participation.status == "joined"))
        .where(Character.id == character_id)
        .tuples()
        .first()
    )
    return row


def _refuse_unless_entrant(
    rnd: Round, character_id: int, user_id: int, now: datetime, version: int | None = None
) -> None:
    """A UserError unless this user's character may enter the round now (its part read once per site version)."""
    row = _KEPT.get(("part", rnd.id, character_id), version, lambda: _part(rnd, character_id))
    if row is None:
        raise NotFound(N_("no %(label)s %(id)s", label=N_("character"), id=character_id))
    owner, name, alive, status = row
    if owner != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
    _refuse_unless_open(rnd, now)
    if status is None or not alive:
        raise Forbidden(N_("%(name)s is not taking part in this scenario", name=name))


@dataclass(frozen=True)
class _OrderContext:
    """What validating an order in a round reads besides the order: the round's scenario (its campaign joined), the
    encounter the round is played from (marshalled: each save gets its own copy) and the scenario's checks."""

    scenario: Scenario
    encounter: bytes
    checks: list[dict[str, Any]]


#: What a save reads before its write transaction (the round, the character's part, the order's context), by site
#: version (pbp.models.site): every table it comes from is watched. A deadline rush's saves write only unwatched
#: tables, so after a round's first save the others skip those reads.
_KEPT = KeptUnderVersion(512)


def _order_context(rnd: Round) -> _OrderContext:
    scenario = round_context(rnd)
    encounter = shaped_encounter(rnd, scenario).encounter  # what the round is played from (the GM's actions too)
    return _OrderContext(scenario, marshal.dumps(encounter), scenario_checks(scenario))


def _check_entry(
    context: _OrderContext,
    round_id: int,
    character_id: int,
    order: dict[str, Any],
    prose: str,
    version: int | None = None,
    prose_en: str | None = None,
) -> dict[str, Any]:
    """The prose (and its English version) within the campaign's limit and the order valid: the order as stored. An
    order found valid is kept under the site's `version`, as the round's context it was checked in is: a player
    re-saving the same order with other prose is not validated again while nothing it depends on changed."""
    limit = context.scenario.campaign.entry_char_limit
    for text, field, label in (
        (prose, "prose", N_("the prose")),
        (prose_en or "", "prose_en", N_("the English version")),
    ):
        if len(text) > limit:
            raise UserError(
                N_(
                    "%(field)s has %(count)d characters, over the limit of %(limit)d",
                    field=label,
                    count=len(text),
                    limit=limit,
                ),
                field,
            )
    storable_text(prose, N_("prose"))
    checked_json(order, N_("order"), ORDER_LIMIT)
    if version is None:
        return _check_order(context, character_id, order)
    key = ("order", round_id, character_id, canonical.dumps(order))
    return _KEPT.get(key, version, lambda: _check_order(context, character_id, order))


def _check_order(context: _OrderContext, character_id: int, order: dict[str, Any]) -> dict[str, Any]:
    unit = unit_id(character_id)
    if order.get("unit", unit) != unit:
        raise UserError(
            N_("the order is for %(unit)s, not for this character (%(own)s)", unit=order["unit"], own=unit), "order"
        )
    full = {**order, "unit": unit}
    for slot in ("minor", "major"):
        action = full.get(slot)
        if isinstance(action, dict) and action.get("type") == "check":
            full[slot] = _offered_check(action, context.checks, slot)
    encounter = marshal.loads(context.encounter)
    ruleset = find_ruleset(context.scenario.campaign.ruleset)
    problems = ruleset.validate_orders(ruleset.orders_file(encounter, [full]), encounter)
    # An order that can never succeed from this round's start (a hand weapon while riding, a target out of reach)
    # is refused now with its reason, not carried to the resolution to be refused there (legal_actions agrees).
    problems = problems or ruleset.refusals(encounter, full, context.checks) or _off_the_field(encounter, full)
    if problems:
        raise order_refusal(problems)
    return {k: v for k, v in full.items() if k != "unit"}


#: A move's point outside the map (an engine-style problem: its template is the catalogs' msgid).
OFF_FIELD = N_(
    "the point (%(x)s, %(y)s) is off the battlefield: x from %(left)s to %(right)s, y from %(top)s to %(bottom)s"
).template


def _off_the_field(encounter: dict[str, Any], order: dict[str, Any]) -> list[Problem]:
    """A move toward a point outside the battlefield the entry form's map shows (`field_box`), refused with the
    field's edges: a mistyped x = 99999 is a march off the map, not an order to carry to the resolution."""
    problems = []
    for slot in ("minor", "major"):
        action = order.get(slot)
        point = action.get("toward") if isinstance(action, dict) else None
        if not isinstance(point, list) or len(point) != 2:  # a unit's id, none, or not this ruleset's move
            continue
        left, top, right, bottom = field_box(encounter)
        if not (left <= point[0] <= right and top <= point[1] <= bottom):
            problems.append(
                Problem.said(
                    f"{slot}.toward",
                    OFF_FIELD,
                    x=point[0], y=point[1], left=left, right=right, top=top, bottom=bottom,
                )
            )  # fmt: skip
    return problems


def _offered_check(action: dict[str, Any], checks: list[dict[str, Any]], slot: str) -> dict[str, Any]:
    """R-GM-2: a check is one the scenario offers (`checks`), named by its id in `label`; its skill and need are
    the scenario's, never the player's (who would otherwise set their own difficulty)."""
    offered = {c["id"]: c for c in checks}
    label = action.get("label")
    chosen = offered.get(label) if isinstance(label, str) else None
    if chosen is None:
        choices = ", ".join(offered) or N_("none in this scenario")
        raise UserError(
            N_(
                "%(slot)s.label: a check names one the scenario offers (%(choices)s), got %(got)r",
                slot=slot,
                choices=choices,
                got=label,
            ),
            "order",
        )
    for key in ("skill", "need"):
        if key in action and action[key] != chosen[key]:
            raise UserError(
                N_(
                    "%(slot)s.%(key)s: the check '%(label)s' is %(skill)s needing %(need)s (R-GM-2), not %(got)r",
                    slot=slot,
                    key=key,
                    label=label,
                    skill=chosen["skill"],
                    need=chosen["need"],
                    got=action[key],
                ),
                "order",
            )
    return {**action, "skill": chosen["skill"], "need": chosen["need"]}


def _english_version(prose_en: str | None) -> str | None:
    """The English version as stored: normalised as the prose is; None when not written (blank is not written).
    Refused, as the prose is, when it is not text: checked before a blank one is dropped."""
    text = lf_lines(prose_en or "")
    problem = text_problem(text)
    if problem:
        raise UserError(
            N_("%(field)s %(problem)s: not text", field=N_("the English version"), problem=problem), "prose_en"
        )
    return text if text.strip() else None


@retried
def save_entry(
    round_id: int,
    character_id: int,
    *,
    user_id: int,
    order: dict[str, Any],
    prose: str,
    clock: Clock = SYSTEM,
    prose_en: str | None = None,
    wish: Wish | None = None,
) -> Receipt:
    """Submit or edit a character's entry; returns the receipt. Refused after the deadline, outside `open`, over the
    campaign's prose limit, or when the ruleset finds a problem in the order (unknown target, weapon...). `prose_en`
    is a bilingual player's English version of the prose (optional, within the same limit): the English story's.
    `wish`: what the player asks of the GM beside the entry (`entry_wishes.check_wish`), stored in the same
    transaction (None leaves the stored one as it is).

    The order is validated before the write transaction (building the encounter and the ruleset's checks are most
    of a save's work): under it, only what may have changed since is checked again (the round's state and deadline),
    unless the site's version moved (`pbp.models.site`: a change to a character, a participation, the GM's actions,
    a resolution, the campaign's rules...), when everything is checked again as it is now. So a crowd saving before
    a deadline does not queue behind validations."""
    now = to_db(clock.now())
    prose, prose_en = lf_lines(prose), _english_version(prose_en)
    db = database.obj
    version = site.seen(db)  # as the request first read it (for its signed-in user): every read below is as new
    rnd = _KEPT.get(("round", round_id), version, lambda: _round(round_id))
    _refuse_unless_entrant(rnd, character_id, user_id, now, version)
    context = _KEPT.get(("context", round_id), version, lambda: _order_context(rnd))
    stored = _check_entry(context, round_id, character_id, order, prose, version, prose_en)
    receipt = receipt_for(round_id, character_id, stored, prose, now, prose_en)
    if (
        wish is None
        and not is_sqlite()
        and entry_writes.edit_if_unchanged(
            db, round_id, character_id, stored, prose, receipt.digest, now, version, OPEN, prose_en
        )
    ):
        site.proven(db, version)  # the statement found the version it was given
        return receipt  # a re-save while nothing changed: one statement, which holds the round as the below does
    with write_transaction():
        # PostgreSQL: the round locked FOR SHARE, so a close waits for this save, read with the version in one
        # statement. SQLite: the write lock held since BEGIN IMMEDIATE lets nothing else commit, so while the
        # version stands still the round is as read above.
        if is_sqlite():
            locked, now_version = None, site.current(db)
        else:
            found = entry_writes.locked_round(db, round_id)
            if found is None:
                raise NotFound(N_("no %(label)s %(id)s", label=N_("round"), id=round_id))
            state, deadline, now_version = found
            locked = Round(id=rnd.id, scenario=rnd.scenario_id, number=rnd.number, state=state, deadline=deadline)
        if now_version == version:  # the character still joined and alive, the entry still valid
            site.proven(db, version)
            _refuse_unless_open(locked or rnd, now)
        elif site.assumed(db):  # the request took the version (its signed-in user too) as its worker last read it
            raise site.Moved
        else:  # changed meanwhile: checked and validated again, as it is now
            rnd = locked or _round(round_id)
            _refuse_unless_entrant(rnd, character_id, user_id, now)
            stored = _check_entry(_order_context(rnd), round_id, character_id, order, prose, prose_en=prose_en)
            receipt = receipt_for(round_id, character_id, stored, prose, now, prose_en)
        entry_writes.store_entry(db, round_id, character_id, stored, prose, receipt.digest, now, prose_en)
        if wish is not None:
            write_wish(round_id, character_id, wish, now)
    return receipt


@retried
def withdraw_entry(round_id: int, character_id: int, *, user_id: int, clock: Clock = SYSTEM) -> Receipt:
    """Take an entry back (same window as saving); the unit then does nothing this round."""
    now = to_db(clock.now())
    with write_transaction():
        _refuse_unless_entrant(_round(round_id, lock=True), character_id, user_id, now)
        if not Entry.delete().where(Entry.round == round_id, Entry.character == character_id).execute():
            raise NotFound(N_("there is no entry to withdraw"))
        receipt = receipt_for(round_id, character_id, None, None, now)
        EntryRevision.create(
            round=round_id,
            character=character_id,
            action="withdraw",
            order=None,
            prose=None,
            receipt=receipt.digest,
            saved_at=now,
        )
    return receipt


def entries_visible_to(round_id: int, user_id: int | None) -> list[Entry]:
    """The entries a user may read: every entry of a published round; before that only the user's own (the
    campaign's GMs see all). Other players never see an entry before its round is published."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    query = Entry.select(Entry, Character).join(Character).where(Entry.round == round_id).order_by(Entry.character)
    if rnd.state == PUBLISHED or gms.is_gm(round_context(rnd).campaign.id, user_id):
        return list(query)
    return list(query.where(Character.owner == user_id))
