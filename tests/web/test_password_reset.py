"""A forgotten password set again by a mailed link, in Japanese and English: the link comes by the outbox to the
account's address; it works once and for an hour; the page answers alike for any name; every session ends."""

from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import urlsplit

import itsdangerous
import pytest
from flask import Flask

from pbp import db as pbp_db
from pbp.errors import UserError
from pbp.models import Outbox, User
from pbp.services import accounts, notifications
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import database
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import build_world

NEW = "a-brand-new-password"


@pytest.fixture
def app(tmp_path) -> Flask:
    """The demo's accounts; player1 has an e-mail address, player2 none."""
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)
    app = make_app(world.url, LOGIN_RATE_LIMIT="1000 per minute", MAIL=True)
    with pbp_db.using(database.of(app)):
        notifications.set_email(User.get(User.name == "player1").id, "Aoi@Example.org")
    return app


def _ask(app: Flask, who: str, lang: str = "ja") -> tuple[int, str]:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    response = client.post("/password/forgot", data={"who": who, "csrf_token": csrf_token(client, "/password/forgot")})
    return response.status_code, response.get_data(as_text=True)


def _asked(app: Flask) -> list[Outbox]:
    """Every reset asked for: the mails, and the unanswered asks' rows."""
    with pbp_db.using(database.of(app)):
        return list(Outbox.select().where(Outbox.kind == accounts.RESET_KIND).order_by(Outbox.id))


def _mails(app: Flask) -> list[Outbox]:
    return [row for row in _asked(app) if row.recipient_id is not None]


def _link(app: Flask) -> str:
    """The path of the last mailed link, read from the mail as the player gets it."""
    row = _mails(app)[-1]
    _subject, body = notifications.message(row.kind, row.payload, "ja")
    link = body.splitlines()[-1]
    assert link.startswith("https://pbp.example/password/reset/"), body
    return urlsplit(link).path


def _set(app: Flask, path: str, password: str = NEW, lang: str = "ja") -> tuple[int, str, str]:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    shown = client.get(path).status_code
    token = csrf_token(client, path if shown == 200 else "/password/forgot")  # a refused link shows no form
    response = client.post(path, data={"new_password": password, "csrf_token": token})
    return response.status_code, response.get_data(as_text=True), response.headers.get("Location", "")


@pytest.mark.parametrize(
    ("lang", "sent"),
    [("ja", "リンクは1時間以内に1回だけ使えます"), ("en", "The link works for an hour, once.")],
)
def test_the_link_is_mailed_and_sets_the_password_once(app, lang, sent) -> None:
    status, page = _ask(app, "player1", lang)
    assert status == 200 and sent in page and len(_mails(app)) == 1
    assert _mails(app)[0].recipient_id is not None and _mails(app)[0].channel == "email"
    path = _link(app)
    status, _page, location = _set(app, path, lang=lang)
    assert status == 303 and location == "/login?reset=1"
    assert "log in with it" in app.test_client().get(location, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert log_in(app.test_client(), "player1", NEW).status_code == 303
    assert log_in(app.test_client(), "player1", DEMO_PASSWORD).status_code == 422
    used = app.test_client().get(path)
    assert used.status_code == 410 and "もう使えません" in used.get_data(as_text=True)  # said before any typing
    again = _set(app, path, "another-password-1")
    assert again[0] == 410 and "もう使えません" in again[1]  # once only
    assert log_in(app.test_client(), "player1", NEW).status_code == 303


def test_setting_the_password_ends_every_session(app) -> None:
    client = app.test_client()
    assert log_in(client, "player1").status_code == 303 and client.get("/me").status_code == 200
    _ask(app, "player1")
    assert _set(app, _link(app))[0] == 303
    assert client.get("/me").status_code == 302  # the session from before is over


def test_the_page_answers_alike_for_any_name_and_mails_only_an_address(app) -> None:
    """An unknown name, an account without an address and one with: the same page, one mail (for the last)."""
    pages = [_ask(app, who) for who in ("nobody-at-all", "player2", "player1")]
    assert {status for status, _ in pages} == {200}
    assert len({page for _, page in pages}) == 1 and "アカウントにメールアドレスが登録されていれば" in pages[0][1]
    assert [m.recipient_id for m in _mails(app)] == [_user_id(app, "player1")]


def test_every_ask_writes_one_row_so_its_time_tells_nothing_and_an_unanswered_one_keeps_nothing_typed(app) -> None:
    """An unknown name, an unknown address, an account without an address, one mailed a moment ago, and one to
    mail: each ask writes exactly one row (a mail, or an unanswered ask skipped from the start), so that answering
    takes the same work whatever the account; what was typed is never stored for nobody."""
    asks = ["nobody-at-all", "ghost@example.org", "player2", "player1", "player1"]
    for k, who in enumerate(asks, start=1):
        _ask(app, who)
        assert len(_asked(app)) == k, who
    rows = _asked(app)
    assert [r.recipient_id for r in rows] == [None, None, None, _user_id(app, "player1"), None]
    for row in (rows[0], rows[1], rows[2], rows[4]):
        assert row.status == notifications.SKIPPED and row.last_error == notifications.UNANSWERED
        assert row.payload == {} and row.address is None
    assert rows[3].status == notifications.PENDING


def test_unanswered_asks_are_kept_a_day_and_mails_for_ever(app) -> None:
    """Anyone may ask: the rows of asks that mailed nobody are deleted once a day old (by the next ask, answered or
    not), so that they cannot pile up; a mail's row is the player's history and stays."""
    _ask(app, "nobody-at-all")
    _ask(app, "player1")
    with pbp_db.using(database.of(app)):
        for row in Outbox.select():  # both a day and a second old
            aged = row.created_at - notifications.UNANSWERED_KEPT - timedelta(seconds=1)
            Outbox.update(created_at=aged).where(Outbox.id == row.id).execute()
    _ask(app, "player1")  # its first mail a day old: a second one is queued, the old unanswered row deleted
    rows = _asked(app)
    assert [r.recipient_id for r in rows] == [_user_id(app, "player1")] * 2


def test_an_address_finds_its_account_whatever_its_case_and_asking_again_soon_sends_no_second_mail(app) -> None:
    _ask(app, "aoi@example.org")
    _ask(app, "player1")
    assert len(_mails(app)) == 1


def test_an_old_or_forged_link_is_refused_and_changes_nothing(app, monkeypatch) -> None:
    with monkeypatch.context() as m:  # a link made an hour and a second ago
        m.setattr(itsdangerous.timed.TimestampSigner, "get_timestamp", lambda self: int(time.time()) - 3601)
        _ask(app, "player1", "en")
    old = _link(app)
    for path in (old, old[:-3] + "abc", "/password/reset/not-a-token"):
        status, page, _ = _set(app, path, lang="en")
        assert status == 410 and "This link does not work any more" in page and 'href="/password/forgot"' in page
    assert log_in(app.test_client(), "player1").status_code == 303


@pytest.mark.parametrize(("lang", "rule"), [("ja", "8〜200文字"), ("en", "8 to 200 characters.")])
def test_a_short_password_is_refused_beside_its_field_and_the_link_still_works(app, lang, rule) -> None:
    _ask(app, "player1")
    status, page, _ = _set(app, _link(app), "short", lang=lang)
    assert status == 422 and f'<span class="error">{rule}' in page
    assert _set(app, _link(app))[0] == 303


def test_the_login_page_links_the_form_and_the_notifications_page_offers_no_switch_for_the_mail(app) -> None:
    login = app.test_client().get("/login").get_data(as_text=True)
    assert 'href="/password/forgot">パスワードをお忘れですか？</a>' in login
    assert accounts.RESET_KIND not in notifications.KINDS
    with pbp_db.using(database.of(app)), pytest.raises(UserError, match="unknown notification kind"):
        notifications.set_preference(_user_id(app, "player1"), accounts.RESET_KIND, False)


def test_asking_for_links_is_rate_limited(tmp_path) -> None:
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)
    app = make_app(world.url, LOGIN_RATE_LIMIT="3 per minute", MAIL=True)
    assert [_ask(app, "player1")[0] for _ in range(4)] == [200, 200, 200, 429]


def _user_id(app: Flask, name: str) -> int:
    with pbp_db.using(database.of(app)):
        return User.get(User.name == name).id


@pytest.mark.parametrize(
    ("lang", "said"), [("ja", "このサイトはメールを送らないため"), ("en", "This site sends no e-mail")]
)
def test_a_site_without_mail_says_so_and_who_can_help_instead_of_promising_a_link(tmp_path, lang, said) -> None:
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)
    app = make_app(world.url, MAIL=False)
    with pbp_db.using(database.of(app)):
        notifications.set_email(User.get(User.name == "player1").id, "aoi@example.org")
    client = app.test_client()
    page = client.get("/password/forgot", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert said in page and 'name="who"' not in page
    token = csrf_token(client, "/login")  # a form sent from a page made before the site stopped sending mail
    sent = client.post(
        "/password/forgot", data={"who": "player1", "csrf_token": token}, headers={"Accept-Language": lang}
    )
    assert sent.status_code == 200 and said in sent.get_data(as_text=True) and _mails(app) == []


def test_without_a_setting_the_site_sends_mail_when_the_scheduler_has_an_smtp_server(tmp_path, monkeypatch) -> None:
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False)
    monkeypatch.setenv("PBP_SMTP_HOST", "")
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path))  # no config.py there
    assert 'name="who"' not in make_app(world.url).test_client().get("/password/forgot").get_data(as_text=True)
    monkeypatch.setenv("PBP_SMTP_HOST", "smtp.example.org")
    assert 'name="who"' in make_app(world.url).test_client().get("/password/forgot").get_data(as_text=True)
