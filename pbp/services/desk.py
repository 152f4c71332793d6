"""What needs the GM now (要対応): the console's panel at the top of `/gm/` and of each campaign's page, read in a
fixed set of queries whatever the number of campaigns, scenarios and rounds (no query per row).

In the order of urgency: held rounds (they wait for the GM's release), rounds waiting for review, rounds whose
automatic publication the leak check refused, quarantined rounds, open rounds whose deadline is within
`DEADLINE_SOON` with entries missing, sign-ups with applicants whose deadline (the lottery) is within
`DEADLINE_SOON` or past, growth requests waiting for a decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from peewee import fn

from pbp.models import Campaign, CampaignGM, Character, Entry, GrowthRequest, Participation, Round, Scenario
from pbp.services import rounds
from pbp.services.authoring import NOT_STARTED
from pbp.services.clock import SYSTEM, Clock, local_text, to_db

#: How near a deadline must be for its missing entries (or its sign-up) to need the GM.
DEADLINE_SOON = timedelta(hours=24)
#: The kinds of need, most urgent first: the panel lists them in this order.
KINDS = ("held", "review", "publish_refused", "quarantined", "deadline", "signup", "growth")


@dataclass(frozen=True)
class Need:
    """One thing the GM should do: its kind (`KINDS`), where (campaign; scenario and round when it has them) and the
    numbers the panel says (missing/joined entries, applicants and slots, growth requests)."""

    kind: str
    campaign: Campaign
    scenario: Scenario | None = None
    round_id: int | None = None
    round_number: int | None = None
    #: The round's deadline or the sign-up's, as the campaign shows times (None: none set).
    deadline: str | None = None
    #: Entries missing of the joined characters (deadline); applicants and slots (signup); requests (growth).
    count: int = 0
    of: int = 0


def _campaigns(actor_id: int, campaign_id: int | None) -> dict[int, Campaign]:
    """The campaigns the actor runs (only `campaign_id`'s when given), without their packs."""
    query = (
        Campaign.select(Campaign.id, Campaign.slug, Campaign.name, Campaign.timezone)
        .join(CampaignGM)
        .where(CampaignGM.user == actor_id)
        .order_by(Campaign.name, Campaign.id)
    )
    if campaign_id is not None:
        query = query.where(Campaign.id == campaign_id)
    return {c.id: c for c in query}


def needs(actor_id: int, campaign_id: int | None = None, *, clock: Clock = SYSTEM) -> list[Need]:
    """What needs the GM `actor_id` in the campaigns they run (in one campaign, `campaign_id`), most urgent first;
    within a kind, the nearest deadline (then the oldest round) first. A campaign they do not run shows nothing."""
    campaigns = _campaigns(actor_id, campaign_id)
    if not campaigns:
        return []
    now = to_db(clock.now())
    soon = now + DEADLINE_SOON
    scenarios = {
        s.id: s
        for s in Scenario.select(
            Scenario.id, Scenario.campaign, Scenario.slug, Scenario.title, Scenario.pack_scenario, Scenario.slots,
            Scenario.signup_deadline, Scenario.signup_closed_at,
        ).where(Scenario.campaign.in_(list(campaigns)))
    }  # fmt: skip
    waiting = (rounds.HELD, rounds.RESOLVED, rounds.QUARANTINED)
    listed = list(
        Round.select(Round.id, Round.scenario, Round.number, Round.state, Round.deadline)
        .where(
            Round.scenario.in_(list(scenarios)),
            Round.state.in_(waiting) | ((Round.state == rounds.OPEN) & (Round.deadline <= soon)),
        )
        .order_by(Round.deadline, Round.id)
    )
    refused = rounds.refused_since_edit([r.id for r in listed if r.state == rounds.RESOLVED])
    due = [r for r in listed if r.state == rounds.OPEN]
    missing = _missing_entries(due)
    found: list[Need] = []

    def need(kind: str, rnd: Round, **numbers: int) -> Need:
        scenario = scenarios[rnd.scenario_id]
        campaign = campaigns[scenario.campaign_id]
        when = local_text(rnd.deadline, campaign.timezone)
        return Need(kind, campaign, scenario, rnd.id, rnd.number, when, **numbers)

    for rnd in listed:
        if rnd.state == rounds.HELD:
            found.append(need("held", rnd))
        elif rnd.state == rounds.RESOLVED:
            found.append(need("publish_refused" if rnd.id in refused else "review", rnd))
        elif rnd.state == rounds.QUARANTINED:
            found.append(need("quarantined", rnd))
        elif missing.get(rnd.id, (0, 0))[0]:
            lacking, joined = missing[rnd.id]
            found.append(need("deadline", rnd, count=lacking, of=joined))
    found += _signups(scenarios, campaigns, now, soon)
    found += _growth(campaigns)
    return sorted(found, key=lambda n: KINDS.index(n.kind))  # stable: each kind keeps its deadline order


def _missing_entries(due: list[Round]) -> dict[int, tuple[int, int]]:
    """For each round, how many of its scenario's joined, living characters have no entry, and how many there are
    (`rounds.missing_entries`, for many rounds in two grouped queries)."""
    if not due:
        return {}
    joined = dict(
        Participation.select(Participation.scenario, fn.COUNT(Participation.id))
        .join(Character)
        .where(
            Participation.scenario.in_({r.scenario_id for r in due}),
            Participation.status == "joined",
            Character.alive == True,  # noqa: E712  (peewee builds SQL from the comparison)
        )
        .group_by(Participation.scenario)
        .tuples()
    )
    joined_here = (Participation.scenario == Round.scenario) & (Participation.character == Entry.character)
    entered = dict(
        Entry.select(Entry.round, fn.COUNT(Entry.id))
        .join(Round)
        .join(Participation, on=joined_here)
        .join(Character, on=(Character.id == Entry.character))
        .where(Entry.round.in_([r.id for r in due]), Participation.status == "joined", Character.alive == True)  # noqa: E712
        .group_by(Entry.round)
        .tuples()
    )
    result = {}
    for rnd in due:
        total = joined.get(rnd.scenario_id, 0)
        result[rnd.id] = (max(total - entered.get(rnd.id, 0), 0), total)
    return result


def _signups(
    scenarios: dict[int, Scenario], campaigns: dict[int, Campaign], now: datetime, soon: datetime
) -> list[Need]:
    """Open sign-ups with applicants (there are some only while a sign-up deadline is set) whose deadline is within
    `DEADLINE_SOON` or past: the lottery is near (the scheduler draws it at the deadline; the GM may close the sign-up
    earlier, or must when no scheduler runs); never a scenario under way."""
    started = {
        sid
        for (sid,) in Round.select(Round.scenario)
        .where(Round.scenario.in_(list(scenarios)), Round.state.not_in(NOT_STARTED))
        .tuples()
    }
    applied = dict(
        Participation.select(Participation.scenario, fn.COUNT(Participation.id))
        .where(Participation.scenario.in_(list(scenarios)), Participation.status == "applied")
        .group_by(Participation.scenario)
        .tuples()
    )
    found = []
    for s in sorted(scenarios.values(), key=lambda s: (s.signup_deadline or now, s.id)):
        if s.signup_closed_at is not None or s.id in started or not applied.get(s.id):
            continue
        if s.signup_deadline is not None and s.signup_deadline <= soon:
            campaign = campaigns[s.campaign_id]
            when = local_text(s.signup_deadline, campaign.timezone)
            found.append(Need("signup", campaign, s, deadline=when, count=applied[s.id], of=s.slots))
    return found


def _growth(campaigns: dict[int, Campaign]) -> list[Need]:
    """The campaigns with growth requests waiting, and how many."""
    pending = (
        GrowthRequest.select(Character.campaign, fn.COUNT(GrowthRequest.id))
        .join(Character)
        .where(Character.campaign.in_(list(campaigns)), GrowthRequest.status == "pending")
        .group_by(Character.campaign)
        .tuples()
    )
    return [Need("growth", campaigns[cid], count=n) for cid, n in pending if n]
