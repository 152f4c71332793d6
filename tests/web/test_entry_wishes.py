"""What a player asks of the GM beside an entry (issue 30, item 6): 連携 partners, アドリブ and 絡み, a note to the GM.
Saved with the entry and shown again in the form; a partner is told who named them and sees nothing else; the GM
reads all of it on the round's page; a wish the service refuses is said beside its field and nothing is saved."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from pbp import db as pbp_db
from pbp.models import EntryWish
from pbp.services.entries import receipt_for
from pbp.web import database
from tests.web.test_entries import ATTACK, WRITING, app_at, page, save, signed_in, stored, url
from tests.web.world import World, build_world

NOTE = "カガチ壱とは因縁があります。できれば一騎打ちで。"


@pytest.fixture
def world(tmp_path) -> World:
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def wish_row(app, world) -> EntryWish | None:
    with pbp_db.using(database.of(app)):
        return EntryWish.get_or_none(
            EntryWish.round == world.open_round, EntryWish.character == world.characters["aoi"]
        )


def test_a_wish_is_saved_with_the_entry_shown_again_and_leaves_the_receipt_alone(world) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app)
    makoto = str(world.characters["makoto"])
    wish = {"partners": makoto, "adlib": "little", "contact": "welcome", "gm_note": NOTE}
    status, _ = save(client, url(world), prose=stored(app, world).prose, **ATTACK, **wish)
    assert status == 303
    row = wish_row(app, world)
    assert row is not None and (row.partners, row.adlib, row.contact, row.gm_note) == (
        [world.characters["makoto"]], "little", "welcome", NOTE
    )  # fmt: skip
    e = stored(app, world)  # the receipt is the entry's, order and prose alone: the wish is not in it
    assert e.receipt == receipt_for(world.open_round, e.character_id, e.order, e.prose, e.saved_at, e.prose_en).digest
    html = page(client, url(world))
    assert f'name="partners" value="{makoto}" checked' in html
    assert 'name="adlib" value="little" checked' in html and 'name="contact" value="welcome" checked' in html
    assert NOTE in html


@pytest.mark.parametrize(("lang", "told"), [("ja", "葵 があなたを連携相手に指名しました"), ("en", "Aoi named you")])
def test_a_partner_is_told_who_named_them_and_never_reads_the_note_which_the_gm_does(world, lang, told) -> None:
    app = app_at(world, WRITING)
    wish = {"partners": str(world.characters["makoto"]), "adlib": "none", "contact": "none", "gm_note": NOTE}
    assert save(signed_in(app), url(world), prose="霧の中へ。", **ATTACK, **wish)[0] == 303
    partner = page(signed_in(app, "player2", lang=lang), url(world, "makoto"))
    assert told in unescape(re.sub(r"<[^>]+>", "", partner)) and NOTE not in partner
    gm = page(signed_in(app, "gm", lang=lang), f"/gm/demo/rounds/{world.open_round}/")
    assert NOTE in gm and ("真琴" in gm or "Makoto" in gm)


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"partners": "999999"}, "partners"),  # not taking part in the scenario
        ({"partners": "pc1"}, "partners"),
        ({"adlib": "always"}, "adlib"),
        ({"contact": "maybe"}, "contact"),
        ({"gm_note": "あ" * 401}, "gm_note"),
        ({"gm_note": "GMへ\x00"}, "gm_note"),
    ],
)
def test_a_wish_the_service_refuses_is_said_beside_its_field_and_nothing_is_saved(world, fields, where) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app, lang="en")
    before = stored(app, world).receipt
    status, html = save(client, url(world), prose="書き直した文章。", **ATTACK, **fields)
    assert status == 422 and f'id="err-{where}"' in html and "書き直した文章。" in html
    assert stored(app, world).receipt == before and wish_row(app, world) is None


def test_the_note_to_the_gm_is_not_part_of_the_autosaved_draft(world) -> None:
    """entry.js sends the prose fields alone: the note is the entry's, saved with it."""
    html = page(signed_in(app_at(world, WRITING)), url(world))
    assert '<textarea id="gm_note" name="gm_note" rows="3" maxlength="400"' in html
    assert (
        "querySelectorAll('textarea[name^=\"prose\"]')"
        in (Path(__file__).parents[2] / "pbp/static/entry.js").read_text()
    )


def test_a_partner_who_leaves_during_the_save_refuses_the_whole_save_beside_the_field(world, monkeypatch) -> None:
    """The entry and its wish are one transaction: before, the entry was saved and the page said the wish was not."""
    from pbp.services import entry_wishes

    app = app_at(world, WRITING)
    client = signed_in(app)
    before = stored(app, world).prose
    offered = entry_wishes.partners_offered
    calls: list[int] = []

    def leaving(round_id: int, character_id: int) -> list[int]:  # there at the check, gone at the write
        calls.append(round_id)
        return offered(round_id, character_id) if len(calls) == 1 else []

    monkeypatch.setattr(entry_wishes, "partners_offered", leaving)
    wish = {"partners": str(world.characters["makoto"]), "adlib": "", "contact": "", "gm_note": NOTE}
    status, html = save(client, url(world), prose="連携して撃つ。", **ATTACK, **wish)
    assert status == 422 and len(calls) >= 2  # checked, then found gone inside the save's transaction
    assert stored(app, world).prose == before and wish_row(app, world) is None  # nothing of it stored
    assert 'id="err-partners"' in html and "連携して撃つ。" in html and NOTE in html  # said beside it, all kept


def test_a_save_that_sends_back_the_wish_the_form_showed_leaves_it_unwritten(world, monkeypatch) -> None:
    """A browser sends the wish with every save: sent back as shown (the form's hidden digest), the save is the
    entry's alone; changed, it is written (a forged digest can only leave out the wish the same request sent)."""
    from pbp.services import entries

    written: list[int] = []
    write = entries.write_wish
    monkeypatch.setattr(entries, "write_wish", lambda *args: written.append(1) or write(*args))
    app = app_at(world, WRITING)
    client = signed_in(app)
    wish = {"adlib": "little", "contact": "", "gm_note": NOTE}
    assert save(client, url(world), prose="一度目。", **ATTACK, **wish)[0] == 303 and len(written) == 1
    shown = re.search(r'name="wish_shown" value="([0-9a-f]{16})"', page(client, url(world))).group(1)
    assert save(client, url(world), prose="二度目。", **ATTACK, **wish, wish_shown=shown)[0] == 303
    assert stored(app, world).prose == "二度目。" and len(written) == 1  # the entry saved, the wish not written
    changed = {**wish, "adlib": "none"}
    assert save(client, url(world), prose="三度目。", **ATTACK, **changed, wish_shown=shown)[0] == 303
    assert len(written) == 2 and wish_row(app, world).adlib == "none"  # the digest no longer matches
