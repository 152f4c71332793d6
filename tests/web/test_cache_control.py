"""`Cache-Control: no-store` on every answer to a signed-in user and on every GM page (issue 33: a shared or back-
button cache kept pages with a user's name, their forms' CSRF tokens, the GM's secrets); an anonymous reader's
public pages keep today's caching, and the reader page cache still serves them kept."""

from __future__ import annotations

import pytest

from pbp.web import page_cache
from tests.web.conftest import make_app, signed_in

PUBLIC = ["/blog/", "/blog/demo/tama_river/round-1/", "/campaigns/demo/data/", "/feed.atom"]
SIGNED_IN = ["/", "/me", "/blog/", "/campaigns/demo/data/", "/rounds/3/entry/1", "/no-such-page"]
GM = ["/gm/", "/gm/demo/", "/gm/demo/rounds/3/", "/gm/demo/rounds/1/report", "/gm/demo/audit"]


@pytest.mark.parametrize("url", SIGNED_IN)
def test_every_page_for_a_signed_in_player_is_no_store(world, url):
    response = signed_in(world.url, "player1").get(url)
    assert response.headers.get("Cache-Control") == "no-store", (url, response.status_code)


@pytest.mark.parametrize("url", GM)
def test_every_gm_page_is_no_store(world, url):
    response = signed_in(world.url, "gm").get(url)
    assert response.status_code == 200
    assert response.headers.get("Cache-Control") == "no-store"


def test_a_gm_page_refused_or_redirected_is_no_store_too(world):
    assert make_app(world.url).test_client().get("/gm/demo/").headers.get("Cache-Control") == "no-store"
    assert signed_in(world.url, "player1").get("/gm/demo/").headers.get("Cache-Control") == "no-store"


def test_the_answer_to_a_signed_in_post_is_no_store(world):
    client = signed_in(world.url, "player1")
    response = client.post("/me/locale", data={"locale": "xx"})  # no CSRF token: refused, still the user's answer
    assert response.headers.get("Cache-Control") == "no-store"


@pytest.mark.parametrize("url", PUBLIC)
def test_an_anonymous_readers_public_page_keeps_its_caching_and_is_kept(world, url):
    app = make_app(world.url)
    client = app.test_client()
    first, kept = client.get(url), client.get(url)
    assert first.status_code == kept.status_code == 200
    assert "no-store" not in first.headers.get("Cache-Control", "")
    assert "no-store" not in kept.headers.get("Cache-Control", "")
    cache = page_cache.of(app)
    assert cache is not None and len(cache) == 1  # the reader page cache kept it
