"""The campaign a load run plays, as the product is played: the demo pack's battle (tama_river) run again and again
at its own slot count, PLAYERS players spread over those runs (200 players at the pack's 4 slots: 50 runs), each run
with a first round played and published (its report on the blog) and, when the rush starts, a round of its own
open, every run's with the same deadline.

Everything goes through the services, as a GM and players would make it: `campaigns.create_scenario` per run (as
tests/served.py `new_run` does), `scenarios.join_scenario`, the rounds' services; the players' orders are what the
rules allow their units (`demo.round_order`: an attack on the first foe each weapon reaches).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

PASSWORD = "loadtest-password"
SCENARIO = "tama_river"  # the demo pack's battle


@dataclass(frozen=True)
class Player:
    name: str
    user_id: int
    character_id: int
    run: int  # index into World.runs
    fields: dict[str, list[str]] | None = None  # the entry form's order fields the player sends in the rush


@dataclass(frozen=True)
class World:
    campaign: str  # slug
    gm_id: int
    runs: list[int]  # the runs' scenario ids
    slots: int
    players: list[Player]
    reader_paths: list[tuple[str, str]]  # (route, path): the blog's pages, every run's report and scenario page


def _order(encounter: dict[str, Any], character_id: int) -> dict[str, Any] | None:
    """What the player orders: an attack with the unit's first weapon that reaches a foe (reloading first when
    it must), as the demo's players order theirs."""
    from pbp.engine import find_ruleset
    from pbp.services import characters, demo

    unit = characters.unit_id(character_id)
    for weapon in find_ruleset("pool").legal_actions(encounter, unit).weapons:
        intended = {"minor": None, "major": {"type": "attack", "weapon": weapon.id, "targets": [], "item": None}}
        order = demo.round_order(encounter, unit, intended)
        if order is not None:
            return order
    return None


def prepare(players: int) -> World:
    """The campaign, its runs with their players and a published first round each; the caller opens the rush's
    rounds (`open_rush_rounds`)."""
    from pbp.models import Round
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios
    from pbp.services.clock import SYSTEM, FixedClock

    past = FixedClock(SYSTEM.now() - timedelta(days=1))
    gm = accounts.create_user("gm", PASSWORD, clock=past)
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=past)
    campaigns.set_policy(campaign.id, "publish_automatically", True, actor_id=gm.id, clock=past)
    sheets = list(campaign.pack["characters"].values())
    made: list[Player] = []
    runs: list[int] = []
    slots = 0
    while len(made) < players:
        run = campaigns.create_scenario(campaign.id, SCENARIO, slug=f"run-{len(runs) + 1:03d}", clock=past)
        slots = run.slots
        for seat in range(min(slots, players - len(made))):
            user = accounts.create_user(f"p{len(made):03d}", PASSWORD, clock=past)
            sheet = sheets[seat % len(sheets)]
            character = characters.create_character(campaign.id, user.id, sheet, clock=past)
            scenarios.join_scenario(run.id, character.id, user_id=user.id, clock=past)
            made.append(Player(user.name, user.id, character.id, len(runs)))
        runs.append(run.id)
    firsts = []
    for k, run_id in enumerate(runs):
        first = rounds.create_round(run_id, past.now() + timedelta(hours=12), actor_id=gm.id, clock=past)
        rounds.open_round(first.id, actor_id=gm.id, clock=past)
        encounter = rounds.round_encounter(first, rounds.round_context(first))
        for p in (p for p in made if p.run == k):
            order = _order(encounter, p.character_id)
            if order is not None:
                entries.save_entry(first.id, p.character_id, user_id=p.user_id, order=order, prose=f"{p.name}: 前へ",
                                   clock=past)  # fmt: skip
        firsts.append(first.id)
    past.advance(13 * 3600)
    for first_id in firsts:
        rounds.resolve_round(first_id, clock=past)
        if Round.get_by_id(first_id).state != "published":
            publishing.publish_round(first_id, actor_id=gm.id, clock=past)
    blog = f"/blog/{campaign.slug}/"
    paths: list[tuple[str, str]] = []
    for k in range(len(runs)):  # the kinds of page in turn, each run's in its turn
        slug = f"run-{k + 1:03d}"
        paths += [("blog index", "/blog/"), ("campaign page", blog), ("report page", f"{blog}{slug}/round-1/"),
                  ("scenario page", f"{blog}{slug}/")]  # fmt: skip
    return World(campaign.slug, gm.id, runs, slots, made, paths)


def open_rush_rounds(world: World, deadline: datetime) -> tuple[list[int], World]:
    """Every run's round of the rush, open now, its deadline at `deadline` (aware, UTC): the rounds' ids, and the
    world with each player's order for it (an attack the rules allow on the state round 1 left)."""
    from dataclasses import replace

    from pbp.services import rounds
    from pbp.web.player.orders import form_of

    ids = []
    players = []
    for k, run_id in enumerate(world.runs):
        rnd = rounds.create_round(run_id, deadline, actor_id=world.gm_id)
        rounds.open_round(rnd.id, actor_id=world.gm_id)
        encounter = rounds.round_encounter(rnd, rounds.round_context(rnd))
        for p in (p for p in world.players if p.run == k):
            order = _order(encounter, p.character_id)
            players.append(replace(p, fields=_fields(form_of, order)))
        ids.append(rnd.id)
    return ids, replace(world, players=players)


def _fields(form_of: Any, order: dict[str, Any] | None) -> dict[str, list[str]]:
    """The form's fields a browser sends: the order's, and the "asked of the GM" part left alone (its radios'
    checked defaults, the empty note, no partner ticked, and the hidden digest of the wish it showed). Until
    2026-12-06 the run left the wish out, and so measured a save no browser sends."""
    from pbp.services import entry_wishes

    wish = {"adlib": [""], "contact": [""], "gm_note": [""], "wish_shown": [entry_wishes.digest(entry_wishes.Wish())]}
    return {**{k: list(v) for k, v in form_of(order).items()}, **wish}


def set_deadline(world: World, round_ids: list[int], deadline: datetime) -> None:
    """The GM moves every run's deadline (`extend_round` takes an earlier one too, as long as it lies ahead)."""
    from pbp.services import rounds

    for round_id in round_ids:
        rounds.extend_round(round_id, deadline, actor_id=world.gm_id)
