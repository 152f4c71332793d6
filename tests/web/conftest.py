"""Fixtures of the web tests: one demo world per module (read-only tests share it), the app and its client, and
the steps of signing in and out through the forms."""

from __future__ import annotations

import re
from collections.abc import Iterator
from unittest import mock

import pytest
from argon2 import PasswordHasher
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from pbp.services import accounts
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import create_app
from tests.web.world import World, build_world

SITE_URL = "https://pbp.example/"


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    """argon2 at its lowest cost: these tests log in hundreds of times, and the hash's strength is not under test."""
    with mock.patch.object(accounts, "_HASHER", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)):
        yield


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbp.sqlite3'}")


def make_app(url: str, **config: object) -> Flask:
    """The app on `url` with a key of its own (no key file in the project's instance folder)."""
    return create_app({"TESTING": True, "DATABASE_URL": url, "SITE_URL": SITE_URL, "SECRET_KEY": "test-key", **config})


@pytest.fixture
def app(world: World) -> Flask:
    return make_app(world.url)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


_CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def csrf_token(client: FlaskClient, url: str = "/login") -> str:
    """The CSRF token of the form at `url` (every form of the site carries one)."""
    found = _CSRF.search(client.get(url).get_data(as_text=True))
    assert found, f"no CSRF token in {url}"
    return found[1]


def log_in(client: FlaskClient, name: str, password: str = DEMO_PASSWORD, **kwargs: object) -> TestResponse:
    data = {"name": name, "password": password, "csrf_token": csrf_token(client)}
    return client.post("/login", data=data, **kwargs)


def signed_in(url: str, name: str = "gm", *, lang: str | None = None, **config: object) -> FlaskClient:
    """A client of a fresh app on `url` signed in as `name`, reading pages in `lang` (the demo users have no
    language of their own: None leaves it to the site)."""
    client = make_app(url, LOGIN_RATE_LIMIT="1000 per minute", **config).test_client()
    if lang is not None:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert log_in(client, name).status_code == 303
    return client


def log_out(client: FlaskClient) -> TestResponse:
    return client.post("/logout", data={"csrf_token": csrf_token(client, "/")})
