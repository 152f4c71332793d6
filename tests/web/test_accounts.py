"""Accounts in the browser: register, log in, log out and change the password through the forms, in Japanese and
English; a session ends everywhere at logout or a password change; login attempts are rate-limited."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbp import db as pbp_db
from pbp.models import User
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import database
from pbp.web.auth import local_target
from tests.web.conftest import csrf_token, log_in, log_out, make_app
from tests.web.world import build_world

EN = {"Accept-Language": "en-US,en;q=0.9"}


@pytest.fixture
def fresh(tmp_path):
    """A world of its own (these tests add accounts and end sessions): the demo's gm, player1 and player2."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)


@pytest.fixture
def app(fresh):
    return make_app(fresh.url)


def users(app) -> dict[str, User]:
    with pbp_db.using(database.of(app)):
        return {u.name: u for u in User.select()}


def field_of(html: str, name: str) -> str:
    """The <p class="field ..."> block of one input."""
    found = re.search(rf'<p class="field[^"]*">(?:(?!</p>).)*name="{name}"(?:(?!</p>).)*</p>', html, re.S)
    assert found, f"no field {name}"
    return found[0]


@pytest.mark.parametrize("name", ["gm", "player1", "player2"])
def test_the_demo_accounts_log_in(app, name):
    client = app.test_client()
    response = log_in(client, name)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    me = client.get("/me")
    assert me.status_code == 200 and f"({name})" in me.get_data(as_text=True)


@pytest.mark.parametrize(("headers", "title"), [({}, "新規登録"), (EN, "Register")], ids=["ja", "en"])
def test_register_logs_the_new_user_in(app, headers, title):
    client = app.test_client()
    page = client.get("/register", headers=headers).get_data(as_text=True)
    assert f"<h1>{title}</h1>" in page
    data = {"name": "aki", "display_name": "アキ", "password": "a-long-password", "csrf_token": csrf_token(client)}
    response = client.post("/register", data=data, headers=headers)
    assert response.status_code == 303
    header = client.get("/", headers=headers).get_data(as_text=True).split("</header>")[0]
    assert '<a href="/me">アキ</a>' in header and 'action="/logout"' in header
    assert users(app)["aki"].display_name == "アキ" and users(app)["aki"].email is None


@pytest.mark.parametrize(("headers", "said"), [({}, "メールアドレスではありません"), (EN, "is not an e-mail address")])
def test_an_e_mail_address_may_be_given_at_registration_and_a_bad_one_is_refused_beside_it(app, headers, said):
    """The address notices and a forgotten password's link go to: optional, checked as the notifications page does."""
    client = app.test_client()
    token = csrf_token(client, "/register")
    data = {"name": "aki", "display_name": "アキ", "password": "a-long-password", "csrf_token": token}
    bad = client.post("/register", data={**data, "email": "aki at example"}, headers=headers)
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422 and said in field_of(html, "email") and 'value="aki at example"' in html
    assert 'value="アキ"' in html and "aki" not in users(app)
    assert client.post("/register", data={**data, "email": " aki@example.org "}, headers=headers).status_code == 303
    assert users(app)["aki"].email == "aki@example.org"


@pytest.mark.parametrize(
    ("headers", "taken", "rule"),
    [
        ({}, "このユーザー名は使われています。", "半角英数字と「_」「.」「-」で2〜40文字。"),
        (EN, "This user name is taken: choose another.", "2 to 40 letters, digits, '_', '.' or '-'."),
    ],
    ids=["ja", "en"],
)
def test_a_refused_registration_shows_why_beside_the_field_and_keeps_the_input(app, headers, taken, rule):
    client = app.test_client()
    token = csrf_token(client, "/register")
    bad = client.post(
        "/register",
        data={"name": "not ok!", "display_name": "表示名", "password": "secret-typed", "csrf_token": token},
        headers=headers,
    )
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422
    assert 'value="not ok!"' in field_of(html, "name") and f'<span class="error">{rule}</span>' in html
    assert 'value="表示名"' in html and "secret-typed" not in html
    again = client.post(
        "/register", data={"name": "player1", "password": "secret-typed", "csrf_token": token}, headers=headers
    )
    assert again.status_code == 422 and taken in field_of(again.get_data(as_text=True), "name")
    assert set(users(app)) == {"gm", "player1", "player2"}


@pytest.mark.parametrize(
    ("headers", "message"),
    [({}, "ユーザー名またはパスワードが違います。"), (EN, "The user name or the password is not right.")],
    ids=["ja", "en"],
)
def test_a_wrong_password_is_refused_with_the_name_kept(app, headers, message):
    client = app.test_client()
    response = log_in(client, "player1", "wrong-password", headers=headers)
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and message in html
    assert 'value="player1"' in html and "wrong-password" not in html
    assert client.get("/me").status_code == 302


@pytest.mark.parametrize(
    ("target", "lands"),
    [
        ("/me", "/me"),
        ("/blog/demo/?x=1", "/blog/demo/?x=1"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("javascript:alert(1)", "/"),
        ("", "/"),
    ],
)
def test_next_sends_the_user_only_to_a_local_path(app, target, lands):
    client = app.test_client()
    page = client.get("/login", query_string={"next": target}).get_data(as_text=True)
    kept = re.search(r'name="next" type="hidden" value="([^"]*)"', page)[1]
    data = {"name": "player1", "password": DEMO_PASSWORD, "csrf_token": csrf_token(client), "next": target}
    assert client.post("/login", data=data).headers["Location"] == lands
    assert kept == (lands if lands != "/" else "")


def test_a_page_that_needs_a_login_sends_there_and_back(app):
    client = app.test_client()
    response = client.get("/me")
    assert response.status_code == 302 and response.headers["Location"] == "/login?next=%2Fme"
    data = {"name": "player2", "password": DEMO_PASSWORD, "csrf_token": csrf_token(client), "next": "/me"}
    assert client.post("/login", data=data).headers["Location"] == "/me"


def test_logout_ends_every_copy_of_the_session_cookie(app):
    """A cookie copied before logout (another tab, a stolen copy) is refused after it: the session version."""
    client = app.test_client()
    log_in(client, "player1")
    copied = client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/me").status_code == 200
    assert log_out(client).status_code == 303
    assert client.get("/me").status_code == 302
    assert thief.get("/me").status_code == 302  # the copy holds the old version
    assert "ログイン" in thief.get("/").get_data(as_text=True).split("</header>")[0]


def test_logout_is_post_only(app):
    client = app.test_client()
    log_in(client, "player1")
    assert client.get("/logout").status_code == 405
    assert client.get("/me").status_code == 200


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(app):
    client, other = app.test_client(), app.test_client()
    log_in(client, "player2")
    log_in(other, "player2")
    token = csrf_token(client, "/me/password")
    wrong = client.post(
        "/me/password", data={"current_password": "nope-nope", "new_password": "new-password", "csrf_token": token}
    )
    assert wrong.status_code == 422 and "現在のパスワードが違います。" in wrong.get_data(as_text=True)
    data = {"current_password": DEMO_PASSWORD, "new_password": "new-password", "csrf_token": token}
    assert client.post("/me/password", data=data).status_code == 303
    assert client.get("/me").status_code == 200
    assert other.get("/me").status_code == 302
    assert log_in(app.test_client(), "player2").status_code == 422
    assert log_in(app.test_client(), "player2", "new-password").status_code == 303


def test_the_users_language_wins_over_the_browsers(app):
    client = app.test_client()
    assert '<html lang="ja">' in client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in client.get("/", headers=EN).get_data(as_text=True)
    log_in(client, "player1")
    saved = client.post("/me/locale", data={"locale": "en", "csrf_token": csrf_token(client, "/me")})
    assert saved.status_code == 303
    assert "<h1>My page</h1>" in client.get("/me").get_data(as_text=True)  # no Accept-Language: the user's choice
    assert users(app)["player1"].locale == "en"
    client.post("/me/locale", data={"locale": "", "csrf_token": csrf_token(client, "/me")})
    assert "<h1>マイページ</h1>" in client.get("/me").get_data(as_text=True)
    assert client.get("/").headers["Vary"].count("Accept-Language") == 1


def test_login_attempts_are_limited_per_address(fresh):
    app = make_app(fresh.url, LOGIN_ADDRESS_RATE_LIMIT="3 per minute")
    client = app.test_client()
    for name in ("gm", "player1", "player2"):
        assert log_in(client, name, "wrong-password").status_code == 422
    limited = log_in(client, "nobody", "wrong-password", headers=EN)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    html = limited.get_data(as_text=True)
    assert "<h1>Too many requests</h1>" in html and '<header class="site">' in html
    assert log_in(client, "player1").status_code == 429  # even the right password waits
    assert client.get("/login").status_code == 200  # the form itself is not limited
    elsewhere = app.test_client()
    assert log_in(elsewhere, "player1", environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 303


def test_login_attempts_are_limited_per_address_and_user_name(fresh):
    """One client's failures for an account lock that client out of it, and no one else (issue 33)."""
    app = make_app(fresh.url, LOGIN_RATE_LIMIT="3 per minute")
    address = {"REMOTE_ADDR": "10.0.1.1"}
    for _ in range(3):
        assert log_in(app.test_client(), "player1", "wrong-password", environ_base=address).status_code == 422
    limited = log_in(app.test_client(), "player1", environ_base=address)
    assert limited.status_code == 429 and "リクエストが多すぎます" in limited.get_data(as_text=True)
    assert log_in(app.test_client(), "player2", environ_base=address).status_code == 303
    assert log_in(app.test_client(), "player1", environ_base={"REMOTE_ADDR": "10.0.1.9"}).status_code == 303


@given(st.text(max_size=40))
def test_next_is_a_local_path_or_nothing(target):
    """Whatever `next` holds, the login goes to a path of this site: never another host, scheme or a `//` URL."""
    kept = local_target(target)
    if kept is not None:
        parts = urlsplit(kept)
        assert kept.startswith("/") and not kept.startswith("//") and "\\" not in kept
        assert not parts.scheme and not parts.netloc
