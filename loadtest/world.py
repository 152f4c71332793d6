"""The campaign a load run plays: the demo pack's battle with PLAYERS players' characters joined, a published first
round (every unit on the blog's report page) and, when the rush starts, an open round whose deadline is near.

Everything goes through the services, as a GM and players would make it, except the battle's starting encounter:
the pack's battle has start positions for four, so the GM's starting encounter is written in one update (as
tests/lifecycle/save_worker.py does): the PCs in a grid, ENEMIES enemies facing them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

PASSWORD = "loadtest-password"
ENEMIES = 60  # with 200 PCs, 260 units: the size the blog's reader pages are benched at
SCENARIO = "rush"


@dataclass(frozen=True)
class Player:
    name: str
    user_id: int
    character_id: int
    target: str = ""  # an enemy still standing after the first round: what the player shoots at in the rush


@dataclass(frozen=True)
class World:
    campaign: str  # slug
    scenario_id: int
    gm_id: int
    players: list[Player]
    reader_paths: list[str]


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
    return {
        "ruleset": "pool",
        "round": 1,
        "options": {**DEFAULT_OPTIONS, **pack.get("options", {})},
        "units": units,
        "terrain": [],
        "gimmicks": [],
    }


def first_order(index: int, enemies: int) -> dict[str, Any]:
    """Round 1: one PC in four shoots (each at its own enemy), the others move up: a report with every kind of
    line, and enemies left standing for the rush."""
    if index % 4 == 0:
        target = f"kagachi{(index // 4) % (enemies - 1)}"
        return {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": [target], "item": None}}
    return {"minor": None, "major": {"type": "full_move", "toward": [300, (index // 20) * 10]}}


def prepare(players: int, enemies: int = ENEMIES) -> World:
    """The campaign, its players and a published first round; the caller opens the round of the rush."""
    from pbp.models import Resolution, ScenarioSecret
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios
    from pbp.services.clock import SYSTEM, FixedClock

    past = FixedClock(SYSTEM.now() - timedelta(days=1))
    gm = accounts.create_user("gm", PASSWORD, clock=past)
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=past)
    campaigns.set_policy(campaign.id, "publish_automatically", True, actor_id=gm.id, clock=past)
    run = campaigns.create_scenario(campaign.id, "tama_river", slug=SCENARIO, slots=players, clock=past)
    made = []
    for i in range(players):
        user = accounts.create_user(f"p{i:03d}", PASSWORD, clock=past)
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"]["aoi"], clock=past)
        scenarios.join_scenario(run.id, character.id, user_id=user.id, clock=past)
        made.append(Player(user.name, user.id, character.id))
    start = _start_encounter(campaign.pack, [p.character_id for p in made], enemies)
    ScenarioSecret.update(encounter_state=start).where(ScenarioSecret.scenario == run.id).execute()
    first = rounds.create_round(run.id, past.now() + timedelta(hours=12), actor_id=gm.id, clock=past)
    rounds.open_round(first.id, actor_id=gm.id, clock=past)
    for i, p in enumerate(made):
        entries.save_entry(
            first.id,
            p.character_id,
            user_id=p.user_id,
            order=first_order(i, enemies),
            prose=f"{p.name}: 前へ",
            clock=past,
        )
    past.advance(13 * 3600)
    rounds.resolve_round(first.id, clock=past)
    publishing.publish_round(first.id, actor_id=gm.id, clock=past)
    state = Resolution.get(Resolution.round == first.id).state
    standing = [u["id"] for u in state["units"] if u["id"].startswith("kagachi") and not u.get("removed")]
    made = [replace(p, target=standing[i % len(standing)]) for i, p in enumerate(made)]
    blog = f"/blog/{campaign.slug}/"
    paths = ["/blog/", blog, f"{blog}{SCENARIO}/round-1/", f"{blog}{SCENARIO}/"]
    return World(campaign.slug, run.id, gm.id, made, paths)


def open_rush_round(world: World, deadline: datetime) -> int:
    """The round of the rush, open now, its deadline at `deadline` (aware, UTC): its id."""
    from pbp.services import rounds

    rnd = rounds.create_round(world.scenario_id, deadline, actor_id=world.gm_id)
    rounds.open_round(rnd.id, actor_id=world.gm_id)
    return rnd.id


def set_deadline(world: World, round_id: int, deadline: datetime) -> None:
    """The GM moves the round's deadline (`extend_round` takes an earlier one too, as long as it lies ahead)."""
    from pbp.services import rounds

    rounds.extend_round(round_id, deadline, actor_id=world.gm_id)
