"""Between rounds the GM shapes the battle (issue 10, item 3): GM actions on the state a round starts from (a
reinforcement, a retreat, a gauge, a status, a position, a revive), each with its published reason, and orders for
the enemies (without one, the default tactics act).

Both are recorded for a round that is still to be resolved and whose earlier rounds are all resolved (so where it
starts is known): `rounds.engine_inputs` applies the actions and merges the orders when the round resolves, and the
published bundle carries them, so `pbp verify` re-applies every action. Each change is one write transaction,
checked against the round as it is then, GM-only and audit-logged; a refusal names its field and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from peewee import fn

from pbp.db import retried, write_transaction
from pbp.engine import BadInput, find_ruleset
from pbp.engine.errors import Problem
from pbp.errors import N_, InvalidState, Joined, NotFound, UserError
from pbp.models import Campaign, Character, GmAction, GmOrder, Resolution, Round, Scenario
from pbp.services import audit, gms, leaks
from pbp.services._common import (
    ORDER_LIMIT,
    REASON_LIMIT,
    checked_json,
    checked_text,
    get_or_fail,
    order_refusal,
    problem_message,
    said_problems,
    storable_text,
)
from pbp.services.characters import character_id_of
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.rounds import (
    CLOSED,
    DRAFT,
    HELD,
    OPEN,
    Shaped,
    _refuse_out_of_order,
    gm_actions_of,
    lock_round,
    round_context,
    round_encounter,
    round_entries,
    shaped_encounter,
    state_word,
)
from pbp.services.scenarios import scenario_checks

#: The states of a round the GM may still shape (its resolution reads what is recorded).
SHAPEABLE = (DRAFT, OPEN, CLOSED, HELD)
#: A reinforcement's unit id: short, plain, and never a PC's (`pc` + the character's number).
UNIT_ID = re.compile(r"[a-z][a-z0-9_-]{0,31}")


@dataclass
class ShapingDesk:
    """What the GM's pages show of a round to shape: its scenario and campaign (with its pack), the state it
    starts from and after the recorded actions, the action rows, the GM's enemy orders and the scene's checks."""

    round: Round
    scenario: Scenario
    campaign: Campaign
    shaped: Shaped
    actions: list[GmAction]
    orders: dict[str, dict[str, Any]]
    checks: list[dict[str, Any]]
    open: bool  # still to be resolved: actions and orders may change

    def unit(self, uid: str) -> dict[str, Any] | None:
        return next((u for u in self.shaped.encounter["units"] if u["id"] == uid), None)


def _round_of_campaign(round_id: int, campaign_id: int | None) -> tuple[Round, Scenario]:
    """The round and its scenario (campaign joined); NotFound when it is not of `campaign_id` (when given)."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    scenario = round_context(rnd)
    if campaign_id is not None and scenario.campaign_id != campaign_id:
        raise NotFound(N_("no round %(round)s in this campaign", round=round_id))
    return rnd, scenario


def _locked_for_shaping(round_id: int, campaign_id: int | None, actor_id: int | None) -> tuple[Round, Scenario]:
    """The round, locked for the caller's transaction, and its scenario: its campaign's GMs only, and only before
    it is resolved (and after the rounds before it)."""
    rnd = lock_round(round_id)
    rnd, scenario = _round_of_campaign(rnd.id, campaign_id)
    gms.require_gm(scenario.campaign_id, actor_id)
    if rnd.state not in SHAPEABLE:
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: the GM shapes a round only before it is resolved",
                round=rnd.id,
                state=state_word(rnd.state),
            )
        )
    _refuse_out_of_order(rnd, N_("be shaped"))
    return rnd, scenario


def shaping_desk(round_id: int, *, actor_id: int | None, campaign_id: int | None = None) -> ShapingDesk:
    """The facts of the GM's pages for a round (GM only). A round already resolved shows what it was shaped with."""
    rnd, scenario = _round_of_campaign(round_id, campaign_id)
    gms.require_gm(scenario.campaign_id, actor_id)
    campaign = Campaign.get_by_id(scenario.campaign_id)
    rows = list(GmAction.select().where(GmAction.round == round_id).order_by(GmAction.seq))
    is_open = rnd.state in SHAPEABLE
    if is_open:
        _refuse_out_of_order(rnd, N_("be shaped"))
        shaped = shaped_encounter(rnd, scenario)
    else:
        res = Resolution.get_or_none(Resolution.round == round_id)
        if res is None:  # cancelled or quarantined: never resolved, no longer shaped
            raise InvalidState(
                N_("round %(round)s is %(state)s: it has nothing to shape", round=round_id, state=state_word(rnd.state))
            )
        shaped = Shaped(res.start or res.encounter, res.gm_actions or [], res.encounter)
    orders = {o.unit: o.order for o in GmOrder.select().where(GmOrder.round == round_id)}
    return ShapingDesk(rnd, scenario, campaign, shaped, rows, orders, scenario_checks(scenario), is_open)


def _field_of(problem: Problem, seq: int) -> str:
    """The form field a problem of the new action (`actions[seq]...`) stands beside."""
    rest = problem.path.removeprefix(f"actions[{seq}]").lstrip(".")
    if rest.startswith("unit.") and rest != "unit.id":
        rest = rest.removeprefix("unit.")
    return re.split(r"[.\[]", rest)[0] or "form"


def _refuse_unfitting_orders(rnd: Round, scenario: Scenario, encounter: dict[str, Any]) -> None:
    """Every order of the round (the players' entries, the GM's) must still name what the shaped encounter holds:
    an action that would leave one naming a vanished unit or weapon is refused, naming it."""
    entries, _ = round_entries(rnd.id)
    gm_orders = [{**o.order, "unit": o.unit} for o in GmOrder.select().where(GmOrder.round == rnd.id)]
    ruleset = find_ruleset(scenario.campaign.ruleset)
    combined = [*entries, *gm_orders]
    problems = ruleset.validate_orders(ruleset.orders_file(encounter, combined), encounter)
    if problems:
        units = [o["unit"] for o in combined]
        named = [
            N_("%(unit)s's order: %(problem)s", unit=units[int(m.group(1))], problem=problem_message(p))
            for p in problems
            if (m := ORDER_PATH.match(p.path))
        ]
        said = Joined(named, "; ") if named else said_problems(problems)
        raise UserError(N_("an order of this round would no longer fit: %(problems)s", problems=said))


ORDER_PATH = re.compile(r"(?:orders|cycle)\[(\d+)\]")


def _check_actions(rnd: Round, scenario: Scenario, actions: list[dict[str, Any]], new: int | None) -> dict[str, Any]:
    """The encounter after `actions`; refused unless they apply to the round's start and every order of the round
    still fits the result: a problem of action `new` stands beside its field."""
    start = round_encounter(rnd, scenario)
    result = find_ruleset(scenario.campaign.ruleset).apply_gm_actions(start, actions) if actions else start
    if isinstance(result, list):
        own = [p for p in result if new is not None and p.path.startswith(f"actions[{new}]")]
        if own and new is not None:
            raise UserError(problem_message(own[0]), _field_of(own[0], new))
        raise UserError(N_("the later actions would no longer apply: %(problems)s", problems=said_problems(result)))
    _refuse_unfitting_orders(rnd, scenario, result)
    return result


def _reinforcement(scenario: Scenario, fields: dict[str, Any]) -> dict[str, Any]:
    """The unit of a reinforcement, built from the campaign's pack (`enemy`, `id`, `position`)."""
    uid = str(fields.get("id") or "")
    if not UNIT_ID.fullmatch(uid) or character_id_of(uid) is not None:
        raise UserError(N_("a unit id: a-z, digits, _ or -, starting with a letter, not pc and a number"), "id")
    campaign = Campaign.select(Campaign.pack, Campaign.ruleset).where(Campaign.id == scenario.campaign_id).get()
    try:
        return find_ruleset(campaign.ruleset).reinforcement(
            campaign.pack, str(fields.get("enemy")), uid, fields.get("position")
        )
    except BadInput as e:
        raise UserError(problem_message(e.problems[0]), "enemy") from None


@retried
def record_action(
    round_id: int,
    kind: str,
    fields: dict[str, Any],
    *,
    reason: str,
    actor_id: int | None,
    campaign_id: int | None = None,
    clock: Clock = SYSTEM,
) -> GmAction:
    """Record a GM action for a round still to be resolved, after those recorded before it. `fields` are the
    action's own (for `add_unit`: `enemy`, the pack's enemy type, `id` and `position`). A revived character lives
    again in the campaign at once (R-GAUGE-7), so its player may write its entry."""
    why = checked_text(reason, N_("reason"), REASON_LIMIT)
    if kind == "bonus":  # within the campaign's cap, on an entry: `judging.set_bonus` checks what this does not
        raise UserError(N_("a play bonus is set on the round's review (within the campaign's cap)"), "kind")
    now = to_db(clock.now())
    with write_transaction():
        rnd, scenario = _locked_for_shaping(round_id, campaign_id, actor_id)
        if kind == "add_unit":
            payload = {"unit": _reinforcement(scenario, fields)}
        else:
            payload = {k: v for k, v in fields.items() if k not in ("kind", "reason")}
        checked_json(payload, N_("action"), 20_000)
        actions = gm_actions_of(round_id)
        shaped = _check_actions(rnd, scenario, [*actions, {"kind": kind, **payload, "reason": why}], len(actions))
        leaks.refuse_leaking_reason(round_id, why, shaped.get("units"))
        seq = (GmAction.select(fn.MAX(GmAction.seq)).where(GmAction.round == round_id).scalar() or 0) + 1
        row = GmAction.create(
            round=round_id, seq=seq, kind=kind, payload=payload, reason=why, actor=actor_id, created_at=now
        )
        if kind == "revive":
            _set_alive(payload.get("unit"), True)
        unit = payload["unit"]["id"] if kind == "add_unit" else payload.get("unit")
        audit.log("round.gm_action", f"round:{round_id}", now, actor_id=actor_id, kind=kind, unit=unit, reason=why)
    return row


def _set_alive(unit: Any, alive: bool) -> None:
    character = character_id_of(unit) if isinstance(unit, str) else None
    if character is not None:
        Character.update(alive=alive).where(Character.id == character).execute()


@retried
def delete_action(
    round_id: int, action_id: int, *, actor_id: int | None, campaign_id: int | None = None, clock: Clock = SYSTEM
) -> None:
    """Drop a recorded GM action before the round resolves; refused when a later action needs it (delete that one
    first) or an order names what it brought."""
    now = to_db(clock.now())
    with write_transaction():
        rnd, scenario = _locked_for_shaping(round_id, campaign_id, actor_id)
        row = GmAction.get_or_none(GmAction.id == action_id, GmAction.round == round_id)
        if row is None:
            raise NotFound(N_("no GM action %(action)s in round %(round)s", action=action_id, round=round_id))
        rest = [{"kind": a.kind, **a.payload, "reason": a.reason} for a in _rows(round_id) if a.id != action_id]
        _check_actions(rnd, scenario, rest, None)
        row.delete_instance()
        if row.kind == "revive":
            _set_alive(row.payload.get("unit"), False)
        audit.log("round.gm_action_delete", f"round:{round_id}", now, actor_id=actor_id, kind=row.kind, seq=row.seq)


def _rows(round_id: int) -> list[GmAction]:
    return list(GmAction.select().where(GmAction.round == round_id).order_by(GmAction.seq))


@retried
def save_enemy_order(
    round_id: int,
    unit: str,
    order: dict[str, Any],
    *,
    actor_id: int | None,
    campaign_id: int | None = None,
    clock: Clock = SYSTEM,
) -> GmOrder:
    """The GM's order for an enemy unit in a round still to be resolved, checked like a player's entry against the
    encounter the round is played from (`validate_orders`, then `refusals`: what can never succeed is refused)."""
    now = to_db(clock.now())
    unit = storable_text(unit, N_("unit"))
    checked_json(order, N_("order"), ORDER_LIMIT)
    with write_transaction():
        rnd, scenario = _locked_for_shaping(round_id, campaign_id, actor_id)
        encounter = shaped_encounter(rnd, scenario).encounter
        target = next((u for u in encounter["units"] if u["id"] == unit), None)
        if target is None or target["side"] != "enemy":
            raise NotFound(N_("no enemy unit '%(unit)s' in round %(round)s", unit=unit, round=round_id))
        if target.get("removed"):
            raise InvalidState(N_("%(unit)s is out of the battle: it takes no order", unit=unit))
        full = {**order, "unit": unit}
        ruleset = find_ruleset(scenario.campaign.ruleset)
        problems = ruleset.validate_orders(ruleset.orders_file(encounter, [full]), encounter)
        problems = problems or ruleset.refusals(encounter, full, scenario_checks(scenario))
        if problems:
            raise order_refusal(problems)
        stored = {k: v for k, v in full.items() if k != "unit"}
        GmOrder.delete().where(GmOrder.round == round_id, GmOrder.unit == unit).execute()
        row = GmOrder.create(round=round_id, unit=unit, order=stored, actor=actor_id, saved_at=now)
        audit.log("round.gm_order", f"round:{round_id}", now, actor_id=actor_id, unit=unit, order=stored)
    return row


@retried
def clear_enemy_order(
    round_id: int, unit: str, *, actor_id: int | None, campaign_id: int | None = None, clock: Clock = SYSTEM
) -> None:
    """Drop the GM's order for an enemy: the default tactics act for it again."""
    unit = storable_text(unit, N_("unit"))
    now = to_db(clock.now())
    with write_transaction():
        rnd, scenario = _locked_for_shaping(round_id, campaign_id, actor_id)
        GmOrder.delete().where(GmOrder.round == round_id, GmOrder.unit == unit).execute()
        audit.log("round.gm_order_clear", f"round:{round_id}", now, actor_id=actor_id, unit=unit)
