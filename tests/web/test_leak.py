"""Nothing secret reaches the public: a canary planted in every GM-secret field of the demo (GM notes, scenario data
no published round has used, enemy types and gimmicks not marked public, an unpublished round's entries, draft and
seed) appears in no page, feed, game-data page, search result or export."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Entry, ScenarioSecret
from pbp.paths import DEMO_PACK_DIR
from pbp.services import publishing, rounds
from pbp.services.clock import FixedClock
from pbp.web.data.catalog import SECTIONS
from pbp.web.export import export_site
from tests.web.conftest import make_app
from tests.web.world import START, build_world

CANARY = "CANARY-7f3a9c"
SECRET_SEED_PREFIX = "leakseed"
#: Sections of the pack whose text no published round uses: the scene never played, enemies never fielded (and not
#: marked public: the game-data pages leave them out).
UNUSED = ("scenarios.hangar_eve", "enemies.kagachi_elder", "enemies.orochi")
#: A battle never played, its only gimmick not marked public (R-PLAY-3): the game-data pages must not show it.
SECRET_GIMMICK = f"""
[scenarios.night_raid]
ja = "夜襲"
en = "Night raid"
kind = "battle"
pc_starts = [[0, 0], [40, 0], [0, 40], [40, 40]]

[[scenarios.night_raid.enemies]]
id = "k1"
type = "kagachi"
position = [600, 100]

[[scenarios.night_raid.gimmicks]]
id = "ambush"
ja = "{CANARY} 伏兵"
en = "{CANARY} Ambush"
timing = "round_start"
effects = [{{ kind = "dice", value = 1, rounds = 1 }}]
description = "{CANARY} 第2ラウンドに伏兵が現れる。"
"""


def plant(pack: Path) -> None:
    """Copy-edit the demo pack: the canary at the head of every GM note and of every text of the unused sections."""
    for toml in pack.glob("*.toml"):
        text = toml.read_text(encoding="utf-8")
        text = text.replace('gm_notes = """\n', f'gm_notes = """\n{CANARY} ')
        for section in UNUSED:
            head = re.search(rf"^\[{re.escape(section)}\]\n", text, re.M)
            if head is None:
                continue
            end = re.search(r"^\[(?!\[?" + re.escape(section) + r"[.\]])", text[head.end() :], re.M)
            stop = head.end() + end.start() if end else len(text)
            body = re.sub(r'\b(ja|en|description) = ("""\n|")', rf"\1 = \2{CANARY} ", text[head.end() : stop])
            text = text[: head.end()] + body + text[stop:]
        if toml.name == "scenarios.toml":
            text += SECRET_GIMMICK
        toml.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def leaky(tmp_path_factory):
    root = tmp_path_factory.mktemp("leak")
    pack = root / "demo"
    shutil.copytree(DEMO_PACK_DIR, pack)
    plant(pack)
    assert (pack / "scenarios.toml").read_text(encoding="utf-8").count(CANARY) >= 7
    world = build_world(f"sqlite:///{root / 'pbp.sqlite3'}", pack_dir=pack, seed=SECRET_SEED_PREFIX)
    database = pbp_db.bind(world.url)
    clock = FixedClock(START)
    clock.advance(3 * 24 * 3600)
    with database.connection_context():
        assert ScenarioSecret.select().where(ScenarioSecret.gm_notes.contains(CANARY)).count() >= 1
        # The open round: resolved but not published, its entries and its draft full of canaries.
        Entry.update(prose=f"「{CANARY}」 secret plan").where(Entry.round == world.open_round).execute()
        rounds.resolve_round(world.open_round, clock=clock)
        publishing.edit_report(world.open_round, f"draft {CANARY}", clock=clock)
    return world, root


def secrets_of(world) -> list[str]:
    return [CANARY, f"{SECRET_SEED_PREFIX}-{len(world.published) + 1}"]


def test_no_page_or_feed_leaks(leaky):
    world, _ = leaky
    client = make_app(world.url).test_client()
    urls = ["/blog/", "/blog/demo/", "/blog/demo/tama_river/", "/blog/demo/hangar_eve/", "/feed.atom",
            "/blog/demo/feed.atom", "/blog/demo/characters/1/", "/blog/demo/characters/2/"]  # fmt: skip
    urls += [f"/blog/demo/tama_river/round-{n}/{f}" for n in (1, 2, 3) for f in ("", "bundle.json", "en/")]
    urls += ["/campaigns/demo/data/", *(f"/campaigns/demo/data/{s}/" for s in SECTIONS), "/rules/pool/"]
    searches = ("CANARY", "カガチ", "伏兵", "ambush", "オロチ")  # a query is echoed: never the whole canary
    urls += [f"/campaigns/demo/data/search?q={q}" for q in searches]
    for url in urls:
        response = client.get(url)
        body = response.get_data(as_text=True)
        assert response.status_code in (200, 404), url
        for secret in secrets_of(world):
            assert secret not in body, f"{secret} leaks on {url}"
    assert client.get("/blog/demo/tama_river/round-3/").status_code == 404


def test_no_exported_file_leaks(leaky):
    world, root = leaky
    out = root / "site"
    files = export_site(make_app(world.url), out)
    assert len(files) >= 10
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()  # the favicon is binary: a secret is looked for as its UTF-8 bytes
            for secret in secrets_of(world):
                assert secret.encode() not in data, f"{secret} leaks in {path.relative_to(out)}"


def test_the_canary_would_be_seen(leaky):
    """The planted secrets are really in the database: the test above would fail if a page showed them."""
    world, _ = leaky
    database = pbp_db.bind(world.url)
    with database.connection_context():
        assert Entry.select().where(Entry.prose.contains(CANARY)).exists()
        pack = Campaign.get(Campaign.slug == "demo").pack
    assert CANARY in pack["scenarios"]["night_raid"]["gimmicks"][0]["ja"] and CANARY in pack["enemies"]["orochi"]["ja"]
