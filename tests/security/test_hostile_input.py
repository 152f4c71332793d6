"""Hostile input through every text field of every form (tests.security.payloads, sent with the test client as a
browser would send it): no answer is a 5xx, no redirect leaves the site, and neither the answer nor any page that
shows what was stored holds active content (tests.security.markup). The index of forms (tests.security.forms) is
checked against the pages themselves, so a field added tomorrow fails here until it is covered."""

from __future__ import annotations

import itertools
from urllib.parse import urlencode, urlsplit

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.security.conftest import CONSOLE_SCENE, OPEN_RUN, RESOLVED_ROUND, SHAPED_ROUND, security_app
from tests.security.forms import FORMS, SCRIPT_POSTS, Form, Value, forms_of, indexed, reset_url
from tests.security.markup import active_content
from tests.security.payloads import HOSTILE
from tests.web.conftest import csrf_token, log_in, log_out
from tests.web.test_access import MATRIX, ROLES

#: Pages that show forms only in the states the world sets up (beside every GET page of the access matrix).
STATEFUL_PAGES: list[Value] = [
    reset_url,
    f"/campaigns/demo/scenarios/{OPEN_RUN}/",
    "/gm/demo/growth",
    "/characters/1/growth",
    f"/gm/demo/scenarios/{CONSOLE_SCENE}/edit",
    f"/gm/demo/rounds/{RESOLVED_ROUND}/review",
    f"/gm/demo/rounds/{SHAPED_ROUND}/actions",
    "/gm/demo/scenarios/tama-shaped/roster",  # two joined, its first round a draft: the roster's buttons
]


def client_as(app, role: str) -> FlaskClient:
    client = app.test_client()
    if ROLES[role]:
        assert log_in(client, ROLES[role]).status_code == 303
    return client


def encoded(values: dict[str, str]) -> bytes:
    """The form as a browser sends it (UTF-8; a lone surrogate goes as the bytes it would be, for the app to judge)."""
    return urlencode(values, encoding="utf-8", errors="surrogatepass").encode("ascii")


def problems_of(response: TestResponse, where: str) -> list[str]:
    """What is wrong with an answer: a 5xx, a redirect off the site, active content in the page."""
    found = []
    if response.status_code >= 500:
        found.append(f"{where}: {response.status_code}")
    location = response.headers.get("Location", "")
    if location and (urlsplit(location).netloc or not location.startswith("/") or location.startswith(("//", "/\\"))):
        found.append(f"{where}: redirects off the site to {location[:80]!r}")
    if response.mimetype == "text/html":
        found += [f"{where}: {item}" for item in active_content(response.get_data(as_text=True))]
    return found


class Sender:
    """Sends one form again and again as its role, signing in again when a send signed the client in or out."""

    def __init__(self, app, form: Form) -> None:
        self.app, self.form = app, form
        self.names = (f"fuzzer{n}" for n in itertools.count(1))
        self._fresh()

    def _fresh(self) -> None:
        self.client = client_as(self.app, self.form.role)
        self.token = csrf_token(self.client, "/login" if self.form.role == "anonymous" else "/")

    def _signed_in(self) -> bool:
        with self.client.session_transaction() as session:
            return "_user_id" in session

    def value(self, value: Value) -> str:
        return value if isinstance(value, str) else value(self.client)

    def send(self, base: dict[str, Value], fields: tuple[str, ...], payload: str) -> list[str]:
        values = {name: self.value(v) for name, v in base.items()}
        url = self.value(self.form.url)
        if url == "/register" and "name" not in fields:
            values["name"] = next(self.names)  # a new account each time, so every payload is stored and shown
        values |= dict.fromkeys(fields, payload)
        where = f"{','.join(fields)}={payload[:40]!r}"
        if self.form.method == "GET":
            return problems_of(self.client.get(url, query_string=encoded(values).decode()), where)
        values["csrf_token"] = self.token
        response = self.client.post(url, data=encoded(values), content_type="application/x-www-form-urlencoded")
        found = problems_of(response, where)
        if response.status_code in (302, 303):
            for url in self.form.shown:
                found += problems_of(self.client.get(url), f"{where} shown on {url}")
            if self.form.role == "anonymous" and self._signed_in():
                log_out(self.client)  # registered or logged in: back to anonymous for the next send
                self.token = csrf_token(self.client, "/login")
        return found


def test_there_are_at_least_100_hostile_inputs():
    assert len(set(HOSTILE)) >= 100


TEXT_FORMS = [key for key, form in FORMS.items() if form.text]


@pytest.mark.parametrize("key", TEXT_FORMS, ids=[f"{m} {rule}" for rule, m in TEXT_FORMS])
def test_hostile_input_in_every_text_field_stays_text(world, key):
    form = FORMS[key]
    sender = Sender(security_app(world), form)
    found = []
    for base in form.bases:
        for payload in HOSTILE:
            found += sender.send(base, form.text, payload)  # every text field at once: the page shows them all
            for field in form.stored:
                found += sender.send(base, (field,), payload)  # alone, so that the others cannot refuse it
    assert not found, "\n".join(found[:20])


def test_every_rendered_form_field_is_indexed(pristine):
    """Every form on every page, as every role: its rule and each of its fields are in FORMS; and every form in
    FORMS, and every POST route, is still found (so the index neither misses nor keeps a dead entry). On the world
    as built: another test's form may have closed a sign-up or decided the growth request."""
    app = security_app(pristine)
    adapter = app.url_map.bind("localhost")
    pages = [url for (rule, method), (url, _form, _status) in MATRIX.items() if method == "GET"] + STATEFUL_PAGES
    seen: set[tuple[str, str]] = set()
    missing = []
    for role in ROLES:
        client = client_as(app, role)
        for page in pages:
            url = page if isinstance(page, str) else page(client)
            response = client.get(url)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            for rendered in forms_of(response.get_data(as_text=True)):
                path = urlsplit(rendered.action).path or urlsplit(url).path
                rule = adapter.match(path, method=rendered.method, return_rule=True)[0].rule
                form = FORMS.get((rule, rendered.method))
                if form is None:
                    missing.append(f"{rendered.method} {rule} (on {url}): add the form to FORMS")
                    continue
                seen.add((rule, rendered.method))
                missing += [f"{rule}: field {name!r} (on {url})" for name in rendered.fields if not indexed(form, name)]
    assert not missing, "\n".join(sorted(set(missing)))
    assert seen == set(FORMS) - SCRIPT_POSTS, f"indexed but never rendered: {set(FORMS) - SCRIPT_POSTS - seen}"
    posts = {(rule.rule, "POST") for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert posts <= set(FORMS)
