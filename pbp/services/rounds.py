"""The round lifecycle: a state machine whose only truth is the database.

    draft -> open -> closed -> resolved -> published      (+ held, quarantined, cancelled beside them)

Every transition is a conditional UPDATE (`WHERE id = ? AND state = <the state read>`) that must change one row, so
two processes can never both make the same move. Resolution is exactly-once: claim, run the engine with the round's
seeded dice and store the resolution (its state out is where the next round starts) and the draft report in ONE
write transaction (BEGIN IMMEDIATE on
SQLite, SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL). A crash rolls it all back and the next attempt resolves
the round with the same seed to the same result; the unique constraint on resolution.round is the last guard.
"""

from __future__ import annotations

import marshal
import secrets
import traceback
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NoReturn

import peewee
from peewee import fn

from pbp import reports
from pbp.db import Busy, database, is_sqlite, retried, write_transaction
from pbp.engine import find_ruleset, seed_hash
from pbp.engine.verify import build_bundle, continued, run_engine
from pbp.errors import N_, Conflict, InvalidState, NotFound, Text, UserError
from pbp.lru import Lru
from pbp.models import (
    AdhocCheck,
    AuditLog,
    Campaign,
    Character,
    Entry,
    GmAction,
    GmOrder,
    Override,
    Participation,
    Report,
    Resolution,
    ResolutionVersion,
    Round,
    Scenario,
    ScenarioSecret,
    User,
    site,
)
from pbp.reports.pronouns import english_pronoun
from pbp.services import audit, gms, notifications
from pbp.services._common import REASON_LIMIT, checked_text, get_or_fail, locked, problem_message, said_problems
from pbp.services.characters import unit_id, unspent_growth
from pbp.services.clock import SYSTEM, Clock, iso_utc, to_db

DRAFT, OPEN, CLOSED, RESOLVED, PUBLISHED = "draft", "open", "closed", "resolved", "published"
HELD, QUARANTINED, CANCELLED = "held", "quarantined", "cancelled"
STATES = (DRAFT, OPEN, CLOSED, RESOLVED, PUBLISHED, HELD, QUARANTINED, CANCELLED)
#: Each state as a refusal names it ("round 3 is closed: ..."): a page says it in the reader's language.
_STATE_WORDS = {
    DRAFT: N_("draft"),
    OPEN: N_("open"),
    CLOSED: N_("closed"),
    RESOLVED: N_("resolved"),
    PUBLISHED: N_("published"),
    HELD: N_("held"),
    QUARANTINED: N_("quarantined"),
    CANCELLED: N_("cancelled"),
}


def state_word(state: str) -> str:
    """The state as a refusal's parameter (`_STATE_WORDS`)."""
    return _STATE_WORDS.get(state, state)


#: Every move the lifecycle allows (a GM override re-resolves a resolved round in place).
TRANSITIONS: dict[str, frozenset[str]] = {
    DRAFT: frozenset({OPEN, HELD, CANCELLED}),
    OPEN: frozenset({CLOSED, HELD, CANCELLED}),
    CLOSED: frozenset({RESOLVED, OPEN, HELD, QUARANTINED, CANCELLED}),
    RESOLVED: frozenset({PUBLISHED}),
    PUBLISHED: frozenset(),
    HELD: frozenset({DRAFT, OPEN, CLOSED, CANCELLED}),
    QUARANTINED: frozenset({CLOSED, CANCELLED}),
    CANCELLED: frozenset(),
}
MAX_FAILURES = 3  # resolution failed this many times: quarantined until the GM looks
OVERRIDE_LIMIT = 1000  # the most successes (either way) a GM override may set: a check has a handful of dice
#: The campaign policies (campaign.policies) the lifecycle and the sign-ups read, with their defaults.
POLICIES: dict[str, bool] = {
    # A round the GM closed early resolves as soon as every joined character has an entry (else at its deadline).
    "resolve_when_complete": True,
    # R-PLAY-2, R-FIX-18: a player may sign up more than one character for the same scenario.
    "several_pcs_per_player": False,
    # The scheduler publishes a round as soon as it is resolved (else the GM reviews and publishes it).
    "publish_automatically": False,
}


def policy(policies: dict[str, Any], name: str) -> bool:
    """A campaign's policy, or its default."""
    return bool(policies.get(name, POLICIES[name]))


class ResolutionFailed(Exception):
    """The engine (or building its input) failed: counted toward quarantine, never a half-stored round."""


@dataclass(frozen=True)
class ResolveOutcome:
    round_id: int
    #: "resolved" (this call did it), "already" (resolved before), "held" (resolve_by_hand only: the guard held
    #: it for the GM), "busy" (another process holds it, or resolve_due
    #: only: the database stayed busy; due again at the next tick),
    #: "failed" (resolve_due only: the engine failed, or anything else raised; the message says which attempt),
    #: "error" (resolve_due only: the database failed; not counted, tried again at the next tick)
    status: str
    message: str
    #: The traceback of an unexpected failure (resolve_due only), for the scheduler's log.
    trace: str | None = None


def move_state(rnd: Round, to: str, now: datetime, **changes: Any) -> None:
    """The conditional update behind every transition: it must change exactly one row. A held round goes back only
    where the hold found it (or is cancelled), so a hold never lets a round skip a state."""
    allowed = {rnd.held_from, CANCELLED} if rnd.state == HELD else TRANSITIONS[rnd.state]
    if to not in allowed:
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: it cannot become %(to)s",
                round=rnd.id,
                state=state_word(rnd.state),
                to=state_word(to),
            )
        )
    changed = Round.update(state=to, **changes).where(Round.id == rnd.id, Round.state == rnd.state).execute()
    if changed != 1:
        now_state = Round.get_by_id(rnd.id).state
        raise Conflict(
            N_(
                "round %(round)s changed meanwhile (it is %(state)s now); nothing done",
                round=rnd.id,
                state=state_word(now_state),
            )
        )


def campaign_of(round_id: int) -> int:
    """The campaign a round belongs to (a NotFound for no round)."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    return Scenario.select(Scenario.campaign).where(Scenario.id == rnd.scenario_id).scalar()


def ruleset_of(round_id: int) -> str:
    """The ruleset of a round's campaign (a NotFound for no round): what reads a posted entry form asks first."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    return str(Campaign.select(Campaign.ruleset).join(Scenario).where(Scenario.id == rnd.scenario_id).scalar())


def require_round_gm(round_id: int, actor_id: int | None) -> None:
    """Refuse anyone but the GMs of the round's campaign (the operator, `actor_id` None, passes)."""
    gms.require_gm(campaign_of(round_id), actor_id)


def lock_round(round_id: int) -> Round:
    """The round row inside a write transaction, locked (see `locked`)."""
    return locked(Round, round_id, N_("round"))


def lock_chain(scenario_id: int) -> None:
    """Lock the chain of a scenario's rounds (its scenario row) inside the write transaction, after the round's own
    row (`lock_round`, or the resolver's claim): always in that order. A round starts from the state the previous
    round's resolution left, so resolving a round and changing an earlier round's resolution (an override) must
    exclude each other: on PostgreSQL either could otherwise commit beside the other, and the later round would
    start from a state the earlier one no longer ends in. SQLite's BEGIN IMMEDIATE already serialises them."""
    locked(Scenario, scenario_id, N_("scenario"))


def _transition(
    round_id: int,
    to: str,
    *,
    actor_id: int | None,
    clock: Clock,
    action: str,
    reason: str | None = None,
    stamp: str | None = None,
    **changes: Any,
) -> Round:
    """One logged transition in its own write transaction. Its time is read once the round is locked (and stored in
    the column `stamp` names): a save that held the round before has committed by then, so nothing accepted is
    ever stamped later than, say, the close it preceded."""
    with write_transaction():
        rnd = lock_round(round_id)
        now = to_db(clock.now())
        if stamp:
            changes[stamp] = now
        move_state(rnd, to, now, **changes)
        note = {"reason": reason} if reason else {}
        audit.log(
            action, f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=to, **note, **_loggable(changes)
        )
    return Round.get_by_id(round_id)


def _loggable(changes: dict[str, Any]) -> dict[str, Any]:
    return {k: (iso_utc(v) if isinstance(v, datetime) else v) for k, v in changes.items() if k != "seed"}


# ---- creating, opening, closing ------------------------------------------------------------------------------


@retried
def create_round(scenario_id: int, deadline: datetime, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """A draft round (the scenario's next number) with its deadline (an aware datetime, stored in UTC)."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        _refuse_after_battle(scenario_id, N_("be created"))
        last = Round.select(Round.number).where(Round.scenario == scenario_id).order_by(Round.number.desc()).first()
        rnd = Round.create(scenario=scenario_id, number=(last.number + 1) if last else 1, deadline=to_db(deadline))
        audit.log("round.create", f"round:{rnd.id}", now, actor_id=actor_id, deadline=iso_utc(rnd.deadline))
        players = players_of(scenario_id)  # told that the scenario goes on (its webhook hears when it opens)
        notifications.queue("round.scheduled", now, users=players, **notifications.round_payload(rnd))
    return rnd


@retried
def open_round(round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """Open a draft round for entries: draw its secret seed, once, and store its sha256, shown until publishing
    reveals the seed (a seed drawn again would be dice drawn again). The players of the joined characters are
    notified."""
    require_round_gm(round_id, actor_id)
    seed = secrets.token_hex(32)
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state != DRAFT:
            hint = {CLOSED: N_("extend its deadline to take entries again"), HELD: N_("release it")}.get(rnd.state)
            said = N_(
                "round %(round)s is %(state)s: only a draft round opens (its seed is drawn once)",
                round=round_id,
                state=state_word(rnd.state),
            )
            raise InvalidState(N_("%(refusal)s; %(hint)s", refusal=said, hint=hint) if hint else said)
        _refuse_out_of_order(rnd, N_("be opened"))
        _refuse_after_battle(rnd.scenario_id, N_("be opened"))
        if rnd.deadline <= now:
            raise InvalidState(N_("round %(round)s's deadline has passed: extend it first", round=round_id))
        move_state(rnd, OPEN, now, seed=seed, seed_hash=seed_hash(seed), opened_at=now)
        audit.log("round.open", f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=OPEN)
        notifications.notify_round("round.opened", rnd, now, users=players_of(rnd.scenario_id))
    return Round.get_by_id(round_id)


def _refuse_out_of_order(rnd: Round, doing: str) -> None:
    """A round starts where the scenario's previous round ended: it cannot be opened or resolved while an earlier
    round of its scenario is still to be resolved (cancelled rounds are skipped). `doing`: `N_("be opened")`..., a
    phrase of its own (not the state word "resolved"), so a page can say the verb."""
    earlier = (
        Round.select(Round.id, Round.number, Round.state)
        .where(
            Round.scenario == rnd.scenario_id,
            Round.number < rnd.number,
            Round.state.not_in((RESOLVED, PUBLISHED, CANCELLED)),
        )
        .order_by(Round.number)
        .first()
    )
    if earlier is not None:
        raise InvalidState(
            N_(
                "round %(round)s cannot %(doing)s before round %(earlier)s (number %(number)s of its scenario, "
                "%(state)s) is resolved or cancelled",
                round=rnd.id,
                doing=doing,
                earlier=earlier.id,
                number=earlier.number,
                state=state_word(earlier.state),
            )
        )


def players_of(scenario_id: int) -> set[int]:
    """The users whose characters joined the scenario (who hear of its rounds)."""
    return {
        c.owner_id
        for c in Character.select(Character.owner)
        .join(Participation)
        .where(Participation.scenario == scenario_id, Participation.status == "joined")
    }


@retried
def close_round(round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """No more entries (an open round only: a quarantined round goes back through `release_round`)."""
    require_round_gm(round_id, actor_id)
    if get_or_fail(Round, round_id, N_("round")).state == QUARANTINED:
        raise InvalidState(N_("round %(round)s is quarantined: release it to try again", round=round_id))
    return _transition(round_id, CLOSED, actor_id=actor_id, clock=clock, action="round.close", stamp="closed_at")


@retried
def hold_round(round_id: int, *, reason: str, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """The GM's hand: a held round neither takes entries nor resolves until released."""
    why = checked_text(reason, N_("reason"), REASON_LIMIT)
    require_round_gm(round_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        move_state(rnd, HELD, now, held_from=rnd.state)
        audit.log("round.hold", f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=HELD, reason=why)
    return Round.get_by_id(round_id)


@retried
def release_round(round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """Back to the state the hold interrupted (a quarantined round goes back to closed for another attempt)."""
    require_round_gm(round_id, actor_id)
    rnd = get_or_fail(Round, round_id, N_("round"))
    if rnd.state == QUARANTINED:
        return _transition(round_id, CLOSED, actor_id=actor_id, clock=clock, action="round.release", failures=0)
    if rnd.state != HELD:
        raise InvalidState(N_("round %(round)s is %(state)s, not held", round=round_id, state=state_word(rnd.state)))
    return _transition(round_id, rnd.held_from, actor_id=actor_id, clock=clock, action="round.release", held_from=None)


@retried
def extend_round(round_id: int, deadline: datetime, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """A new deadline (draft, open, held or closed rounds; a closed round opens again when it lies ahead). The
    players of the joined characters are told the new deadline."""
    new = to_db(deadline)
    now = to_db(clock.now())
    if new <= now:
        raise UserError(N_("the new deadline must lie in the future"), "deadline")
    require_round_gm(round_id, actor_id)
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state not in (DRAFT, OPEN, HELD, CLOSED):
            raise InvalidState(
                N_(
                    "round %(round)s is %(state)s: its deadline cannot change",
                    round=round_id,
                    state=state_word(rnd.state),
                )
            )
        to = OPEN if rnd.state == CLOSED else rnd.state
        if to != rnd.state:
            move_state(rnd, to, now, deadline=new, closed_at=None, guard_held_at=None)
        else:
            Round.update(deadline=new, guard_held_at=None).where(Round.id == round_id).execute()
        audit.log(
            "round.extend",
            f"round:{round_id}",
            now,
            actor_id=actor_id,
            was=rnd.state,
            to=to,
            from_deadline=iso_utc(rnd.deadline),
            deadline=iso_utc(new),
        )
        extended = Round.get_by_id(round_id)
        notifications.notify_round("round.extended", extended, now, users=players_of(rnd.scenario_id))
    return extended


@retried
def cancel_round(round_id: int, *, reason: str, actor_id: int | None = None, clock: Clock = SYSTEM) -> Round:
    """Drop a round that will not be played (logged with the reason)."""
    why = checked_text(reason, N_("reason"), REASON_LIMIT)
    require_round_gm(round_id, actor_id)
    return _transition(round_id, CANCELLED, actor_id=actor_id, clock=clock, action="round.cancel", reason=why)


# ---- resolving --------------------------------------------------------------------------------------------------


def round_context(rnd: Round) -> Scenario:
    """The round's scenario with its campaign joined (`.campaign`), the campaign without its pack: one query."""
    return (
        Scenario.select(
            Scenario,
            Campaign.id,
            Campaign.slug,
            Campaign.ruleset,
            Campaign.timezone,
            Campaign.entry_char_limit,
            Campaign.gm,
            Campaign.policies,
        )
        .join(Campaign)
        .where(Scenario.id == rnd.scenario_id)
        .get()
    )


def previous_resolution(rnd: Round, *columns: peewee.Field) -> Resolution | None:
    """The resolution of the last resolved round of the scenario before `rnd` (its `columns`, by default its state,
    and `.round.number`), whose final state `rnd` starts from; None for a first round or when every earlier round
    was cancelled."""
    if rnd.number == 1:
        return None
    return (
        Resolution.select(*(columns or (Resolution.state,)), Round.id, Round.number)
        .join(Round)
        .where(Round.scenario == rnd.scenario_id, Round.number < rnd.number)
        .order_by(Round.number.desc())
        .first()
    )


#: The final states of resolutions, marshalled, by database, resolution and version: every save of a round validates
#: against the state the previous round left, and decoding a 260-unit battle's JSON for each save was half its cost.
_STATES: Lru[bytes] = Lru(32)


def _previous_state(rnd: Round) -> dict[str, Any] | None:
    """The final state of the previous resolved round (a fresh copy: callers may change it)."""
    head = previous_resolution(rnd, Resolution.id, Resolution.version)  # not created_at: SQLite would walk the JSON
    return None if head is None else _state_of(head)


def _state_of(head: Resolution) -> dict[str, Any]:
    """A resolution's final state (`head` has its id and version; a fresh copy), decoded once per process for each
    version of that resolution (an override makes a new version, hence a new key)."""
    key = (str(database.obj.database), head.id, head.version)  # a resolution is never deleted, only versioned
    blob = _STATES.get_or_make(
        key, lambda: marshal.dumps(Resolution.select(Resolution.state).where(Resolution.id == head.id).get().state)
    )
    state: dict[str, Any] = marshal.loads(blob)
    return state


#: How a battle ended (`Ruleset.battle_over`), as a page or a refusal says it.
OUTCOME_WORDS = {"victory": N_("victory"), "defeat": N_("defeat"), "wipeout": N_("wipe-out"), "draw": N_("draw")}


def battle_over(scenario_id: int, *, published: bool = False) -> str | None:
    """How the scenario's battle ended when its last resolved round (`published`: its last published one, what the
    players may know) left nothing for a further deadline to play (`Ruleset.battle_over`); None while it goes on."""
    states = (RESOLVED, PUBLISHED) if not published else (PUBLISHED,)
    head = (
        Resolution.select(Resolution.id, Resolution.version, Resolution.ruleset)
        .join(Round)
        .where(Round.scenario == scenario_id, Round.state.in_(states))
        .order_by(Round.number.desc())
        .first()
    )
    return None if head is None else find_ruleset(head.ruleset).battle_over(_state_of(head))


def outcome_word(outcome: str | None) -> Text | None:
    """How a battle ended in words (`OUTCOME_WORDS`); None for a battle that goes on."""
    return None if outcome is None else OUTCOME_WORDS.get(outcome, Text(outcome))


def _refuse_after_battle(scenario_id: int, doing: str) -> None:
    """No deadline after a battle that is over (one would resolve with no events): `doing` is what is refused."""
    outcome = battle_over(scenario_id)
    if outcome is not None:
        raise InvalidState(
            N_(
                "the scenario's battle is over (%(outcome)s): no new round can %(doing)s",
                outcome=outcome_word(outcome),
                doing=doing,
            )
        )


def round_encounter(rnd: Round, scenario: Scenario) -> dict[str, Any]:
    """The encounter a round starts from: the state the previous round's resolution left (one copy of the truth),
    or for the first round the starting state the GM set, else the pack's scenario with the joined, living
    characters in the order they joined (a scene: the characters alone, R-GM-2)."""
    previous = _previous_state(rnd)
    if previous is not None:
        return continued(previous, rnd.number)
    start = ScenarioSecret.select(ScenarioSecret.encounter_state).where(ScenarioSecret.scenario == scenario.id)
    encounter = start.get().encounter_state
    if encounter is None:
        campaign = Campaign.select(Campaign.pack, Campaign.ruleset).where(Campaign.id == scenario.campaign_id).get()
        pcs = [
            (unit_id(c.id), c.sheet)
            for c in Character.select()
            .join(Participation)
            .where(Participation.scenario == scenario.id, Participation.status == "joined", Character.alive)
            .order_by(Participation.id)
        ]
        encounter = find_ruleset(campaign.ruleset).build_encounter(campaign.pack, scenario.pack_scenario, pcs)
    encounter["round"] = rnd.number
    return encounter


def gm_actions_of(round_id: int) -> list[dict[str, Any]]:
    """The GM's actions recorded for a round, in order, as the engine applies them (each with its reason)."""
    query = GmAction.select().where(GmAction.round == round_id).order_by(GmAction.seq)
    return [{"kind": a.kind, **a.payload, "reason": a.reason} for a in query]


@dataclass(frozen=True)
class Shaped:
    """The state a round starts from (`start`), the GM's actions and the encounter they leave (`encounter`: what
    the round is played from; `start` itself when there is no action)."""

    start: dict[str, Any]
    actions: list[dict[str, Any]]
    encounter: dict[str, Any]


def shaped_encounter(rnd: Round, scenario: Scenario, actions: list[dict[str, Any]] | None = None) -> Shaped:
    """The encounter a round is played from: its starting state after the GM's actions (`actions`, by default the
    round's recorded ones). A UserError lists every problem when they no longer apply (an override of the previous
    round changed where this one starts)."""
    start = round_encounter(rnd, scenario)
    actions = gm_actions_of(rnd.id) if actions is None else actions
    if not actions:
        return Shaped(start, [], start)
    result = find_ruleset(scenario.campaign.ruleset).apply_gm_actions(start, actions)
    if isinstance(result, list):
        raise UserError(N_("the GM's actions do not apply: %(problems)s", problems=said_problems(result)))
    return Shaped(start, actions, result)


@dataclass(frozen=True)
class EngineInputs:
    """What the engine resolves a round from: the ruleset, ENCOUNTER.json, ORDERS.json (every unit's, the GM's
    enemy orders and the default tactics included) and each unit's prose (what the story quotes); `start` and
    `gm_actions` when the GM shaped the round (`encounter` is `start` after them)."""

    ruleset: str
    encounter: dict[str, Any]
    orders: dict[str, Any]
    prose: dict[str, str]
    start: dict[str, Any] | None = None
    gm_actions: list[dict[str, Any]] | None = None
    adhoc_checks: list[dict[str, Any]] | None = None  # the GM's ad-hoc checks, rolled after the round


def adhoc_checks_of(round_id: int) -> list[dict[str, Any]]:
    """The GM's ad-hoc checks recorded for a round, in order, as the engine rolls them (`pbp.engine.pool.adhoc`)."""
    query = AdhocCheck.select().where(AdhocCheck.round == round_id).order_by(AdhocCheck.seq)
    return [
        {"unit": unit_id(a.character_id), "skill": a.skill, "need": a.need, "reason": a.reason}
        | ({"success_text": a.success_text} if a.success_text else {})
        | ({"failure_text": a.failure_text} if a.failure_text else {})
        for a in query
    ]


def engine_inputs(rnd: Round, scenario: Scenario) -> EngineInputs:
    """The one place a round's engine inputs are built: resolution and every preview read them from here, so what
    the GM previews is what the round resolves from (save the seed). The GM's actions shape the starting state;
    the GM's enemy orders come before the default tactics, which act for every enemy without one."""
    try:
        shaped = shaped_encounter(rnd, scenario)
    except Exception as e:
        raise ResolutionFailed(f"building the encounter: {type(e).__name__}: {e}") from e
    ruleset = scenario.campaign.ruleset
    entries, prose = round_entries(rnd.id)
    orders = find_ruleset(ruleset).orders_file(shaped.encounter, [*entries, *gm_orders_of(rnd.id)])
    orders = find_ruleset(ruleset).default_orders(shaped.encounter, orders)  # the enemies the GM gave no order
    adhoc = adhoc_checks_of(rnd.id) or None
    if not shaped.actions:
        return EngineInputs(ruleset, shaped.encounter, orders, prose, adhoc_checks=adhoc)
    return EngineInputs(ruleset, shaped.encounter, orders, prose, shaped.start, shaped.actions, adhoc)


@dataclass(frozen=True)
class Preview:
    """A dry run of an unresolved round: what it would resolve from, and one outcome with a throwaway seed."""

    inputs: EngineInputs
    events: list[dict[str, Any]]
    state: dict[str, Any]


#: The states a round can be previewed in: every state before its resolution.
PREVIEWABLE = (DRAFT, OPEN, CLOSED, HELD, QUARANTINED)


def preview_round(round_id: int, *, actor_id: int | None = None) -> Preview:
    """Resolve an unresolved round as it stands (`engine_inputs`, the entries so far) with a throwaway seed, so the
    GM sees what the orders and the enemies' tactics do before the deadline. Nothing is stored or changed, and the
    round's own seed is never used: its dice stay secret and unspent. The campaign's GMs only."""
    require_round_gm(round_id, actor_id)
    rnd = Round.get_by_id(round_id)
    if rnd.state not in PREVIEWABLE:
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: only a round not yet resolved can be previewed",
                round=round_id,
                state=state_word(rnd.state),
            )
        )
    _refuse_out_of_order(rnd, N_("be previewed"))
    try:
        inputs = engine_inputs(rnd, round_context(rnd))
        done = _inputs_engine(inputs, secrets.token_hex(32), [])
    except ResolutionFailed as e:
        raise UserError(N_("round %(round)s cannot be previewed: %(error)s", round=round_id, error=str(e))) from e
    return Preview(inputs, done["events"], done["state"])


def round_entries(round_id: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """A round's entries in one read: every current entry's order with its unit id (PCs without entries do nothing;
    the ruleset's `orders_file` files them) and each unit's prose (what the story quotes)."""
    entries = list(
        Entry.select(Entry.character, Entry.order, Entry.prose).where(Entry.round == round_id).order_by(Entry.character)
    )
    orders = [{**e.order, "unit": unit_id(e.character_id)} for e in entries]
    return orders, {unit_id(e.character_id): e.prose for e in entries}


def gm_orders_of(round_id: int) -> list[dict[str, Any]]:
    """The GM's orders for enemy units in a round, by unit id (ORDERS.json's shape)."""
    query = GmOrder.select().where(GmOrder.round == round_id).order_by(GmOrder.unit)
    return [{**o.order, "unit": o.unit} for o in query]


def round_prose(round_id: int, locale: str = "ja") -> dict[str, str]:
    """Each unit's prose as the story in `locale` tells it: in English, a player's English version where they wrote
    one (their Japanese prose otherwise); in Japanese always the prose."""
    query = Entry.select(Entry.character, Entry.prose, Entry.prose_en).where(Entry.round == round_id)
    query = query.order_by(Entry.character)  # as round_entries: the story reads them in one order
    english = locale != "ja"
    return {unit_id(e.character_id): (e.prose_en if english and e.prose_en else e.prose) for e in query}


def _draft_report(
    rnd: Round, scenario: Scenario, resolution: dict[str, Any], prose: dict[str, str], *, locale: str = "ja"
) -> str:
    """The generated story: the seed is withheld (the draft exists before publishing). Its growth points are each
    PC's once the round is published: before then, with the campaign's award to every PC with an entry to come."""
    bundle = build_bundle(round_info=round_info(rnd, scenario), seed=None, **resolution)
    campaign = Campaign.get_by_id(scenario.campaign_id)  # with its pack: the names the story uses
    members = Character.select().join(Participation).where(Participation.scenario == scenario.id)
    award = 0 if rnd.state == PUBLISHED else campaign.growth_on_publish or 0
    growth = {
        unit_id(c.id): unspent_growth(campaign, c.sheet) + (award if unit_id(c.id) in prose else 0) for c in members
    }
    names = {unit_id(c.id): str(c.sheet.get(locale) or c.name) for c in members}
    pronouns = {unit_id(c.id): english_pronoun(c.sheet, campaign.pack) for c in members}
    try:
        return reports.draft_report(
            bundle, prose=prose, growth=growth, pack=campaign.pack, locale=locale, names=names, pronouns=pronouns,
            **_earlier_rounds(rnd, locale),
        )  # fmt: skip
    except Exception as e:  # a narration bug must not leave a resolved round without its report: count it
        raise ResolutionFailed(f"writing the draft report: {type(e).__name__}: {e}") from e


def _earlier_rounds(rnd: Round, locale: str) -> dict[str, Any]:
    """What a round's story remembers of its scenario: the previous round's events (who fell) and the sentences of
    the earlier stories in `locale` (the draft as it stands; in English the GM's or the one published), none of
    which it writes again."""
    earlier = Round.scenario == rnd.scenario_id, Round.number < rnd.number
    previous = Resolution.select(Resolution.events).join(Round).where(*earlier).order_by(Round.number.desc()).first()
    memory: set[str] = set()
    for report in Report.select().join(Round).where(*earlier):
        text = report.draft_md if locale == "ja" else report.story_en_md or reports.plain_text(report.html_en or "")
        memory |= reports.sentences(text)
    return {"previous_events": previous.events if previous else None, "memory": memory}


def generated_story(rnd: Round, resolution: Resolution, locale: str) -> str:
    """A resolved round's story written afresh from its stored resolution, e.g. in another language than the
    draft's (the same phrasing picks: they are keyed by the seed's public hash)."""
    columns = {k: getattr(resolution, k) for k in RESOLUTION_COLUMNS}
    resolved = {**columns, "seed_hash": rnd.seed_hash}
    return _draft_report(rnd, round_context(rnd), resolved, round_prose(rnd.id, locale), locale=locale)


def round_info(rnd: Round, scenario: Scenario) -> dict[str, Any]:
    """The public facts of a round that a bundle carries (`scenario` from `round_context`)."""
    return {
        "id": rnd.id,
        "number": rnd.number,
        "scenario": scenario.slug,
        "pack_scenario": scenario.pack_scenario,  # the pack's key: names of its gimmicks (a run may have its own slug)
        "scenario_title": scenario.title,
        "campaign": scenario.campaign.slug,
        "deadline": iso_utc(rnd.deadline),
    }


def _overrides_of(round_id: int, field: str = "successes") -> list[dict[str, Any]]:
    """The round's overrides as the engine reads them: each sets the ruleset's `override_field`."""
    return [
        {"check": o.check, field: o.result if field == "result" else o.successes, "reason": o.reason}
        for o in Override.select().where(Override.round == round_id).order_by(Override.check)
    ]


#: What a resolution row stores of a run (`start` and `gm_actions` None when the GM did not shape the round).
RESOLUTION_COLUMNS = (
    "ruleset", "encounter", "orders", "overrides", "events", "state", "start", "gm_actions", "adhoc_checks",
)  # fmt: skip


def _engine(
    ruleset: str,
    encounter: dict[str, Any],
    orders: dict[str, Any],
    seed: str,
    overrides: list[dict[str, Any]],
    *,
    start: dict[str, Any] | None,
    gm_actions: list[dict[str, Any]] | None,
    adhoc_checks: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Run the engine (then the GM's ad-hoc checks); any failure becomes ResolutionFailed (counted toward
    quarantine)."""
    try:
        result = run_engine(ruleset, encounter, orders, seed, overrides, adhoc_checks)
    except Exception as e:
        raise ResolutionFailed(f"{type(e).__name__}: {e}") from e
    return {
        "ruleset": ruleset,
        "seed_hash": seed_hash(seed),
        "encounter": encounter,
        "orders": orders,
        "overrides": overrides,
        "events": result.events,
        "state": result.state,
        "unused": result.unused_overrides,
        "start": start,
        "gm_actions": gm_actions,
        "adhoc_checks": adhoc_checks,
    }


def _inputs_engine(inputs: EngineInputs, seed: str, overrides: list[dict[str, Any]]) -> dict[str, Any]:
    """`_engine` on what `engine_inputs` built."""
    return _engine(inputs.ruleset, inputs.encounter, inputs.orders, seed, overrides, start=inputs.start,
                   gm_actions=inputs.gm_actions, adhoc_checks=inputs.adhoc_checks)  # fmt: skip


def _claim(round_id: int, now: datetime) -> Round | ResolveOutcome:
    """Claim a closed round inside the open write transaction: the conditional update must change one row."""
    query = Round.select().where(Round.id == round_id, Round.state == CLOSED)
    if not is_sqlite():
        query = query.for_update(skip_locked=True)
    rows = list(query)
    if (
        not rows
        or Round.update(state=RESOLVED, resolved_at=now).where(Round.id == round_id, Round.state == CLOSED).execute()
        != 1
    ):
        state = Round.get_by_id(round_id).state
        if state in (RESOLVED, PUBLISHED):
            said = N_("round %(round)s is already %(state)s", round=round_id, state=state_word(state))
            return ResolveOutcome(round_id, "already", said)
        said = N_(
            "round %(round)s is %(state)s: not claimed (another process has it?)",
            round=round_id,
            state=state_word(state),
        )
        return ResolveOutcome(round_id, "busy", said)
    return rows[0]


@retried
def resolve_round(
    round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM, by_hand: bool = False
) -> ResolveOutcome:
    """Resolve a round exactly once (the GM's hand or the scheduler's): an open round is closed first; a resolved or
    published one is left alone ("already"). Missing entries do not stop it: units without entries do nothing.
    `by_hand` (the GM's resolve-now, the command line) is logged with it: such a round waits for the GM's review
    even in a campaign that publishes automatically (`to_publish`), and its GMs are told it is resolved."""
    require_round_gm(round_id, actor_id)
    rnd = get_or_fail(Round, round_id, N_("round"))
    if rnd.state in (RESOLVED, PUBLISHED):
        return ResolveOutcome(round_id, "already", f"round {round_id} is already {rnd.state}")
    if rnd.state in (OPEN, CLOSED):
        _refuse_out_of_order(rnd, N_("be resolved"))  # before closing it: a round that cannot resolve stays open
    if rnd.state == OPEN:
        try:
            close_round(round_id, actor_id=actor_id, clock=clock)
        except UserError:  # another process moved it first; the claim below decides
            rnd = Round.get_by_id(round_id)
    if rnd.state not in (OPEN, CLOSED, RESOLVED, PUBLISHED):
        raise InvalidState(
            N_(
                "round %(round)s is %(state)s: only an open or closed round can be resolved",
                round=round_id,
                state=state_word(rnd.state),
            )
        )
    now = to_db(clock.now())
    ahead = _worked_out(round_id)
    try:
        with write_transaction():
            # What was worked out holds if nothing moved since. SQLite: read before the claim, whose trigger moves
            # the version at once (BEGIN IMMEDIATE keeps every other writer out meanwhile). PostgreSQL: read after the
            # chain's lock (its triggers fire at commit), so an override that committed while this waited counts.
            version = site.current(database.obj)
            claimed = _claim(round_id, now)
            if isinstance(claimed, ResolveOutcome):
                return claimed
            lock_chain(claimed.scenario_id)  # no override of an earlier round until this one is stored
            if not is_sqlite():
                version = site.current(database.obj)
            _refuse_out_of_order(claimed, N_("be resolved"))  # again under the lock: the earlier round may have moved
            scenario = round_context(claimed)
            if ahead is not None and ahead.holds(version, _unwatched(round_id)):
                inputs, done, draft = ahead.inputs, ahead.done, ahead.draft
            else:  # something it read moved meanwhile (or it failed): worked out again, as it is now
                inputs = engine_inputs(claimed, scenario)
                overrides = _overrides_of(round_id, find_ruleset(inputs.ruleset).override_field)
                done = _inputs_engine(inputs, claimed.seed, overrides)
                draft = None
            _store(claimed, scenario, done, inputs.prose, now, first=True, draft=draft)
            if by_hand or not policy(scenario.campaign.policies, "publish_automatically"):
                notifications.notify_round("round.resolved", claimed, now, users=gms.gm_ids(scenario.campaign.id))
            hand = {"by_hand": True} if by_hand else {}
            audit.log(
                "round.resolve",
                f"round:{round_id}",
                now,
                actor_id=actor_id,
                was=CLOSED,
                to=RESOLVED,
                events=len(done["events"]),
                **hand,
            )
    except ResolutionFailed as e:
        _failed(round_id, str(e), actor_id=actor_id, now=now)
    return ResolveOutcome(round_id, "resolved", f"round {round_id} resolved: {len(done['events'])} events")


@dataclass(frozen=True)
class _WorkedOut:
    """A closed round's resolution and draft story, worked out from a read before the write lock is taken: the
    engine and the story are most of a resolution's time, and a deadline's saves, closes and other rounds must not
    wait for them (issue 33). Used only if everything it was made from is still as it was (`holds`)."""

    version: int  # the site's version when it was read: everything watched (the state, overrides, names, pack…)
    unwatched: tuple[Any, ...]  # what the version does not cover (`_unwatched`)
    inputs: EngineInputs
    done: dict[str, Any]
    draft: str

    def holds(self, version: int, unwatched: tuple[Any, ...]) -> bool:
        return (self.version, self.unwatched) == (version, unwatched)


def _unwatched(round_id: int) -> tuple[Any, ...]:
    """What a round's engine inputs are made from that the site's version does not cover: its entries (by receipt:
    their order, prose and time) and the GM's enemy orders (by when each was saved)."""
    entries = Entry.select(Entry.character, Entry.receipt).where(Entry.round == round_id).order_by(Entry.character)
    orders = GmOrder.select(GmOrder.unit, GmOrder.saved_at).where(GmOrder.round == round_id).order_by(GmOrder.unit)
    return tuple((e.character_id, e.receipt) for e in entries), tuple((o.unit, o.saved_at) for o in orders)


def _worked_out(round_id: int) -> _WorkedOut | None:
    """The round's resolution and draft worked out from one read transaction (no write lock: SQLite's WAL and
    PostgreSQL let the writers go on), or None when the round is not closed or working it out failed (the write
    transaction then does it, and counts a failure as it always has)."""
    try:
        with database.atomic():  # one snapshot on SQLite (a deferred transaction only reads)
            version = site.current(database.obj)
            rnd = Round.get_by_id(round_id)
            if rnd.state != CLOSED:
                return None
            unwatched = _unwatched(round_id)
            scenario = round_context(rnd)
            inputs = engine_inputs(rnd, scenario)
            overrides = _overrides_of(round_id, find_ruleset(inputs.ruleset).override_field)
            done = _inputs_engine(inputs, rnd.seed, overrides)
            draft = _draft_report(rnd, scenario, _drafted(done), inputs.prose)
    except ResolutionFailed:
        return None
    return _WorkedOut(version, unwatched, inputs, done, draft)


def _drafted(done: dict[str, Any]) -> dict[str, Any]:
    """What a draft is written from of an engine run: the resolution's columns and the seed's hash."""
    return {**{k: done[k] for k in RESOLUTION_COLUMNS}, "seed_hash": done["seed_hash"]}


def _store(
    rnd: Round,
    scenario: Scenario,
    done: dict[str, Any],
    prose: dict[str, str],
    now: datetime,
    *,
    first: bool,
    actor_id: int | None = None,
    draft: str | None = None,
) -> None:
    """The resolution row (whose state the next round starts from) and the draft report (`draft` when it was
    written already from the same inputs): inside the caller's transaction."""
    columns = {k: done[k] for k in RESOLUTION_COLUMNS}
    if first:
        Resolution.insert(round=rnd.id, version=1, created_at=now, **columns).execute()
    else:
        current = Resolution.get(Resolution.round == rnd.id)
        ResolutionVersion.insert(
            round=rnd.id,
            version=current.version,
            overrides=current.overrides,
            events=current.events,
            state=current.state,
            created_at=current.created_at,
            replaced_at=now,
        ).execute()
        Resolution.update(version=current.version + 1, created_at=now, **columns).where(
            Resolution.round == rnd.id, Resolution.version == current.version
        ).execute()
    draft = draft if draft is not None else _draft_report(rnd, scenario, _drafted(done), prose)
    if first:
        Report.insert(round=rnd.id, draft_md=draft, generated_md=draft, updated_at=now).execute()
        return
    report = Report.get(Report.round == rnd.id)
    # A draft the GM edited is the GM's: only the generated draft (what the diff compares with) is written again.
    edited = report.generated_md is not None and report.draft_md.strip() != report.generated_md.strip()
    changes = {"generated_md": draft, **({} if edited else {"draft_md": draft})}
    Report.update(updated_at=now, **changes).where(Report.round == rnd.id).execute()
    if edited and draft.strip() != report.generated_md.strip():
        audit.log("report.regenerated", f"round:{rnd.id}", now, actor_id=actor_id, kept_edited_draft=True)


def _failed(round_id: int, error: str, *, actor_id: int | None, now: datetime) -> NoReturn:
    """Count a failed attempt (its transaction was rolled back) and refuse with what failed."""
    failures = count_failure(round_id, error, actor_id=actor_id, now=now)
    quarantined = N_(" (quarantined)") if failures >= MAX_FAILURES else ""
    raise UserError(
        N_(
            "round %(round)s failed to resolve, attempt %(failures)s of %(max)s%(quarantined)s: %(error)s",
            round=round_id,
            failures=failures,
            max=MAX_FAILURES,
            quarantined=quarantined,
            error=error,
        )
    )


@retried
def count_failure(round_id: int, error: str, *, actor_id: int | None = None, now: datetime) -> int:
    """Count a failed attempt to resolve the round; the third quarantines it and tells the GM. Returns the count."""
    with write_transaction():
        rnd = lock_round(round_id)
        failures = rnd.failures + 1
        changes = {"failures": failures, "last_error": error[:500]}
        to = QUARANTINED if failures >= MAX_FAILURES and rnd.state == CLOSED else rnd.state
        if to != rnd.state:
            move_state(rnd, to, now, **changes)
        else:
            Round.update(**changes).where(Round.id == round_id).execute()
        audit.log(
            "round.resolve_failed",
            f"round:{round_id}",
            now,
            actor_id=actor_id,
            was=rnd.state,
            to=to,
            error=error[:500],
            failures=failures,
        )
        if to == QUARANTINED:
            campaign_id = Scenario.select(Scenario.campaign).where(Scenario.id == rnd.scenario_id).scalar()
            notices = {"failures": failures, "error": error[:300]}
            notifications.notify_round("round.quarantined", rnd, now, users=gms.gm_ids(campaign_id), **notices)
    return failures


def lock_reworked(rnd: Round) -> None:
    """Inside the write transaction of a change to a resolved round (an override, a プレイングボーナス, an ad-hoc
    check): take the chain's lock (a later round resolving now waits, or is refused here) and refuse when a later
    round of the scenario is resolved already (it started from this round's result)."""
    lock_chain(rnd.scenario_id)
    later = (
        Round.select()
        .where(Round.scenario == rnd.scenario_id, Round.number > rnd.number, Round.state.in_((RESOLVED, PUBLISHED)))
        .exists()
    )
    if later:
        raise InvalidState(
            N_("a later round of this scenario is resolved: round %(round)s can no longer change", round=rnd.id)
        )


def work_out_again(
    rnd: Round, scenario: Scenario, inputs: EngineInputs, now: datetime, *, actor_id: int | None
) -> None:
    """Inside the write transaction of a change to what a resolved round is played from (a プレイングボーナス, an
    ad-hoc check; `lock_reworked` taken): the round played again from `inputs` with its own seed and overrides and
    stored as its next version, the replaced one kept in the history. ResolutionFailed when it cannot be."""
    overrides = _overrides_of(rnd.id, find_ruleset(inputs.ruleset).override_field)
    done = _inputs_engine(inputs, rnd.seed, overrides)
    _store(rnd, scenario, done, round_prose(rnd.id), now, first=False, actor_id=actor_id)


@retried
def override_check(
    round_id: int,
    check: str,
    value: int | str,
    *,
    reason: str,
    actor_id: int | None = None,
    clock: Clock = SYSTEM,
) -> Resolution:
    """A GM override of one check (R-GM-1, K-GM-1): `value` sets the ruleset's `override_field` (pool: the new
    successes; kancolle: `success` or `failure`). Recorded with its published reason, then the round is re-resolved
    from its stored inputs and the same seed; the replaced resolution is kept in the history."""
    why = checked_text(reason, N_("reason"), REASON_LIMIT)
    check = checked_text(check, N_("check"), 32)
    ruleset = find_ruleset(ruleset_of(round_id))
    field = ruleset.override_field
    if field == "successes" and not (isinstance(value, int) and -OVERRIDE_LIMIT <= value <= OVERRIDE_LIMIT):
        raise UserError(
            N_("successes must be between -%(limit)s and %(limit)s, got %(got)s", limit=OVERRIDE_LIMIT, got=value)
        )
    malformed = ruleset.validate_overrides([{"check": check, field: value, "reason": why}])
    if malformed:  # a check id of another shape (the form offers the round's own): said here, not by the engine
        raise UserError(problem_message(malformed[0]), "result" if ".result" in malformed[0].path else "check")
    require_round_gm(round_id, actor_id)
    from pbp.services import leaks  # leaks reads the round states from here

    leaks.refuse_leaking_reason(round_id, why)
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state != RESOLVED:
            raise InvalidState(
                N_(
                    "round %(round)s is %(state)s: only a resolved, unpublished round can be overridden",
                    round=round_id,
                    state=state_word(rnd.state),
                )
            )
        lock_reworked(rnd)
        stored = Resolution.get(Resolution.round == round_id)
        overrides = [o for o in _overrides_of(round_id, field) if o["check"] != check]
        overrides = sorted([*overrides, {"check": check, field: value, "reason": why}], key=lambda o: o["check"])
        try:
            done = _engine(
                stored.ruleset,
                stored.encounter,
                stored.orders,
                rnd.seed,
                overrides,
                start=stored.start,
                gm_actions=stored.gm_actions,
                adhoc_checks=stored.adhoc_checks,
            )
            if check in done["unused"]:
                raise NotFound(
                    N_(
                        "round %(round)s has no check %(check)s (check ids look like r%(number)s-c1)",
                        round=round_id,
                        check=check,
                        number=rnd.number,
                    ),
                    "check",
                )
            Override.delete().where(Override.round == round_id, Override.check == check).execute()
            stored_value = {"result": value, "successes": 0} if field == "result" else {"successes": value}
            Override.create(round=round_id, check=check, reason=why, gm=actor_id, created_at=now, **stored_value)
            _store(rnd, round_context(rnd), done, round_prose(round_id), now, first=False, actor_id=actor_id)
        except ResolutionFailed as e:
            raise UserError(N_("the override cannot be applied: %(error)s", error=str(e))) from e
        audit.log(
            "round.override", f"round:{round_id}", now, actor_id=actor_id, check=check, reason=why, **{field: value}
        )
    return Resolution.get(Resolution.round == round_id)


# ---- what is due ----------------------------------------------------------------------------------------------


def due_round_ids(*, clock: Clock = SYSTEM) -> list[int]:
    """Rounds the scheduler should resolve now: open or closed past their deadline, and (campaign policy
    `resolve_when_complete`) closed rounds whose every joined character has an entry. That is the missing-entries
    guard: a closed round with entries missing waits for its deadline."""
    now = to_db(clock.now())
    past = [
        r.id for r in Round.select(Round.id).where(Round.state.in_((OPEN, CLOSED)), Round.deadline <= now, _in_order())
    ]
    early = (
        Round.select(Round.id, Round.scenario, Campaign.policies)
        .join(Scenario)
        .join(Campaign)
        .where(Round.state == CLOSED, Round.deadline > now, _in_order())
        .tuples()
    )
    complete = [
        rid
        for rid, scenario_id, policies in list(early)
        if policy(policies, "resolve_when_complete") and missing_entries(rid, scenario_id)[0] == 0
    ]
    return sorted(past + complete)


def _in_order() -> peewee.Expression:
    """No earlier round of the round's scenario is still to be resolved (a round starts where the last ended)."""
    earlier = Round.alias()
    unfinished = earlier.select(earlier.id).where(
        earlier.scenario == Round.scenario,
        earlier.number < Round.number,
        earlier.state.not_in((RESOLVED, PUBLISHED, CANCELLED)),
    )
    return ~fn.EXISTS(unfinished)


def resolve_due(*, clock: Clock = SYSTEM, limit: int | None = None) -> list[ResolveOutcome]:
    """The scheduler's tick: resolve every due round (missed deadlines included). A round that fails, in any way,
    is reported in its outcome and the others go on: an unexpected error (outside the engine's `ResolutionFailed`,
    e.g. in the default tactics) is counted toward quarantine like an engine failure, with its traceback in the
    outcome; a database that fails is not the round's fault and is not counted."""
    outcomes = []
    for round_id in due_round_ids(clock=clock)[:limit]:
        try:
            outcomes.append(resolve_round(round_id, clock=clock))
        except Busy as e:  # nothing changed: still due at the next tick
            outcomes.append(ResolveOutcome(round_id, "busy", f"round {round_id}: {e}"))
        except UserError as e:
            outcomes.append(ResolveOutcome(round_id, "failed", str(e)))
        except (peewee.OperationalError, peewee.InterfaceError) as e:  # the database went away: the next tick
            outcomes.append(ResolveOutcome(round_id, "error", f"round {round_id}: the database failed: {e}"))
        except Exception as e:  # a bug: counted, so it is quarantined after MAX_FAILURES, never retried for ever
            outcomes.append(_unexpected(round_id, e, clock))
    return outcomes


def _unexpected(round_id: int, error: Exception, clock: Clock) -> ResolveOutcome:
    """Count an unexpected failure of a round's resolution; its outcome carries the traceback."""
    trace = traceback.format_exc()
    what = f"{type(error).__name__}: {error}"
    try:
        failures = count_failure(round_id, what, now=to_db(clock.now()))
    except Exception as e:  # counting failed too (the database?): reported, tried again at the next tick
        return ResolveOutcome(round_id, "error", f"round {round_id}: {what}; not counted: {e}", trace)
    quarantined = " (quarantined)" if failures >= MAX_FAILURES else ""
    message = f"round {round_id} failed to resolve, attempt {failures} of {MAX_FAILURES}{quarantined}: {what}"
    return ResolveOutcome(round_id, "failed", message, trace)


# ---- the scheduler's other steps ------------------------------------------------------------------------------


def _open_past_deadline(clock: Clock) -> peewee.ModelSelect:
    now = to_db(clock.now())
    return Round.select(Round.id).where(Round.state == OPEN, Round.deadline <= now).order_by(Round.id)


def open_past_deadline(*, clock: Clock = SYSTEM) -> list[int]:
    """Open rounds whose deadline passed (the tick closes them: entries are refused anyway)."""
    return [r.id for r in _open_past_deadline(clock)]


@retried
def close_past_deadline(*, clock: Clock = SYSTEM) -> list[int]:
    """Close every open round whose deadline passed in one write transaction, as `close_round` closes one; their
    ids. Runs of a campaign share a deadline: closed one by one, 50 of them moved the site's version 50 times within
    the seconds after it, each move made every reader's page cold, and the saves refused meanwhile found their
    reading moved and were made twice (issue 33). Locked in id order, as `close_round` locks one; the time is read
    once they are all locked, so no save accepted before is stamped after the close.

    PostgreSQL: locked FOR NO KEY UPDATE, which waits for a save's FOR SHARE as FOR UPDATE does, but not for the
    key checks of rows that point at a round (a late save's draft): the scheduler runs at a low priority and, on a
    busy machine, holds the locks for a while, and every thread writing a late save's draft waited behind it."""
    due = _open_past_deadline(clock)
    with write_transaction():
        ids = [r.id for r in (due if is_sqlite() else due.for_update("FOR NO KEY UPDATE"))]
        now = to_db(clock.now())
        if ids:
            Round.update(state=CLOSED, closed_at=now).where(Round.id.in_(ids), Round.state == OPEN).execute()
        for rid in ids:
            audit.log("round.close", f"round:{rid}", now, was=OPEN, to=CLOSED, closed_at=iso_utc(now))
    return ids


def missing_characters(round_id: int, scenario_id: int) -> tuple[list[int], int]:
    """The ids of the round's joined, living characters with no entry (a dead one can no longer enter), in the
    order they joined, and how many joined, living characters there are."""
    joined = [
        p.character_id
        for p in Participation.select(Participation.character)
        .join(Character)
        .where(Participation.scenario == scenario_id, Participation.status == "joined", Character.alive)
        .order_by(Participation.id)
    ]
    entered = {e.character_id for e in Entry.select(Entry.character).where(Entry.round == round_id)}
    return [cid for cid in joined if cid not in entered], len(joined)


def missing_entries(round_id: int, scenario_id: int) -> tuple[int, int]:
    """How many of the round's joined, living characters have no entry, and how many there are."""
    missing, joined = missing_characters(round_id, scenario_id)
    return len(missing), joined


@retried
def guard(round_id: int, *, clock: Clock = SYSTEM, actor_id: int | None = None, early: bool = False) -> bool:
    """The missing-entries guard at the deadline: when more than the campaign's `hold_share` of the joined
    characters have no entry, hold the round for the GM instead of resolving it, and tell the GM. A round is held
    by the guard once: the GM's release resolves it as it stands (a new deadline arms the guard again). `early`:
    the GM asked to resolve it now (`resolve_by_hand`), before its deadline too. Returns whether it held the
    round."""
    now = to_db(clock.now())
    with write_transaction():
        rnd = lock_round(round_id)
        if rnd.state not in (OPEN, CLOSED) or (rnd.deadline > now and not early) or rnd.guard_held_at is not None:
            return False
        missing, joined = missing_entries(rnd.id, rnd.scenario_id)
        campaign = (
            Campaign.select(Campaign.id, Campaign.hold_share).join(Scenario).where(Scenario.id == rnd.scenario_id)
        )
        campaign = campaign.get()
        if not too_many_missing(missing, joined, campaign.hold_share):
            return False
        move_state(rnd, HELD, now, held_from=rnd.state, guard_held_at=now)
        when = "when the GM asked to resolve it" if early else "at the deadline"
        why = f"{missing} of {joined} characters have no entry {when}"
        audit.log("round.hold", f"round:{round_id}", now, actor_id=actor_id, was=rnd.state, to=HELD, reason=why)
        users = gms.gm_ids(campaign.id)
        notifications.notify_round("round.held", rnd, now, users=users, missing=missing, joined=joined)
        waiting = players_of(rnd.scenario_id) - set(users)  # the players learn why nothing happens yet
        payload = notifications.round_payload(rnd)
        notifications.queue("round.waiting", now, users=waiting, **payload, missing=missing, joined=joined)
    return True


def too_many_missing(missing: int, joined: int, hold_share: float) -> bool:
    """The guard's rule: more than `hold_share` of the joined characters have no entry."""
    return bool(joined) and missing / joined > hold_share


@dataclass(frozen=True)
class GuardVerdict:
    """What the missing-entries guard makes of a round as its entries stand now (the GM's dashboard shows it)."""

    missing: int
    joined: int
    hold_share: float
    #: The guard already held this round for its current deadline (it holds once: a release resolves it).
    spent: bool
    #: The scheduler would hold the round, were its deadline now: it takes entries or waits to resolve, the guard is
    #: not spent and too many entries are missing.
    would_hold: bool
    #: Closed with every joined character's entry in, in a campaign that resolves such a round at once (policy
    #: `resolve_when_complete`): the scheduler's next pass resolves it, its deadline not waited for.
    resolves_now: bool = False


def _share_and_policies(scenario_id: int) -> tuple[float, dict[str, Any]]:
    """The guard's `hold_share` and the policies of the scenario's campaign."""
    return (
        Campaign.select(Campaign.hold_share, Campaign.policies)
        .join(Scenario)
        .where(Scenario.id == scenario_id)
        .tuples()
        .get()
    )


def guard_verdict(round_id: int) -> GuardVerdict:
    """The guard's verdict on a round as it stands, changing nothing (`guard` is what acts at the deadline)."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    missing, joined = missing_entries(rnd.id, rnd.scenario_id)
    share, policies = _share_and_policies(rnd.scenario_id)
    spent = rnd.guard_held_at is not None
    would = rnd.state in (OPEN, CLOSED) and not spent and too_many_missing(missing, joined, share)
    now = rnd.state == CLOSED and missing == 0 and policy(policies, "resolve_when_complete")
    return GuardVerdict(missing, joined, share, spent, would, resolves_now=now)


@dataclass(frozen=True)
class MissingEntry:
    """A joined, living character without an entry: its id, its name as stored and its player's name."""

    character_id: int
    character: str
    player: str


@dataclass(frozen=True)
class MoveRisk:
    """What an irreversible move of the GM's (resolve now, cancel, publish) does to a round as it stands: the console
    asks the GM to confirm it first when the deadline lies ahead or entries are missing (`asks`)."""

    #: The joined, living characters without an entry, in the order they joined.
    missing: list[MissingEntry]
    joined: int
    #: Before the deadline; None once it has passed.
    time_left: timedelta | None
    #: The campaign publishes resolved rounds by itself (a round resolved by hand still waits for the GM).
    auto_publish: bool
    #: Resolving now, the guard would hold the round for the GM (too many entries missing, the guard not spent).
    would_hold: bool

    @property
    def asks(self) -> bool:
        return bool(self.missing) or self.time_left is not None


def move_risk(round_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> MoveRisk:
    """The risk of an irreversible move on the round now, changing nothing. The campaign's GMs only."""
    require_round_gm(round_id, actor_id)
    rnd = get_or_fail(Round, round_id, N_("round"))
    ids, joined = missing_characters(rnd.id, rnd.scenario_id)
    found = {c.id: c for c in Character.select(Character, User).join(User).where(Character.id.in_(ids))}
    missing = [MissingEntry(c.id, c.name, c.owner.display_name or c.owner.name) for c in map(found.get, ids) if c]
    share, policies = _share_and_policies(rnd.scenario_id)
    left = rnd.deadline - to_db(clock.now())
    spent = rnd.guard_held_at is not None
    would = rnd.state in (OPEN, CLOSED) and not spent and too_many_missing(len(missing), joined, share)
    return MoveRisk(
        missing=missing,
        joined=joined,
        time_left=left if left > timedelta(0) else None,
        auto_publish=policy(policies, "publish_automatically"),
        would_hold=would,
    )


def resolve_by_hand(
    round_id: int, *, anyway: bool = False, actor_id: int | None = None, clock: Clock = SYSTEM
) -> ResolveOutcome:
    """The GM's resolve-now: the missing-entries guard applies as at the deadline (the round is held for the GM,
    outcome "held") unless the GM chose to resolve `anyway`; a round resolved so waits for the GM's review even
    when its campaign publishes automatically."""
    require_round_gm(round_id, actor_id)
    if not anyway and guard(round_id, clock=clock, actor_id=actor_id, early=True):
        return ResolveOutcome(round_id, "held", f"round {round_id} is held: too many entries are missing")
    return resolve_round(round_id, actor_id=actor_id, clock=clock, by_hand=True)


def to_publish() -> list[int]:
    """Resolved rounds of campaigns whose policy `publish_automatically` is on."""
    query = (
        Round.select(Round.id, Campaign.policies)
        .join(Scenario)
        .join(Campaign)
        .where(Round.state == RESOLVED)
        .order_by(Round.id)
        .tuples()
    )
    due = [rid for rid, policies in list(query) if policy(policies, "publish_automatically")]
    waiting = refused_since_edit(due) | _resolved_by_hand(due)
    return [rid for rid in due if rid not in waiting]


def _resolved_by_hand(round_ids: list[int]) -> set[int]:
    """The rounds resolved by a hand (`resolve_round(by_hand=True)`, said in its audit line): they wait for their
    GMs' review, never published by the scheduler."""
    if not round_ids:
        return set()
    targets = {f"round:{rid}": rid for rid in round_ids}
    resolved = (
        AuditLog.select(AuditLog.target, AuditLog.detail)
        .where(AuditLog.action == "round.resolve", AuditLog.target.in_(list(targets)))
        .tuples()
    )
    return {targets[target] for target, detail in resolved if (detail or {}).get("by_hand")}


def refused_since_edit(round_ids: list[int]) -> set[int]:
    """The rounds whose automatic publication the leak check refused since their report last changed: they wait
    for their GMs (`publishing.publish_automatically`), and the GMs' 要対応 panel says so (`desk.needs`)."""
    if not round_ids:
        return set()
    targets = {f"round:{rid}": rid for rid in round_ids}
    refused = (
        AuditLog.select(AuditLog.target, fn.MAX(AuditLog.at))
        .where(AuditLog.action == "round.publish_refused", AuditLog.target.in_(list(targets)))
        .group_by(AuditLog.target)
        .tuples()
    )
    edited = dict(Report.select(Report.round, Report.updated_at).where(Report.round.in_(round_ids)).tuples())
    return {targets[target] for target, at in refused if at >= edited[targets[target]]}


def overdue(after: float, *, clock: Clock = SYSTEM) -> list[int]:
    """Open or closed rounds more than `after` seconds past their deadline: the scheduler is not keeping up (or not
    running, or a round ahead of them in their scenario waits for the GM)."""
    since = to_db(clock.now()) - timedelta(seconds=after)
    query = Round.select(Round.id).where(Round.state.in_((OPEN, CLOSED)), Round.deadline < since).order_by(Round.id)
    return [r.id for r in query]
