"""A bilingual player's English version of their プレイング (英語版の本文): saved beside the prose, shown again, kept on
a refused save, within the campaign's limit, in the receipt and the history; read by its owner and the campaign's GM
only before publication; told by the English story, never by the Japanese one."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask

from pbp import db as pbp_db
from pbp.engine import canonical
from pbp.models import Campaign, Entry, EntryRevision, Resolution, Round
from pbp.services import rounds
from pbp.services.clock import FixedClock
from pbp.services.entries import receipt_for
from pbp.web import database
from tests.web.test_entries import ATTACK, LATE, WRITING, app_at, page, save, signed_in, stored, url
from tests.web.world import World, build_world

ENGLISH = "Aoi steadies the rifle on the broken levee and waits for the fog to thin."
PROSE = "川霧の向こう、照準を合わせる。"


@pytest.fixture
def world(tmp_path) -> World:
    """A fresh world per test: these tests write entries."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def _textarea(html: str, name: str) -> str:
    """The text a textarea of the page holds, as the browser shows it."""
    found = re.search(rf'<textarea[^>]*name="{name}"[^>]*>(.*?)</textarea>', html, re.S)
    assert found, f"no textarea {name}"
    return unescape(found[1]).removeprefix("\r\n").removeprefix("\n")  # the newline HTML drops after <textarea>


def test_the_english_version_is_saved_shown_again_and_in_the_receipt_and_history(world: World) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    form = page(client, url(world))
    assert "英語版の本文（任意）" in form and 'lang="en"' in form.split('name="prose_en"')[0].rsplit("<textarea", 1)[1]
    assert save(client, url(world), prose=PROSE, prose_en=ENGLISH + "\r\nSecond line.", **ATTACK)[0] == 303
    entry = stored(app, world)
    assert (entry.prose, entry.prose_en) == (PROSE, ENGLISH + "\nSecond line.")  # newlines as the prose's
    html = page(client, url(world) + "?saved=1")
    assert _textarea(html, "prose_en") == ENGLISH + "\nSecond line." and _textarea(html, "prose") == PROSE
    shown = unescape(re.search(r'<pre class="receipt-json"[^>]*>(.*?)</pre>', html, re.S)[1])
    again = receipt_for(world.open_round, world.characters["aoi"], entry.order, PROSE, entry.saved_at, entry.prose_en)
    assert again.digest == entry.receipt and shown == canonical.dumps(again.entry)
    assert again.entry["prose_en"] == entry.prose_en  # the receipt covers the English version too
    with pbp_db.using(database.of(app)):
        last = (
            EntryRevision.select()
            .where(EntryRevision.character == world.characters["aoi"])
            .order_by(EntryRevision.id.desc())[0]
        )
    assert (last.prose, last.prose_en, last.receipt) == (PROSE, entry.prose_en, entry.receipt)


def test_a_blank_english_version_is_not_written_and_an_old_receipt_still_checks(world: World) -> None:
    """Whitespace only is no English version: nothing stored, and the receipt is hashed as it was before the field
    existed (no `prose_en` key), so receipts given earlier still check."""
    app = app_at(world, WRITING)
    assert save(signed_in(app), url(world), prose=PROSE, prose_en="  \r\n ", **ATTACK)[0] == 303
    entry = stored(app, world)
    assert entry.prose_en is None
    plain = receipt_for(world.open_round, world.characters["aoi"], entry.order, PROSE, entry.saved_at)
    assert "prose_en" not in plain.entry and plain.digest == entry.receipt


def test_a_refused_save_keeps_the_english_version_and_saves_nothing(world: World) -> None:
    app = app_at(world, WRITING)
    before = stored(app, world).receipt
    status, html = save(signed_in(app), url(world), prose=PROSE, prose_en=ENGLISH, **{**ATTACK, "weapon": "pistol"})
    assert status == 422 and _textarea(html, "prose_en") == ENGLISH
    assert stored(app, world).receipt == before and stored(app, world).prose_en is None


def test_the_english_version_has_the_proses_limit_beside_its_field(world: World) -> None:
    app = app_at(world, WRITING)
    with pbp_db.using(database.of(app)):
        Campaign.update(entry_char_limit=20).execute()
    client = signed_in(app, lang="en")
    assert 'maxlength="20"' in page(client, url(world)).split('name="prose_en"')[0].rsplit("<textarea", 1)[1]
    assert save(client, url(world), prose="short", prose_en="x" * 20, minor="", major="")[0] == 303
    status, html = save(client, url(world), prose="short", prose_en="y" * 21, minor="", major="")
    assert status == 422 and _textarea(html, "prose_en") == "y" * 21 and _textarea(html, "prose") == "short"
    message = re.search(r'<span class="error" id="err-prose_en">(.*?)</span>', html, re.S)
    assert message and "the English version has 21 characters, over the limit of 20" in unescape(message[1])
    assert 'aria-describedby="prose-en-count err-prose_en"' in html
    assert stored(app, world).prose_en == "x" * 20


def test_only_its_owner_and_the_gm_read_it_before_publication(world: World) -> None:
    app = app_at(world, WRITING)
    assert save(signed_in(app), url(world), prose=PROSE, prose_en=ENGLISH, **ATTACK)[0] == 303
    gm_page = page(signed_in(app, "gm"), f"/gm/{world.campaign}/rounds/{world.open_round}/")
    card = gm_page.split('<article class="entry-card')[1]  # aoi's card, the first joined: beside the prose
    assert PROSE in card and ENGLISH in card and 'lang="en"' in card
    other = signed_in(app, "player2")
    assert other.get(url(world)).status_code == 403
    for path in (url(world, "makoto"), "/me", f"/gm/{world.campaign}/rounds/{world.open_round}/"):
        response = other.get(path)
        assert ENGLISH not in response.get_data(as_text=True), path


def _resolved(app: Flask, world: World) -> tuple[Round, Resolution]:
    with pbp_db.using(database.of(app)):
        rounds.resolve_round(world.open_round, clock=FixedClock(LATE))
        return Round.get_by_id(world.open_round), Resolution.get(Resolution.round == world.open_round)


def test_the_english_story_tells_the_english_version_and_the_japanese_story_the_prose(world: World) -> None:
    app = app_at(world, WRITING)
    english = "Hold the line, Makoto. I will cover the left bank."
    assert (
        save(signed_in(app), url(world), prose="「左岸は任せて」真琴を援護する。", prose_en=english, **ATTACK)[0] == 303
    )
    rnd, resolution = _resolved(app, world)
    with pbp_db.using(database.of(app)):
        told = {locale: rounds.round_prose(rnd.id, locale) for locale in ("ja", "en")}
        en, ja = (rounds.generated_story(rnd, resolution, locale) for locale in ("en", "ja"))
        makoto = Entry.get(Entry.round == rnd.id, Entry.character == world.characters["makoto"])
    aoi, mk = f"pc{world.characters['aoi']}", f"pc{world.characters['makoto']}"
    assert told["en"][aoi] == english and told["ja"][aoi] == "「左岸は任せて」真琴を援護する。"
    assert told["en"][mk] == makoto.prose  # no English version: the prose, as before
    assert "left bank" in en and "左岸は任せて" not in en
    assert "左岸は任せて" in ja and "left bank" not in ja
