"""A blog URL whose campaign or scenario segment is no slug (a `%00` in it, which PostgreSQL refuses to even compare
with) is a 404 on both databases, decided by the URL converter before any query: never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient
from werkzeug.exceptions import NotFound

from tests.lifecycle.conftest import BACKENDS, empty_database
from tests.web.conftest import make_app
from tests.web.world import World, build_world

#: Every blog route with a string segment, `{c}` the campaign and `{s}` the scenario.
ROUTES = [
    "/blog/{c}/",
    "/blog/{c}/page/2/",
    "/blog/{c}/feed.atom",
    "/blog/{c}/characters/1/",
    "/blog/{c}/{s}/",
    "/blog/{c}/{s}/round-1/",
    "/blog/{c}/{s}/round-1/en/",
    "/blog/{c}/{s}/round-1/bundle.json",
]
NOT_SLUGS = {"NUL": "%00", "NUL inside": "tama%00river", "fullwidth": "ｔａｍａ", "too long": "a" * 65}


@pytest.fixture(scope="module", params=BACKENDS)
def blog(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[World, FlaskClient]]:
    with empty_database(request.param, tmp_path_factory.mktemp("db")) as url:
        world = build_world(url, published=1, open_after=False)
        yield world, make_app(url).test_client()


def _urls(world: World, bad: str) -> list[str]:
    """Each route with `bad` in one string segment at a time, the other segment a real one."""
    urls = [route.format(c=bad, s=world.scenario) for route in ROUTES]
    return urls + [route.format(c=world.campaign, s=bad) for route in ROUTES if "{s}" in route]


@pytest.mark.parametrize("bad", NOT_SLUGS.values(), ids=NOT_SLUGS.keys())
def test_a_segment_that_is_no_slug_is_not_found(blog: tuple[World, FlaskClient], bad: str) -> None:
    world, client = blog
    routes = client.application.url_map.bind("pbp.example")
    for url in _urls(world, bad):
        assert client.get(url).status_code == 404, url
        with pytest.raises(NotFound):  # by the routing: no query is made
            routes.match(unquote(url))


def test_the_real_pages_still_answer(blog: tuple[World, FlaskClient]) -> None:
    world, client = blog
    for route in ROUTES:
        if "page/2" not in route:  # one published round: a single page
            url = route.format(c=world.campaign, s=world.scenario)
            assert client.get(url).status_code == 200, url
