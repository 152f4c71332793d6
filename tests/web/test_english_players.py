"""English players at home (issue 30, item 7) and a sign-up form that says everything at once (item 5): the
visitor's language switch, the user's time zone, the favicon, the 429 page's wait, the register form's limits."""

from __future__ import annotations

import re

import pytest

from pbp import db as pbp_db
from pbp.models import User
from pbp.services import notifications
from pbp.web import database
from tests.web import test_drafts as td
from tests.web import test_entries as te
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import build_world

EN = {"Accept-Language": "en-US,en;q=0.9"}


@pytest.fixture
def fresh(tmp_path):
    """A world of its own (these tests add accounts and change settings), with player1's round 3 open."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


@pytest.fixture
def app(fresh):
    return make_app(fresh.url)


def _header(html: str) -> str:
    return html.split("</header>")[0]


def test_a_visitor_switches_the_language_by_a_cookie_and_lands_back_on_the_page(app):
    client = app.test_client()
    page = client.get("/blog/").get_data(as_text=True)
    assert '<html lang="ja">' in page
    assert '<a href="/language/en?next=/blog/" lang="en" hreflang="en">English</a>' in _header(page)
    switched = client.get("/language/en?next=/blog/")
    assert switched.status_code == 303 and switched.headers["Location"] == "/blog/"
    assert "pbp_lang=en" in switched.headers["Set-Cookie"] and "HttpOnly" in switched.headers["Set-Cookie"]
    page = client.get("/blog/").get_data(as_text=True)  # the page cache keeps one page per language
    assert '<html lang="en">' in page and "<h1>Reports</h1>" in page
    assert '<a href="/language/ja?next=/blog/" lang="ja" hreflang="ja">日本語</a>' in _header(page)
    assert "Cookie" in client.get("/blog/").headers["Vary"]
    assert '<html lang="ja">' in app.test_client().get("/blog/").get_data(as_text=True)  # no cookie: as before
    client.get("/language/ja")
    assert '<html lang="ja">' in client.get("/blog/", headers=EN).get_data(as_text=True)  # the cookie beats the browser


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", None])
def test_the_switch_goes_back_only_to_a_page_of_this_site(app, target):
    answer = app.test_client().get("/language/en", query_string={"next": target} if target else {})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_an_unknown_language_is_not_found_and_sets_nothing(app):
    answer = app.test_client().get("/language/fr?next=/blog/")
    assert answer.status_code == 404 and "Set-Cookie" not in answer.headers


def test_a_users_saved_language_wins_over_the_cookie_and_hides_the_switch(app, fresh):
    client = app.test_client()
    client.get("/language/en")
    assert log_in(client, "player1").status_code == 303
    assert 'class="languages"' in _header(client.get("/").get_data(as_text=True))  # no language saved yet
    client.post("/me/locale", data={"locale": "ja", "csrf_token": csrf_token(client, "/me")})
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="ja">' in page and 'class="languages"' not in _header(page)


def _due_line(html: str) -> str:
    """The home page's line of player1's open entry (its deadline)."""
    found = re.search(r'<time datetime="[^"]+">([^<]+)</time>', html.split("<h2")[1])
    assert found, "no deadline on the home page"
    return found[1]


def test_a_user_sees_every_time_in_the_time_zone_they_chose(app, fresh):
    client = app.test_client()
    assert log_in(client, "player1").status_code == 303
    before = _due_line(client.get("/").get_data(as_text=True))
    assert before.endswith("JST")  # the campaign's own by default
    token = csrf_token(client, "/me")
    assert client.post("/me/timezone", data={"timezone": "Europe/London", "csrf_token": token}).status_code == 303
    after = _due_line(client.get("/").get_data(as_text=True))
    assert after.endswith(("GMT", "BST")) and after != before
    entry = client.get(f"/rounds/{fresh.open_round}/entry/1").get_data(as_text=True)
    assert " JST</time>" not in entry and " GMT</time>" in entry
    assert '<option selected value="Europe/London">' in client.get("/me").get_data(as_text=True)
    client.post("/me/timezone", data={"timezone": "", "csrf_token": token})
    assert _due_line(client.get("/").get_data(as_text=True)) == before


def test_an_unknown_time_zone_is_refused_beside_the_field_and_changes_nothing(app, fresh):
    client = app.test_client()
    log_in(client, "player1")
    answer = client.post("/me/timezone", data={"timezone": "Mars/Olympus", "csrf_token": csrf_token(client, "/me")})
    assert answer.status_code == 422 and 'class="field invalid"' in answer.get_data(as_text=True)
    with pbp_db.using(database.of(app)):
        assert User.get(User.name == "player1").timezone is None


def test_a_notice_words_its_deadline_in_the_users_time_zone():
    payload = {"deadline": "2026-12-02 21:00 (Asia/Tokyo)", "deadline_utc": "2026-12-02T12:00:00Z", "number": 2}
    assert notifications.deadline_in(payload, "Europe/London")["deadline"] == "2026-12-02 12:00 (Europe/London)"
    assert notifications.deadline_in(payload, None) is payload
    assert notifications.deadline_in({"number": 1}, "UTC") == {"number": 1}


def test_the_favicon_is_served(app):
    answer = app.test_client().get("/favicon.ico")
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "image/vnd.microsoft.icon"
    assert answer.data[:4] == b"\x00\x00\x01\x00" and "max-age=" in answer.headers["Cache-Control"]
    assert 'rel="icon" href="/static/favicon.ico"' in app.test_client().get("/blog/").get_data(as_text=True)


@pytest.mark.parametrize(("headers", "words"), [({}, r"(\d+)秒後に"), (EN, r"Try again in (\d+) seconds?\.")])
def test_the_429_page_says_when_to_try_again_as_retry_after_does(fresh, headers, words):
    app = make_app(fresh.url, LOGIN_ADDRESS_RATE_LIMIT="1 per minute")
    client = app.test_client()
    log_in(client, "player1", "wrong-password")
    limited = log_in(client, "player1", "wrong-password", headers=headers)
    assert limited.status_code == 429
    said = re.search(words, limited.get_data(as_text=True))
    assert said and 0 < int(said[1]) <= 61 and said[1] == limited.headers["Retry-After"]


def _field(html: str, name: str) -> str:
    found = re.search(rf'<p class="field[^"]*">(?:(?!</p>).)*name="{name}"(?:(?!</p>).)*</p>', html, re.S)
    assert found, f"no field {name}"
    return found[0]


@pytest.mark.parametrize(
    ("headers", "taken", "short", "not_email"),
    [
        ({}, "このユーザー名は使われています。", "8〜200文字。", "メールアドレスではありません"),
        (EN, "This user name is taken: choose another.", "8 to 200 characters.", "is not an e-mail address"),
    ],
    ids=["ja", "en"],
)
def test_the_register_form_says_every_problem_at_once(app, headers, taken, short, not_email):
    client = app.test_client()
    data = {"name": "player1", "display_name": "ア\u202eキ", "password": "short", "email": "aki at example"}
    answer = client.post("/register", data={**data, "csrf_token": csrf_token(client, "/register")}, headers=headers)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert taken in _field(html, "name") and short in _field(html, "password")
    assert not_email in _field(html, "email") and "U+202E" in _field(html, "display_name")
    assert 'value="aki at example"' in html and 'value="player1"' in html


def test_a_bad_user_name_is_said_once_and_never_beside_an_empty_display_name(app):
    client = app.test_client()
    data = {"name": "x" * 41, "password": "a-long-password", "csrf_token": csrf_token(client, "/register")}
    html = client.post("/register", data=data, headers=EN).get_data(as_text=True)
    assert _field(html, "name").count('class="error"') == 1 and 'class="error"' not in _field(html, "display_name")


def test_the_register_form_shows_its_limits_as_maxlength_and_counters(app):
    html = app.test_client().get("/register", headers=EN).get_data(as_text=True)
    for name, most in (("name", 40), ("display_name", 80), ("password", 200), ("email", 254)):
        field = _field(html, name)
        assert f'maxlength="{most}"' in field
        assert f'<output class="count" id="{name}-count" for="{name}">0 / {most}' in field
    assert 'src="/static/counter.js"' in html
    refused = app.test_client()
    data = {"name": "aki", "password": "x", "email": "nope", "csrf_token": csrf_token(refused, "/register")}
    html = refused.post("/register", data=data).get_data(as_text=True)
    assert "3 / 40" in _field(html, "name") and "0 / 200" in _field(html, "password")  # a password's never shown


def test_the_sheet_form_names_its_fields_by_what_they_are(app):
    """An English player's sheet: the name as the site shows it, and the one for the English reports."""
    client = app.test_client()
    log_in(client, "player1")
    page = client.get("/characters/1/edit", headers=EN).get_data(as_text=True)
    assert ">Name</label>" in page and ">Name on English pages and reports (optional)</label>" in page
    assert "(Japanese)" not in page


@pytest.mark.parametrize(("locale", "check", "heat"), [("ja", "判定", "ヒート"), ("en", "A check", "Heat")])
def test_the_rules_page_opens_with_a_primer_for_players_and_speaks_no_code(fresh, locale, check, heat):
    """What a check, an engagement, a gauge and each status are, before the rules the dice log links to; the
    developers' notes (the engine's spec, the test markers) are in docs/engine.md, not on the players' page."""
    page = make_app(fresh.url, LOCALE=locale).test_client().get("/rules/pool/").get_data(as_text=True)
    primer = page.split('<section class="primer">')[1].split("</section>")[0]
    assert f'<h2 id="check">{check}' in primer
    for anchor in ("engagement", "gauge", "statuses"):
        assert f'<h2 id="{anchor}">' in primer and f'<a href="#{anchor}">' in page
    for status in ("lock_on", "heat", "stun", "leg_damage", "arm_damage", "system_down"):
        assert f'<a href="#status-{status}">' in primer and f'<tr id="status-{status}">' in page
    assert f'<a href="#status-heat">{heat}</a>' in primer
    for anchor in ("R-HIT-2", "R-DMG-3", "R-GAUGE-7"):  # what the dice log links to
        assert f'<li id="{anchor}">' in page
    for developer in ("spec/engine-cli.md", "pytest", "test_rule_coverage", "pbp/engine", "pbp engine check"):
        assert developer not in page


def test_the_autosave_says_its_time_in_the_users_time_zone(fresh):
    """The entry form's "draft kept at" line, from the autosave's answer, as the form's other times."""
    client = te.signed_in(te.app_at(fresh, te.WRITING))
    client.post("/me/timezone", data={"timezone": "UTC", "csrf_token": csrf_token(client, "/me")})
    answer = td.post_draft(client, fresh, "自動保存された文")
    assert answer.status_code == 200 and answer.json["time"] == "13:00:00 UTC"  # 22:00 JST
