"""What the GM's browser tests set up around the served site without a browser: the demo players' characters cast
in a fresh run, a draft round, and the entries arriving as the players' forms would save them (`tests.served`)."""

from __future__ import annotations

from datetime import timedelta

from pbp.models import Character, Round, Scenario, User
from pbp.services import characters, entries, rounds, scenarios
from pbp.services.demo import PLAYERS, PROSE, round_order
from tests.served import Site


def cast(site: Site, slug: str) -> None:
    """The demo's players sign their characters up for the run `slug` (first come, first served: they join)."""
    with site.db():
        run = Scenario.get(Scenario.slug == slug)
        for name in PLAYERS:
            user = User.get(User.name == name)
            character = Character.get(Character.owner == user.id, Character.campaign == run.campaign_id)
            scenarios.join_scenario(run.id, character.id, user_id=user.id, clock=site.clock)


def draft_round(site: Site, slug: str, hours: float = 12) -> int:
    """The run's next round as a draft (the GM opens it from the dashboard), its deadline `hours` away; its id."""
    with site.db():
        run, gm = Scenario.get(Scenario.slug == slug), User.get(User.name == "gm").id
        deadline = site.clock.now() + timedelta(hours=hours)
        return int(rounds.create_round(run.id, deadline, actor_id=gm, clock=site.clock).id)


def entries_arrive(site: Site, round_id: int) -> None:
    """The demo's players send their entries for the round, each its demo order and prose."""
    with site.db():
        rnd = Round.get_by_id(round_id)
        encounter = rounds.shaped_encounter(rnd, rounds.round_context(rnd)).encounter
        for name, (pc, intended) in PLAYERS.items():
            user = User.get(User.name == name)
            character = Character.get(Character.owner == user.id, Character.campaign == rnd.scenario.campaign_id)
            order = round_order(encounter, characters.unit_id(character.id), intended)
            entries.save_entry(round_id, character.id, user_id=user.id, order=order, prose=PROSE[pc], clock=site.clock)
