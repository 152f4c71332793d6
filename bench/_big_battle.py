"""One published round of a battle as large as the bench asks (PCs in a grid, enemies facing them), made through
the services as a GM and players would, except the starting encounter: the demo's battle has start positions for
four, so the GM's starting encounter is written in one update (as tests/lifecycle/save_worker.py does)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

PASSWORD = "bench-password"
SLUG = "big"


def _start_encounter(pack: dict[str, Any], character_ids: list[int], enemies: int) -> dict[str, Any]:
    from pbp.engine.pool.encounters import unit_from_enemy, unit_from_sheet
    from pbp.engine.pool.rules import DEFAULT_OPTIONS

    sheet = pack["characters"]["aoi"]
    units = [
        unit_from_sheet(pack, sheet, f"pc{cid}", "pc", [(i % 20) * 10, (i // 20) * 10])
        for i, cid in enumerate(character_ids)
    ]
    units += [
        unit_from_enemy(pack, "kagachi", f"kagachi{i}", [600 + (i % 20) * 10, (i // 20) * 10])
        for i in range(enemies - 1)
    ]
    units.append(unit_from_enemy(pack, "hayachi", "hayachi0", [700, 50]))  # the scenario's text names it
    options = {**DEFAULT_OPTIONS, **pack.get("options", {})}
    return {"ruleset": "pool", "round": 1, "options": options, "units": units, "terrain": [], "gimmicks": []}


def _order(index: int, enemies: int) -> dict[str, Any]:
    """One PC in four shoots (each at its own enemy), the others move up: a report with every kind of line."""
    if index % 4 == 0:
        target = f"kagachi{(index // 4) % (enemies - 1)}"
        return {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": [target], "item": None}}
    return {"minor": None, "major": {"type": "full_move", "toward": [300, (index // 20) * 10]}}


def published_battle(players: int, enemies: int) -> tuple[str, str]:
    """The demo campaign with one run of `players` PCs and `enemies` enemies whose first round is published, in the
    bound database: (the blog index's path, the report page's path)."""
    from pbp.models import ScenarioSecret
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios
    from pbp.services.clock import SYSTEM, FixedClock

    past = FixedClock(SYSTEM.now() - timedelta(days=1))
    gm = accounts.create_user("gm", PASSWORD, clock=past)
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=past)
    run = campaigns.create_scenario(campaign.id, "tama_river", slug=SLUG, slots=players, clock=past)
    joined = []
    for i in range(players):
        user = accounts.create_user(f"p{i:03d}", PASSWORD, clock=past)
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"]["aoi"], clock=past)
        scenarios.join_scenario(run.id, character.id, user_id=user.id, clock=past)
        joined.append((user.id, character.id))
    start = _start_encounter(campaign.pack, [cid for _, cid in joined], enemies)
    ScenarioSecret.update(encounter_state=start).where(ScenarioSecret.scenario == run.id).execute()
    first = rounds.create_round(run.id, past.now() + timedelta(hours=12), actor_id=gm.id, clock=past)
    rounds.open_round(first.id, actor_id=gm.id, clock=past)
    for i, (uid, cid) in enumerate(joined):
        entries.save_entry(first.id, cid, user_id=uid, order=_order(i, enemies), prose="前へ", clock=past)
    past.advance(13 * 3600)
    rounds.resolve_round(first.id, clock=past)
    publishing.publish_round(first.id, actor_id=gm.id, clock=past)
    return "/blog/", f"/blog/{campaign.slug}/{SLUG}/round-1/"
