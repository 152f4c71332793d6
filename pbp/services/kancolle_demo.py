"""The kancolle demo (`pbp demo --campaign kancolle-demo`, `make run`): its ship girls, a base cycle played and
published, the battle's first round open; what they enter each deadline is what a player would from the form,
the choices `legal_actions` offers, the first of each."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pbp.engine import find_ruleset
from pbp.errors import N_, UserError
from pbp.models import Campaign, Scenario
from pbp.paths import CAMPAIGNS_DIR
from pbp.services import campaigns, characters, entries, publishing, rounds, scenarios
from pbp.services.characters import unit_id
from pbp.services.clock import SYSTEM, Clock, FixedClock
from pbp.services.demo import Demo, demo_user

CAMPAIGN = "kancolle-demo"
#: The keyword a ship girl writes on her event card (K-BASE-2: at most 10 wide).
KEYWORD = "出撃準備"


def entry_for(legal: dict[str, Any]) -> dict[str, Any]:
    """An entry for the deadline `legal` (kancolle's `legal_actions` of one unit) describes: in the base phase a
    scene with the first friend and an event card of the first table, with supply from the first resource the
    ship girl can use; in a battle the first position, the first target for every air and torpedo attack offered,
    every target in order for the shelling and the night (a preference list: the next when one has sunk, K-PLAY-5),
    the night volunteered; after the battle the spoils' first resource."""
    order: dict[str, Any] = {}
    friends = legal.get("support") or []
    if "card" in legal:
        order["card"] = {"type": legal["card"]["types"][0], "keyword": KEYWORD}
        order["scene"] = {"partner": friends[0]} if friends else {}
        if legal.get("supply"):
            order["supply"] = {legal["supply"][0]: 1}
        return order
    if "spoils" in legal:
        return {"spoils": {"resource": "燃料"}}
    targets = legal.get("targets") or []
    if "formation" in legal:
        order["formation"] = {"position": legal["formation"]["positions"][0]}
    if not targets:
        return order
    for key in ("air", "opening_torpedo", "torpedo"):
        order[key] = [{"piece": piece, "targets": targets[:1]} for piece in legal.get(key) or []]
    if legal.get("shelling") and legal["shelling"]["pieces"]:
        order["shelling"] = {"targets": targets, "chain": legal["shelling"]["pieces"][:1]}
    if legal.get("night") and legal["night"]["pieces"]:
        order["night"] = {"targets": targets, "chain": legal["night"]["pieces"][:1]}
    if legal.get("night_volunteer"):
        order["night_volunteer"] = True
    return order


#: Demo player -> the pack's ship girl they bring (player1 and player2 are the pool demo's players too).
PLAYERS = {"player1": "fubuki", "player2": "yuudachi", "player3": "kitakami", "player4": "akagi"}
PROSE = {
    "fubuki": "「吹雪、いきます！」",
    "yuudachi": "「ソロモンの悪夢、見せてあげる！」",
    "kitakami": "「まー、やるだけやりますか」",
    "akagi": "「第一次攻撃隊、発艦してください！」",
}
BASE, BATTLE = "chinjufu_day", "nansei_sortie"


def is_loaded() -> bool:
    return Campaign.get_or_none(Campaign.slug == CAMPAIGN) is not None


def _entered_round(scenario_id: int, gm_id: int, fleet: list[tuple[int, int, str]], deadline: datetime, *,
                   clock: Clock) -> int:  # fmt: skip
    """A round of the scenario opened now, with each ship girl's entry as the form offers it; returns its id."""
    rnd = rounds.create_round(scenario_id, deadline, actor_id=gm_id, clock=clock)
    rounds.open_round(rnd.id, actor_id=gm_id, clock=clock)
    encounter = rounds.round_encounter(rnd, rounds.round_context(rnd))
    ruleset = find_ruleset("kancolle")
    for user_id, character_id, ship in fleet:
        order = entry_for(ruleset.legal_actions(encounter, unit_id(character_id)))
        entries.save_entry(rnd.id, character_id, user_id=user_id, order=order, prose=PROSE[ship], clock=clock)
    return rnd.id


def load_kancolle_demo(deadline_in: int, *, clock: Clock = SYSTEM) -> Demo:
    """Load the kancolle demo (campaigns/kancolle-demo/) beside whatever is loaded: its GM and players are the pool
    demo's accounts when they exist (player3 and player4 are added). Yesterday's base cycle is played and
    published; the battle's first round is open with every ship girl's entry, its deadline `deadline_in` seconds
    away. Refused when the campaign is loaded already."""
    if is_loaded():
        raise UserError(N_("the kancolle demo is already loaded (use another PBP_INSTANCE)"))
    now = clock.now()
    past = FixedClock(now - timedelta(days=1))
    gm = demo_user("gm", past)
    campaign = campaigns.load_campaign(CAMPAIGNS_DIR / CAMPAIGN, gm_id=gm.id, clock=past)
    campaigns.set_policy(campaign.id, "publish_automatically", True, actor_id=gm.id, clock=past)
    runs = {s.slug: s.id for s in Scenario.select().where(Scenario.campaign == campaign.id)}
    fleet = []
    for name, ship in PLAYERS.items():
        user = demo_user(name, past)
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"][ship], clock=past)
        for run in runs.values():
            scenarios.join_scenario(run, character.id, user_id=user.id, clock=past)
        fleet.append((user.id, character.id, ship))
    cycle = _entered_round(runs[BASE], gm.id, fleet, past.now() + timedelta(hours=12), clock=past)
    past.advance(13 * 3600)
    rounds.resolve_round(cycle, clock=past)
    publishing.publish_round(cycle, actor_id=gm.id, clock=past)
    battle = _entered_round(runs[BATTLE], gm.id, fleet, now + timedelta(seconds=deadline_in), clock=FixedClock(now))
    return Demo(campaign.slug, cycle, battle, len(fleet))
