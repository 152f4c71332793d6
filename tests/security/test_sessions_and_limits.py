"""Sessions, limits and headers: a session cookie replayed after its logout is refused; logins beyond the limit get
429 (per address and user name, and per address); every response of every route carries the security headers, from
the test client and from gunicorn; a body over the limit gets 413, with a Content-Length and chunked without one,
through gunicorn (the production server) too."""

from __future__ import annotations

import http.client
import io
import re

import pytest

from pbp.web.security import HEADERS
from tests.security.conftest import security_app
from tests.security.test_hostile_input import client_as
from tests.web.conftest import csrf_token, log_in, log_out, make_app
from tests.web.test_access import MATRIX

GET_URLS = [url for (rule, method), (url, _form, _status) in MATRIX.items() if method == "GET"]
LIMIT = 1024 * 1024  # MAX_CONTENT_LENGTH, the default the site serves with (tests.served.SETTINGS)


def test_a_session_cookie_replayed_after_logout_is_refused(world):
    app = security_app(world)
    client = client_as(app, "player")
    stolen = client.get_cookie("session").value
    assert client.get("/me").status_code == 200
    log_out(client)
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    response = thief.get("/me")
    assert response.status_code == 302 and response.headers["Location"].startswith("/login")
    assert log_in(app.test_client(), "player1").status_code == 303  # the account itself is fine


def test_a_logout_in_one_worker_ends_the_session_in_every_worker(world, monkeypatch):
    """A worker keeps signed-in users under the site's version (pbp.web.auth; two apps in one process share what
    the process keeps): once the logout moved the version, the user is read again and the cookie refused."""
    from pbp.web import auth

    reads = []
    real = auth._session_user
    monkeypatch.setattr(auth, "_session_user", lambda uid: reads.append(uid) or real(uid))
    here, there = security_app(world), security_app(world)
    client = client_as(here, "player")
    cookie = client.get_cookie("session").value
    elsewhere = there.test_client()
    elsewhere.set_cookie("session", cookie)
    assert elsewhere.get("/me").status_code == 200
    kept = len(reads)
    assert [elsewhere.get("/me").status_code for _ in range(2)] == [200, 200]
    assert len(reads) == kept  # the later requests, in either app, keep the user
    log_out(client)
    assert elsewhere.get("/me").status_code == 302
    assert len(reads) == kept + 1


def test_a_session_from_before_a_password_change_is_refused(world):
    app = security_app(world)
    old, new = client_as(app, "player"), client_as(app, "player")
    form = {"current_password": "demo-password", "new_password": "demo-password", "csrf_token": csrf_token(new, "/")}
    assert new.post("/me/password", data=form).status_code in (200, 303)
    assert old.get("/me").status_code == 302  # every other session of the user ends


def test_logins_beyond_the_limit_get_429_per_address_and_user_name(world):
    app = make_app(world.url, LOGIN_RATE_LIMIT="3 per minute")
    client = app.test_client()
    statuses = [log_in(client, "player1", "wrong-password").status_code for _ in range(4)]
    assert statuses == [422, 422, 422, 429]
    elsewhere = [  # the same account from other addresses: one client's failures lock no one else out
        log_in(app.test_client(), "player1", "wrong", environ_base={"REMOTE_ADDR": f"10.0.0.{n}"}).status_code
        for n in range(4)
    ]
    assert elsewhere == [422, 422, 422, 422]
    assert "<h1>リクエストが多すぎます</h1>" in log_in(client, "player1").get_data(as_text=True)


def test_every_worker_counts_the_same_login_attempts(world):
    """Two apps on one database are two gunicorn workers: the limit is the site's, not each worker's (the
    attempts are counted in the database, pbp.web.ratelimit)."""
    workers = [make_app(world.url, LOGIN_RATE_LIMIT="4 per minute").test_client() for _ in range(2)]
    address = {"REMOTE_ADDR": "10.9.9.9"}
    statuses = [log_in(workers[n % 2], "gm", "wrong", environ_base=address).status_code for n in range(5)]
    assert statuses == [422, 422, 422, 422, 429]
    assert log_in(workers[0], "player2", "wrong", environ_base={"REMOTE_ADDR": "10.9.9.10"}).status_code == 422


def test_a_login_window_that_ended_starts_again(world, monkeypatch):
    from pbp.web import ratelimit

    app = make_app(world.url, LOGIN_RATE_LIMIT="2 per minute")
    address = {"REMOTE_ADDR": "10.9.9.11"}
    assert [log_in(app.test_client(), "gm", "x", environ_base=address).status_code for _ in range(3)] == [422, 422, 429]
    later = ratelimit.time.time() + 61
    monkeypatch.setattr(ratelimit.time, "time", lambda: later)  # the clock the stored windows are read by
    assert log_in(app.test_client(), "gm", "x", environ_base=address).status_code == 422


def test_a_name_no_account_can_have_is_counted_by_the_address(world):
    """Such a name is never written to the limits (pbp.web.auth), yet a client sending them still meets its limit."""
    app = make_app(world.url, LOGIN_ADDRESS_RATE_LIMIT="2 per minute")
    address = {"REMOTE_ADDR": "10.9.8.1"}
    statuses = [
        log_in(app.test_client(), name, "x", environ_base=address).status_code for name in ("名" * 5000, "a\x00")
    ]
    assert statuses + [log_in(app.test_client(), "gm", "x", environ_base=address).status_code] == [422, 422, 429]


def _has_headers(headers) -> bool:
    return all(headers.get(name) == value for name, value in HEADERS.items())  # the CSP among them


@pytest.mark.parametrize("role", ["anonymous", "GM"])
def test_every_route_answers_with_the_security_headers(world, role):
    client = client_as(security_app(world), role)
    missing = [url for url in GET_URLS if not _has_headers(client.get(url).headers)]
    missing += [url for url in ("/no/such/page", "/logout") if not _has_headers(client.get(url).headers)]
    assert not missing


def test_gunicorn_serves_the_security_headers(site):
    for path in ("/", "/blog/", "/static/site.css", "/feed.atom", "/no/such/page"):
        connection = http.client.HTTPConnection(*_address(site))
        connection.request("GET", path)
        response = connection.getresponse()
        assert all(response.getheader(name) == value for name, value in HEADERS.items()), path
        connection.close()


def test_a_body_over_the_limit_is_refused_with_or_without_a_length(world):
    client = make_app(world.url).test_client()
    assert client.post("/login", data={"name": "x" * (LIMIT + 1)}).status_code == 413
    chunked = {"wsgi.input_terminated": True}  # what a server that reads chunked bodies (gunicorn) says
    body = b"name=" + b"x" * LIMIT
    response = client.post("/login", input_stream=io.BytesIO(body), environ_overrides=chunked,
                           content_type="application/x-www-form-urlencoded")  # fmt: skip
    assert response.status_code == 413 and "<h1>送信内容が大きすぎます</h1>" in response.get_data(as_text=True)


def _address(site) -> tuple[str, int]:
    host, port = site.url.removeprefix("http://").split(":")
    return host, int(port)


def _chunked_post(site, path: str, body: bytes, cookie: str = "") -> tuple[int, str]:
    connection = http.client.HTTPConnection(*_address(site), timeout=60)
    connection.putrequest("POST", path)
    connection.putheader("Transfer-Encoding", "chunked")
    connection.putheader("Content-Type", "application/x-www-form-urlencoded")
    if cookie:
        connection.putheader("Cookie", cookie)
    connection.endheaders()
    try:
        for start in range(0, len(body), 65536):
            part = body[start : start + 65536]
            connection.send(b"%x\r\n%s\r\n" % (len(part), part))
        connection.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server may answer (and close) before the whole body is sent
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


def test_gunicorn_refuses_a_chunked_body_over_the_limit_and_reads_one_within_it(site):
    status, page = _chunked_post(site, "/login", b"name=" + b"x" * (2 * LIMIT))
    assert status == 413 and "<h1>送信内容が大きすぎます</h1>" in page
    connection = http.client.HTTPConnection(*_address(site))
    connection.request("GET", "/login")
    response = connection.getresponse()
    cookie = response.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', response.read().decode())[1]
    body = f"csrf_token={token}&name=player1&password=wrong-password".encode()
    status, page = _chunked_post(site, "/login", body, cookie)
    assert status == 422  # the whole body was read: the token was found, the password judged
