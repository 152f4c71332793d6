"""Joining scenarios. Without a sign-up deadline, characters join while slots last. With one, everyone who signs up
before it is an applicant; at the deadline all join if they fit, else a seeded lottery picks who does (the seed
and the draw are logged, so anyone can recompute it); after it, free slots go first come, first served."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from pbp.db import write_transaction
from pbp.errors import UserError
from pbp.models import Campaign, Character, Participation, Scenario
from pbp.services import audit
from pbp.services._common import get_or_fail
from pbp.services.clock import SYSTEM, Clock, local_text, to_db

JOINED, APPLIED, WAITLISTED = "joined", "applied", "waitlisted"


def lottery_order(seed: str, character_ids: list[int]) -> list[int]:
    """The lottery's draw: applicants sorted by sha256(seed:character id). Public, so anyone can redo it."""
    return sorted(character_ids, key=lambda cid: hashlib.sha256(f"{seed}:{cid}".encode()).hexdigest())


def join_scenario(scenario_id: int, character_id: int, *, user_id: int, clock: Clock = SYSTEM) -> Participation:
    """Sign a character up: an applicant before the sign-up deadline, joined while slots last otherwise."""
    scenario = get_or_fail(Scenario, scenario_id, "scenario")
    character = get_or_fail(Character, character_id, "character")
    if character.owner_id != user_id:
        raise UserError(f"character {character_id} is not yours")
    if character.campaign_id != scenario.campaign_id:
        raise UserError(f"{character.name} belongs to another campaign")
    if not character.alive:
        raise UserError(f"{character.name} is dead")
    now = to_db(clock.now())
    with write_transaction():
        if Participation.get_or_none(scenario=scenario_id, character=character_id) is not None:
            raise UserError(f"{character.name} has already signed up for {scenario.title}")
        lottery_pending = scenario.signup_deadline is not None and scenario.signup_closed_at is None
        if lottery_pending and now >= scenario.signup_deadline:
            tz = Campaign.get_by_id(scenario.campaign_id).timezone
            raise UserError(f"sign-up closed at {local_text(scenario.signup_deadline, tz)}; the lottery is pending")
        if lottery_pending:
            status = APPLIED
        else:
            joined = (
                Participation.select()
                .where(Participation.scenario == scenario_id, Participation.status == JOINED)
                .count()
            )
            if joined >= scenario.slots:
                raise UserError(f"{scenario.title} has no free slot ({scenario.slots} taken)")
            status = JOINED
        return Participation.create(scenario=scenario_id, character=character_id, status=status, created_at=now)


def close_signup(scenario_id: int, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> list[int]:
    """At the sign-up deadline: applicants join, by a seeded lottery when there are more than slots. Returns the
    ids of the characters who joined; closing an already closed sign-up changes nothing."""
    scenario = get_or_fail(Scenario, scenario_id, "scenario")
    now = to_db(clock.now())
    with write_transaction():
        if (
            Scenario.update(signup_closed_at=now)
            .where(Scenario.id == scenario_id, Scenario.signup_closed_at.is_null())
            .execute()
            != 1
        ):
            return []
        applicants = [
            p.character_id
            for p in Participation.select(Participation.character).where(
                Participation.scenario == scenario_id, Participation.status == APPLIED
            )
        ]
        seed = None
        if len(applicants) > scenario.slots:
            seed = secrets.token_hex(32)
            drawn = lottery_order(seed, applicants)
            chosen, rest = drawn[: scenario.slots], drawn[scenario.slots :]
            Scenario.update(lottery_seed=seed).where(Scenario.id == scenario_id).execute()
        else:
            chosen, rest = applicants, []
        for status, ids in ((JOINED, chosen), (WAITLISTED, rest)):
            if ids:
                Participation.update(status=status).where(
                    Participation.scenario == scenario_id, Participation.character.in_(ids)
                ).execute()
        audit.log(
            "scenario.lottery" if seed else "scenario.signup_closed",
            f"scenario:{scenario_id}",
            now,
            actor_id=actor_id,
            seed=seed,
            applicants=sorted(applicants),
            joined=chosen,
        )
    return chosen


def due_signups(*, clock: Clock = SYSTEM) -> list[int]:
    """Scenarios whose sign-up deadline passed and whose sign-up is still open (the scheduler closes them)."""
    now = to_db(clock.now())
    return [
        s.id
        for s in Scenario.select(Scenario.id).where(
            Scenario.signup_deadline <= now, Scenario.signup_closed_at.is_null()
        )
    ]


def set_signup_deadline(
    scenario_id: int, deadline: datetime | None, *, actor_id: int | None = None, clock: Clock = SYSTEM
) -> Scenario:
    """The GM sets (or clears) the sign-up deadline of a scenario whose sign-up is still open."""
    scenario = get_or_fail(Scenario, scenario_id, "scenario")
    if scenario.signup_closed_at is not None:
        raise UserError(f"the sign-up of {scenario.title} is already closed")
    now = to_db(clock.now())
    stored = to_db(deadline) if deadline else None
    with write_transaction():
        Scenario.update(signup_deadline=stored).where(Scenario.id == scenario_id).execute()
        audit.log("scenario.signup_deadline", f"scenario:{scenario_id}", now, actor_id=actor_id, deadline=str(stored))
    return Scenario.get_by_id(scenario_id)
