"""Joining scenarios. Without a sign-up deadline, characters join while slots last. With one, everyone who signs up
before it is an applicant; at the deadline all join if they fit in the slots still free, else a seeded lottery picks
who does (the seed and the draw are logged, so anyone can recompute it); after it, free slots go first come, first
served. Once a round of the scenario is resolved, nobody joins any more."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any

import peewee

from pbp.db import retried, write_transaction
from pbp.errors import N_, Conflict, Forbidden, InvalidState, UserError
from pbp.models import Campaign, Character, Participation, Round, Scenario, ScenarioSecret
from pbp.services import audit, gms, notifications
from pbp.services._common import get_or_fail, locked
from pbp.services.clock import SYSTEM, Clock, local_text, to_db
from pbp.services.rounds import PUBLISHED, RESOLVED, policy

JOINED, APPLIED, WAITLISTED = "joined", "applied", "waitlisted"


def lottery_order(seed: str, character_ids: list[int]) -> list[int]:
    """The lottery's draw: applicants sorted by sha256(seed:character id). Public, so anyone can redo it."""
    return sorted(character_ids, key=lambda cid: hashlib.sha256(f"{seed}:{cid}".encode()).hexdigest())


@retried
def join_scenario(scenario_id: int, character_id: int, *, user_id: int, clock: Clock = SYSTEM) -> Participation:
    """Sign a character up: an applicant before the sign-up deadline, joined while slots last otherwise, then on
    the waitlist (a freed slot goes to it in turn, `leave_scenario`); never once a round of the scenario is resolved
    (see `resolved_round`)."""
    now = to_db(clock.now())
    with write_transaction():
        # The scenario and the character as they are now, the scenario locked: a sign-up closed, a deadline changed,
        # a slot taken or a death since a read outside would strand an applicant or overfill the slots.
        scenario, character = _locked_with_own(scenario_id, character_id, user_id)
        if character.campaign_id != scenario.campaign_id:
            raise Forbidden(N_("%(name)s belongs to another campaign", name=character.name))
        if not character.alive:
            raise InvalidState(N_("%(name)s is dead", name=character.name))
        already = Conflict(
            N_("%(name)s has already signed up for %(scenario)s", name=character.name, scenario=scenario.title)
        )
        if signup_of(scenario_id, character_id) is not None:
            raise already
        campaign = Campaign.get_by_id(scenario.campaign_id)
        if not policy(campaign.policies, "several_pcs_per_player"):
            _one_character_per_player(scenario, character)
        started = resolved_round(scenario_id)
        if started is not None:
            raise InvalidState(
                N_(
                    "%(scenario)s is under way (round %(round)s is resolved): a character who joins now would not be"
                    " on its map, so it takes no new characters",
                    scenario=scenario.title,
                    round=started,
                )
            )
        lottery_pending = scenario.signup_deadline is not None and scenario.signup_closed_at is None
        if lottery_pending and now >= scenario.signup_deadline:
            tz = campaign.timezone
            raise InvalidState(
                N_("sign-up closed at %(at)s; the lottery is pending", at=local_text(scenario.signup_deadline, tz))
            )
        # A full scenario takes the character on its waitlist: a freed slot goes to it in turn.
        free = _count(scenario_id, JOINED) < scenario.slots
        status = APPLIED if lottery_pending else JOINED if free else WAITLISTED
        try:
            return Participation.create(scenario=scenario_id, character=character_id, status=status, created_at=now)
        except peewee.IntegrityError:  # the unique (scenario, character) index: a sign-up committed meanwhile
            raise already from None


def _one_character_per_player(scenario: Scenario, character: Character) -> None:
    """R-PLAY-2, R-FIX-18: a player takes part in a scenario with one character (a living one signed up: joined,
    applied or waitlisted), unless the campaign's `several_pcs_per_player` setting allows more."""
    other = (
        Character.select(Character.name)
        .join(Participation)
        .where(
            Participation.scenario == scenario.id,
            Character.owner == character.owner_id,
            Character.id != character.id,
            Character.alive,
        )
        .first()
    )
    if other is not None:
        raise UserError(
            N_(
                "you already take part in %(scenario)s with %(name)s: one player, one character per scenario"
                " (the GM may allow more with the campaign setting several_pcs_per_player)",
                scenario=scenario.title,
                name=other.name,
            )
        )


def scenario_checks(scenario: Scenario) -> list[dict[str, Any]]:
    """The checks the scenario offers (R-GM-2): id, skill, need and what they mean, from its setup."""
    secret = ScenarioSecret.select(ScenarioSecret.setup).where(ScenarioSecret.scenario == scenario.id).get()
    setup = secret.setup or {}  # only the setup: the starting encounter beside it can hold hundreds of units
    return [c for c in setup.get("checks") or [] if isinstance(c, dict) and "id" in c]


def _locked_with_own(scenario_id: int, character_id: int, user_id: int) -> tuple[Scenario, Character]:
    """The scenario locked inside the caller's write transaction, and the user's own character (Forbidden when it
    is someone else's): where a sign-up changes, both as they are now."""
    scenario = locked(Scenario, scenario_id, N_("scenario"))
    character = get_or_fail(Character, character_id, N_("character"))
    if character.owner_id != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
    return scenario, character


def signup_of(scenario_id: int, character_id: int) -> Participation | None:
    """The character's sign-up for the scenario, if any."""
    return Participation.get_or_none(Participation.scenario == scenario_id, Participation.character == character_id)


def resolved_round(scenario_id: int) -> int | None:
    """The number of the scenario's first resolved (or published) round, None before. From then on every round
    starts from the previous round's resolution, so a character who joins later is not on the map and each of its
    entries is refused: neither a join nor the lottery admits anyone then."""
    first = (
        Round.select(Round.number)
        .where(Round.scenario == scenario_id, Round.state.in_((RESOLVED, PUBLISHED)))
        .order_by(Round.number)
        .first()
    )
    return first.number if first else None


def _count(scenario_id: int, status: str) -> int:
    return Participation.select().where(Participation.scenario == scenario_id, Participation.status == status).count()


@retried
def close_signup(scenario_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> list[int]:
    """At the sign-up deadline: applicants join, by a seeded lottery when there are more than free slots (the draw
    is `lottery_order(seed, applicants)[:free_slots]`, all logged); the rest are waitlisted. Returns the ids of the
    characters who joined; closing an already closed sign-up changes nothing. The campaign's GMs (or the
    scheduler, the operator) only."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        if (
            Scenario.update(signup_closed_at=now)
            .where(Scenario.id == scenario_id, Scenario.signup_closed_at.is_null())
            .execute()
            != 1
        ):
            return []
        signed = (
            Participation.select(Participation.character, Character.alive)
            .join(Character)
            .where(Participation.scenario == scenario_id, Participation.status == APPLIED)
            .order_by(Participation.id)
            .tuples()
        )
        applicants, fallen = [], []  # R-GAUGE-7: a character who died since signing up takes no slot
        for cid, alive in signed:
            (applicants if alive else fallen).append(cid)
        # Only the slots nobody holds yet (characters may have joined before the GM set the deadline), and none once
        # a round is resolved (see `resolved_round`).
        free = 0 if resolved_round(scenario_id) is not None else max(scenario.slots - _count(scenario_id, JOINED), 0)
        seed = secrets.token_hex(32) if 0 < free < len(applicants) else None
        drawn = lottery_order(seed, applicants) if seed else applicants
        chosen, rest = drawn[:free], drawn[free:] + fallen
        if seed:
            Scenario.update(lottery_seed=seed).where(Scenario.id == scenario_id).execute()
        for status, ids in ((JOINED, chosen), (WAITLISTED, rest)):
            if ids:
                Participation.update(status=status).where(
                    Participation.scenario == scenario_id, Participation.character.in_(ids)
                ).execute()
                _tell_signups(scenario, status, ids, now)
        audit.log(
            "scenario.lottery" if seed else "scenario.signup_closed",
            f"scenario:{scenario_id}",
            now,
            actor_id=actor_id,
            seed=seed,
            applicants=sorted(applicants),
            dead=sorted(fallen),
            free_slots=free,
            joined=chosen,
        )
    return chosen


def _tell_signups(scenario: Scenario, status: str, character_ids: list[int], now: datetime) -> None:
    """Each applicant's player hears how the sign-up ended for their character (`signup.joined`/`waitlisted`)."""
    campaign = scenario.campaign.slug
    page = f"/campaigns/{campaign}/scenarios/{scenario.slug}/"
    for character in Character.select(Character.id, Character.name, Character.owner).where(
        Character.id.in_(character_ids)
    ):
        notifications.queue(
            f"signup.{status}",
            now,
            users=[character.owner_id],
            scenario=scenario.title,
            campaign=campaign,
            character=character.name,
            page=page,
        )


def waitlist(scenario: Scenario) -> list[int]:
    """The waitlisted characters in the order a freed slot reaches them: those the lottery left out in its draw's
    order (`lottery_order` with the published seed), then later sign-ups first come, first served."""
    rows = list(
        Participation.select(Participation.character, Participation.created_at)
        .where(Participation.scenario == scenario.id, Participation.status == WAITLISTED)
        .order_by(Participation.id)
        .tuples()
    )
    drawn = [cid for cid, at in rows if scenario.signup_closed_at is not None and at < scenario.signup_closed_at]
    if scenario.lottery_seed:
        drawn = lottery_order(scenario.lottery_seed, drawn)
    return drawn + [cid for cid, _ in rows if cid not in drawn]


def _fill_from_waitlist(scenario: Scenario, now: datetime, actor_id: int | None) -> list[int]:
    """Give the free slots to the waitlist in its order, inside the caller's transaction; the dead are passed over
    (R-GAUGE-7). Nobody is admitted once a round is resolved (see `resolved_round`)."""
    if resolved_round(scenario.id) is not None:
        return []
    free = scenario.slots - _count(scenario.id, JOINED)
    queue = waitlist(scenario)
    alive = {c.id for c in Character.select(Character.id).where(Character.id.in_(queue), Character.alive == True)}  # noqa: E712
    admitted = [cid for cid in queue if cid in alive][: max(free, 0)]
    if admitted:
        Participation.update(status=JOINED).where(
            Participation.scenario == scenario.id, Participation.character.in_(admitted)
        ).execute()
        audit.log("scenario.waitlist", f"scenario:{scenario.id}", now, actor_id=actor_id, joined=admitted)
    return admitted


@retried
def leave_scenario(scenario_id: int, character_id: int, *, user_id: int, clock: Clock = SYSTEM) -> list[int]:
    """Take a character's sign-up back (applied, waitlisted or joined) until the scenario is under way; a slot it
    frees goes to the waitlist in order. Returns the characters that freed slot admitted."""
    now = to_db(clock.now())
    with write_transaction():
        scenario, character = _locked_with_own(scenario_id, character_id, user_id)
        signup = signup_of(scenario_id, character_id)
        if signup is None:
            raise InvalidState(
                N_("%(name)s has not signed up for %(scenario)s", name=character.name, scenario=scenario.title)
            )
        started = resolved_round(scenario_id)
        if started is not None and signup.status == JOINED:
            raise InvalidState(
                N_(
                    "%(scenario)s is under way (round %(round)s is resolved): %(name)s is on its map, so only the GM"
                    " can take them out",
                    scenario=scenario.title,
                    round=started,
                    name=character.name,
                )
            )
        Participation.delete().where(Participation.id == signup.id).execute()
        audit.log(
            "scenario.leave",
            f"scenario:{scenario_id}",
            now,
            actor_id=user_id,
            character=character_id,
            was=signup.status,
        )
        return _fill_from_waitlist(scenario, now, user_id) if signup.status == JOINED else []


def due_signups(*, clock: Clock = SYSTEM) -> list[int]:
    """Scenarios whose sign-up deadline passed and whose sign-up is still open (the scheduler closes them)."""
    now = to_db(clock.now())
    return [
        s.id
        for s in Scenario.select(Scenario.id).where(
            Scenario.signup_deadline <= now, Scenario.signup_closed_at.is_null()
        )
    ]


@retried
def set_signup_deadline(
    scenario_id: int, deadline: datetime | None, *, actor_id: int | None = None, clock: Clock = SYSTEM
) -> Scenario:
    """The GM sets (or clears) the sign-up deadline of a scenario whose sign-up is still open. Clearing it is refused
    while applicants wait: without a deadline no lottery would ever pick them."""
    now = to_db(clock.now())
    stored = to_db(deadline) if deadline else None
    with write_transaction():
        # Locked: no join or close slips in between the checks and the update.
        scenario = locked(Scenario, scenario_id, N_("scenario"))
        if scenario.signup_closed_at is not None:
            raise InvalidState(N_("the sign-up of %(scenario)s is already closed", scenario=scenario.title))
        waiting = _count(scenario_id, APPLIED) if stored is None else 0
        if waiting:
            raise UserError(
                N_(
                    "%(count)d applicant(s) wait for the lottery of %(scenario)s, which needs a deadline: move the"
                    " deadline instead of clearing it (to now for the lottery at the scheduler's next tick)",
                    count=waiting,
                    scenario=scenario.title,
                ),
                "deadline",
            )
        Scenario.update(signup_deadline=stored).where(Scenario.id == scenario_id).execute()
        audit.log("scenario.signup_deadline", f"scenario:{scenario_id}", now, actor_id=actor_id, deadline=str(stored))
    return Scenario.get_by_id(scenario_id)
