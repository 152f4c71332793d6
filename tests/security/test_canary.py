"""No GM secret reaches anyone but the campaign's GMs: a canary planted in every GM-secret text of the demo pack
(the scenarios' GM notes, the enemies no scenario shows, a hidden gimmick: tests/web/test_leak.py plants it; a
scene's title and description are its public face, shown for sign-up, so they are left out here) appears on no
page, feed or bundle reached by any role, crawling every link from every page of the access matrix, and in no file
of `pbp export-site`; the one place it may appear is a GM page of its own campaign, seen by that campaign's GMs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import deque
from html.parser import HTMLParser
from unittest import mock
from urllib.parse import urljoin, urlsplit

import pytest

from pbp import db as pbp_db
from pbp.models import ScenarioSecret
from pbp.paths import DEMO_PACK_DIR, PROJECT_ROOT
from tests.security.test_hostile_input import client_as
from tests.web import test_leak
from tests.web.conftest import log_in, make_app
from tests.web.test_access import MATRIX, ROLES
from tests.web.test_leak import CANARY, plant
from tests.web.world import add_rival_campaign, build_world

#: The pack's sections that are secret as a whole (enemy types no scenario shows and not marked public).
SECRET_SECTIONS = ("enemies.kagachi_elder", "enemies.orochi")
#: Who may see a GM secret of the demo campaign, and where.
ALLOWED = {"GM": "/gm/demo/"}
MAX_PAGES = 400  # per role: the crawl stops there (the demo has far fewer)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("canary")
    pack = root / "demo"
    shutil.copytree(DEMO_PACK_DIR, pack)
    with mock.patch.object(test_leak, "UNUSED", SECRET_SECTIONS):
        plant(pack)
    world = build_world(f"sqlite:///{root / 'pbp.sqlite3'}", pack_dir=pack)
    add_rival_campaign(world, root)
    with pbp_db.bind(world.url).connection_context():
        assert ScenarioSecret.select().where(ScenarioSecret.gm_notes.contains(CANARY)).exists()
    return world, root


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("a", "link") and values.get("href"):
            self.links.append(values["href"] or "")


def _same_site(base: str, href: str) -> str | None:
    """The local path (with its query) a link leads to, or None for another site, a download or a file."""
    parts = urlsplit(urljoin("http://localhost" + base, href))
    if parts.netloc not in ("localhost", "pbp.example") or parts.path.startswith("/static/"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def crawl(client, start: list[str]) -> dict[str, str]:
    """Every page reachable by GET from `start` following the site's own links: url -> body."""
    queue, seen, bodies = deque(start), set(start), {}
    while queue and len(bodies) < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        body = response.get_data(as_text=True)
        bodies[url] = body
        if response.status_code in (301, 302, 303, 307, 308):
            target = _same_site(url, response.headers["Location"])
            if target and target not in seen:
                seen.add(target)
                queue.append(target)
        if response.mimetype in ("text/html", "application/atom+xml"):
            reader = _Links()
            reader.feed(body)
            for href in reader.links:
                target = _same_site(url, href)
                if target and target not in seen:
                    seen.add(target)
                    queue.append(target)
    return bodies


#: Every page of the access matrix but the files (the stylesheet, the icon): they are the same for everyone.
FILES = ("/static/<path:filename>", "/favicon.ico")
START = [url for (rule, method), (url, _form, _status) in MATRIX.items() if method == "GET" and rule not in FILES]


@pytest.mark.parametrize("role", [*ROLES, "co-GM"])
def test_no_role_sees_the_canary_outside_its_own_gm_pages(planted, role):
    world, _ = planted
    app = make_app(world.url, LOGIN_RATE_LIMIT="100000 per minute")
    if role == "co-GM":
        client = app.test_client()
        assert log_in(client, "cogm").status_code == 303
        allowed = ALLOWED["GM"]
    else:
        client = client_as(app, role)
        allowed = ALLOWED.get(role)
    pages = crawl(client, START)
    assert len(pages) >= 30
    leaks = [url for url, body in pages.items() if CANARY in body and not (allowed and url.startswith(allowed))]
    assert not leaks, f"{role} sees the GM secret on {leaks}"


def test_pbp_export_site_holds_no_canary(planted):
    world, root = planted
    out = root / "export"
    env = {**os.environ, "DATABASE_URL": world.url, "PBP_INSTANCE": str(root / "instance")}
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "export-site", str(out), "--base-url", "https://pbp.example/"],
        env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) >= 10
    leaks = [str(p.relative_to(out)) for p in files if CANARY.encode() in p.read_bytes()]
    assert not leaks
