"""A demo world built through the lifecycle's services with a fixed clock and fixed seeds, so that the pages built
from it are the same on every run (the blog's golden and determinism tests rely on that)."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from pbp import db as pbp_db
from pbp import migrations
from pbp.models import Campaign, Scenario
from pbp.paths import DEMO_PACK_DIR
from pbp.services import accounts, campaigns, gms, publishing, rounds
from pbp.services.clock import FixedClock
from pbp.services.demo import DEMO_PASSWORD, SCENARIO, enrol_players, open_round_with_entries

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class World:
    url: str
    campaign: str
    scenario: str
    published: list[int]
    open_round: int | None
    characters: dict[str, int]  # pack character id -> database id


@contextmanager
def fixed_seeds(prefix: str) -> Iterator[None]:
    """Round seeds `prefix-1`, `prefix-2`, ... instead of fresh secrets (only in tests)."""
    counter = itertools.count(1)
    with mock.patch("pbp.services.rounds.secrets.token_hex", lambda _n=32: f"{prefix}-{next(counter)}"):
        yield


def build_world(
    url: str, *, published: int = 2, open_after: bool = True, seed: str = "golden", pack_dir: Path = DEMO_PACK_DIR
) -> World:
    """The demo campaign: GM, two players, `published` rounds played and published a day apart, then (optionally)
    one more round open with entries. Returns the ids the tests need."""
    database = pbp_db.bind(url)
    clock = FixedClock(START)
    with database.connection_context(), fixed_seeds(seed):
        migrations.upgrade(database)
        gm = accounts.create_user("gm", DEMO_PASSWORD, display_name="GM", clock=clock)
        campaign = campaigns.load_campaign(pack_dir, gm_id=gm.id, clock=clock)
        scenario = Scenario.get(Scenario.campaign == campaign.id, Scenario.slug == SCENARIO)
        pcs = enrol_players(campaign.id, scenario.id, campaign.pack["characters"], clock=clock)
        done = []
        for _ in range(published):
            round_id = open_round_with_entries(scenario.id, gm.id, pcs, timedelta(hours=12), clock=clock)
            clock.advance(13 * 3600)
            rounds.resolve_round(round_id, clock=clock)
            publishing.publish_round(round_id, actor_id=gm.id, clock=clock)
            clock.advance(11 * 3600)
            done.append(round_id)
        open_id = None
        if open_after:
            open_id = open_round_with_entries(scenario.id, gm.id, pcs, timedelta(hours=12), clock=clock)
    return World(url, campaign.slug, scenario.slug, done, open_id, {p.pc: p.character_id for p in pcs})


def add_rival_campaign(world: World, tmp: Path) -> None:
    """A second campaign, `rival`, run by its own GM `gm2` (password DEMO_PASSWORD): the GM of another campaign,
    who must reach none of the first campaign's GM pages. And `cogm`, a co-GM of the demo campaign."""
    pack = tmp / "rival"
    shutil.copytree(DEMO_PACK_DIR, pack)
    toml = pack / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('id = "demo"', 'id = "rival"', 1), encoding="utf-8")
    clock = FixedClock(START)
    with pbp_db.bind(world.url).connection_context():
        gm2 = accounts.create_user("gm2", DEMO_PASSWORD, display_name="GM2", clock=clock)
        campaigns.load_campaign(pack, gm_id=gm2.id, clock=clock)
        accounts.create_user("cogm", DEMO_PASSWORD, display_name="CoGM", clock=clock)
        demo = Campaign.get(Campaign.slug == world.campaign)
        gms.add_co_gm(demo.id, "cogm", actor_id=None, clock=clock)


def world_with_rival(folder: Path, **options: Any) -> World:
    """A fresh demo world in `folder` (one round published, one open with entries) beside the rival campaign of
    `gm2`: the GM console's tests change it, so each test gets its own."""
    built = build_world(f"sqlite:///{folder / 'pbp.sqlite3'}", published=1, open_after=True, **options)
    add_rival_campaign(built, folder)
    return built
