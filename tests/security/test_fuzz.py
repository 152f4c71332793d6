"""The fuzz (issue 33): every route of the app's URL map, as an anonymous visitor, a player, another player and the
GM, gets bounded hostile requests (NUL bytes, lone surrogates, a 40-digit number, a file upload, a JSON body,
every field twice, a body over the size limit, a forged or missing CSRF token, hostile path segments and query
parameters), on SQLite and, with PBP_TEST_DATABASE_URL, on PostgreSQL. A case fails on any 5xx answer and on any
traceback or error in the log (the app's exceptions are answered, not raised into the test, as in production).

One test per (route, attack, database), the roles inside it, so that a finding being fixed elsewhere is marked here
exactly (KNOWN: `xfail(strict=True)`, which turns red the day it passes)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from pbp.web import create_app
from tests.lifecycle.conftest import PG_URL, empty_database
from tests.security.conftest import build_security_world
from tests.security.forms import FORMS, Form
from tests.web.conftest import SITE_URL, csrf_token, log_in
from tests.web.test_access import MATRIX, ROLES
from tests.web.world import World

FUZZ_ROLES = ("anonymous", "player", "another player", "GM")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)] if PG_URL else ["sqlite"]
LIMIT = 64 * 1024  # the app's body limit here (MAX_CONTENT_LENGTH): an oversized body is this and one byte more
NUL, SURROGATE, NUMBER = "a\x00b", "\ud800", "1" * 40
#: Hostile path segments, as sent on the wire (percent-encoded: a NUL, a lone surrogate's UTF-8 bytes, a long one).
SEGMENTS = (NUMBER, "%00", "%ED%A0%80", "x" * 300)
#: Hostile query parameters: the ones the site reads (q, page, next) and one it does not.
QUERY_NAMES = ("q", "page", "next", "lang", "zz")


@dataclass(frozen=True)
class Route:
    rule: str
    method: str
    url: str | Callable[[FlaskClient], str]
    form: Form | None


def _routes() -> list[Route]:
    """Every (rule, method) of the access matrix (itself checked against the URL map: test_access), with the URL it
    asks and, for a form, the form's index entry (its fields and the values that carry a send deep)."""
    found = []
    for (rule, method), (url, _data, _status) in MATRIX.items():
        form = FORMS.get((rule, method))
        found.append(Route(rule, method, form.url if form else url, form))
    return found


ROUTES = _routes()


def _posted(route: Route) -> bool:
    return route.method == "POST"


#: attack -> which routes it applies to.
ATTACKS: dict[str, Callable[[Route], bool]] = {
    "nul": _posted,
    "surrogate": _posted,
    "number40": _posted,
    "file": _posted,
    "json": _posted,
    "repeated": _posted,
    "oversized": _posted,
    "csrf": _posted,
    "query": lambda route: route.method == "GET",
    "path": lambda route: "<" in route.rule,
}

#: (rule, method, attack) -> (the backends where it fails today, the finding): the probe's findings other helpers are
#: fixing (issue 33). Un-xfail an entry when its fix lands (strict: the suite turns red until then).
KNOWN: dict[tuple[str, str, str], tuple[tuple[str, ...], str]] = {}


CASES = [(route, attack) for route in ROUTES for attack, applies in ATTACKS.items() if applies(route)]


def _app(url: str) -> Flask:
    """The app on `url` as production answers: an exception becomes a 500 page and a logged traceback (not raised
    into the test); logins unlimited (the limit has its own tests), bodies limited to LIMIT."""
    config = {"TESTING": True, "PROPAGATE_EXCEPTIONS": False, "DATABASE_URL": url, "SITE_URL": SITE_URL}
    config |= {"SECRET_KEY": "test-key", "LOGIN_RATE_LIMIT": "100000 per minute", "MAIL": True}
    return create_app({**config, "MAX_CONTENT_LENGTH": LIMIT})


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def fuzz_world(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The security world on one database, built once per database for the module."""
    with empty_database(backend, tmp_path_factory.mktemp("fuzz-db")) as url:
        yield build_security_world(url, tmp_path_factory.mktemp("fuzz-packs"))


@pytest.fixture(scope="module")
def fuzz_app(fuzz_world: World) -> Flask:
    return _app(fuzz_world.url)


class Clients:
    """One client per role, signed in once and again whenever a send signed it out (logout, a login, a password)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.clients: dict[str, FlaskClient] = {}
        self.tokens: dict[str, str] = {}

    def _signed_in(self, client: FlaskClient) -> bool:
        with client.session_transaction() as session:
            return "_user_id" in session

    def get(self, role: str) -> tuple[FlaskClient, str]:
        client = self.clients.get(role)
        if client is None or self._signed_in(client) != bool(ROLES[role]):
            client = self.app.test_client()
            if ROLES[role]:
                assert log_in(client, ROLES[role]).status_code == 303
            self.clients[role] = client
            self.tokens[role] = csrf_token(client, "/" if ROLES[role] else "/login")
        return client, self.tokens[role]


@pytest.fixture(scope="module")
def clients(fuzz_app: Flask) -> Clients:
    return Clients(fuzz_app)


def _fields(form: Form | None) -> list[str]:
    """The form's field names (a `prefix*` entry stands for one name with the prefix), or a field no form has."""
    if form is None:
        return ["zz"]
    return [name.replace("*", "0") for name in (*form.text, *form.other)] or ["zz"]


def _base(form: Form | None, client: FlaskClient) -> dict[str, str]:
    """The values that carry a send past the form's first refusals (its index's first base)."""
    if form is None:
        return {}
    return {name: value if isinstance(value, str) else value(client) for name, value in form.bases[0].items()}


def _url(route: Route, client: FlaskClient) -> str:
    return route.url if isinstance(route.url, str) else route.url(client)


def _encoded(pairs: list[tuple[str, str]]) -> bytes:
    """A form body as a browser sends it (a lone surrogate goes as the bytes it would be, for the app to judge)."""
    return "&".join(f"{quote(k, errors='surrogatepass')}={quote(v, errors='surrogatepass')}" for k, v in pairs).encode()


def _mutated_paths(route: Route, url: str) -> list[str]:
    """The URL with each of its rule's variable segments replaced by each hostile segment."""
    path, _, query = url.partition("?")
    values = [value for value in re.findall(r"<(?:[^:>]+:)?([^>]+)>", route.rule)]
    literal = re.split(r"<[^>]+>", route.rule)
    pattern = "".join(re.escape(part) + ("(.+?)" if i < len(values) else "") for i, part in enumerate(literal))
    match = re.fullmatch(pattern, path)
    assert match, f"{path} does not match {route.rule}"
    mutated = []
    for i in range(len(values)):
        for segment in SEGMENTS:
            start, end = match.span(i + 1)
            mutated.append(path[:start] + segment + path[end:] + (f"?{query}" if query else ""))
    return mutated


def _sends(route: Route, attack: str, client: FlaskClient, token: str) -> Iterator[tuple[str, TestResponse]]:
    """The requests of one attack on one route as one client: (what was sent, the answer)."""
    url, base, fields = _url(route, client), _base(route.form, client), _fields(route.form)
    if attack == "query":
        path = url.partition("?")[0]
        for value in (NUL, SURROGATE, NUMBER, "x" * 5000):
            query = _encoded([(name, value) for name in QUERY_NAMES]).decode()
            yield f"?…={value[:12]!r}", client.get(f"{path}?{query}")
        return
    if attack == "path":
        for mutated in _mutated_paths(route, url):
            if route.method == "GET":
                yield mutated, client.get(mutated)
            else:
                yield mutated, client.post(mutated, data={**base, "csrf_token": token})
        return
    if attack == "csrf":
        yield "forged token", client.post(url, data={**base, "csrf_token": "forged"})
        yield "no token", client.post(url, data=base)
        return
    if attack in ("nul", "surrogate", "number40"):
        value = {"nul": NUL, "surrogate": SURROGATE, "number40": NUMBER}[attack]
        pairs = [*({**base, **dict.fromkeys(fields, value)}).items(), ("csrf_token", token)]
        yield "every field", client.post(url, data=_encoded(pairs), content_type="application/x-www-form-urlencoded")
        return
    if attack == "file":
        uploads = {name: (io.BytesIO(b"\x00\xff not a form value"), "x.bin") for name in fields}
        yield "every field a file", client.post(url, data={**base, **uploads, "csrf_token": token})
        return
    if attack == "json":
        body = {**base, **dict.fromkeys(fields, [int(NUMBER), {"a": None}]), "csrf_token": token}
        yield "JSON body", client.post(url, data=json.dumps(body), content_type="application/json")
        return
    if attack == "repeated":
        pairs = [*base.items(), *((name, v) for name in fields for v in ("1", "x")), ("csrf_token", token)]
        yield "every field twice", client.post(url, data=MultiDict(pairs))
        return
    if attack == "oversized":
        pairs = [*base.items(), (fields[0], "x" * (LIMIT + 1)), ("csrf_token", token)]
        yield "oversized", client.post(url, data=_encoded(pairs), content_type="application/x-www-form-urlencoded")
        return
    raise AssertionError(f"unknown attack {attack}")


@pytest.mark.parametrize(("route", "attack"), CASES, ids=[f"{r.method} {r.rule} {attack}" for r, attack in CASES])
def test_no_hostile_request_gets_a_5xx_or_a_traceback(route, attack, backend, clients, caplog, request):
    known = KNOWN.get((route.rule, route.method, attack))
    if known and backend in known[0]:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"issue 33: being fixed: {known[1]}"))
    caplog.set_level(logging.WARNING)
    found = []
    for role in FUZZ_ROLES:
        client, token = clients.get(role)
        for what, response in _sends(route, attack, client, token):
            if response.status_code >= 500:
                found.append(f"{role}, {what[:60]}: {response.status_code}")
    logged = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    found += [f"logged: {r.getMessage()[:80]} {r.exc_info[1]!r:.120}" if r.exc_info else r.getMessage() for r in logged]
    assert not found, "\n".join(found[:12])


def test_the_fuzz_covers_every_route_of_the_url_map(fuzz_app):
    """The routes come from the access matrix, itself held to the URL map; this holds the fuzz to it too."""
    routes = {(r.rule, m) for r in fuzz_app.url_map.iter_rules() for m in r.methods - {"HEAD", "OPTIONS"}}
    assert {(r.rule, r.method) for r in ROUTES} == routes


def test_the_known_findings_are_routes_and_attacks_of_the_fuzz():
    """A KNOWN entry naming a route or attack the fuzz does not send would mark nothing."""
    assert set(KNOWN) <= {(route.rule, route.method, attack) for route, attack in CASES}


def test_a_500_and_its_traceback_are_what_the_fuzz_sees(fuzz_world, caplog):
    """The fuzz's eyes work: a route that raises is answered 500 (not raised into the test) and its traceback is
    logged, so a hostile request that breaks the app cannot pass unseen."""
    app = _app(fuzz_world.url)

    @app.get("/fuzz-raises")
    def raises() -> str:
        raise RuntimeError("boom")

    caplog.set_level(logging.WARNING)
    assert app.test_client().get("/fuzz-raises").status_code == 500
    assert any(r.exc_info for r in caplog.records)
