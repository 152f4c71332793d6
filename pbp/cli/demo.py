"""`pbp demo`: a database to look at and play with in one command.

The demo campaign (campaigns/demo/), a GM and two players, their characters in the battle scenario, round 1 played
and published the day before, and round 2 open with an entry for every demo PC and its deadline `--deadline-in`
seconds away (the scheduler or `pbp round resolve` takes it from there).
"""

from __future__ import annotations

from datetime import timedelta

import click

from pbp import db as pbp_db
from pbp import migrations
from pbp.errors import UserError
from pbp.paths import DEMO_PACK_DIR

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


def register(cli: click.Group) -> None:
    cli.add_command(demo)


@click.command()
@click.option(
    "--deadline-in",
    default=3600,
    show_default=True,
    type=click.IntRange(min=1),
    help="seconds until the open round's deadline",
)
@click.option("--if-empty", is_flag=True, help="do nothing (exit 0) when the demo is already loaded")
def demo(deadline_in: int, if_empty: bool) -> None:
    """Load the demo campaign with a GM, two players, one published round and one open round."""
    from pbp.models import Scenario, User
    from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios
    from pbp.services.clock import SYSTEM, FixedClock

    with pbp_db.connected() as database:
        migrations.upgrade(database)
        if User.get_or_none(User.name == "gm") is not None:
            if if_empty:
                click.echo(f"the demo is already loaded in {pbp_db.database_url()}")
                return
            raise UserError(f"the demo is already loaded in {pbp_db.database_url()} (use another PBP_INSTANCE)")
        now = SYSTEM.now()
        past = FixedClock(now - timedelta(days=1))  # round 1 was played yesterday
        gm = accounts.create_user("gm", DEMO_PASSWORD, display_name="GM", clock=past)
        campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=past)
        scenario = Scenario.get(Scenario.campaign == campaign.id, Scenario.slug == SCENARIO)
        pcs = []
        for name, (pc, order) in PLAYERS.items():
            user = accounts.create_user(name, DEMO_PASSWORD, clock=past)
            character = characters.create_character(campaign.id, user.id, campaign.pack["characters"][pc], clock=past)
            scenarios.join_scenario(scenario.id, character.id, user_id=user.id, clock=past)
            pcs.append((user.id, character.id, pc, order))

        def play(clock: FixedClock, deadline: timedelta) -> int:
            rnd = rounds.create_round(scenario.id, clock.now() + deadline, actor_id=gm.id, clock=clock)
            rounds.open_round(rnd.id, actor_id=gm.id, clock=clock)
            for user_id, character_id, pc, order in pcs:
                entries.save_entry(rnd.id, character_id, user_id=user_id, order=order, prose=PROSE[pc], clock=clock)
            return rnd.id

        first = play(past, timedelta(hours=12))
        past.advance(13 * 3600)
        rounds.resolve_round(first, clock=past)
        publishing.publish_round(first, actor_id=gm.id, clock=past)
        second = play(FixedClock(now), timedelta(seconds=deadline_in))
    click.echo(f"demo campaign {campaign.slug!r} in {pbp_db.database_url()}")
    click.echo(f"users gm, player1, player2 (password {DEMO_PASSWORD!r})")
    click.echo(f"round {first}: published (check it: pbp verify {first})")
    click.echo(f"round {second}: open, deadline in {deadline_in} s, {len(pcs)} entries")
