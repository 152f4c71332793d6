"""The database belongs to the app: two apps in one process, each on its own SQLite file, never read each other's
data, whether their requests interleave in one thread or run at once in two (before, the second `create_app`
re-pointed the first app at its database)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pbp import db as pbp_db
from pbp import migrations
from pbp.services import accounts
from tests.web.conftest import log_in, make_app
from tests.web.world import build_world


def _accounts_only(url: str, name: str) -> None:
    database = pbp_db.make_database(url)
    with pbp_db.using(database), database.connection_context():
        migrations.upgrade(database)
        accounts.create_user(name, "a-long-password", display_name=name.upper())


def test_two_apps_each_see_only_their_own_database(tmp_path):
    world = build_world(f"sqlite:///{tmp_path / 'a.sqlite3'}", published=1, open_after=False)
    b_url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    _accounts_only(b_url, "bee")
    app_a, app_b = make_app(world.url), make_app(b_url)
    a, b = app_a.test_client(), app_b.test_client()
    for _ in range(3):  # interleaved requests
        assert "ヤマツカミ迎撃戦線" in a.get("/").get_data(as_text=True)
        assert "キャンペーンはまだありません。" in b.get("/").get_data(as_text=True)
        assert a.get("/blog/demo/").status_code == 200
        assert b.get("/blog/demo/").status_code == 404
    assert log_in(b, "player1").status_code == 422  # a's account, unknown to b
    assert log_in(b, "bee", "a-long-password").status_code == 303
    assert log_in(a, "bee", "a-long-password").status_code == 422
    assert log_in(a, "player1").status_code == 303
    assert "(player1)" in a.get("/me").get_data(as_text=True)
    assert "(bee)" in b.get("/me").get_data(as_text=True)


def test_two_apps_in_two_threads_at_once(tmp_path):
    urls = {name: f"sqlite:///{tmp_path / f'{name}.sqlite3'}" for name in ("ann", "bob")}
    for name, url in urls.items():
        _accounts_only(url, name)
    apps = {name: make_app(url, LOGIN_RATE_LIMIT="1000 per minute") for name, url in urls.items()}

    def visit(name: str) -> set[str]:
        client = apps[name].test_client()
        assert log_in(client, name, "a-long-password").status_code == 303
        seen = set()
        for _ in range(40):
            header = client.get("/").get_data(as_text=True).split("</header>")[0]
            seen.update(n for n in ("ANN", "BOB") if f">{n}</a>" in header)
        return seen

    with ThreadPoolExecutor(2) as pool:
        ann, bob = pool.map(visit, ["ann", "bob"])
    assert (ann, bob) == ({"ANN"}, {"BOB"})


def test_the_process_wide_binding_stays_the_clis(tmp_path):
    bound = pbp_db.bind(f"sqlite:///{tmp_path / 'cli.sqlite3'}")
    app_url = f"sqlite:///{tmp_path / 'app.sqlite3'}"
    _accounts_only(app_url, "ann")
    make_app(app_url).test_client().get("/")
    assert pbp_db.database.obj is bound


def test_an_app_keeps_its_connection_between_requests_and_drops_it_after_an_error(tmp_path):
    """One connection per thread for the app's life (a new one per request cost more than a blog page's queries);
    a request that failed with an exception closes it, so a broken connection is never used again."""
    world = build_world(f"sqlite:///{tmp_path / 'a.sqlite3'}", published=1, open_after=False)
    app = make_app(world.url)
    database = app.extensions["pbp.database"]
    client = app.test_client()

    @app.get("/boom")
    def boom() -> str:
        database.execute_sql("SELECT 1")
        raise RuntimeError("boom")

    assert client.get("/blog/demo/").status_code == 200
    first = database.connection()
    assert client.get("/blog/").status_code == 200
    assert database.connection() is first
    app.testing = False  # the 500 page, as served, rather than the exception raised into the test
    assert client.get("/boom").status_code == 500
    assert database.is_closed()
    assert client.get("/blog/demo/").status_code == 200
