"""Golden reports: the demo battle with fixed seeds, played through the lifecycle, gives the stored Japanese report
page and English story; the same seeds twice give byte-identical HTML. PBP_UPDATE_GOLDEN=1 rewrites the files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbp import db as pbp_db
from pbp.reports import draft_report
from pbp.services.publishing import round_bundle
from pbp.services.rounds import round_prose
from tests.web.conftest import make_app
from tests.web.world import build_world

GOLDEN = Path(__file__).parent / "golden"


def pages(url: str) -> dict[str, str]:
    client = make_app(url).test_client()
    paths = ["/blog/", "/feed.atom"] + [f"/blog/demo/tama_river/round-{n}/" for n in (1, 2)]
    return {p: client.get(p).get_data(as_text=True) for p in paths}


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBP_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed (PBP_UPDATE_GOLDEN=1 to accept)"


def test_same_seed_twice_gives_identical_html(world, tmp_path):
    again = build_world(f"sqlite:///{tmp_path / 'again.sqlite3'}")
    assert pages(again.url) == pages(world.url)


@pytest.mark.parametrize("number", [1, 2])
def test_golden_japanese_report_page(world, number):
    html = pages(world.url)[f"/blog/demo/tama_river/round-{number}/"]
    check(f"report-round-{number}.ja.html", html.split("<main>", 1)[1].split("</main>", 1)[0])


@pytest.mark.parametrize("number", [1, 2])
def test_golden_english_report(world, number):
    database = pbp_db.bind(world.url)
    with database.connection_context():
        round_id = world.published[number - 1]
        story = draft_report(round_bundle(round_id), prose=round_prose(round_id), locale="en", strict=True)
    check(f"report-round-{number}.en.md", story)
