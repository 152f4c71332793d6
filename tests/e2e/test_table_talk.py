"""Issue 30 item 6 and issue 31 item 7 (second half) in a real browser, in ja and en at 1280 and 360 px without
sideways scrolling: a player uploads an icon through the file chooser (a text file first, refused beside the field)
and writes to the GM in the scenario's private notes; the GM reads and answers it, and writes a comment on the
player's character on the round's report page; once the round is published a reader finds the comment under the
story beside the character's icon, and no note anywhere. Pages are saved under tests/e2e/screenshots/."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbp.models import Character, Round, Scenario, User
from pbp.services import publishing, rounds
from tests.e2e.conftest import log_in, shot
from tests.e2e.runs import cast, draft_round, entries_arrive

NOTE = {"ja": "GMさんへ：葵の過去に触れてもかまいません。", "en": "Dear GM: feel free to bring up Aoi's past."}
REPLY = {"ja": "了解です、次で少し触れます。", "en": "Noted: the next report touches on it."}
COMMENT = {"ja": "川霧の中の一射、お見事でした。", "en": "A fine shot in the river fog."}
SAYS = {
    "ja": {"bad": "受け付けられる画像", "saved": "アイコンを保存しました", "comments": "マスターコメント"},
    "en": {"bad": "not a picture this site takes", "saved": "The icon is saved", "comments": "The GM's comments"},
}


def _shot(page, name: str, lang: str, width: int) -> None:
    shot(page, f"table-talk-{name}-{lang}-{width}")


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (640, 480), (40, 90, 160)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(("lang", "width"), [("ja", 360), ("en", 1280)])  # each language, each width (suite time)
def test_an_icon_a_private_note_and_a_comment(site, page_factory, lang, width) -> None:
    says = SAYS[lang]
    run = site.new_run()
    cast(site, run)
    rid = draft_round(site, run)
    with site.db():
        gm = User.get(User.name == "gm").id
        player = User.get(User.name == "player1")
        scenario = Scenario.get(Scenario.slug == run)
        character = Character.get(Character.owner == player.id, Character.campaign == scenario.campaign_id).id
        rounds.open_round(rid, actor_id=gm, clock=site.clock)
    entries_arrive(site, rid)

    me = page_factory(lang, width)
    log_in(me, site.url, "player1")
    me.goto(site.url + f"/characters/{character}/icon")
    me.set_input_files("input[name=icon]", files=[{"name": "a.txt", "mimeType": "text/plain", "buffer": b"text"}])
    me.click("button[value=upload]")
    assert says["bad"] in me.locator("p.field.invalid .error").inner_text()
    me.set_input_files("input[name=icon]", files=[{"name": "me.png", "mimeType": "image/png", "buffer": _png()}])
    me.click("button[value=upload]")
    me.wait_for_url("**done=saved**")
    assert says["saved"] in me.locator("p.notice").inner_text()
    now = me.locator(".icon-now img")  # waited for: the page's load can end before a lazy image's does
    me.wait_for_function("img => img.complete && img.naturalWidth === 256", arg=now.element_handle())
    _shot(me, "icon", lang, width)
    me.goto(site.url + f"/campaigns/demo/scenarios/{run}/notes")
    me.fill("textarea[name=body]", NOTE[lang])
    me.click("form.note-form button[type=submit]")
    me.wait_for_url("**#latest")
    assert NOTE[lang] in me.locator("ol.note-thread").inner_text()

    master = page_factory(lang, width)
    log_in(master, site.url, "gm")
    master.goto(site.url + f"/gm/demo/scenarios/{run}/notes/{player.id}")
    assert NOTE[lang] in master.locator("ol.note-thread").inner_text()
    master.fill("textarea[name=body]", REPLY[lang])
    master.click("form.note-form button[type=submit]")
    master.wait_for_url("**#latest")
    _shot(master, "thread", lang, width)
    with site.db():
        rounds.resolve_by_hand(rid, anyway=True, actor_id=gm, clock=site.clock)
    master.goto(site.url + f"/gm/demo/rounds/{rid}/report")
    master.fill(f"textarea[name=comment-{character}]", COMMENT[lang])
    master.click("form.comments-form button[type=submit]")
    master.wait_for_url("**done=comments**")
    master.locator("#master-comments").scroll_into_view_if_needed()
    _shot(master, "comments", lang, width)

    me.goto(site.url + f"/campaigns/demo/scenarios/{run}/notes")
    assert REPLY[lang] in me.locator("ol.note-thread").inner_text()
    with site.db():
        publishing.publish_round(rid, actor_id=gm, clock=site.clock)
        number = Round.get_by_id(rid).number
    reader = page_factory(lang, width)
    reader.goto(site.url + f"/blog/demo/{run}/round-{number}/")
    comments = reader.locator("section.master-comments")
    assert says["comments"] in comments.locator("h2").inner_text() and COMMENT[lang] in comments.inner_text()
    icon = comments.locator("img.char-icon").first
    icon.scroll_into_view_if_needed()
    reader.wait_for_function("img => img.complete && img.naturalWidth === 256", arg=icon.element_handle())
    assert NOTE[lang] not in reader.content() and REPLY[lang] not in reader.content()
    _shot(reader, "report", lang, width)
