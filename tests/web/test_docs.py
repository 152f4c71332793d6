"""docs/reports.md (the blog) and docs/web.md (accounts, security, health) document every route, setting and site
command, and none that does not exist."""

from __future__ import annotations

import re

import click

from pbp.cli import site
from pbp.paths import PROJECT_ROOT
from pbp.web import DEFAULTS, create_app

DOC = (PROJECT_ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
WEB_DOC = (PROJECT_ROOT / "docs" / "web.md").read_text(encoding="utf-8")


def _rows(prefix: str, doc: str = DOC) -> set[str]:
    return set(re.findall(rf"^\| `({prefix}[^`]*)`", doc, re.M))


def test_every_route_is_documented(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": "test-key"})
    routes = {re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", rule.rule) for rule in app.url_map.iter_rules()}
    assert _rows("/") | _rows("/", WEB_DOC) == routes


def test_every_setting_is_documented():
    documented = re.findall(r"^\| `([A-Z_]+)` \|", DOC + WEB_DOC, re.M)
    assert sorted(documented) == sorted(DEFAULTS)  # each once


def test_every_site_command_is_documented():
    group = click.Group()
    site.register(group)
    documented = {" ".join(row.split()[:2]) for row in _rows("pbp ")}
    assert documented == {f"pbp {name}" for name in group.commands}
