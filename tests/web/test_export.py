"""`pbp export-site`: every public page, feed, bundle and asset as files; every internal link resolves to a file,
from disk, with no server."""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ET
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from flask import Flask, Response

from pbp import db as pbp_db
from pbp.cli import _register, cli
from pbp.errors import UserError
from pbp.services import publishing, rounds
from pbp.services.clock import FixedClock
from pbp.web.export import ExportError, export_site, file_for, links, relative, relativize
from tests.web.conftest import make_app
from tests.web.world import START, build_world


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def links_of(path: Path) -> list[str]:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.links


@pytest.fixture(scope="module")
def site(world, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    export_site(make_app(world.url), out)
    return out


def test_the_export_leaves_out_the_live_sites_accounts_and_home(site, world):
    """A static copy has no server: no login form, no logout button, no home page of open rounds."""
    written = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert not {"login", "register", "me", "logout"} & {name.split("/")[0] for name in written}
    page = (site / "blog/index.html").read_text(encoding="utf-8")
    assert 'class="account"' not in page and "csrf_token" not in page
    live = make_app(world.url).test_client().get("/blog/").get_data(as_text=True)
    assert 'class="account"' in live and 'href="/login"' in live


def test_paths_map_to_files():
    assert file_for("/blog/") == "blog/index.html"
    assert file_for("/feed.atom") == "feed.atom"
    assert relative("/blog/demo/", "/blog/demo/tama_river/round-1/") == "../../index.html"
    assert relative("/static/site.css", "/blog/") == "../static/site.css"


def test_export_writes_pages_feeds_bundles_and_assets(site):
    for name in ("index.html", "blog/index.html", "blog/demo/index.html", "blog/demo/tama_river/index.html",
                 "blog/demo/tama_river/round-1/index.html", "blog/demo/tama_river/round-2/index.html",
                 "blog/demo/tama_river/round-1/bundle.json", "blog/demo/characters/1/index.html",
                 "blog/demo/tama_river/round-1/en/index.html",
                 "feed.atom", "blog/demo/feed.atom", "static/site.css"):  # fmt: skip
        assert (site / name).is_file(), name
    assert not (site / "blog/demo/tama_river/round-3").exists()
    assert json.loads((site / "blog/demo/tama_river/round-2/bundle.json").read_text())["seed"] == "golden-2"
    ET.parse(site / "feed.atom")


def test_every_internal_link_resolves_to_a_file(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) >= 8
    checked = 0
    for page in pages:
        for link in links_of(page):
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            assert not link.startswith("/"), f"{page}: absolute path {link} breaks from disk"
            target = (page.parent / parts.path).resolve() if parts.path else page  # `#x`: this page
            assert target.is_file(), f"{page.relative_to(site)}: {link} -> missing {target}"
            if parts.fragment:  # a rule or a data entry: the anchor is on the page
                anchor = f'id="{html.escape(unquote(parts.fragment))}"'
                assert anchor in target.read_text(encoding="utf-8"), f"{page.relative_to(site)}: {link}: no {anchor}"
            checked += 1
    assert checked > 50


def test_cli_export_site(world, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", world.url)
    out = tmp_path / "public"
    _register()
    result = CliRunner().invoke(cli, ["export-site", str(out), "--base-url", "https://blog.example/"])
    assert result.exit_code == 0, result.output
    assert "files written" in result.output
    assert "https://blog.example/blog/demo/tama_river/round-1/" in (out / "feed.atom").read_text()
    assert "localhost" not in result.output


def test_cli_export_site_without_a_base_url_says_where_the_feeds_point(world, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", world.url)
    _register()
    result = CliRunner().invoke(cli, ["export-site", str(tmp_path / "public")])
    assert result.exit_code == 0, result.output
    assert "http://localhost/" in result.output and "--base-url" in result.output
    assert "http://localhost/blog/" in (tmp_path / "public" / "feed.atom").read_text()


def test_a_broken_link_fails_the_export_naming_the_page_that_links_to_it(tmp_path):
    app = Flask("broken")
    app.add_url_rule("/blog/", "index", lambda: '<a href="/blog/a/">a</a>')
    app.add_url_rule("/blog/a/", "a", lambda: '<p>intro <a href="/blog/nope/">old</a></p>')
    app.add_url_rule("/feed.atom", "feed", lambda: Response("<feed/>", mimetype="application/atom+xml"))
    with pytest.raises(ExportError) as failed:
        export_site(app, tmp_path)
    assert str(failed.value) == "cannot export the site: /blog/a/ links to /blog/nope/, which answers HTTP 404"
    assert isinstance(failed.value, UserError)  # the CLI's one line and exit 2


def test_a_link_the_site_redirects_is_exported_to_where_it_ends(tmp_path):
    """A GM's link without its trailing slash: the live site redirects it; the export (no server to redirect) links
    straight to the final page's file."""
    app = Flask("redirecting")
    app.add_url_rule("/blog/", "index", lambda: '<a href="/blog/a">a</a>')
    app.add_url_rule("/blog/a/", "a", lambda: "<p>the page</p>")
    app.add_url_rule("/feed.atom", "feed", lambda: Response("<feed/>", mimetype="application/atom+xml"))
    assert app.test_client().get("/blog/a").status_code == 308
    written = export_site(app, tmp_path)
    assert "blog/a/index.html" in written
    assert (tmp_path / "blog" / "index.html").read_text() == '<a href="a/index.html">a</a>'


def test_a_story_quoting_link_markup_exports_with_its_text_untouched(tmp_path):
    """A story's prose is text, not links: quoting `href="/nowhere/"` (a page that does not exist) must not fail the
    export, and quoting `href="/blog/"` (one that does) must not have its words rewritten to a file path."""
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=1)
    prose = '葵は無線に叫んだ。 href="/nowhere/" と href="/blog/" と src="/static/x.png"、暗号だ。'
    clock = FixedClock(START + timedelta(days=3))
    with pbp_db.bind(world.url).connection_context():
        rounds.resolve_round(world.open_round, clock=clock)
        publishing.edit_report(world.open_round, prose, clock=clock)
        publishing.publish_round(world.open_round, clock=clock)
    app = make_app(world.url)
    page = f"/blog/demo/tama_river/round-{len(world.published) + 1}/"
    live = app.test_client().get(page).get_data(as_text=True)
    quoted = next(line for line in live.splitlines() if "暗号だ" in line and "<p>" in line)
    assert 'href="/nowhere/"' in quoted and 'href="/blog/"' in quoted  # the story holds the markup as text
    export_site(app, tmp_path / "site")
    exported = (tmp_path / "site" / file_for(page)).read_text(encoding="utf-8")
    assert quoted in exported
    assert not (tmp_path / "site" / "nowhere").exists()


def test_only_link_attributes_are_rewritten():
    page = (
        '<p title=\'href="/blog/"\'>href="/blog/"</p><!-- <a href="/blog/"> -->'
        "<script>var a = '<a href=\"/blog/\">';</script>"
        "<a class=x href='/blog/demo/?p=2&amp;q=1#top'>demo</a><img src=\"/static/a.png\"/>"
    )
    assert links(page) == ["/blog/demo/", "/static/a.png"]
    assert relativize(page, "/blog/") == (
        '<p title=\'href="/blog/"\'>href="/blog/"</p><!-- <a href="/blog/"> -->'
        "<script>var a = '<a href=\"/blog/\">';</script>"
        '<a class="x" href="demo/index.html?p=2&amp;q=1#top">demo</a><img src="../static/a.png"/>'
    )
