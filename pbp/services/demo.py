"""The demo: a database to look at and play with in one call (`pbp demo`, `make run`).

The demo campaign (campaigns/demo/), a GM and two players, their characters in the battle scenario, round 1 played
and published the day before, and round 2 open with an entry for every demo PC and its deadline `deadline_in`
seconds away (the scheduler or `pbp round resolve` takes it from there). The demo campaign publishes automatically
(policy `publish_automatically`): a newcomer sees the report appear without acting as the GM. Each step is a
service call of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from pbp.engine import find_ruleset
from pbp.errors import N_, UserError
from pbp.models import Campaign, Scenario, User
from pbp.paths import DEMO_PACK_DIR
from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios
from pbp.services.clock import SYSTEM, Clock, FixedClock

DEMO_PASSWORD = "demo-password"
SCENARIO = "tama_river"
#: Demo player -> (character in the pack, the order the demo enters for it every round).
PLAYERS = {
    "player1": ("aoi", {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"]}}),
    "player2": (
        "makoto",
        {"minor": None, "major": {"type": "attack", "weapon": "micro_missiles", "targets": ["hayachi1"]}},
    ),
}
PROSE = {
    "aoi": "川霧の向こう、先頭のカガチに照準を合わせる。「……外さない」",
    "makoto": "低空で河原を抜け、上空のハヤチの背後を取る。「鬼ごっこはおしまいだ！」",
}


@dataclass(frozen=True)
class Demo:
    campaign: str
    published_round: int
    open_round: int
    entries: int


def is_loaded() -> bool:
    return Campaign.get_or_none(Campaign.slug == "demo") is not None


def demo_user(name: str, clock: Clock) -> User:
    """The demo account `name`: the one another demo campaign created already, else a new one (the demos share
    their GM and players)."""
    found = User.get_or_none(User.name == name)
    if found is not None:
        return found
    return accounts.create_user(name, DEMO_PASSWORD, display_name="GM" if name == "gm" else None, clock=clock)


@dataclass(frozen=True)
class DemoPC:
    user_id: int
    character_id: int
    pc: str  # the character's id in the pack
    order: dict


def enrol_players(campaign_id: int, scenario_id: int, sheets: dict, *, clock: Clock) -> list[DemoPC]:
    """The demo's players, each with the pack's ready-made character, joined to the scenario."""
    pcs = []
    for name, (pc, order) in PLAYERS.items():
        user = demo_user(name, clock)
        character = characters.create_character(campaign_id, user.id, sheets[pc], clock=clock)
        scenarios.join_scenario(scenario_id, character.id, user_id=user.id, clock=clock)
        pcs.append(DemoPC(user.id, character.id, pc, order))
    return pcs


def open_round_with_entries(
    scenario_id: int, gm_id: int, pcs: list[DemoPC], deadline: timedelta, *, clock: Clock
) -> int:
    """A round opened now with every demo PC's entry in it; returns its id."""
    rnd = rounds.create_round(scenario_id, clock.now() + deadline, actor_id=gm_id, clock=clock)
    rounds.open_round(rnd.id, actor_id=gm_id, clock=clock)
    scenario = rounds.round_context(rnd)
    encounter = rounds.round_encounter(rnd, scenario)
    for p in pcs:
        order = round_order(encounter, characters.unit_id(p.character_id), p.order)
        if order is not None:
            entries.save_entry(rnd.id, p.character_id, user_id=p.user_id, order=order, prose=PROSE[p.pc], clock=clock)
    return rnd.id


def round_order(encounter: dict, unit: str, intended: dict) -> dict | None:
    """What a demo PC orders this round, as a player would: its attack, reloading first when the weapon is empty,
    at its target while that stands, else at the first foe the weapon reaches; None when it can attack no one."""
    legal = find_ruleset("pool").legal_actions(encounter, unit)
    attack = intended["major"]
    weapon = next((w for w in legal.weapons if w.id == attack["weapon"]), None)
    if weapon is None:
        return None
    sides = {u["id"]: u["side"] for u in encounter["units"]}
    foes = [t for t in weapon.targets if sides[t] != "pc"]
    targets = [t for t in attack["targets"] if t in foes] or foes[:1]
    if not targets:
        return None
    minor = {"type": "reload", "weapon": weapon.id} if weapon.needs_reload else intended["minor"]
    return {**intended, "minor": minor, "major": {**attack, "targets": targets}}


def load_demo(deadline_in: int, *, clock: Clock = SYSTEM) -> Demo:
    """Load the demo into an empty database (refused when the demo's accounts exist already)."""
    if is_loaded():
        raise UserError(N_("the demo is already loaded (use another PBP_INSTANCE)"))
    now = clock.now()
    past = FixedClock(now - timedelta(days=1))  # round 1 was played yesterday
    gm = demo_user("gm", past)
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=past)
    campaigns.set_policy(campaign.id, "publish_automatically", True, actor_id=gm.id, clock=past)  # `make run` shows it
    scenario = Scenario.get(Scenario.campaign == campaign.id, Scenario.slug == SCENARIO)
    pcs = enrol_players(campaign.id, scenario.id, campaign.pack["characters"], clock=past)
    first = open_round_with_entries(scenario.id, gm.id, pcs, timedelta(hours=12), clock=past)
    past.advance(13 * 3600)
    rounds.resolve_round(first, clock=past)
    publishing.publish_round(first, actor_id=gm.id, clock=past)
    second = open_round_with_entries(scenario.id, gm.id, pcs, timedelta(seconds=deadline_in), clock=FixedClock(now))
    return Demo(campaign.slug, first, second, len(pcs))
