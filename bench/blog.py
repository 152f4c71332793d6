"""Reader pages as battles grow (issue 14 §5): the blog index and a report page served by the app (Flask's test
client, the whole request: routing, queries, templates) for a published round of 3 units and one of 260 units
(200 PCs and 60 enemies, `bench._big_battle`), each in its own SQLite database. The pages are made at every request
(`PAGE_CACHE_BYTES = 0`): a page kept whole for anonymous readers costs the same at any size, so what is measured is
the making of it.

The baseline is the 3-unit battle itself: the figure is the ratio 260 / 3 for each page. Goal: about the same cost
(at most 2x) whatever the battle's size.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from bench._timing import interleaved

REPEAT = int(os.environ.get("PBP_BENCH_BLOG_REPEAT", "15"))
GOAL_RATIO = 2.0


def _site(folder: Path, players: int, enemies: int) -> tuple[Any, list[str]]:
    """A database with one published round of `players + enemies` units, and an app on it: (client, pages)."""
    from bench._big_battle import published_battle
    from pbp import db as pbp_db
    from pbp import migrations
    from pbp.web import create_app

    url = f"sqlite:///{folder / 'pbp.sqlite3'}"
    database = pbp_db.bind(url)
    with database.connection_context():
        migrations.upgrade(database)
        index, report = published_battle(players, enemies)
    config = {"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": True, "PAGE_CACHE_BYTES": 0}
    client = create_app(config).test_client()
    for path in (index, report):
        assert client.get(path).status_code == 200, path
    return client, [index, report]


def main() -> None:
    from argon2 import PasswordHasher, profiles

    from pbp.services import accounts

    accounts._HASHER = PasswordHasher.from_parameters(profiles.CHEAPEST)  # making 200 accounts is not measured
    with tempfile.TemporaryDirectory() as small_dir, tempfile.TemporaryDirectory() as big_dir:
        small, (index, report) = _site(Path(small_dir), 1, 2)
        big, _ = _site(Path(big_dir), 200, 60)
        t = interleaved(
            [lambda: small.get(index), lambda: big.get(index), lambda: small.get(report), lambda: big.get(report)],
            REPEAT,
        )
    worst = 0.0
    for name, (few, many) in (("blog index", t[0:2]), ("report page", t[2:4])):
        ratio = many / few
        worst = max(worst, ratio)
        print(f"{name}: {few * 1000:.1f} ms at 3 units, {many * 1000:.1f} ms at 260 units: ratio {ratio:.2f}")
    verdict = "met" if worst <= GOAL_RATIO else "MISSED"
    print(f"goal: each page at 260 units within {GOAL_RATIO:g}x its cost at 3: {verdict}")


if __name__ == "__main__":
    main()
