"""Issue 31 item 7 (マスターコメント, the private notes) and issue 30 item 6 (character icons) through the test
client: a comment written on the report page is published under the story (the English page's fallback marked as
the GM's original), leak-checked, and corrected with a note like the story; a private note reaches only its player
and the GMs, tells the other side, is rate-limited and appears in nothing public; an icon is checked, made again
and served as WebP, a bad file said beside the field."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from PIL import Image

from pbp import db as pbp_db
from pbp.models import CharacterIcon, MasterComment, Notice, ReportCorrection, Round, Scenario, ScenarioNote, User
from pbp.services import icons, master_comments, publishing, rounds, scenario_notes, secret_terms
from pbp.services.clock import FixedClock
from pbp.services.master_comments import Comment
from pbp.web import database
from pbp.web.export import export_site
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.test_kancolle_journey import fleet  # noqa: F401  (the kancolle demo, for its sheet)
from tests.web.world import START, World, build_world

ROUND = 3  # the world's open round: resolved here, so the GM can comment before publishing
REPORT = "/gm/demo/rounds/3/report"
COMMENTS = "/gm/demo/rounds/3/comments"
PUBLIC = "/blog/demo/tama_river/round-3/"
NOTES = "/campaigns/demo/scenarios/tama_river/notes"
AFTER = START + timedelta(hours=62)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    built = build_world(f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbp.sqlite3'}")
    with pbp_db.using(database.of(make_app(built.url))):
        rounds.resolve_round(ROUND, clock=FixedClock(AFTER))
    return built


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


def _post(client, url: str, form_url: str | None = None, **form: object):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, form_url or url)})


def _user_id(world: World, name: str) -> int:
    with pbp_db.using(database.of(make_app(world.url))):
        return User.get(User.name == name).id


# ---- マスターコメント ------------------------------------------------------------------------------------------


def test_comments_are_written_leak_checked_published_and_corrected(world):
    app = make_app(world.url, PAGE_CACHE_BYTES=1024 * 1024)
    gm = signed_in(world.url, "gm", lang="en")
    page = _text(gm.get(REPORT))
    assert 'id="master-comments"' in page and 'name="comment-1"' in page and 'name="comment_en-2"' in page
    assert 'name="note"' not in page.split('id="master-comments"')[1]  # no correction before publishing

    with pbp_db.using(database.of(app)):
        scenario_id = Scenario.get(Scenario.slug == "tama_river").id
        secret_terms.set_terms(scenario_id, "紅い月の契約", actor_id=None)
    leaked = _post(gm, COMMENTS, REPORT, **{"comment-1": "紅い月の契約を知る者。", "comment_en-1": ""})
    assert leaked.status_code == 422 and "GM-secret text" in _text(leaked)
    assert "紅い月の契約を知る者。" in _text(leaked)  # what was typed is kept

    done = _post(gm, COMMENTS, REPORT, **{"comment-1": "**見事な**一撃でした。", "comment_en-1": "A fine shot.",
                                           "comment-2": "冷静な判断でした。", "comment_en-2": ""})  # fmt: skip
    assert done.status_code == 303 and "done=comments" in done.headers["Location"]
    assert "The comments are saved" in _text(gm.get(done.headers["Location"]))
    with pbp_db.using(database.of(app)):
        assert MasterComment.select().where(MasterComment.round == ROUND).count() == 2
        publishing.publish_round(ROUND, clock=FixedClock(AFTER))

    reader = app.test_client()
    ja = reader.get(PUBLIC, headers={"Accept-Language": "ja"}).get_data(as_text=True)
    comments = ja.split('class="master-comments"')[1]
    assert "<strong>見事な</strong>一撃でした。" in comments and "冷静な判断でした。" in comments
    en = reader.get(PUBLIC + "en/").get_data(as_text=True).split('class="master-comments"')[1]
    assert "A fine shot." in en and "見事な" not in en
    assert "The GM's original, in Japanese" in en and '<div lang="ja"><p>冷静な判断でした。' in en

    unnoted = _post(gm, COMMENTS, REPORT, **{"comment-1": "訂正後の一言。", "comment-2": "冷静な判断でした。"})
    assert unnoted.status_code == 422 and "correction note" in _text(unnoted).lower()
    fixed = {"comment-1": "訂正後の一言。", "comment-2": "冷静な判断でした。"}
    corrected = _post(gm, COMMENTS, REPORT, note="名前の誤りを直しました", **fixed)
    assert corrected.status_code == 303
    ja = reader.get(PUBLIC, headers={"Accept-Language": "ja"}).get_data(as_text=True)  # the kept page is not served
    assert "訂正後の一言。" in ja and "見事な" not in ja and "名前の誤りを直しました" in ja
    with pbp_db.using(database.of(app)):
        number = ReportCorrection.get(ReportCorrection.round == ROUND).number
    old = reader.get(f"{PUBLIC}corrections/{number}/").get_data(as_text=True)
    assert "<strong>見事な</strong>一撃でした。" in old


# ---- private notes ------------------------------------------------------------------------------------------------


def test_a_note_reaches_its_player_and_the_gms_only_and_tells_the_other_side(world):
    player1, player2, gm = (signed_in(world.url, n, lang="en") for n in ("player1", "player2", "gm"))
    p1 = _user_id(world, "player1")
    sent = _post(player1, NOTES, body="相談です: 秘密の作戦 NOTE-CANARY-7")
    assert sent.status_code == 303
    assert "NOTE-CANARY-7" in _text(player1.get(NOTES))
    assert "NOTE-CANARY-7" not in _text(player2.get(NOTES))  # their own thread
    assert player2.get(f"/gm/demo/scenarios/tama_river/notes/{p1}").status_code == 403
    thread = f"/gm/demo/scenarios/tama_river/notes/{p1}"
    assert "NOTE-CANARY-7" in _text(gm.get(thread))
    assert "1 message" in _text(gm.get("/gm/demo/scenarios/tama_river/notes"))
    with pbp_db.using(database.of(make_app(world.url))):
        gm_id = User.get(User.name == "gm").id
        told = Notice.select().where(Notice.kind == "note.new", Notice.user == gm_id).get()
        assert told.payload["page"] == thread and "NOTE-CANARY" not in str(told.payload)
    assert _post(gm, thread, body="了解しました").status_code == 303
    with pbp_db.using(database.of(make_app(world.url))):
        mine = Notice.select().where(Notice.kind == "note.new", Notice.user == p1).get()
        assert mine.payload["page"] == NOTES and mine.payload["scenario_en"] == "The Battle of the Tama River"
    assert "了解しました" in _text(player1.get(NOTES))


def test_a_flood_of_notes_is_refused_beside_the_field_with_the_text_kept(world):
    player2 = signed_in(world.url, "player2", lang="en")
    for i in range(scenario_notes.BURST):
        assert _post(player2, NOTES, body=f"message {i}").status_code == 303
    refused = _post(player2, NOTES, body="one too many")
    page = _text(refused)
    assert refused.status_code == 422 and "a little later" in page and "one too many" in page


def test_notes_appear_in_no_public_page_feed_bundle_or_export(world, tmp_path: Path):
    player1 = signed_in(world.url, "player1")
    _post(player1, NOTES, body="NOTE-CANARY-9 never public")
    app = make_app(world.url)
    reader = app.test_client()
    with pbp_db.using(database.of(app)):
        published = [r.number for r in Round.select().where(Round.state == "published")]
    paths = ["/blog/", "/feed.atom", "/blog/demo/feed.atom", "/blog/demo/tama_river/", "/blog/demo/characters/1/"]
    for n in published:
        base = f"/blog/demo/tama_river/round-{n}/"
        paths += [base, base + "en/", base + "ja/", base + "bundle.json"]
    for path in paths:
        assert "NOTE-CANARY" not in reader.get(path).get_data(as_text=True), path
    export_site(app, tmp_path)
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert b"NOTE-CANARY" not in file.read_bytes(), file


# ---- icons --------------------------------------------------------------------------------------------------------


def _picture(size: tuple[int, int] = (600, 400), kind: str = "JPEG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (30, 120, 200)).save(out, kind)
    return out.getvalue()


def _upload(client, data: bytes, name: str = "face.jpg"):
    url = "/characters/1/icon"
    form = {"csrf_token": csrf_token(client, url), "action": "upload", "icon": (io.BytesIO(data), name)}
    return client.post(url, data=form, content_type="multipart/form-data")


def test_an_icon_is_made_again_served_as_webp_and_shown(world, tmp_path: Path):
    player1 = signed_in(world.url, "player1", lang="en")
    done = _upload(player1, _picture())
    assert done.status_code == 303 and done.headers["Location"].endswith("done=saved")
    with pbp_db.using(database.of(make_app(world.url))):
        icon = CharacterIcon.get(CharacterIcon.character == 1)
    stored = Image.open(io.BytesIO(bytes(icon.image)))
    assert stored.format == "WEBP" and stored.size == (256, 256) and not stored.info.get("exif")
    src = f"/characters/1/icon.webp?v={icon.digest}"
    for client in (player1, make_app(world.url).test_client()):  # signed in or not: the same answer
        served = client.get(src)
        assert served.status_code == 200 and served.headers["Content-Type"] == "image/webp"
        assert served.headers["X-Content-Type-Options"] == "nosniff"
        assert "immutable" in served.headers["Cache-Control"] and served.headers["ETag"] == f'"{icon.digest}"'
    assert player1.get(src, headers={"If-None-Match": f'"{icon.digest}"'}).status_code == 304
    assert src in player1.get("/characters/1/edit").get_data(as_text=True)
    assert src in player1.get("/characters/1/icon").get_data(as_text=True)
    public = make_app(world.url).test_client().get("/blog/demo/tama_river/round-1/").get_data(as_text=True)
    assert f'src="{src}"' in public  # beside the character's name in the cast
    export_site(make_app(world.url), tmp_path)  # the static copy carries the picture the page shows
    assert (tmp_path / "characters/1/icon.webp").read_bytes() == bytes(icon.image)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"not a picture at all", "not a picture this site takes"),
        (_picture((20_000, 20_000), "PNG"), "more than 40 million pixels"),  # a decompression bomb
        (b"", "choose a picture"),
    ],
)
def test_a_bad_icon_is_said_beside_the_field(world, data, said):
    player1 = signed_in(world.url, "player1", lang="en")
    refused = _upload(player1, data)
    page = _text(refused)
    assert refused.status_code == 422 and said in page
    assert re.search(r'class="field invalid">.*?<span class="error" role="alert">', page, re.S)


def test_a_50_mb_upload_gets_the_icon_page_with_the_limit(world):
    player1 = signed_in(world.url, "player1", lang="en")
    refused = _upload(player1, b"\0" * (50 * 1024 * 1024))
    page = _text(refused)
    assert refused.status_code == 413 and "over the limit of 8 MB" in page and 'name="icon"' in page


def test_someone_elses_character_gets_no_icon(world):
    player2 = signed_in(world.url, "player2")
    assert _upload_to_other(player2).status_code == 403


def _upload_to_other(client):
    token = csrf_token(client, "/characters/2/icon")
    form = {"csrf_token": token, "icon": (io.BytesIO(_picture()), "x.jpg")}
    return client.post("/characters/1/icon", data=form, content_type="multipart/form-data")


def test_a_kancolle_ship_girls_sheet_shows_her_icon(fleet):  # noqa: F811  (the imported fixture)
    """The kancolle sheet has the icon's line too (its own template)."""
    name, character = next(iter(fleet.characters.items()))
    with pbp_db.using(database.of(make_app(fleet.url))):
        user = User.get(User.name == name).id
        digest = icons.set_icon(character, user, _picture(), clock=fleet.clock).digest
    page = signed_in(fleet.url, name, lang="en").get(f"/characters/{character}/edit").get_data(as_text=True)
    assert f"/characters/{character}/icon.webp?v={digest}" in page and f'href="/characters/{character}/icon"' in page


def test_the_audit_log_says_comments_notes_and_icons_in_words(world):
    """A comment, a note and an icon, in the campaign's log as sentences."""
    with pbp_db.using(database.of(make_app(world.url))):
        p2 = User.get(User.name == "player2").id
        gm = User.get(User.name == "gm").id
        scenario = Scenario.get(Scenario.slug == "tama_river").id
        icons.set_icon(2, p2, _picture(), clock=FixedClock(AFTER))
        ScenarioNote.delete().where(ScenarioNote.author == p2).execute()  # another test's flood
        scenario_notes.write(scenario, p2, "a word", author_id=p2, clock=FixedClock(AFTER))
        master_comments.save_comments(3, [Comment(2, "監査の確認")], note="audit", actor_id=gm, clock=FixedClock(AFTER))
    page = _text(signed_in(world.url, "gm", lang="en").get("/gm/demo/audit"))
    for said in ("the comments on the characters of round 3", "wrote in the private notes of", "set the icon of"):
        assert said in page, said


def test_the_characters_chronicle_shows_the_icon(world):
    with pbp_db.using(database.of(make_app(world.url))):
        digest = icons.set_icon(2, _user_id(world, "player2"), _picture(), clock=FixedClock(AFTER)).digest
    page = make_app(world.url).test_client().get("/blog/demo/characters/2/").get_data(as_text=True)
    assert f'src="/characters/2/icon.webp?v={digest}"' in page
