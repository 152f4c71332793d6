"""The notice list in the browser's place: the header's badge, the list with the round's publication and its link,
opening a notice (marked read, then its page), "mark all as read", "since your last visit" on the home page and
マイページ, a late save told there, a round deleted since, and the pages that mention e-mail when none goes out."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from pbp import db as pbp_db
from pbp.models import Notice, Round, User
from pbp.web import database
from tests.web.conftest import csrf_token
from tests.web.test_entries import LATE, WRITING, app_at, page, signed_in, url
from tests.web.world import World, build_world


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test: these tests mark notices read."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def unread(app: Flask, name: str) -> int:
    with pbp_db.using(database.of(app)):
        user = User.get(User.name == name)
        return Notice.select().where(Notice.user == user.id, Notice.read_at.is_null()).count()


def notice_id(app: Flask, name: str, kind: str, round_number: int | None = None) -> int:
    with pbp_db.using(database.of(app)):
        user = User.get(User.name == name)
        rows = Notice.select().where(Notice.user == user.id, Notice.kind == kind).order_by(Notice.id)
        return [n.id for n in rows if round_number is None or n.payload["number"] == round_number][-1]


def test_the_badge_and_the_list_show_the_reports_publication_with_its_link(world) -> None:
    app = app_at(world, WRITING, MAIL=False)
    client = signed_in(app)
    count = unread(app, "player1")
    html = page(client, "/")
    assert re.search(
        rf'href="/me/notices">お知らせ <span class="badge count" aria-label="未読{count}件">{count}</span>', html
    )
    html = page(client, "/me/notices")
    assert "第2ラウンドの報告書を公開" in html and "第2ラウンドの報告書が公開されました。" in html
    assert "このサイトはメールを送信しません" in html
    published = notice_id(app, "player1", "round.published", 2)
    opened = client.post(f"/me/notices/{published}/open", data={"csrf_token": csrf_token(client, "/me/notices")})
    assert opened.status_code == 303 and opened.headers["Location"] == "/blog/demo/tama_river/round-2/"
    assert unread(app, "player1") == count - 1
    assert client.get(opened.headers["Location"]).status_code == 200  # the report is there


def test_an_english_list_and_mark_all_as_read(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app, lang="en")
    html = page(client, "/me/notices")
    assert "Round 2 is published" in html and "Mark all as read" in html and "New" in html
    token = csrf_token(client, "/me/notices")
    assert client.post("/me/notices/read", data={}).status_code == 400  # no token: nothing marked
    assert unread(app, "player1") > 0
    assert client.post("/me/notices/read", data={"csrf_token": token}).status_code == 303
    assert unread(app, "player1") == 0 and unread(app, "player2") > 0  # only one's own
    html = page(client, "/")
    assert 'class="badge count"' not in html and "Since your last visit" not in html


def test_home_and_my_page_show_what_happened_since_the_last_visit(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    for path in ("/", "/me"):
        html = page(client, path)
        news = html.split('id="news-title"')[1].split("</section>")[0]
        assert "前回の訪問以降" in html and "第3ラウンド受付開始" in news and 'href="/me/notices"' in news


def test_another_users_notice_is_not_found(world) -> None:
    app = app_at(world, WRITING)
    theirs = notice_id(app, "player2", "round.opened")
    client = signed_in(app)
    answer = client.post(f"/me/notices/{theirs}/open", data={"csrf_token": csrf_token(client, "/me/notices")})
    assert answer.status_code == 404 and unread(app, "player2") > 0


def test_a_notice_of_a_deleted_round_says_so_and_opens_the_list(world) -> None:
    app = app_at(world, WRITING)
    with pbp_db.using(database.of(app)):
        round_id = Round.create(scenario=1, number=9, deadline=Round.get_by_id(world.open_round).deadline).id
        user = User.get(User.name == "player1")
        payload = {"round": round_id, "number": 9, "scenario": "多摩川防衛線", "campaign": "demo",
                   "path": "/blog/demo/tama_river/round-9/", "deadline": "x", "deadline_utc": "x"}  # fmt: skip
        Notice.create(user=user.id, kind="round.opened", created_at=Round.get_by_id(1).deadline, payload=payload)
        Round.delete().where(Round.id == round_id).execute()
    client = signed_in(app, lang="en")
    assert "(what it named no longer exists)" in page(client, "/me/notices")
    gone = notice_id(app, "player1", "round.opened", 9)
    opened = client.post(f"/me/notices/{gone}/open", data={"csrf_token": csrf_token(client, "/me/notices")})
    assert opened.status_code == 303 and opened.headers["Location"] == "/me/notices"


def test_a_late_save_is_told_in_the_list_and_its_text_kept(world) -> None:
    app = app_at(world, LATE)
    client = signed_in(app)
    data = {"csrf_token": csrf_token(client, url(world)), "prose": "遅れて書いた一文", "minor": "", "major": ""}
    refused = client.post(url(world), data=data)
    assert refused.status_code == 422
    refused.close()  # the draft and the notice are written once the answer has gone (database.after_answer)
    html = page(client, "/me/notices")
    assert "\u2068葵\u2069の行動は保存されませんでした" in html  # the name isolated
    assert "遅れて書いた一文" in page(client, url(world) + "?draft=1")


def test_pages_that_mention_e_mail_say_when_none_goes_out(world) -> None:
    quiet, mailing = app_at(world, WRITING, MAIL=False), app_at(world, WRITING, MAIL=True)
    for app, said in ((quiet, True), (mailing, False)):
        assert ("このサイトは現在メールを送信していません" in page(app.test_client(), "/register")) is said
        assert ("このサイトは現在メールを送信していません" in page(signed_in(app), "/me/notifications")) is said


def test_a_notices_user_text_is_isolated_and_a_retired_kind_still_lists(world) -> None:
    """A character's name holding U+202E turns none of the site's words around; a notice of a kind the code no
    longer words is listed by its kind, not a 500."""
    app = app_at(world, WRITING)
    with pbp_db.using(database.of(app)):
        user = User.get(User.name == "player1")
        at = Round.get_by_id(1).deadline
        payload = {"character": "葵\u202e", "scenario": "多摩川", "campaign": "demo", "reason": "r", "page": "/"}
        Notice.create(user=user.id, kind="growth.denied", created_at=at, payload=payload)
        Notice.create(user=user.id, kind="retired.kind", created_at=at, payload={})
    html = page(signed_in(app), "/me/notices")
    assert "\u2068葵\u202e\u2069の成長申請はGMに却下されました" in html and "retired.kind" in html
