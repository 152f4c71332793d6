"""Fixtures of the web tests: one demo world per module (read-only tests share it), the app and its client."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp.web import create_app
from tests.web.world import World, build_world

SITE_URL = "https://pbp.example/"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbp.sqlite3'}")


def make_app(url: str, **config: object) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": url, "SITE_URL": SITE_URL, **config})


@pytest.fixture
def app(world: World) -> Flask:
    return make_app(world.url)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
