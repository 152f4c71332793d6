"""Error pages in the layout and both languages (never a traceback), the services' typed errors as statuses,
security headers on every response, the session cookie's flags and the request body limit."""

from __future__ import annotations

import re

import pytest

from pbp import errors
from pbp.paths import TEMPLATES_DIR
from pbp.web.security import CSP
from tests.web.conftest import csrf_token, log_in, make_app

EN = {"Accept-Language": "en"}
TITLES = {
    400: ("リクエストを処理できません", "Bad request"),
    403: ("権限がありません", "Not allowed"),
    404: ("ページが見つかりません", "Page not found"),
    405: ("この方法では受け付けていません", "Method not allowed"),
    409: ("いまは実行できません", "Not possible now"),
    413: ("送信内容が大きすぎます", "Request too large"),
    429: ("リクエストが多すぎます", "Too many requests"),
    500: ("エラーが発生しました", "Something went wrong"),
}
#: Every error status, and how to make the app answer with it (client, headers -> response).
CAUSES = {
    400: lambda c, h: c.post("/login", data={"name": "x", "password": "y"}, headers=h),  # no CSRF token
    403: lambda c, h: c.get("/probe/forbidden", headers=h),
    404: lambda c, h: c.get("/no/such/page", headers=h),
    405: lambda c, h: c.get("/logout", headers=h),
    409: lambda c, h: c.get("/probe/state", headers=h),
    413: lambda c, h: c.post("/login", data={"name": "x" * 3000}, headers=h),
    # The fixture's limit is one attempt a minute per address and user name: the second is refused.
    429: lambda c, h: [log_in(c, "xy", "y", headers=h) for _ in range(2)][-1],
    500: lambda c, h: c.get("/probe/crash", headers=h),
}


@pytest.fixture
def probed(world):
    """The app with routes that fail as views can fail; exceptions become pages as in production."""
    app = make_app(world.url, PROPAGATE_EXCEPTIONS=False, MAX_CONTENT_LENGTH=2000, LOGIN_RATE_LIMIT="1 per minute")

    @app.get("/probe/forbidden")
    def forbidden() -> str:
        raise errors.Forbidden("character 2 is not yours")

    @app.get("/probe/state")
    def state() -> str:
        raise errors.InvalidState("round 3 is closed: entries are accepted only while it is open")

    @app.get("/probe/missing")
    def missing() -> str:
        raise errors.NotFound("no round 99")

    @app.get("/probe/crash")
    def crash() -> str:
        raise RuntimeError("secret internals")

    return app


@pytest.mark.parametrize("code", sorted(CAUSES))
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_error_is_a_page_in_the_layout_and_the_readers_language(probed, code, lang):
    response = CAUSES[code](probed.test_client(), EN if lang == "en" else {})
    html = response.get_data(as_text=True)
    assert response.status_code == code and response.mimetype == "text/html"
    assert f'<html lang="{lang}">' in html and '<header class="site">' in html
    assert f"<h1>{TITLES[code][lang == 'en']}</h1>" in html
    assert "Traceback" not in html and "secret internals" not in html
    assert response.headers["Content-Security-Policy"] == CSP


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_signed_in_users_413_is_a_page_in_the_layout_too(world, lang):
    """The layout's logout form must not read the body a second time: that raised 413 again inside the error page,
    which then fell back to a bare one."""
    app = make_app(world.url, PROPAGATE_EXCEPTIONS=False, MAX_CONTENT_LENGTH=2000)
    client = app.test_client()
    assert log_in(client, "gm").status_code == 303
    response = client.post("/me/notifications", data={"x": "x" * 3000}, headers=EN if lang == "en" else {})
    html = response.get_data(as_text=True)
    assert response.status_code == 413 and f"<h1>{TITLES[413][lang == 'en']}</h1>" in html
    assert 'action="/logout"' in html  # the signed-in layout


def test_a_405_says_which_methods_are_allowed(probed):
    assert "POST" in probed.test_client().get("/logout").headers["Allow"]


def test_typed_service_errors_become_statuses(probed):
    client = probed.test_client()
    assert client.get("/probe/missing").status_code == 404
    assert client.get("/probe/forbidden").status_code == 403
    refused = client.get("/probe/state").get_data(as_text=True)
    assert "round 3 is closed: entries are accepted only while it is open" in refused  # the service's reason


def test_a_body_over_the_default_limit_is_refused(world):
    client = make_app(world.url).test_client()
    assert client.post("/login", data={"name": "x" * (1024 * 1024 + 1)}).status_code == 413
    assert client.post("/login", data={"name": "x" * 10_000}).status_code == 400  # in the limit: no CSRF token


URLS = ["/", "/login", "/register", "/me", "/healthz", "/blog/", "/feed.atom", "/static/site.css", "/nope", "/logout"]


@pytest.mark.parametrize("url", URLS)
def test_every_response_carries_the_security_headers(client, url):
    headers = client.get(url).headers
    assert headers["Content-Security-Policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Strict-Transport-Security" not in headers  # HTTPS is off


def test_no_template_needs_inline_script_or_style():
    """The CSP allows neither: a template with an inline <script> (one without src: a file from the site is
    allowed), <style>, a style= or an on...= attribute would break under it."""
    for path in TEMPLATES_DIR.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\ssrc=)|<style|\sstyle=|\son[a-z]+=", text, re.I), path


def test_the_session_cookie_is_httponly_lax_and_secure_only_over_https(world):
    plain = make_app(world.url).test_client()
    cookie = log_in(plain, "player1").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = make_app(world.url, HTTPS=True).test_client()
    response = secure.post(
        "/login",
        data={"name": "player1", "password": "demo-password", "csrf_token": csrf_token(secure)},
        base_url="https://localhost",
    )
    assert "Secure" in response.headers["Set-Cookie"]
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_a_broken_database_is_a_500_page_not_a_traceback(tmp_path):
    """Anonymous, the page is in the layout; signed in, the layout itself needs the database (the user), so the
    error page falls back to a bare one."""
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    client = make_app(f"sqlite:///{broken}", PROPAGATE_EXCEPTIONS=False).test_client()
    anonymous = client.get("/")
    assert anonymous.status_code == 500 and "<h1>エラーが発生しました</h1>" in anonymous.get_data(as_text=True)
    with client.session_transaction() as session:
        session["_user_id"] = "1:1"
    signed_in = client.get("/")
    html = signed_in.get_data(as_text=True)
    assert signed_in.status_code == 500 and html.endswith("<h1>500</h1>\n")
    for response in (anonymous, signed_in):
        assert "Traceback" not in response.get_data(as_text=True)
        assert "not a database" not in response.get_data(as_text=True)
        assert response.headers["X-Frame-Options"] == "DENY"
