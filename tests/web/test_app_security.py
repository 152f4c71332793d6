"""The app factory's security defaults: a real signing key per instance, CSRF on every POST, no Host header but
the site's own names (a foreign one would be echoed into og:url and the feeds)."""

from __future__ import annotations

import stat
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from pbp.web import create_app, instance_secret_key
from tests.web.conftest import SITE_URL, make_app


def test_the_signing_key_is_random_per_instance_kept_private_and_stable(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "a"))
    first = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}).config["SECRET_KEY"]
    again = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}).config["SECRET_KEY"]
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "b"))
    other = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'b.db'}"}).config["SECRET_KEY"]
    assert first == again and first != other and len(first) == 64
    assert stat.S_IMODE((tmp_path / "a" / "secret_key").stat().st_mode) == 0o600


def test_workers_starting_together_on_a_new_instance_share_one_key(tmp_path) -> None:
    """gunicorn's workers make the key at once on a first start: each reads the same whole key, none fails."""
    folder = tmp_path / "instance"
    start = threading.Barrier(8)

    def make() -> str:
        start.wait()
        return instance_secret_key(folder)

    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: make(), range(8)))
    assert len(keys) == 1 and len(keys.pop()) == 64
    assert [p.name for p in folder.iterdir()] == ["secret_key"]  # no draft left behind


def test_a_post_without_a_csrf_token_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})

    @app.post("/probe")
    def probe() -> str:
        return "accepted"

    assert app.test_client().post("/probe", data={"x": "1"}).status_code == 400


#: Every page and feed that carries absolute URLs (og:url, the feeds' links), and the redirect that builds one.
ABSOLUTE = [
    "/blog/demo/tama_river/round-1/",
    "/blog/",
    "/feed.atom",
    "/blog/demo/feed.atom",
    "/blog/demo/tama_river/round-1",
]


@pytest.mark.parametrize("site_url", [None, SITE_URL], ids=["no-SITE_URL", "SITE_URL"])
@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "localhost.evil.example", "127.0.0.1.nip.io"])
def test_a_foreign_host_header_is_refused_never_echoed(world, site_url, host) -> None:
    client = make_app(world.url, SITE_URL=site_url).test_client()
    for path in ABSOLUTE:
        response = client.get(path, headers={"Host": host})
        assert response.status_code == 400, (path, response.status_code)
        assert "evil" not in response.get_data(as_text=True) and "nip.io" not in response.get_data(as_text=True)
        assert "evil" not in response.headers.get("Location", "")


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "localhost"])
def test_make_run_on_this_machine_builds_urls_from_its_own_name(world, host) -> None:
    """Without SITE_URL the development server (`make run`, http://127.0.0.1:5000/) answers its own names."""
    client = make_app(world.url, SITE_URL=None).test_client()
    page = client.get("/blog/demo/tama_river/round-1/", headers={"Host": host})
    assert page.status_code == 200
    assert f'<meta property="og:url" content="http://{host}/blog/demo/tama_river/round-1/">' in page.text
    assert f"http://{host}/blog/demo/tama_river/round-1/" in client.get("/feed.atom", headers={"Host": host}).text


def test_the_configured_site_and_trusted_hosts_are_answered(world) -> None:
    app = make_app(world.url, SITE_URL="https://blog.example/")
    assert app.test_client().get("/feed.atom", headers={"Host": "blog.example"}).status_code == 200
    app = make_app(world.url, SITE_URL=None, TRUSTED_HOSTS=[".pbp.example"])
    feed = app.test_client().get("/feed.atom", headers={"Host": "www.pbp.example"})
    assert feed.status_code == 200 and "http://www.pbp.example/blog/" in feed.text
    assert app.test_client().get("/feed.atom", headers={"Host": "localhost"}).status_code == 400
