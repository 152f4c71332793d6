"""The entry form in the browser's place: what it offers, saving and editing with receipts, refusals that keep the
text, previews, the deadline and an expired CSRF token, in Japanese and English; nobody sees another's entry."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Campaign, Entry, EntryRevision
from pbp.services.clock import FixedClock
from pbp.services.entries import receipt_for
from pbp.web import database
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import START, World, build_world

#: build_world's open round opens at START + 2 days and closes 12 hours later.
WRITING = START + timedelta(days=2, hours=1)
LATE = START + timedelta(days=2, hours=13)


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test: these tests write entries."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def app_at(world: World, moment, **config) -> Flask:
    return make_app(world.url, CLOCK=FixedClock(moment), LOGIN_RATE_LIMIT="1000 per minute", **config)


def signed_in(app: Flask, name: str = "player1", lang: str = "ja") -> FlaskClient:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert log_in(client, name).status_code == 303
    return client


def url(world: World, pc: str = "aoi") -> str:
    return f"/rounds/{world.open_round}/entry/{world.characters[pc]}"


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def save(client: FlaskClient, path: str, **fields) -> tuple[int, str]:
    data = {"csrf_token": csrf_token(client, path), **fields}
    response = client.post(path, data=data)
    return response.status_code, response.get_data(as_text=True)


def stored(app: Flask, world: World) -> Entry:
    with pbp_db.using(database.of(app)):
        return Entry.get(Entry.round == world.open_round, Entry.character == world.characters["aoi"])


ATTACK = {"minor": "", "major": "attack", "weapon": "beam_rifle", "targets": "kagachi1"}


@pytest.mark.parametrize(("lang", "words"), [("ja", ("メジャーアクション", "ビームライフル", "締切")),
                                             ("en", ("Major action", "Beam rifle", "Deadline"))])  # fmt: skip
def test_the_form_offers_the_units_legal_actions_with_odds_and_the_map(world, lang, words) -> None:
    html = page(signed_in(app_at(world, WRITING), lang=lang), url(world))
    assert all(w in html for w in words)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="battlemap"' in html
    assert 'name="major" value="attack"' in html and 'name="targets" value="kagachi1"' in html
    assert 'value="pistol"' not in html.split('name="weapon"')[1].split("</select>")[0]  # R-FIX-2: not while riding
    assert re.search(r"≥1 \d+%", html)  # the player's own odds against an enemy
    assert '<script src="/static/entry.js" defer></script>' in html and "<script>" not in html
    assert 'datetime="2026-12-04T00:00:00Z"' in html  # the deadline, in the HTML for a page without JavaScript


def test_an_english_form_names_the_pcs_by_their_english_names(world) -> None:
    """The map, the targets and the odds name the characters from their sheets in the page's language."""
    html = page(signed_in(app_at(world, WRITING), lang="en"), url(world))
    assert 'name="targets" value="pc2"> Makoto</label>' in html and "葵" not in html and "真琴" not in html


def test_save_edit_receipt_and_history(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    status, _ = save(client, url(world), prose="川霧の向こう、照準を合わせる。", **ATTACK)
    assert status == 303
    html = page(client, url(world) + "?saved=1")
    entry = stored(app, world)
    assert entry.order["major"] == {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"], "item": None}
    assert f"sha256:{entry.receipt}" in html and "保存しました" in html
    # the receipt's text hashes to the receipt: a player can check it from the page alone
    shown = unescape(re.search(r'<pre class="receipt-json">(.*?)</pre>', html, re.S)[1])
    again = receipt_for(world.open_round, world.characters["aoi"], entry.order, entry.prose, entry.saved_at)
    assert again.digest == entry.receipt and shown == __import__("pbp.engine.canonical").engine.canonical.dumps(
        again.entry
    )
    status, _ = save(client, url(world), prose="書き直した。", minor="", major="")
    assert status == 303
    with pbp_db.using(database.of(app)):
        actions = [r.action for r in EntryRevision.select().where(EntryRevision.character == world.characters["aoi"],
                                                                  EntryRevision.round == world.open_round)]  # fmt: skip
    assert actions[-2:] == ["edit", "edit"] and stored(app, world).order["major"] is None


def test_an_order_the_rules_refuse_is_refused_on_save_with_the_text_kept(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    before = stored(app, world).receipt
    prose = "拳銃で撃つ！「ここで止める」"
    status, html = save(client, url(world), prose=prose, **{**ATTACK, "weapon": "pistol"})
    assert status == 422 and "R-FIX-2" in html
    assert prose.replace("「", "&#x300c;")[:0] in html and "拳銃で撃つ！" in html
    assert stored(app, world).receipt == before


def test_a_choice_missing_its_fields_is_shown_beside_them(world) -> None:
    client = signed_in(app_at(world, WRITING), lang="en")
    status, html = save(client, url(world), prose="keep me", minor="move", major="attack", weapon="beam_rifle")
    assert status == 422
    assert 'id="err-minor_toward"' in html and 'id="err-targets"' in html and "keep me" in html


def test_the_prose_limit_counts_code_points_after_newlines_are_normalised(world) -> None:
    app = app_at(world, WRITING)
    limit = 20
    with pbp_db.using(database.of(app)):
        Campaign.update(entry_char_limit=limit).execute()
    client = signed_in(app)
    exact = "葵\r\n" + "あ" * (limit - 2)  # 20 code points once CRLF is one newline
    assert save(client, url(world), prose=exact, minor="", major="")[0] == 303
    assert stored(app, world).prose == exact.replace("\r\n", "\n")
    over = "😀" * (limit + 1)  # astral characters count one each, not two UTF-16 units
    status, html = save(client, url(world), prose=over, minor="", major="")
    assert status == 422 and over in html


def test_preview_renders_sanitised_markdown_and_saves_nothing(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    before = stored(app, world).receipt
    status, html = save(client, url(world), preview="1", prose="**強く**<script>alert(1)</script>", minor="", major="")
    assert status == 200 and "<strong>強く</strong>" in html and "<script>alert" not in html
    assert stored(app, world).receipt == before


def test_after_the_deadline_the_form_says_so_and_keeps_the_text(world) -> None:
    app = app_at(world, LATE)
    client = signed_in(app)
    html = page(client, url(world))
    assert "締切を過ぎました" in html and stored(app, world).prose in html
    assert 'class="primary"' not in html  # no Save button
    status, html = save(client, url(world), prose="遅れて書いた一文", minor="", major="")
    assert status == 422 and "遅れて書いた一文" in html and "を過ぎています" in html  # said in the page's language


def test_an_expired_csrf_token_keeps_the_text(world) -> None:
    client = signed_in(app_at(world, WRITING), lang="en")
    response = client.post(url(world), data={"csrf_token": "expired", "prose": "a long evening's writing", "major": ""})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "a long evening&#39;s writing" in html and "press Save again" in html


def test_nobody_reads_or_writes_another_players_entry(world) -> None:
    app = app_at(world, WRITING)
    other = stored(app, world).prose
    for name in ("player2", "gm"):
        client = signed_in(app, name)
        assert client.get(url(world)).status_code == 403
        assert save(client, url(world), prose="hijack", minor="", major="")[0] == 403
    html = page(signed_in(app, "player2"), url(world, "makoto"))
    assert other not in html


def test_my_page_shows_each_rounds_entry_status_and_links_the_form(world) -> None:
    app = app_at(world, WRITING)
    html = page(signed_in(app), "/me")
    assert f'href="{url(world)}"' in html and "保存" in html.split(url(world), 1)[1][:400]
    with pbp_db.using(database.of(app)):
        Entry.delete().where(Entry.character == world.characters["aoi"], Entry.round == world.open_round).execute()
    html = page(signed_in(app_at(world, LATE), lang="en"), "/me")
    status = html.split(url(world), 1)[1][:400]
    assert "not written yet" in status and "closed" in status
