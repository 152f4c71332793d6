"""Never lose a プレイング: the autosaved draft (its writer's only, never an entry, kept after the deadline and said
to be no entry), the form's offer to put a newer draft back, a save that meets an ended session keeping its text
through a new login, 「ログイン状態を保持」 revoked by a logout elsewhere, and each version's text in the history."""

from __future__ import annotations

from datetime import timedelta
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous.timed import TimestampSigner

from pbp import db as pbp_db
from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Entry, EntryDraft, EntryRevision, ParkedText
from pbp.services import drafts
from pbp.services.clock import FixedClock
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import database
from pbp.web.auth import REMEMBER_COOKIE
from tests.web.conftest import csrf_token, log_in, log_out
from tests.web.test_entries import LATE, WRITING, app_at, page, save, signed_in, stored, url
from tests.web.world import World, build_world


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test: these tests write drafts and entries."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def draft_url(world: World, pc: str = "aoi") -> str:
    return url(world, pc) + "/draft"


def post_draft(client: FlaskClient, world: World, prose: str, pc: str = "aoi", token: str | None = None):
    data = {"csrf_token": token or csrf_token(client, url(world)), "prose": prose, "prose_en": ""}
    return client.post(draft_url(world, pc), data=data)


def drafts_in(app: Flask) -> list[EntryDraft]:
    with pbp_db.using(database.of(app)):
        return list(EntryDraft.select())


def entries_in(app: Flask) -> list[tuple[str, str]]:
    with pbp_db.using(database.of(app)):
        return [(e.prose, e.receipt) for e in Entry.select().order_by(Entry.id)]


# ---- the service ---------------------------------------------------------------------------------------------------


def test_a_draft_is_the_writers_coalesced_never_an_entry_and_kept_late(world) -> None:
    app = app_at(world, WRITING)
    before = entries_in(app)
    aoi, rnd = world.characters["aoi"], world.open_round
    with pbp_db.using(database.of(app)):
        player1 = stored(app, world).character.owner_id
        clock = FixedClock(WRITING)
        first = drafts.save_draft(rnd, aoi, user_id=player1, prose="書きかけ\r\nの一文", clock=clock)
        assert first.prose == "書きかけ\nの一文" and not first.late
        assert drafts.save_draft(rnd, aoi, user_id=player1, prose="書きかけ\nの一文", clock=clock) == first  # no write
        with pytest.raises(drafts.TooSoon) as soon:  # another text within the gap: nothing written, said when
            drafts.save_draft(rnd, aoi, user_id=player1, prose="もう一文", clock=clock)
        assert 0 < soon.value.retry_after <= drafts.DRAFT_GAP
        later = FixedClock(WRITING + timedelta(seconds=drafts.DRAFT_GAP))
        assert drafts.save_draft(rnd, aoi, user_id=player1, prose="もう一文", clock=later).prose == "もう一文"
        assert EntryDraft.select().count() == 1  # one row per character and round, the latest text
        with pytest.raises(Forbidden):  # another's character: refused, as the entry form is
            drafts.save_draft(rnd, world.characters["makoto"], user_id=player1, prose="x", clock=later)
        with pytest.raises(Forbidden):
            drafts.draft_of(rnd, aoi, user_id=player1 + 1)
        with pytest.raises(NotFound):  # no such round, no such character: refused by name
            drafts.draft_of(10**6, aoi, user_id=player1)
        with pytest.raises(NotFound):
            drafts.draft_of(rnd, 10**6, user_id=player1)
        with pytest.raises(UserError):  # more than a draft may hold
            drafts.save_draft(rnd, aoi, user_id=player1, prose="あ" * 10**5, clock=FixedClock(LATE))
        late = drafts.save_draft(rnd, aoi, user_id=player1, prose="締切のあとで", clock=FixedClock(LATE))
        assert late.late and drafts.draft_of(rnd, aoi, user_id=player1).late
    assert entries_in(app) == before  # not an entry, not a revision: the round takes only what is saved


# ---- the autosave endpoint ------------------------------------------------------------------------------------------


def test_the_autosave_answers_json_and_waits_when_asked(world) -> None:
    client = signed_in(app_at(world, WRITING))
    answer = post_draft(client, world, "自動保存された文")
    body = dict(answer.json)
    fresh = body.pop("csrf_token")  # the form takes it: its token does not expire while autosaved
    assert answer.status_code == 200 and body == {
        "saved_at": "2026-12-03T13:00:00Z",
        "time": "22:00:00 JST",  # as the form's times are shown: the campaign's time zone
        "late": False,
        "entry": False,
    }
    again = post_draft(client, world, "続きを書いた文")
    assert again.status_code == 429 and again.headers["Retry-After"] == "2" and again.json["retry_after"] > 0
    assert "2" in again.json["message"]
    assert [d.prose for d in drafts_in(client.application)] == ["自動保存された文"]
    assert save(client, url(world), prose="新しい鍵で保存", minor="", major="", csrf_token=fresh)[0] == 303


def test_an_autosaved_form_keeps_a_fresh_csrf_token_past_the_hour(world, monkeypatch) -> None:
    """The page's token expires an hour after the page was made (Flask-WTF); each autosave hands the form a new
    one, so a Save after a long evening's writing is not refused as expired."""
    now = [1_000_000]
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: now[0])
    client = signed_in(app_at(world, WRITING))
    old = csrf_token(client, url(world))
    now[0] += 3000
    fresh = post_draft(client, world, "長い夜の一文", token=old).json["csrf_token"]
    now[0] += 1000  # the page's token is 4000 s old now, the autosave's 1000 s
    assert save(client, url(world), prose="長い夜の一文", minor="", major="", csrf_token=old)[0] == 400
    assert save(client, url(world), prose="長い夜の一文", minor="", major="", csrf_token=fresh)[0] == 303


def test_a_draft_after_the_deadline_is_kept_and_said_to_be_no_entry(world) -> None:
    app = app_at(world, LATE)
    client = signed_in(app)
    before = entries_in(app)
    answer = post_draft(client, world, "締切後の下書き")
    assert answer.status_code == 200 and answer.json["late"] is True and answer.json["entry"] is False
    html = page(client, url(world))
    assert "締切後の下書き" not in html.split("<form")[1]  # offered, not put in the form unasked
    assert "保存済みのプレイングより新しい下書き" in html and "提出されたプレイングではありません" in html
    html = page(client, url(world) + "?draft=1")
    assert "締切後の下書き" in html and entries_in(app) == before


def test_the_autosave_is_the_writers_only(world) -> None:
    app = app_at(world, WRITING)
    anonymous = app.test_client()
    token = csrf_token(anonymous, "/login")
    ended = anonymous.post(draft_url(world), data={"csrf_token": token, "prose": "x"})
    assert ended.status_code == 401 and ended.json["message"]
    for name in ("player2", "gm"):
        assert post_draft(signed_in(app, name), world, "乗っ取り", token=None).status_code == 403
    assert drafts_in(app) == []


def test_the_form_offers_a_newer_draft_and_puts_it_back(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app, lang="en")
    saved = stored(app, world).prose
    html = page(client, url(world))
    assert "newer than your saved entry" not in html and 'data-draft="/rounds/' in html
    post_draft(client, world, "A draft never saved")
    html = page(client, url(world))
    assert "newer than your saved entry" in html and "A draft never saved" not in html
    assert saved in html  # the form shows the saved entry until asked
    html = page(client, url(world) + "?draft=1")
    assert "A draft never saved" in html and "is in the form below" in html and 'data-unsaved="1"' in html
    assert save(client, url(world), prose="A draft never saved", minor="", major="")[0] == 303
    html = page(client, url(world))
    assert "newer than your saved entry" not in html  # the entry now holds the draft's text


# ---- a save that meets an ended session ------------------------------------------------------------------------------


def test_a_save_after_a_logout_elsewhere_keeps_the_text_through_a_new_login(world) -> None:
    app = app_at(world, WRITING)
    writing, elsewhere = signed_in(app), signed_in(app)
    token = csrf_token(writing, url(world))
    log_out(elsewhere)  # ends every session of player1, the one writing too
    answer = writing.post(url(world), data={"csrf_token": token, "prose": "長い夜の文章", "minor": "", "major": ""})
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/login?next=")
    assert "kept=1" in answer.headers["Location"]
    assert "長い夜の文章" not in [p for p, _r in entries_in(app)]  # nothing saved
    assert "書いた文章は保管してあります" in unescape(writing.get(answer.headers["Location"]).get_data(as_text=True))
    back = log_in(writing, "player1")
    assert back.status_code == 303 and back.headers["Location"] == url(world) + "?draft=1"
    html = page(writing, back.headers["Location"])
    assert "長い夜の文章" in html  # in the form, to save
    with pbp_db.using(database.of(app)):
        assert ParkedText.select().count() == 0


def test_parked_text_goes_to_its_writer_only(world) -> None:
    app = app_at(world, WRITING)
    writing, elsewhere = signed_in(app), signed_in(app)
    token = csrf_token(writing, url(world))
    log_out(elsewhere)
    writing.post(url(world), data={"csrf_token": token, "prose": "他人に見せない文", "major": ""})
    other = log_in(writing, "player2")  # another user logs in on this browser: not theirs
    assert other.status_code == 303 and "draft" not in other.headers["Location"]
    assert "他人に見せない文" not in page(writing, url(world, "makoto"))
    assert drafts_in(app) == []


def test_a_visitor_who_never_signed_in_is_only_sent_to_log_in(world) -> None:
    app = app_at(world, WRITING)
    visitor = app.test_client()
    token = csrf_token(visitor, "/login")
    answer = visitor.post(url(world), data={"csrf_token": token, "prose": "誰か", "major": ""})
    assert answer.status_code == 302 and "kept" not in answer.headers["Location"]
    with pbp_db.using(database.of(app)):
        assert ParkedText.select().count() == 0


# ---- 「ログイン状態を保持」 ------------------------------------------------------------------------------------------


def test_keep_me_logged_in_outlives_the_session_and_ends_with_a_logout_elsewhere(world) -> None:
    app = app_at(world, WRITING)
    kept = app.test_client()
    assert "ログイン状態を保持" in kept.get("/login").get_data(as_text=True)
    form = {"name": "player1", "password": DEMO_PASSWORD, "remember": "y", "csrf_token": csrf_token(kept)}
    assert kept.post("/login", data=form).status_code == 303
    remember = kept.get_cookie(REMEMBER_COOKIE)
    assert remember is not None and remember.http_only
    kept.delete_cookie(app.config["SESSION_COOKIE_NAME"])  # the browser closed: only the remember cookie is left
    me = kept.get("/me")
    assert me.status_code == 200 and me.headers["Cache-Control"] == "no-store"
    log_out(signed_in(app))  # a logout on another device
    kept.delete_cookie(app.config["SESSION_COOKIE_NAME"])
    assert kept.get("/me").status_code == 302  # the remember cookie is revoked with every session


def test_without_keep_me_logged_in_no_remember_cookie(world) -> None:
    client = app_at(world, WRITING).test_client()
    assert log_in(client, "player1").status_code == 303
    assert client.get_cookie(REMEMBER_COOKIE) is None


# ---- the history ----------------------------------------------------------------------------------------------------


def test_the_history_shows_each_versions_text(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    first = stored(app, world).prose
    assert save(client, url(world), prose="二度目の版", minor="", major="")[0] == 303
    with pbp_db.using(database.of(app)):
        versions = [r.prose for r in EntryRevision.select().where(EntryRevision.character == world.characters["aoi"])]
    html = page(client, url(world))
    history = html.split('id="history"')[1]
    assert all(v in history for v in versions if v) and first in history
