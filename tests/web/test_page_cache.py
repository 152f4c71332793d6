"""Public pages kept whole for anonymous readers (pbp.web.page_cache): made once per site version, address and
language; a change a reader can see (a publication, a correction, an edited name) shows at once in every worker;
a signed-in user's page, a message, an error page, a POST are never kept; kept pages carry the security headers."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest

from pbp import db as pbp_db
from pbp.models import Character, Entry, Report, User
from pbp.services import characters, entries, publishing, rounds
from pbp.services.clock import FixedClock
from pbp.web import page_cache
from pbp.web.blog import views
from pbp.web.page_cache import Page, PageCache
from tests.web.conftest import make_app, signed_in
from tests.web.world import START, World, build_world

REPORT = "/blog/demo/tama_river/round-1/"


@pytest.fixture
def fresh(tmp_path) -> World:
    """A world of its own (these tests change it): one round published, one open with entries."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=1)


def _views_run(client, url: str, times: int, **kwargs) -> tuple[list[str], int]:
    """The page `times` times, and how often the blog's queries ran to make it."""
    with mock.patch.object(views.queries, "reports_page", wraps=views.queries.reports_page) as made:
        pages = [client.get(url, **kwargs).get_data(as_text=True) for _ in range(times)]
    return pages, made.call_count


def test_an_anonymous_readers_page_is_made_once_and_served_kept(fresh):
    pages, made = _views_run(make_app(fresh.url).test_client(), "/blog/", 3)
    assert made == 1
    assert pages[0] == pages[1] == pages[2] and "多摩川" in pages[0]


def test_a_kept_page_carries_the_security_headers_and_its_type(fresh):
    client = make_app(fresh.url).test_client()
    first, kept = client.get("/feed.atom"), client.get("/feed.atom")
    assert kept.get_data() == first.get_data()
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Content-Type"):
        assert kept.headers[name] == first.headers[name], name
    assert "Accept-Language" in kept.headers["Vary"]


def test_each_language_has_its_own_page(fresh):
    client = make_app(fresh.url).test_client()
    ja = client.get("/blog/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    en = client.get("/blog/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="ja">' in ja and '<html lang="en">' in en
    assert client.get("/blog/", headers={"Accept-Language": "en"}).get_data(as_text=True) == en


def test_a_publication_shows_at_once_in_another_worker(fresh):
    """Two apps on one database are two gunicorn workers: the one that kept the index sees the new report."""
    reader, other = make_app(fresh.url).test_client(), make_app(fresh.url).test_client()
    before = reader.get("/blog/").get_data(as_text=True)
    assert "round-2/" not in before
    with pbp_db.bind(fresh.url).connection_context():
        clock = FixedClock(START + timedelta(days=5))
        assert rounds.resolve_round(fresh.open_round, clock=clock).status == "resolved"
        publishing.publish_round(fresh.open_round, actor_id=User.get(User.name == "gm").id, clock=clock)
    assert "round-2/" in reader.get("/blog/").get_data(as_text=True)
    assert "round-2/" in other.get("/blog/").get_data(as_text=True)


def test_an_edited_name_shows_at_once(fresh):
    client = make_app(fresh.url).test_client()
    assert "改名した葵" not in client.get(REPORT).get_data(as_text=True)
    with pbp_db.bind(fresh.url).connection_context():
        character = Character.get_by_id(fresh.characters["aoi"])
        sheet = {**character.sheet, "ja": "改名した葵"}
        characters.edit_character(character.id, character.owner_id, sheet, clock=FixedClock(START + timedelta(days=3)))
    assert "改名した葵" in client.get(REPORT).get_data(as_text=True)


def test_entry_saves_leave_the_kept_pages_kept(fresh):
    """A deadline rush writes entries only: the blog's pages stay kept through it."""
    client = make_app(fresh.url).test_client()
    _views_run(client, "/blog/", 1)
    with pbp_db.bind(fresh.url).connection_context():
        entry = Entry.select().where(Entry.round == fresh.open_round).first()
        entries.save_entry(
            fresh.open_round, entry.character_id, user_id=entry.character.owner_id, order=entry.order,
            prose="書き直した。", clock=FixedClock(START + timedelta(days=1, hours=1)),
        )  # fmt: skip
    assert _views_run(client, "/blog/", 2)[1] == 0


def test_a_signed_in_users_page_is_never_kept_nor_served_to_them(fresh):
    gm = signed_in(fresh.url, "gm")
    mine, made = _views_run(gm, "/blog/", 2)
    assert made == 2 and "GM" in mine[0] and "/logout" in mine[0]
    anonymous = make_app(fresh.url).test_client()
    anonymous.get("/blog/")
    assert "/logout" not in anonymous.get("/blog/").get_data(as_text=True)
    assert "/logout" in gm.get("/blog/").get_data(as_text=True)  # a kept anonymous page is not theirs either


def test_a_session_with_a_message_to_show_gets_a_page_of_its_own(fresh):
    client = make_app(fresh.url).test_client()
    client.get("/blog/")
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "一度だけの知らせ")]
    assert _views_run(client, "/blog/", 1)[1] == 1


def test_error_pages_and_the_write_paths_are_not_kept(fresh):
    app = make_app(fresh.url)
    client = app.test_client()
    for _ in range(2):
        assert client.get("/blog/nowhere/").status_code == 404
    cache = page_cache.of(app)
    assert cache is not None and len(cache) == 0
    assert client.get("/login").status_code == 200  # not a public blueprint
    assert len(cache) == 0


def test_the_setting_turns_it_off(fresh):
    app = make_app(fresh.url, PAGE_CACHE_BYTES=0)
    assert page_cache.of(app) is None
    assert _views_run(app.test_client(), "/blog/", 2)[1] == 2


def test_a_hand_edit_in_the_database_shows_too(fresh):
    """The version moves with the database's triggers, so a write outside the services is seen as well."""
    client = make_app(fresh.url).test_client()
    client.get(REPORT)
    database = pbp_db.bind(fresh.url)
    with database.connection_context():
        Report.update(html="<p>手で直した物語。</p>").execute()
    assert "手で直した物語。" in client.get(REPORT).get_data(as_text=True)


def test_the_cache_drops_the_least_recently_used_pages_past_its_bytes():
    cache = PageCache(max_bytes=10)
    cache.put(("a",), Page(b"1234", []))
    cache.put(("b",), Page(b"1234", []))
    assert cache.get(("a",)) is not None  # a is now the most recent
    cache.put(("c",), Page(b"1234", []))
    assert cache.get(("b",)) is None and cache.get(("a",)) is not None and cache.get(("c",)) is not None
    cache.put(("a",), Page(b"12345678", []))  # replacing a page counts its new size only
    assert cache.get(("c",)) is None and cache.get(("a",)) == Page(b"12345678", [])
