"""A scenario's roster in the GM's hands: who applied, who joined, who waits, by name, with the lottery's draw; and
the GM's moves on it — accept, waitlist, reject a sign-up, remove a joined character — each in one transaction,
audited (`scenario.roster`) and told to the player (`roster.<move>` in the notifications outbox).

A roster changes only between rounds: while a round of the scenario is open, closed, held, quarantined or resolved
and not published, every move is refused. Once the scenario is under way (a round was opened), its joined
characters are on its map: nobody joins, nobody joined leaves by the roster (a GM action takes a unit off the map);
applicants and the waitlist may still be turned down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbp.db import retried, write_transaction
from pbp.errors import N_, Conflict, InvalidState, Text, UserError
from pbp.models import AuditLog, Character, Participation, Round, Scenario, User
from pbp.services import audit, gms, notifications
from pbp.services._common import get_or_fail, locked
from pbp.services.authoring import started
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.rounds import CLOSED, HELD, OPEN, QUARANTINED, RESOLVED, state_word
from pbp.services.scenarios import APPLIED, JOINED, WAITLISTED, lottery_order, waitlist

ACCEPT, WAITLIST, REJECT, REMOVE = "accept", "waitlist", "reject", "remove"
#: Each move: the statuses it applies to, and the status it leaves (None: the sign-up is gone).
MOVES: dict[str, tuple[tuple[str, ...], str | None]] = {
    ACCEPT: ((APPLIED, WAITLISTED), JOINED),
    WAITLIST: ((APPLIED, JOINED), WAITLISTED),
    REJECT: ((APPLIED, WAITLISTED), None),
    REMOVE: ((JOINED,), None),
}
#: The round states during which the roster is frozen: the round is being played or waits for its publication.
RUNNING = (OPEN, CLOSED, HELD, QUARANTINED, RESOLVED)
_ORDER = {JOINED: 0, APPLIED: 1, WAITLISTED: 2}


@dataclass(frozen=True)
class Member:
    """A signed-up character: its id and name, its player's name, its status and whether it lives."""

    character_id: int
    character: str
    player: str
    status: str
    alive: bool
    signed_at: datetime


@dataclass(frozen=True)
class Lottery:
    """The sign-up's lottery, as drawn: its seed (public), the free slots, and the applicants in the draw's order
    (`scenarios.lottery_order`): the first `free_slots` joined."""

    seed: str
    free_slots: int
    drawn: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Roster:
    """A scenario's roster: its members (joined, then applicants, then the waitlist in its order), the lottery if
    one was drawn, the round that freezes it (its number; None when none runs) and whether it is under way."""

    members: list[Member]
    slots: int
    lottery: Lottery | None
    running: int | None
    under_way: bool

    @property
    def joined(self) -> int:
        return sum(m.status == JOINED for m in self.members)


def _running(scenario_id: int) -> Round | None:
    return (
        Round.select(Round.number, Round.state)
        .where(Round.scenario == scenario_id, Round.state.in_(RUNNING))
        .order_by(Round.number)
        .first()
    )


def _lottery(scenario: Scenario) -> Lottery | None:
    """The lottery as its audit line has it (the seed, the applicants it drew from, the free slots)."""
    if not scenario.lottery_seed:
        return None
    line = (
        AuditLog.select(AuditLog.detail)
        .where(AuditLog.action == "scenario.lottery", AuditLog.target == f"scenario:{scenario.id}")
        .order_by(AuditLog.id.desc())
        .first()
    )
    detail = line.detail if line is not None else {}
    applicants = [int(cid) for cid in detail.get("applicants") or []]
    drawn = lottery_order(scenario.lottery_seed, applicants)
    return Lottery(scenario.lottery_seed, int(detail.get("free_slots") or 0), drawn)


def roster_of(scenario_id: int, *, actor_id: int | None) -> Roster:
    """The scenario's roster (a fixed handful of queries). The campaign's GMs only."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    rows = list(
        Participation.select(Participation, Character.id, Character.name, Character.alive, User.name, User.display_name)
        .join(Character)
        .join(User)
        .where(Participation.scenario == scenario_id)
        .order_by(Participation.id)
    )
    queue = {cid: place for place, cid in enumerate(waitlist(scenario))}
    members = [
        Member(
            p.character_id,
            p.character.name,
            p.character.owner.display_name or p.character.owner.name,
            p.status,
            p.character.alive,
            p.created_at,
        )
        for p in rows
    ]
    members.sort(key=lambda m: (_ORDER.get(m.status, 3), queue.get(m.character_id, 0)))
    running = _running(scenario_id)
    return Roster(
        members, scenario.slots, _lottery(scenario), running.number if running else None, started(scenario_id)
    )


@retried
def change(scenario_id: int, character_id: int, move: str, *, actor_id: int | None, clock: Clock = SYSTEM) -> None:
    """The GM's move on one sign-up (`MOVES`): refused, nothing changed, while a round runs, for a joined character
    once the scenario is under way, for a status the move does not apply to, for a dead character or a full
    scenario (accept). The player is told. The campaign's GMs only."""
    if move not in MOVES:
        raise UserError(N_("unknown roster move %(move)r", move=move), "action")
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        scenario = locked(Scenario, scenario_id, N_("scenario"))
        running = _running(scenario_id)
        if running is not None:
            raise InvalidState(
                N_(
                    "round %(number)s of %(scenario)s is %(state)s: the roster changes only between rounds",
                    number=running.number,
                    scenario=scenario.title,
                    state=state_word(running.state),
                ),
                "action",
            )
        signup = (
            Participation.select(Participation, Character)
            .join(Character)
            .where(Participation.scenario == scenario_id, Participation.character == character_id)
            .first()
        )
        if signup is None:
            raise InvalidState(N_("character %(id)s has not signed up for this scenario", id=character_id), "action")
        name = signup.character.name
        applies, after = MOVES[move]
        if signup.status not in applies:
            raise Conflict(_not_for(move, name), "action")
        if (after == JOINED or signup.status == JOINED) and started(scenario_id):
            raise InvalidState(
                N_(
                    "%(scenario)s is under way: its joined characters are on its map, so nobody joins or leaves"
                    " by the roster (a GM action takes a unit off the map)",
                    scenario=scenario.title,
                ),
                "action",
            )
        if after == JOINED:
            _refuse_joining(scenario, signup.character)
        if after is None:
            Participation.delete().where(Participation.id == signup.id).execute()
        else:
            Participation.update(status=after).where(Participation.id == signup.id).execute()
        audit.log("scenario.roster", f"scenario:{scenario_id}", now, actor_id=actor_id, character=character_id,
                  move=move, was=signup.status)  # fmt: skip
        notifications.queue(
            f"roster.{move}",
            now,
            users=[signup.character.owner_id],
            scenario=scenario.title,
            character=name,
            campaign=scenario.campaign.slug,
            page=f"/campaigns/{scenario.campaign.slug}/scenarios/{scenario.slug}/",
        )


def _not_for(move: str, name: str) -> Text:
    """Why `move` does not apply to the sign-up (each move applies to all statuses but one kind)."""
    if move == ACCEPT:
        return N_("%(name)s has joined already", name=name)
    if move == WAITLIST:
        return N_("%(name)s is on the waitlist already", name=name)
    if move == REJECT:
        return N_("%(name)s has joined: remove them instead", name=name)
    return N_("%(name)s has not joined: reject the sign-up instead", name=name)


def _refuse_joining(scenario: Scenario, character: Character) -> None:
    """Accepting: refused for a dead character and when every slot is taken."""
    if not character.alive:
        raise InvalidState(N_("%(name)s is dead", name=character.name), "action")
    joined = Participation.select().where(Participation.scenario == scenario.id, Participation.status == JOINED)
    if joined.count() >= scenario.slots:
        raise Conflict(
            N_("all %(slots)d slots of %(scenario)s are taken", slots=scenario.slots, scenario=scenario.title),
            "action",
        )
