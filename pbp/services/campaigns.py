"""Loading a campaign pack (campaigns/<name>/) into the database: the campaign row and its scenarios.

The pack is validated by `pbp.packs` (which names file, key and problem); what is stored is the parsed pack, so a
campaign keeps playing by the numbers it was loaded with. Reloading updates the campaign and adds new scenarios.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbp import packs
from pbp.db import write_transaction
from pbp.models import Campaign, Scenario, ScenarioSecret
from pbp.services import audit
from pbp.services.clock import SYSTEM, Clock, to_db

DEFAULT_TIMEZONE = "Asia/Tokyo"
DEFAULT_ENTRY_LIMIT = 800
DEFAULT_SLOTS = 4


def load_campaign(pack_dir: Path, *, gm_id: int | None = None, clock: Clock = SYSTEM) -> Campaign:
    """Create or update the campaign that `pack_dir` describes; raises the packs' error on an invalid pack."""
    pack = packs.load_valid_pack(pack_dir).data
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
    existing = Campaign.get_or_none(Campaign.slug == info["id"])
    known = {s.slug for s in Scenario.select(Scenario.slug).join(Campaign).where(Campaign.slug == info["id"])}
    with write_transaction():
        if existing is None:
            campaign = Campaign.create(slug=info["id"], gm=gm_id, created_at=now, policies={}, **fields)
        else:
            campaign = existing
            Campaign.update(**fields, **({"gm": gm_id} if gm_id else {})).where(Campaign.id == campaign.id).execute()
        for slug, spec in pack.get("scenarios", {}).items():
            if slug in known:
                continue
            scenario = Scenario.create(
                campaign=campaign.id,
                slug=slug,
                title=spec.get("ja") or spec.get("en") or slug,
                kind=spec.get("kind", "battle"),
                public_text=spec.get("description", ""),
                slots=_slots(spec, info),
                created_at=now,
            )
            ScenarioSecret.create(scenario=scenario.id, gm_notes=spec.get("gm_notes", ""), setup=spec)
        audit.log("campaign.load", f"campaign:{campaign.id}", now, actor_id=gm_id, pack=str(pack_dir))
    return Campaign.get_by_id(campaign.id)


def _slots(spec: dict[str, Any], info: dict[str, Any]) -> int:
    """The scenario's slots (else the campaign's), never more than a battle has start positions."""
    slots = int(spec.get("slots", info.get("slots", DEFAULT_SLOTS)))
    starts = spec.get("pc_starts")
    return min(slots, len(starts)) if starts is not None else slots
