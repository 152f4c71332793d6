"""Loading a campaign pack (campaigns/<name>/) into the database: the campaign row and its scenarios.

The pack is validated by `pbp.packs` (which names file, key and problem); what is stored is the parsed pack, so a
campaign keeps playing by the numbers it was loaded with. Reloading updates the campaign and adds new scenarios.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from pbp import packs
from pbp.db import retried, write_transaction
from pbp.engine import BadInput, Problem
from pbp.errors import Conflict, UserError
from pbp.models import Campaign, Scenario, ScenarioSecret
from pbp.services import audit, gms
from pbp.services._common import first_non_text, get_or_fail
from pbp.services.clock import SYSTEM, Clock, to_db

DEFAULT_TIMEZONE = "Asia/Tokyo"
DEFAULT_ENTRY_LIMIT = 800
DEFAULT_SLOTS = 4
#: Campaign policies (`rounds.POLICIES`) a pack's `[campaign]` may set; loading it sets them.
PACK_POLICIES = ("several_pcs_per_player",)


@retried
def load_campaign(pack_dir: Path, *, gm_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """Create or update the campaign that `pack_dir` describes; raises the packs' error on an invalid pack, or on
    a string in it that is not text (a TOML `\\u0000` escape: PostgreSQL cannot store it)."""
    loaded = packs.load_valid_pack(pack_dir)
    pack = loaded.data
    found = first_non_text(pack)
    if found:
        raise BadInput(loaded.locate([Problem(found[0], f"{found[1]}: not text")]))
    info: dict[str, Any] = pack["campaign"]
    now = to_db(clock.now())
    fields = {
        "name": info.get("ja") or info.get("en") or info["id"],
        "ruleset": info["ruleset"],
        "pack_name": Path(pack_dir).name,
        "pack": pack,
        "timezone": info.get("time_zone", DEFAULT_TIMEZONE),
        "entry_char_limit": int(info.get("entry_limit", DEFAULT_ENTRY_LIMIT)),
    }
    # The policies the pack sets (R-FIX-18's several_pcs_per_player); the others keep what the GM set.
    settings = {name: info[name] for name in PACK_POLICIES if name in info}
    existing = Campaign.get_or_none(Campaign.slug == info["id"])
    known = {s.slug for s in Scenario.select(Scenario.slug).join(Campaign).where(Campaign.slug == info["id"])}
    with write_transaction():
        if existing is None:
            campaign = Campaign.create(slug=info["id"], gm=gm_id, created_at=now, policies=settings, **fields)
        else:
            campaign = existing
            changes = {**fields, "policies": {**existing.policies, **settings}}
            Campaign.update(**changes).where(Campaign.id == campaign.id).execute()
        if gm_id:
            gms.ensure_owner(campaign.id, gm_id, now)
        for slug in pack.get("scenarios", {}):
            if slug not in known:
                add_scenario(campaign, slug, slug=slug, now=now)
        audit.log("campaign.load", f"campaign:{campaign.id}", now, actor_id=gm_id, pack=str(pack_dir))
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
    campaign = get_or_fail(Campaign, campaign_id, "campaign")
    if pack_scenario not in campaign.pack.get("scenarios", {}):
        raise UserError(f"the pack has no scenario {pack_scenario!r}")
    if not packs.SLUG.match(slug):
        raise UserError(f"a slug is {packs.SLUG_RULE}", "slug")
    if Scenario.get_or_none(Scenario.campaign == campaign_id, Scenario.slug == slug) is not None:
        raise Conflict(f"the campaign already has a scenario {slug!r}", "slug")
    if slots is not None and slots < 1:
        raise UserError("slots must be at least 1", "slots")
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

    campaign = get_or_fail(Campaign, campaign_id, "campaign")
    if name not in POLICIES:
        raise UserError(f"unknown policy {name!r} (known: {', '.join(sorted(POLICIES))})", "policy")
    now = to_db(clock.now())
    with write_transaction():
        Campaign.update(policies={**campaign.policies, name: bool(value)}).where(Campaign.id == campaign_id).execute()
        audit.log("campaign.policy", f"campaign:{campaign_id}", now, actor_id=actor_id, policy=name, value=bool(value))
    return Campaign.get_by_id(campaign_id)


@retried
def set_hold_share(campaign_id: int, share: float, *, actor_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """The guard's share: a round with more than `share` (0 to 1) of its joined characters without an entry at its
    deadline is held for the GM instead of resolved (1: never held)."""
    if not 0 <= share <= 1:  # NaN fails too
        raise UserError(f"the share of missing entries must be from 0 to 1, got {share}", "hold_share")
    get_or_fail(Campaign, campaign_id, "campaign")
    now = to_db(clock.now())
    with write_transaction():
        Campaign.update(hold_share=float(share)).where(Campaign.id == campaign_id).execute()
        audit.log("campaign.hold_share", f"campaign:{campaign_id}", now, actor_id=actor_id, share=float(share))
    return Campaign.get_by_id(campaign_id)
