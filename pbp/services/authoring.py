"""Scenarios the GM writes in the console, by form or by importing a scenario TOML, and edits before its first round.

A console scenario is a scenario entry of the campaign's pack like any other (docs/campaign-packs.md,
`[scenarios.<id>]`): it is validated by the ruleset's own pack checks, stored in the campaign's pack under
`scenarios.<slug>` (so rounds, the data pages and the narrator find it exactly as they find a pack scenario) and
marked `source = console`, so upgrading the pack from its folder carries it over. Its GM notes go to the secret
table like a pack scenario's, where the leak check reads them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from peewee import fn

from pbp import packs
from pbp.db import retried, write_transaction
from pbp.engine import Problem, find_ruleset
from pbp.errors import N_, Conflict, InvalidState, UserError
from pbp.models import Campaign, Participation, Round, Scenario, ScenarioSecret
from pbp.services import audit, gms, secret_terms
from pbp.services._common import get_or_fail, locked
from pbp.services.campaigns import add_scenario, scenario_taken
from pbp.services.clock import SYSTEM, Clock, local_text, to_db
from pbp.text import non_text, unfit_to_show

PACK, CONSOLE = "pack", "console"
#: Characters of a pasted or uploaded scenario TOML.
TOML_LIMIT = 100_000
#: Round states before a scenario's first round is under way: until then its setup may change.
NOT_STARTED = ("draft", "cancelled")


class ScenarioProblems(UserError):
    """A scenario refused with every problem found, each naming its key (`enemies[0].type`, or in an imported
    file `scenarios.<id>.enemies[0].type`); nothing was changed."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def problems_of(pack: dict[str, Any], slug: str, spec: Any, *, prefix: str = "") -> list[Problem]:
    """Every problem of scenario `spec` under slug `slug` in `pack`, by the ruleset's pack checks; each path starts
    with `prefix` (empty: relative to the scenario, as the form names its fields)."""
    problems = []
    if not (isinstance(slug, str) and packs.SLUG.match(slug)):
        problems.append(
            Problem(
                prefix.rstrip(".") or "slug",
                N_("'%(slug)s' is not a scenario id (%(rule)s)", slug=slug, rule=N_(packs.SLUG_RULE)),
            )
        )
    own = f"scenarios.{slug}"
    trial = {**pack, "scenarios": {slug: spec}}
    for p in find_ruleset(str(pack["campaign"]["ruleset"])).validate_pack(trial):
        if p.path == own or p.path.startswith((f"{own}.", f"{own}[")):
            problems.append(replace(p, path=prefix + p.path[len(own) + 1 :] if p.path != own else prefix.rstrip(".")))
    problems += [Problem(prefix + at, N_("%(problem)s: not text", problem=why)) for at, why in sorted(non_text(spec))]
    problems += [Problem(prefix + at, why) for at, why in sorted(unfit_to_show(spec))]
    return problems


def parse_scenarios(text: str) -> tuple[dict[str, Any], list[Problem]]:
    """The scenarios of a scenario TOML (`[scenarios.<id>]` tables, the pack's format) and the file's own problems
    (another top-level key); ScenarioProblems when there is nothing to check further (syntax, size, no scenario)."""
    if len(text) > TOML_LIMIT:
        raise ScenarioProblems(
            [
                Problem(
                    "", N_("has %(count)d characters, over the limit of %(limit)d", count=len(text), limit=TOML_LIMIT)
                )
            ]
        )
    parsed, problem = packs.parse_toml(text, "")
    if problem is not None:
        raise ScenarioProblems([replace(problem, file=None)])  # its template kept: the page says it in its language
    problems = [Problem(key, N_("unknown top-level key (a scenario file holds [scenarios.<id>] tables)"))
                for key in parsed if key != "scenarios"]  # fmt: skip
    scenarios = parsed.get("scenarios")
    if not isinstance(scenarios, dict) or not scenarios:
        raise ScenarioProblems(
            [*problems, Problem("scenarios", N_("missing: write each scenario as a [scenarios.<id>] table"))]
        )
    return scenarios, problems


def _past(deadline: datetime | None, now: datetime) -> list[Problem]:
    """A sign-up deadline set in the past would close the sign-up at the scheduler's next tick: refused."""
    if deadline is not None and to_db(deadline) <= now:
        return [Problem("signup_deadline", N_("is in the past: a sign-up deadline is a time still to come"))]
    return []


def _term_problems(spec: dict[str, Any], terms: str | None) -> list[Problem]:
    """The secret-term list typed (None: not given) and the terms marked in the GM notes, each refusal as a problem
    beside its field (`secret_terms`, `gm_notes`)."""
    notes = str(spec.get("gm_notes") or "")
    checks = [lambda: secret_terms.marked_terms(notes, strict=True)]
    if terms is not None:
        checks.append(lambda: secret_terms.checked_terms(terms))
    problems = []
    for check in checks:
        try:
            check()
        except UserError as refusal:
            problems.append(Problem(refusal.field or "", refusal.message))
    return problems


def _taken(campaign: Campaign, slug: str) -> bool:
    """Whether a scenario of the campaign, or a scenario entry of its pack, already has this slug."""
    exists = Scenario.select().where(Scenario.campaign == campaign.id, Scenario.slug == slug).exists()
    return exists or slug in (campaign.pack.get("scenarios") or {})


def _store(campaign: Campaign, slug: str, spec: dict[str, Any], deadline: datetime | None, now: datetime) -> Scenario:
    """Inside the caller's transaction: the scenario entry into the campaign's pack, then its run (a console one)."""
    campaign.pack = {**campaign.pack, "scenarios": {**(campaign.pack.get("scenarios") or {}), slug: spec}}
    Campaign.update(pack=campaign.pack).where(Campaign.id == campaign.id).execute()
    scenario = add_scenario(campaign, slug, slug=slug, now=now, signup_deadline=deadline)
    Scenario.update(source=CONSOLE).where(Scenario.id == scenario.id).execute()
    return Scenario.get_by_id(scenario.id)


@retried
def create_scenario(
    campaign_id: int,
    slug: str,
    spec: dict[str, Any],
    *,
    signup_deadline: datetime | None = None,
    terms: str = "",
    actor_id: int | None,
    clock: Clock = SYSTEM,
) -> Scenario:
    """The GM writes a new scenario (the form's) with its secret terms (`terms`, one a line): refused with every
    problem by its key, nothing stored."""
    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    gms.require_gm(campaign_id, actor_id)
    now = to_db(clock.now())
    problems = problems_of(campaign.pack, slug, spec) + _past(signup_deadline, now) + _term_problems(spec, terms)
    if not problems and _taken(campaign, slug):
        problems.append(Problem("slug", scenario_taken(slug)))
    if problems:
        raise ScenarioProblems(problems)
    with write_transaction():
        campaign = locked(Campaign, campaign_id, N_("campaign"))  # the pack as it is now: another write may have added
        if _taken(campaign, slug):
            raise Conflict(scenario_taken(slug), "slug")
        scenario = _store(campaign, slug, spec, to_db(signup_deadline) if signup_deadline else None, now)
        listed = "\n".join(secret_terms.checked_terms(terms))
        ScenarioSecret.update(secret_terms=listed).where(ScenarioSecret.scenario == scenario.id).execute()
        audit.log("scenario.create", f"scenario:{scenario.id}", now, actor_id=actor_id, source="form", slug=slug)
    return scenario


@retried
def import_scenarios(campaign_id: int, text: str, *, actor_id: int | None, clock: Clock = SYSTEM) -> list[Scenario]:
    """The GM imports a scenario TOML (`[scenarios.<id>]` tables): every problem of every scenario by its key,
    and nothing imported unless there is none."""
    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    gms.require_gm(campaign_id, actor_id)
    found, problems = parse_scenarios(text)
    for slug, spec in found.items():
        problems += problems_of(campaign.pack, slug, spec, prefix=f"scenarios.{slug}.")
        if _taken(campaign, slug):
            problems.append(Problem(f"scenarios.{slug}", scenario_taken(slug)))
    if problems:
        raise ScenarioProblems(problems)
    now = to_db(clock.now())
    made = []
    with write_transaction():
        campaign = locked(Campaign, campaign_id, N_("campaign"))
        for slug, spec in found.items():
            if _taken(campaign, slug):
                raise Conflict(scenario_taken(slug))
            made.append(_store(campaign, slug, spec, None, now))
            audit.log("scenario.create", f"scenario:{made[-1].id}", now, actor_id=actor_id, source="toml", slug=slug)
    return made


def started(scenario_id: int) -> bool:
    """Whether a round of the scenario has gone past draft (opened, or further): its setup is then fixed."""
    return Round.select().where(Round.scenario == scenario_id, Round.state.not_in(NOT_STARTED)).exists()


@retried
def edit_scenario(
    scenario_id: int,
    spec: dict[str, Any],
    *,
    signup_deadline: datetime | None = None,
    terms: str | None = None,
    actor_id: int | None,
    clock: Clock = SYSTEM,
) -> Scenario:
    """The GM changes a console scenario before its first round opens (a pack scenario changes in its folder, then
    the pack is upgraded): the whole entry, checked like a new one; its sign-up deadline while sign-up is open; its
    secret terms (`terms`, one a line) when given (None: kept)."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    if scenario.source != CONSOLE:
        raise InvalidState(
            N_(
                "%(slug)s comes from the campaign pack: change it in the pack's folder, then upgrade the pack",
                slug=scenario.slug,
            )
        )
    campaign = Campaign.get_by_id(scenario.campaign_id)
    now = to_db(clock.now())
    deadline = to_db(signup_deadline) if signup_deadline else None
    moved = signup_deadline if deadline != scenario.signup_deadline else None
    problems = problems_of(campaign.pack, scenario.slug, spec) + _past(moved, now) + _term_problems(spec, terms)
    if problems:
        raise ScenarioProblems(problems)
    with write_transaction():
        scenario = locked(Scenario, scenario_id, N_("scenario"))
        if started(scenario_id):
            raise InvalidState(
                N_("%(scenario)s has begun (a round was opened): its setup is fixed", scenario=scenario.title)
            )
        joined = Participation.select().where(Participation.scenario == scenario_id, Participation.status == "joined")
        campaign = locked(Campaign, scenario.campaign_id, N_("campaign"))
        slots = int(spec.get("slots", campaign.pack["campaign"].get("slots", 1)))
        if joined.count() > slots:
            raise UserError(
                N_("%(count)d characters have joined, more than %(slots)d slots", count=joined.count(), slots=slots),
                "slots",
            )
        if deadline != scenario.signup_deadline and scenario.signup_closed_at is not None:
            raise InvalidState(N_("the sign-up is closed: its deadline no longer changes"), "signup_deadline")
        applied = Participation.select().where(Participation.scenario == scenario_id, Participation.status == "applied")
        if deadline is None and applied.exists():
            raise UserError(N_("applicants wait for the lottery, which needs a sign-up deadline"), "signup_deadline")
        campaign.pack = {**campaign.pack, "scenarios": {**campaign.pack["scenarios"], scenario.slug: spec}}
        Campaign.update(pack=campaign.pack).where(Campaign.id == campaign.id).execute()
        starts = spec.get("pc_starts")
        Scenario.update(
            title=spec.get("ja") or spec.get("en") or scenario.slug,
            kind=spec["kind"],
            public_text=spec.get("description", ""),
            slots=min(slots, len(starts)) if starts is not None else slots,
            signup_deadline=deadline,
        ).where(Scenario.id == scenario_id).execute()
        kept = {} if terms is None else {"secret_terms": "\n".join(secret_terms.checked_terms(terms))}
        ScenarioSecret.update(gm_notes=spec.get("gm_notes", ""), setup=spec, **kept).where(
            ScenarioSecret.scenario == scenario_id
        ).execute()
        audit.log("scenario.edit", f"scenario:{scenario_id}", now, actor_id=actor_id, slug=scenario.slug)
    return Scenario.get_by_id(scenario_id)


def spec_of(scenario: Scenario) -> dict[str, Any]:
    """The scenario's entry as stored (what the edit form starts from)."""
    setup = ScenarioSecret.get(ScenarioSecret.scenario == scenario.id).setup
    return dict(setup or {})


#: A scenario's state as the console and `pbp scenarios list` name it.
SIGNUP_OPEN, SIGNUP_CLOSED, UNDER_WAY = "signup_open", "signup_closed", "under_way"


@dataclass(frozen=True)
class Summary:
    """One scenario as listed: where it came from, its state, slots and sign-ups by status, its rounds."""

    id: int
    campaign: str
    slug: str
    title: str
    kind: str
    source: str
    state: str
    slots: int
    signups: dict[str, int]
    rounds: int
    signup_deadline: str | None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def summaries(campaign_ids: list[int] | None = None) -> list[Summary]:
    """The scenarios of the given campaigns (every campaign's for None), by campaign and slug, in three queries."""
    query = Scenario.select(Scenario, Campaign.slug, Campaign.timezone).join(Campaign)
    if campaign_ids is not None:
        query = query.where(Scenario.campaign.in_(campaign_ids))
    rows = list(query.order_by(Campaign.slug, Scenario.slug))
    ids = [s.id for s in rows]
    signups: dict[int, dict[str, int]] = {i: {"joined": 0, "applied": 0, "waitlisted": 0} for i in ids}
    counted = (
        Participation.select(Participation.scenario, Participation.status, fn.COUNT(Participation.id).alias("n"))
        .where(Participation.scenario.in_(ids))
        .group_by(Participation.scenario, Participation.status)
        .tuples()
    )
    for scenario_id, status, n in counted:
        signups[scenario_id][status] = n
    rounds: dict[int, list[str]] = {i: [] for i in ids}
    for scenario_id, state in Round.select(Round.scenario, Round.state).where(Round.scenario.in_(ids)).tuples():
        rounds[scenario_id].append(state)
    return [
        Summary(
            s.id,
            s.campaign.slug,
            s.slug,
            s.title,
            s.kind,
            s.source,
            UNDER_WAY
            if any(state not in NOT_STARTED for state in rounds[s.id])
            else SIGNUP_CLOSED
            if s.signup_closed_at
            else SIGNUP_OPEN,
            s.slots,
            signups[s.id],
            len(rounds[s.id]),
            local_text(s.signup_deadline, s.campaign.timezone) if s.signup_deadline else None,
        )
        for s in rows
    ]
