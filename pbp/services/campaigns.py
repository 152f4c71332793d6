"""Loading a campaign pack (campaigns/<name>/) into the database: the campaign row and its scenarios.

The pack is validated by `pbp.packs` (which names file, key and problem); what is stored is the parsed pack, so a
campaign keeps playing by the numbers it was loaded with. Reloading updates the campaign and adds new scenarios.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pbp import packs
from pbp.db import retried, write_transaction
from pbp.engine import BadInput, Problem, find_ruleset
from pbp.errors import N_, Conflict, Joined, Text, UserError
from pbp.models import Campaign, Character, Participation, Resolution, Round, Scenario, ScenarioSecret
from pbp.services import audit, campaign_settings, gms
from pbp.services._common import first_non_text, get_or_fail, locked
from pbp.services.characters import unit_id
from pbp.services.clock import SYSTEM, Clock, to_db

DEFAULT_TIMEZONE = "Asia/Tokyo"
DEFAULT_ENTRY_LIMIT = 800
DEFAULT_SLOTS = 4
#: Campaign policies (`rounds.POLICIES`) a pack's `[campaign]` may set; loading it sets them.
PACK_POLICIES = ("several_pcs_per_player",)


@retried
def load_campaign(pack_dir: Path, *, gm_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """Create or update the campaign that `pack_dir` describes (the operator's `pbp campaign load`; `gm_id` becomes
    its owner); raises the packs' error on an invalid pack, or on a string in it that is not text (a TOML `\\u0000`
    escape: PostgreSQL cannot store it). Reloading a campaign is an upgrade: the console's scenarios are carried
    over and the trial must pass (`upgrade_trial`)."""
    loaded = _valid(pack_dir)
    existing = Campaign.get_or_none(Campaign.slug == loaded.data["campaign"]["id"])
    if existing is not None:
        _refuse_breaks(existing, loaded)
    return _apply(loaded, Path(pack_dir), existing, actor_id=gm_id, owner_id=gm_id, clock=clock)


class PackRefused(UserError):
    """A pack upgrade refused with every problem (`trial` False: the pack's own, by file and key; True: what the new
    pack would break in the campaign as it is); nothing was changed."""

    def __init__(self, problems: list[Problem], *, trial: bool):
        self.problems, self.trial = problems, trial
        super().__init__("; ".join(str(p) for p in problems))


@retried
def upgrade_pack(
    campaign_id: int, pack_dir: Path, *, actor_id: int | None, apply: bool = True, clock: Clock = SYSTEM
) -> Campaign:
    """The owner upgrades the campaign's pack from its folder: the pack is validated (PackRefused with its
    problems), then tried against the campaign (`upgrade_trial`: PackRefused listing what breaks), and only then
    stored, with the scenarios written in the console carried over. `apply` False stops after the trial."""
    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    gms.require_owner(campaign_id, actor_id)
    try:
        loaded = _valid(pack_dir)
    except BadInput as refusal:
        raise PackRefused(refusal.problems, trial=False) from None
    if loaded.data["campaign"]["id"] != campaign.slug:
        problem = Problem(
            "campaign.id",
            N_("is '%(id)s', not this campaign's '%(slug)s'", id=loaded.data["campaign"]["id"], slug=campaign.slug),
        )
        raise PackRefused(loaded.locate([problem]), trial=False)
    _refuse_breaks(campaign, loaded)
    if not apply:
        return campaign
    return _apply(loaded, Path(pack_dir), campaign, actor_id=actor_id, owner_id=None, clock=clock)


def _valid(pack_dir: Path) -> packs.Pack:
    loaded = packs.load_valid_pack(pack_dir)
    found = first_non_text(loaded.data)
    if found:
        raise BadInput(loaded.locate([Problem(found[0], N_("%(problem)s: not text", problem=found[1]))]))
    return loaded


def _console_scenarios(campaign: Campaign) -> dict[str, Any]:
    """The scenario entries written in the console (`pbp.services.authoring`), which the folder does not hold."""
    slugs = Scenario.select(Scenario.pack_scenario).where(
        Scenario.campaign == campaign.id, Scenario.source == "console"
    )
    stored = campaign.pack.get("scenarios") or {}
    return {s.pack_scenario: stored[s.pack_scenario] for s in slugs if s.pack_scenario in stored}


def _merged(campaign: Campaign, loaded: packs.Pack) -> dict[str, Any]:
    return {**loaded.data, "scenarios": {**(loaded.data.get("scenarios") or {}), **_console_scenarios(campaign)}}


def upgrade_trial(campaign: Campaign, loaded: packs.Pack) -> list[Problem]:
    """What the new pack would break, each problem naming what: a console scenario whose slug the pack now uses or
    which no longer validates; a scenario whose pack entry is gone; a scenario's current state (its last round's
    end state, else the starting state the GM set or the first round built from the pack with its joined characters)
    that the ruleset refuses; a living character's sheet that no longer validates. A problem of a scenario or a
    character has its path under it (`_under`), in words a page translates."""
    ruleset = find_ruleset(str(loaded.data["campaign"]["ruleset"]))
    folder = loaded.data.get("scenarios") or {}
    console = _console_scenarios(campaign)
    problems = [
        Problem(f"scenarios.{slug}", N_("the new pack defines a scenario of this id, which the console's scenario has"))
        for slug in console
        if slug in folder
    ]
    merged = _merged(campaign, loaded)
    mine = {f"scenarios.{slug}" for slug in console}
    problems += [p for p in ruleset.validate_pack(merged) if re.sub(r"^(scenarios\.[^.\[]+).*", r"\1", p.path) in mine]
    for scenario in Scenario.select().where(Scenario.campaign == campaign.id).order_by(Scenario.id):
        where = N_("scenario %(slug)s", slug=scenario.slug)
        if scenario.pack_scenario not in merged["scenarios"]:
            problems.append(Problem(where, N_("the new pack has no scenario '%(id)s'", id=scenario.pack_scenario)))
            continue
        last = (
            Resolution.select(Resolution.state).join(Round).where(Round.scenario == scenario.id)
            .order_by(Round.number.desc()).first()
        )  # fmt: skip
        start = ScenarioSecret.get(ScenarioSecret.scenario == scenario.id).encounter_state
        try:
            state = (
                last.state
                if last is not None
                else start or ruleset.build_encounter(merged, scenario.pack_scenario, _pcs(scenario))
            )
        except BadInput as e:
            problems += [replace(p, path=_under(where, p.path) if p.path else where) for p in e.problems]
            continue
        problems += [replace(p, path=_under(where, p.path)) for p in ruleset.validate_encounter(state, merged)]
    for character in (
        Character.select().where(Character.campaign == campaign.id, Character.alive).order_by(Character.id)
    ):
        where = N_("character %(name)s (%(id)s)", name=character.name, id=character.id)
        problems += [
            replace(p, path=_under(where, p.path)) for p in ruleset.validate_character(merged, character.sheet)
        ]
    return problems


def _under(where: Text, path: str) -> Joined:
    """A problem's path under what the trial found it in (`scenario tama_river: units[0].injury`): the English the
    CLI prints, a `Joined` a page says in its language (the scenario's or character's word; the path as it is)."""
    return Joined([where, ": ", path])


def _pcs(scenario: Scenario) -> list[tuple[str, dict[str, Any]]]:
    """The scenario's joined, living characters as the first round places them (`rounds.round_encounter`)."""
    query = (
        Character.select().join(Participation)
        .where(Participation.scenario == scenario.id, Participation.status == "joined", Character.alive)
        .order_by(Participation.id)
    )  # fmt: skip
    return [(unit_id(c.id), c.sheet) for c in query]


def _refuse_breaks(campaign: Campaign, loaded: packs.Pack) -> None:
    problems = upgrade_trial(campaign, loaded)
    if problems:
        raise PackRefused(problems, trial=True)


def _apply(
    loaded: packs.Pack,
    pack_dir: Path,
    existing: Campaign | None,
    *,
    actor_id: int | None,
    owner_id: int | None,
    clock: Clock,
) -> Campaign:
    """Store the pack (with the console's scenarios) as the campaign's, add its new scenarios, log it."""
    info: dict[str, Any] = loaded.data["campaign"]
    now = to_db(clock.now())
    fields = {
        "name": info.get("ja") or info.get("en") or info["id"],
        "ruleset": info["ruleset"],
        "pack_name": pack_dir.name,
        "timezone": info.get("time_zone", DEFAULT_TIMEZONE),
        "entry_char_limit": int(info.get("entry_limit", DEFAULT_ENTRY_LIMIT)),
    }
    # The policies the pack sets (R-FIX-18's several_pcs_per_player); the others keep what the GM set.
    settings = {name: info[name] for name in PACK_POLICIES if name in info}
    known = {s.slug for s in Scenario.select(Scenario.slug).join(Campaign).where(Campaign.slug == info["id"])}
    with write_transaction():
        if existing is None:
            pack = loaded.data
            campaign = Campaign.create(
                slug=info["id"], gm=owner_id, created_at=now, policies=settings, pack=pack, **fields
            )
            action = "campaign.load"
        else:
            campaign = locked(Campaign, existing.id, N_("campaign"))
            pack = _merged(campaign, loaded)
            changes = {**fields, "pack": pack, "policies": {**campaign.policies, **settings}}
            Campaign.update(**changes).where(Campaign.id == campaign.id).execute()
            campaign.pack = pack
            action = "campaign.upgrade"
        if owner_id:
            gms.ensure_owner(campaign.id, owner_id, now)
        for slug in loaded.data.get("scenarios", {}):
            if slug not in known:
                add_scenario(campaign, slug, slug=slug, now=now)
        audit.log(action, f"campaign:{campaign.id}", now, actor_id=actor_id, pack=str(pack_dir))
    return Campaign.get_by_id(campaign.id)


def add_scenario(
    campaign: Campaign,
    pack_scenario: str,
    *,
    slug: str,
    now: datetime,
    slots: int | None = None,
    signup_deadline: datetime | None = None,
) -> Scenario:
    """A run of one of the pack's scenarios (inside the caller's transaction); its GM notes and setup go to the
    secret table."""
    spec = campaign.pack["scenarios"][pack_scenario]
    scenario = Scenario.create(
        campaign=campaign.id,
        slug=slug,
        pack_scenario=pack_scenario,
        title=spec.get("ja") or spec.get("en") or slug,
        kind=spec.get("kind", "battle"),
        public_text=spec.get("description", ""),
        slots=slots or _slots(spec, campaign.pack["campaign"]),
        signup_deadline=signup_deadline,
        created_at=now,
    )
    ScenarioSecret.create(scenario=scenario.id, gm_notes=spec.get("gm_notes", ""), setup=spec)
    return scenario


def scenario_taken(slug: str) -> Text:
    """The refusal of a second scenario under a slug, whichever way it is added (the pack's, the console's)."""
    return N_("the campaign already has a scenario '%(slug)s'", slug=slug)


@retried
def create_scenario(
    campaign_id: int,
    pack_scenario: str,
    *,
    slug: str,
    slots: int | None = None,
    signup_deadline: datetime | None = None,
    actor_id: int | None = None,
    clock: Clock = SYSTEM,
) -> Scenario:
    """The GM runs a pack scenario (again, e.g. for a second group) under a new slug."""
    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    if pack_scenario not in campaign.pack.get("scenarios", {}):
        raise UserError(N_("the pack has no scenario '%(id)s'", id=pack_scenario))
    if not packs.SLUG.match(slug):
        raise UserError(N_("a slug is %(rule)s", rule=N_(packs.SLUG_RULE)), "slug")
    if Scenario.get_or_none(Scenario.campaign == campaign_id, Scenario.slug == slug) is not None:
        raise Conflict(scenario_taken(slug), "slug")
    if slots is not None and slots < 1:
        raise UserError(N_("slots must be at least 1"), "slots")
    now = to_db(clock.now())
    with write_transaction():
        scenario = add_scenario(
            campaign,
            pack_scenario,
            slug=slug,
            now=now,
            slots=slots,
            signup_deadline=to_db(signup_deadline) if signup_deadline else None,
        )
        audit.log("scenario.create", f"scenario:{scenario.id}", now, actor_id=actor_id, pack_scenario=pack_scenario)
    return scenario


def _slots(spec: dict[str, Any], info: dict[str, Any]) -> int:
    """The scenario's slots (else the campaign's), never more than a battle has start positions."""
    slots = int(spec.get("slots", info.get("slots", DEFAULT_SLOTS)))
    starts = spec.get("pc_starts")
    return min(slots, len(starts)) if starts is not None else slots


@retried
def set_policy(
    campaign_id: int, name: str, value: bool, *, actor_id: int | None = None, clock: Clock = SYSTEM
) -> Campaign:
    """The GM sets one of the campaign's policies (`pbp.services.rounds.POLICIES` lists them)."""
    from pbp.services.rounds import POLICIES

    campaign = get_or_fail(Campaign, campaign_id, N_("campaign"))
    if name not in POLICIES:
        raise UserError(
            N_("unknown policy '%(name)s' (known: %(known)s)", name=name, known=", ".join(sorted(POLICIES))), "policy"
        )
    now = to_db(clock.now())
    with write_transaction():
        Campaign.update(policies={**campaign.policies, name: bool(value)}).where(Campaign.id == campaign_id).execute()
        audit.log("campaign.policy", f"campaign:{campaign_id}", now, actor_id=actor_id, policy=name, value=bool(value))
    return Campaign.get_by_id(campaign_id)


def set_hold_share(campaign_id: int, share: float, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """The guard's share: a round with more than `share` (0 to 1) of its joined characters without an entry at its
    deadline is held for the GM instead of resolved (1: never held)."""
    campaign_settings.change(campaign_id, actor_id=actor_id, clock=clock, hold_share=share)
    return Campaign.get_by_id(campaign_id)
