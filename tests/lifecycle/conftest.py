"""Fixtures of the lifecycle tests: a fresh database per test, SQLite always and PostgreSQL when
`PBP_TEST_DATABASE_URL` is set (each test then gets its own schema, dropped afterwards), and a small world.

`db_url` is also exported as DATABASE_URL, so subprocesses (`pbp ...`, crash and race workers) use the same one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from urllib.parse import quote

import peewee
import psycopg
import pytest
from argon2 import PasswordHasher

from pbp import db as pbp_db
from pbp import migrations
from pbp.services.clock import FixedClock

PG_URL = os.environ.get("PBP_TEST_DATABASE_URL")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)] if PG_URL else ["sqlite"]
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # 21:00 in Asia/Tokyo
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # tests need speed, not strength


def pg_schema_url(schema: str) -> str:
    """PBP_TEST_DATABASE_URL with its search_path set to `schema` (psycopg passes `options` to the server)."""
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def empty_database(backend: str, folder: Path) -> Iterator[str]:
    """An empty database's URL: a SQLite file in `folder`, or a PostgreSQL schema of its own, dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'pbp.sqlite3'}"
        return
    schema = f"pbp_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield pg_schema_url(schema)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path, monkeypatch) -> Iterator[str]:
    """An empty database's URL, exported as DATABASE_URL."""
    with empty_database(request.param, tmp_path) as url:
        monkeypatch.setenv("DATABASE_URL", url)
        yield url


@pytest.fixture
def db(db_url: str) -> Iterator[peewee.Database]:
    """The migrated database, bound and connected for the test."""
    database = pbp_db.bind(db_url)
    with database.connection_context():
        migrations.upgrade(database)
        yield database


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@dataclass
class World:
    """The demo campaign with a GM, two players whose characters joined the battle scenario."""

    gm: int
    players: list[int]
    campaign: int
    scenario: int
    characters: list[int]
    clock: FixedClock

    def order(self, target: str = "kagachi1") -> dict:
        return {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": [target]}}

    def new_round(self, *, deadline_in: float = 3600, open_it: bool = True, scenario: int | None = None) -> int:
        """The next round of `scenario` (default: the world's), opened unless `open_it` is false."""
        from pbp.services import rounds

        deadline = self.clock.now() + timedelta(seconds=deadline_in)
        rnd = rounds.create_round(scenario or self.scenario, deadline, clock=self.clock)
        if open_it:
            rounds.open_round(rnd.id, clock=self.clock)
        return rnd.id

    def new_scenario(self, slug: str) -> int:
        """Another run of the battle with both characters joined: its rounds do not wait for the world's."""
        from pbp.services import campaigns, scenarios

        run = campaigns.create_scenario(self.campaign, "tama_river", slug=slug, clock=self.clock)
        for uid, cid in zip(self.players, self.characters, strict=True):
            scenarios.join_scenario(run.id, cid, user_id=uid, clock=self.clock)
        return run.id


def make_world(clock: FixedClock, *, scenario_slug: str = "tama_river") -> World:
    from pbp.models import Scenario
    from pbp.paths import DEMO_PACK_DIR
    from pbp.services import accounts, campaigns, characters, scenarios

    gm = accounts.create_user("gm", "gm-password", clock=clock)
    campaign = campaigns.load_campaign(DEMO_PACK_DIR, gm_id=gm.id, clock=clock)
    scenario = Scenario.get(Scenario.campaign == campaign.id, Scenario.slug == scenario_slug)
    players, chars = [], []
    for name, pc in (("player1", "aoi"), ("player2", "aoi")):
        user = accounts.create_user(name, "player-password", clock=clock)
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"][pc], clock=clock)
        scenarios.join_scenario(scenario.id, character.id, user_id=user.id, clock=clock)
        players.append(user.id)
        chars.append(character.id)
    return World(gm.id, players, campaign.id, scenario.id, chars, clock)


@pytest.fixture
def world(db: peewee.Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> World:
    from pbp.services import accounts

    monkeypatch.setattr(accounts, "_HASHER", FAST_HASHER)
    return make_world(clock)


@pytest.fixture
def meanwhile(monkeypatch: pytest.MonkeyPatch) -> Callable[[ModuleType, Callable[[], object]], None]:
    """`meanwhile(module, action)`: run `action` once after a service of `module` has done its reads and just
    before it begins to write (its write transaction, or a re-save's one statement on PostgreSQL,
    `entry_writes.edit_if_unchanged`): what another process committing in between looks like."""

    def arrange(module: ModuleType, action: Callable[[], object]) -> None:
        real, pending = module.write_transaction, [action]

        def run_pending() -> None:
            while pending:
                pending.pop()()

        @contextmanager
        def racing() -> Iterator[None]:
            run_pending()
            with real():
                yield

        monkeypatch.setattr(module, "write_transaction", racing)
        if hasattr(module, "entry_writes"):
            edit = module.entry_writes.edit_if_unchanged
            monkeypatch.setattr(
                module.entry_writes, "edit_if_unchanged", lambda *a, **kw: run_pending() or edit(*a, **kw)
            )

    return arrange


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instance folder holding the demo (SQLite, the embedded default)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    folder = tmp_path / "instance"
    monkeypatch.setenv("PBP_INSTANCE", str(folder))
    assert pbp("demo", "--deadline-in", "600", cwd=tmp_path).returncode == 0
    return folder


def pbp(
    *args: str, cwd: Path | None = None, check: bool = False, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command line in a fresh interpreter from `cwd` (never the project root), `stdin` on its input."""
    return subprocess.run(
        [sys.executable, "-m", "pbp", *args], capture_output=True, text=True, cwd=cwd or "/", check=check, input=stdin
    )
