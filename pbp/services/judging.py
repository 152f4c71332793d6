"""The GM judges the プレイング before the dice (issue 31, item 7): a プレイングボーナス per entry and ad-hoc checks.

A bonus (+dice, +successes on every check the PC rolls this round, within the campaign's cap) is a GM action of
kind `bonus` (`pbp.engine.pool.gm_actions`): stored with the round's other GM actions, applied to the state the
round starts from, carried in the bundle and re-applied by `pbp verify`. An ad-hoc check (a skill of the PC, the
successes it needs, what the story says on success or failure) is rolled after the round from the round's seed, in
the order the GM added them (`pbp.engine.pool.adhoc`); the bundle carries them and verify rolls them again. Both
have a published reason (checked for GM secrets), are GM-only, audited, and are set while the round is open,
closed or held; on a round resolved for review (not yet published) the round is worked out again at once, the way
an override does. Pool only: kancolle's contract has no such input (`judges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbp.db import retried, write_transaction
from pbp.engine import BadInput, SeededDice, find_ruleset
from pbp.engine.ruleset import Resolution as Resolved
from pbp.errors import N_, InvalidState, NotFound, UserError
from pbp.models import AdhocCheck, Character, Entry, GmAction, Override, Round
from pbp.services import audit, gms, leaks
from pbp.services._common import REASON_LIMIT, checked_text, get_or_fail, said_problems
from pbp.services.campaign_settings import bonus_cap
from pbp.services.characters import character_id_of, unit_id
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.rounds import (
    CLOSED,
    HELD,
    OPEN,
    RESOLVED,
    ResolutionFailed,
    _refuse_out_of_order,
    engine_inputs,
    lock_reworked,
    lock_round,
    round_context,
    state_word,
    work_out_again,
)

#: The states in which the GM judges a round's entries: before resolution, or resolved and still under review.
JUDGEABLE = (OPEN, CLOSED, HELD, RESOLVED)
#: The GM action kind of a プレイングボーナス.
BONUS = "bonus"
#: The most ad-hoc checks one round may have (a handful is a lot of GM judgement).
ADHOC_MAX = 20
SKILL_LIMIT = 64


def judges(ruleset: str) -> bool:
    """Whether the ruleset takes a プレイングボーナス and ad-hoc checks (pool: yes; kancolle's contract: no)."""
    return BONUS in find_ruleset(ruleset).gm_action_kinds


@dataclass(frozen=True)
class Bonus:
    """A PC's プレイングボーナス in a round, as the review shows it."""

    character_id: int
    dice: int
    successes: int
    reason: str


@dataclass(frozen=True)
class Judging:
    """What the review shows and offers: the cap, the bonuses by character, the ad-hoc checks in roll order, and
    each PC's skills (what an ad-hoc check may name); `open` when they may still change."""

    cap: tuple[int, int]
    bonuses: dict[int, Bonus]
    adhoc: list[AdhocCheck]
    skills: dict[int, list[str]]
    open: bool


def _bonus_rows(round_id: int) -> list[GmAction]:
    return list(GmAction.select().where(GmAction.round == round_id, GmAction.kind == BONUS).order_by(GmAction.seq))


def judging_of(round_id: int, encounter: dict[str, Any], state: str) -> Judging:
    """The round's judging for its review page (the caller checked the GM); `encounter` is the one the round is
    played from (each PC's skills come from it)."""
    rnd = Round.get_by_id(round_id)
    policies = round_context(rnd).campaign.policies
    bonuses = {}
    for row in _bonus_rows(round_id):
        cid = character_id_of(row.payload["unit"])
        if cid is not None:
            bonuses[cid] = Bonus(cid, row.payload.get("dice", 0), row.payload.get("successes", 0), row.reason)
    skills = {}
    for unit in encounter.get("units", []):
        cid = character_id_of(unit["id"])
        if cid is not None and unit.get("side") == "pc" and not unit.get("removed"):
            skills[cid] = sorted(unit.get("skill_stats") or {})
    adhoc = list(AdhocCheck.select().where(AdhocCheck.round == round_id).order_by(AdhocCheck.seq))
    return Judging(bonus_cap(policies), bonuses, adhoc, skills, state in JUDGEABLE)


def _locked(round_id: int, actor_id: int | None, campaign_id: int | None) -> Round:
    """The round, locked for the caller's transaction: its campaign's GMs only, a ruleset that judges, a state
    that allows it, the earlier rounds resolved (where it starts is known)."""
    rnd = lock_round(round_id)
    scenario = round_context(rnd)
    if campaign_id is not None and scenario.campaign_id != campaign_id:
        raise NotFound(N_("no round %(round)s in this campaign", round=round_id))
    gms.require_gm(scenario.campaign_id, actor_id)
    if not judges(scenario.campaign.ruleset):
        raise InvalidState(N_("this ruleset has no play bonus or ad-hoc checks (pool campaigns only)"))
    if rnd.state not in JUDGEABLE:
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: the GM judges entries only before the round is published",
                round=round_id,
                state=state_word(rnd.state),
            )
        )
    if rnd.state == RESOLVED:
        lock_reworked(rnd)
    else:
        _refuse_out_of_order(rnd, N_("be judged"))
    return rnd


def _settle(rnd: Round, now: Any, actor_id: int | None) -> None:
    """Inside the transaction, after the change was written: an unresolved round must still be playable from what
    is recorded (its GM actions apply, its ad-hoc checks name the PCs' skills); a resolved one is worked out again
    from its inputs and the same seed, the replaced resolution kept in the history (as an override does)."""
    scenario = round_context(rnd)
    try:
        inputs = engine_inputs(rnd, scenario)  # the GM actions applied: a UserError says what no longer applies
        if rnd.state != RESOLVED:
            checks = inputs.adhoc_checks
            if checks:  # the checks' own problems, without rolling the round
                ruleset = find_ruleset(inputs.ruleset)
                ruleset.roll_adhoc(inputs.encounter, Resolved({}, []), checks, SeededDice("0"), [])
            return
        work_out_again(rnd, scenario, inputs, now, actor_id=actor_id)
    except BadInput as e:
        problems = said_problems(e.problems)
        raise UserError(N_("the ad-hoc check cannot be rolled: %(problems)s", problems=problems), "skill") from e
    except ResolutionFailed as e:
        raise UserError(N_("the round cannot be worked out from this: %(error)s", error=str(e))) from e


def _checked_reason(round_id: int, reason: str) -> str:
    why = checked_text(reason, N_("reason"), REASON_LIMIT)
    leaks.refuse_leaking_reason(round_id, why)
    return why


@retried
def set_bonus(
    round_id: int,
    character_id: int,
    *,
    dice: int,
    successes: int,
    reason: str,
    actor_id: int | None,
    campaign_id: int | None = None,
    clock: Clock = SYSTEM,
) -> None:
    """Give a PC's entry a プレイングボーナス of `dice` and `successes` (each within the campaign's cap, at least one
    above 0) with its published reason; it replaces the PC's earlier bonus of the round. 0 and 0 takes it away."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    policies = round_context(rnd).campaign.policies
    cap_dice, cap_successes = bonus_cap(policies)
    for field, value, cap in (("dice", dice, cap_dice), ("successes", successes, cap_successes)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= cap:
            raise UserError(N_("a bonus adds from 0 to %(cap)s %(what)s (the campaign's cap)", cap=cap,
                               what=N_("dice") if field == "dice" else N_("successes")), field)  # fmt: skip
    removing = not dice and not successes
    why = "" if removing else _checked_reason(round_id, reason)
    now = to_db(clock.now())
    uid = unit_id(character_id)
    with write_transaction():
        rnd = _locked(round_id, actor_id, campaign_id)
        if not Entry.select().where(Entry.round == round_id, Entry.character == character_id).exists():
            raise NotFound(
                N_("character %(character)s has no entry in this round", character=character_id), "character"
            )
        old = [row for row in _bonus_rows(round_id) if row.payload.get("unit") == uid]
        if removing and not old:
            raise InvalidState(N_("there is no bonus to take away"), "dice")
        for row in old:
            row.delete_instance()
        if not removing:
            seq = (GmAction.select(GmAction.seq).where(GmAction.round == round_id).order_by(GmAction.seq.desc())
                   .scalar() or 0) + 1  # fmt: skip
            payload = {"unit": uid, "dice": dice, "successes": successes}
            GmAction.create(round=round_id, seq=seq, kind=BONUS, payload=payload, reason=why, actor=actor_id,
                            created_at=now)  # fmt: skip
        _settle(rnd, now, actor_id)
        audit.log("round.bonus", f"round:{round_id}", now, actor_id=actor_id, character=character_id, dice=dice,
                  successes=successes, reason=why)  # fmt: skip


@retried
def add_adhoc_check(
    round_id: int,
    character_id: int,
    *,
    skill: str,
    need: int,
    reason: str,
    success_text: str = "",
    failure_text: str = "",
    actor_id: int | None,
    campaign_id: int | None = None,
    clock: Clock = SYSTEM,
) -> AdhocCheck:
    """Add an ad-hoc check for a PC's creative action: `skill` (one of the PC's), `need` successes, what the story
    says on success and on failure (optional), and its published reason. Rolled after the round's other checks."""
    from pbp.engine.pool.adhoc import NEED_MAX

    skill = checked_text(skill, N_("skill"), SKILL_LIMIT)
    if isinstance(need, bool) or not isinstance(need, int) or not 0 <= need <= NEED_MAX:
        raise UserError(N_("the need must be a whole number from 0 to %(max)s", max=NEED_MAX), "need")
    why = _checked_reason(round_id, reason)
    texts = {}
    for field, label, value in (("success_text", N_("success text"), success_text),
                                ("failure_text", N_("failure text"), failure_text)):  # fmt: skip
        text = checked_text(value or "", label, REASON_LIMIT, required=False)
        if text:
            leaks.refuse_leaking_reason(round_id, text)
        texts[field] = text or None
    now = to_db(clock.now())
    with write_transaction():
        rnd = _locked(round_id, actor_id, campaign_id)
        get_or_fail(Character, character_id, N_("character"))
        rows = AdhocCheck.select().where(AdhocCheck.round == round_id)
        if rows.count() >= ADHOC_MAX:
            raise InvalidState(N_("a round has at most %(max)s ad-hoc checks", max=ADHOC_MAX))
        seq = (rows.select(AdhocCheck.seq).order_by(AdhocCheck.seq.desc()).scalar() or 0) + 1
        row = AdhocCheck.create(round=round_id, seq=seq, character=character_id, skill=skill, need=need, reason=why,
                                actor=actor_id, created_at=now, **texts)  # fmt: skip
        _settle(rnd, now, actor_id)
        audit.log("round.adhoc_check", f"round:{round_id}", now, actor_id=actor_id, character=character_id,
                  skill=skill, need=need, reason=why)  # fmt: skip
    return row


@retried
def remove_adhoc_check(
    round_id: int, check_id: int, *, actor_id: int | None, campaign_id: int | None = None, clock: Clock = SYSTEM
) -> None:
    """Take an ad-hoc check away (the later ones then roll earlier in the stream, under other check ids). Refused
    on a resolved round with GM overrides: an override's check id could then name another check."""
    now = to_db(clock.now())
    with write_transaction():
        rnd = _locked(round_id, actor_id, campaign_id)
        row = AdhocCheck.get_or_none(AdhocCheck.id == check_id, AdhocCheck.round == round_id)
        if row is None:
            raise NotFound(N_("no ad-hoc check %(check)s in this round", check=check_id))
        if rnd.state == RESOLVED and Override.select().where(Override.round == round_id).exists():
            raise InvalidState(N_("the round has GM overrides: an ad-hoc check can no longer be taken away"))
        row.delete_instance()
        _settle(rnd, now, actor_id)
        audit.log("round.adhoc_removed", f"round:{round_id}", now, actor_id=actor_id, character=row.character_id,
                  skill=row.skill)  # fmt: skip
