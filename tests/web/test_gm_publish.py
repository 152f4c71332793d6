"""The GM's report and growth pages (issue 10, items 6 and 7) through the test client: edit both languages,
preview (sanitised as published), the diff, the one-language warning, the leak check stopping publication with
the find shown and the text kept, publishing, correcting with a dated note shown on the public page (the old text
kept and reachable), growth requests approved and denied, the growth award."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Campaign, Character, GrowthRequest, Report, ReportCorrection, Round, User
from pbp.services import campaigns, characters, publishing, rounds, scenarios
from pbp.services.clock import FixedClock
from pbp.web import database
from pbp.web.export import export_site
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

SECRET = "上流から古カガチが増援として現れる"  # a phrase of the demo battle's GM notes
CLOCK = FixedClock(START + timedelta(days=3))


@pytest.fixture
def world(tmp_path) -> World:
    """Round 1 published, round 2 resolved and waiting for the GM; the rival campaign and its GM."""
    built = world_with_rival(tmp_path)
    with pbp_db.bind(built.url).connection_context():
        rounds.resolve_round(built.open_round, clock=CLOCK)
    return built


def _as(world: World, name: str = "gm") -> FlaskClient:
    """Signed in as `name`, reading the pages in English (the demo users have no language set)."""
    return signed_in(world.url, name, lang="en")


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _url(world: World, round_id: int | None = None) -> str:
    return f"/gm/demo/rounds/{round_id or world.open_round}/report"


def _textareas(page: str) -> dict[str, str]:
    found = re.findall(r'<textarea[^>]*name="(\w+)"[^>]*>\r?\n?(.*?)</textarea>', page, re.S)
    return {name: html.unescape(text) for name, text in found}


def _form(client: FlaskClient, url: str, **changes: str) -> dict[str, str]:
    """The page's form as it stands, with `changes`, and a fresh CSRF token."""
    page = client.get(url).get_data(as_text=True)
    return {**_textareas(page), "csrf_token": csrf_token(client, url), **changes}


def _report(world: World, round_id: int | None = None) -> Report:
    with _db(world):
        return Report.get(Report.round == (round_id or world.open_round))


def _state(world: World, round_id: int | None = None) -> str:
    with _db(world):
        return Round.get_by_id(round_id or world.open_round).state


def test_the_page_shows_the_draft_its_preview_and_the_leak_checks_verdict(world):
    client = _as(world)
    page = client.get(_url(world)).get_data(as_text=True)
    draft = _report(world).draft_md
    assert _textareas(page)["story"] == draft and _textareas(page)["story_en"]  # the generated English to edit
    assert 'class="preview-pages"' in page and 'lang="ja"' in page
    assert "No GM-secret text found" in page and "<mark>" not in page
    assert f'href="{_url(world)}"' in client.get("/gm/demo/").get_data(as_text=True)


def test_a_preview_is_sanitised_as_published_and_saves_nothing(world):
    client = _as(world)
    story = "**太字**の物語。<script>alert(1)</script> [x](javascript:alert(1))"
    response = client.post(_url(world), data=_form(client, _url(world), action="preview", story=story))
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "<strong>太字</strong>" in page
    assert "<script>alert" not in page and 'href="javascript' not in page
    assert _textareas(page)["story"] == story  # what was typed, kept
    assert _report(world).draft_md != story


def test_saving_the_draft_and_bad_input_keeping_the_text(world):
    client = _as(world)
    response = client.post(_url(world), data=_form(client, _url(world), action="save", story="新しい物語。"))
    assert response.status_code == 303 and "done=saved" in response.headers["Location"]
    assert _report(world).draft_md == "新しい物語。"
    bad = client.post(_url(world), data=_form(client, _url(world), action="save", story=" ", intro="前口上を書いた"))
    page = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "report must not be empty" in page
    assert _textareas(page)["intro"] == "前口上を書いた"
    nul = client.post(_url(world), data=_form(client, _url(world), action="save", intro="前\x00口上"))
    assert nul.status_code == 422 and "intro holds a NUL character" in nul.get_data(as_text=True)
    assert _report(world).draft_md == "新しい物語。" and _report(world).intro_md == ""


def test_the_leak_check_stops_publication_shows_where_and_keeps_the_text(world):
    client = _as(world)
    intro = f"第2ラウンド。**{SECRET}**とは、まだ誰も知らない。"
    response = client.post(_url(world), data=_form(client, _url(world), action="publish", intro=intro))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"<mark>{SECRET}</mark>" in page and "GM notes of tama_river" in page
    assert re.search(r"<strong>the intro</strong>: <q", page)
    assert "<mark>古カガチ</mark>" in page and "enemy type kagachi_elder" in page  # the elder's name too
    assert _textareas(page)["intro"] == intro
    assert _state(world) == "resolved" and _report(world).intro_md == "" and _report(world).html is None
    fixed = client.post(_url(world), data=_form(client, _url(world), action="publish", intro="第2ラウンド。"))
    assert fixed.status_code == 303 and "done=published" in fixed.headers["Location"]
    assert _state(world) == "published" and "第2ラウンド。" in _report(world).html
    blog = client.get("/blog/demo/tama_river/round-2/").get_data(as_text=True)
    with _db(world):
        assert Round.get_by_id(world.open_round).seed in blog  # the seed, revealed


def test_publishing_an_unresolved_round_is_refused_clearly(world):
    with _db(world):
        rnd = rounds.create_round(Round.get_by_id(world.open_round).scenario_id, CLOCK.now() + timedelta(days=1),
                                  clock=CLOCK)  # fmt: skip
    client = _as(world)
    url = _url(world, rnd.id)
    assert "its draft report is written when it is resolved" in client.get(url).get_data(as_text=True)
    data = {"csrf_token": csrf_token(client, url), "action": "publish", "story": "物語"}
    response = client.post(url, data=data)
    assert response.status_code == 409
    assert f"round {rnd.id} is draft: only a resolved round can be published" in response.get_data(as_text=True)
    assert _state(world, rnd.id) == "draft"


def test_a_warning_when_one_language_was_edited_and_the_other_was_not(world):
    client = _as(world)
    base = _form(client, _url(world), action="preview")
    japanese_only = client.post(_url(world), data={**base, "story": base["story"] + "\n\n追記。"})
    assert "You edited the Japanese story but not the English one" in japanese_only.get_data(as_text=True)
    english_only = client.post(_url(world), data={**base, "story_en": "The fog lifted."})
    assert "You edited the English story but not the Japanese one" in english_only.get_data(as_text=True)
    both = client.post(_url(world), data={**base, "story": base["story"] + "\n\n追記。", "story_en": "Fog."})
    assert "You edited the" not in both.get_data(as_text=True)
    assert "You edited the" not in client.get(_url(world)).get_data(as_text=True)


def test_the_diff_marks_the_gms_changes_against_the_generated_draft(world):
    client = _as(world)
    base = _form(client, _url(world), action="preview")
    first, rest = base["story"].split("。", 1)
    page = client.post(_url(world), data={**base, "story": f"{first}、静かに。{rest}\n\n追記の一文。"}).get_data(
        as_text=True
    )
    assert "<ins>、静かに</ins>" in page and "<ins>追記の一文。</ins>" in page
    assert "Unchanged: as generated." not in page.split("Japanese story</h3>")[1].split("</ol>")[0]


def test_a_correction_shows_a_dated_note_on_the_public_page_and_keeps_the_old_text(world):
    client = _as(world)
    url = _url(world, world.published[0])
    draft = _report(world, world.published[0]).draft_md
    old_story = next(line for line in draft.splitlines() if line.strip() and not line.startswith("### "))
    no_note = client.post(url, data=_form(client, url, action="correct", story="直した物語。"))
    page = no_note.get_data(as_text=True)
    assert (
        no_note.status_code == 422
        and "the correction note must not be empty" in page
        and _textareas(page)["story"] == "直した物語。"
    )
    ja = signed_in(world.url, "gm", lang="ja")
    in_japanese = ja.post(url, data=_form(ja, url, action="correct", story="直した物語。")).get_data(as_text=True)
    assert "訂正メモを入力してください。" in in_japanese  # the field is called 訂正メモ, not ひとこと
    leak = client.post(url, data=_form(client, url, action="correct", note="訂正", story=f"物語。{SECRET}。"))
    assert leak.status_code == 422 and f"<mark>{SECRET}</mark>" in leak.get_data(as_text=True)
    done = client.post(url, data=_form(client, url, action="correct", note="誤字を直しました。", story="直した物語。"))
    assert done.status_code == 303 and "done=corrected" in done.headers["Location"]
    public = make_app(world.url).test_client()
    page = public.get("/blog/demo/tama_river/round-1/").get_data(as_text=True)
    note = re.search(r'<aside class="corrections".*?</aside>', page, re.S)[0]
    assert "誤字を直しました。" in note and "2026-12-04 21:00 JST" not in note  # the real time of the correction
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', note)
    assert 'href="/blog/demo/tama_river/round-1/corrections/1/"' in note
    assert "直した物語。" in page and old_story.splitlines()[0] not in page
    before = public.get("/blog/demo/tama_river/round-1/corrections/1/").get_data(as_text=True)
    assert old_story.splitlines()[0] in before and "誤字を直しました。" in before and "直した物語" not in before
    assert "誤字を直しました。" in public.get("/blog/demo/tama_river/round-1/en/").get_data(as_text=True)
    assert public.get("/blog/demo/tama_river/round-1/corrections/2/").status_code == 404
    feed = public.get("/blog/demo/feed.atom").get_data(as_text=True)
    entry = feed.split("<entry>")[1]
    assert re.search(r"<published>(.*?)</published>", entry)[1] < re.search(r"<updated>(.*?)</updated>", entry)[1]
    assert "誤字を直しました。" in client.get(url).get_data(as_text=True)  # the GM page lists the corrections


def test_an_expired_token_brings_the_report_back_with_what_was_typed(world):
    client = _as(world)
    data = _form(client, _url(world), action="save", story="長い時間をかけて書いた物語。")
    response = client.post(_url(world), data={**data, "csrf_token": "expired"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "security token expired" in page
    assert _textareas(page)["story"] == "長い時間をかけて書いた物語。"
    assert _report(world).draft_md != "長い時間をかけて書いた物語。"


def test_another_campaigns_gm_reaches_no_round_of_this_one(world):
    """Through the rival's own console URL, the demo's round is not there (404), and the demo's URL is 403."""
    rival = _as(world, "gm2")
    assert rival.get(f"/gm/rival/rounds/{world.open_round}/report").status_code == 404
    assert rival.get(_url(world)).status_code == 403
    token = csrf_token(rival, "/gm/rival/growth")
    data = {"csrf_token": token, "action": "publish", "story": "x"}
    assert rival.post(f"/gm/rival/rounds/{world.open_round}/report", data=data).status_code == 404
    assert _state(world) == "resolved"


def _growth_request(world: World, skills: dict[str, int], *, campaign: str = "demo") -> int:
    with _db(world):
        player = User.get(User.name == "player1")
        if campaign == "demo":
            character = Character.get(Character.owner == player, Character.campaign == Campaign.get(slug="demo").id)
        else:
            rival = Campaign.get(Campaign.slug == campaign)
            character = characters.create_character(rival.id, player.id, rival.pack["characters"]["aoi"], clock=CLOCK)
        characters.grant_growth_points(character.id, 10, reason="a fine round", clock=CLOCK)
        return characters.request_growth(character.id, player.id, skills, note="当てたい", clock=CLOCK).id


def test_growth_requests_are_listed_priced_and_decided(world):
    request_id = _growth_request(world, {"射撃": 4})
    client = _as(world)
    page = client.get("/gm/demo/growth").get_data(as_text=True)
    assert "Shooting" in page and "4 points" in page and "当てたい" in page and "Aoi has 11 unspent" in page
    assert 'href="/gm/demo/growth"' in client.get("/gm/demo/").get_data(as_text=True)
    url = f"/gm/demo/growth/{request_id}"
    token = csrf_token(client, "/gm/demo/growth")
    refused = client.post(url, data={"csrf_token": token, "decision": "deny", f"r{request_id}-reason": " "})
    assert refused.status_code == 422 and "reason must not be empty" in refused.get_data(as_text=True)
    with _db(world):
        assert GrowthRequest.get_by_id(request_id).status == "pending"
    approved = client.post(url, data={"csrf_token": token, "decision": "approve", f"r{request_id}-reason": "見事"})
    assert approved.status_code == 303
    with _db(world):
        request = GrowthRequest.get_by_id(request_id)
        assert request.status == "approved" and request.reason == "見事"
        assert Character.get_by_id(request.character_id).sheet["skills"]["射撃"] == 4
    page = client.get("/gm/demo/growth").get_data(as_text=True)
    assert "No growth request is waiting." in page and "見事" in page
    again = client.post(url, data={"csrf_token": token, "decision": "deny", f"r{request_id}-reason": "no"})
    assert again.status_code == 409 and "was already approved" in again.get_data(as_text=True)
    assert client.post(url, data={"csrf_token": token, "decision": "maybe"}).status_code == 400


def test_a_denial_with_a_reason_and_another_campaigns_request(world):
    request_id = _growth_request(world, {"回避": 4})
    rival_request = _growth_request(world, {"射撃": 4}, campaign="rival")
    client = _as(world)
    token = csrf_token(client, "/gm/demo/growth")
    data = {"csrf_token": token, "decision": "deny", f"r{request_id}-reason": "まだ早い"}
    assert client.post(f"/gm/demo/growth/{request_id}", data=data).status_code == 303
    with _db(world):
        assert GrowthRequest.get_by_id(request_id).status == "denied"
    data = {"csrf_token": token, "decision": "approve", f"r{rival_request}-reason": ""}
    assert client.post(f"/gm/demo/growth/{rival_request}", data=data).status_code == 404
    with _db(world):
        assert GrowthRequest.get_by_id(rival_request).status == "pending"


def test_the_growth_award_is_set_and_given_on_publication(world):
    client = _as(world)
    token = csrf_token(client, "/gm/demo/growth")
    for bad in ("-1", "101", "many", ""):
        response = client.post("/gm/demo/growth/award", data={"csrf_token": token, "points": bad})
        page = response.get_data(as_text=True)
        assert response.status_code == 422 and f'value="{bad}"' in page, bad
    assert client.post("/gm/demo/growth/award", data={"csrf_token": token, "points": "2"}).status_code == 303
    with _db(world):
        assert Campaign.get(Campaign.slug == "demo").growth_on_publish == 2
        before = {c.id: c.sheet.get("growth_points", 0) for c in Character.select()}
    assert client.post(_url(world), data=_form(client, _url(world), action="publish")).status_code == 303
    with _db(world):
        after = {c.id: c.sheet.get("growth_points", 0) for c in Character.select()}
    gained = {cid: after[cid] - before[cid] for cid in before if after[cid] != before[cid]}
    assert gained == {cid: 2 for cid in world.characters.values()}  # both characters entered the round


def test_a_scene_round_and_a_published_round_report_pages_render(world):
    """A round of the scene (no battlefield, no enemies) is edited and published the same way."""
    with _db(world):
        demo = Campaign.get(Campaign.slug == "demo")
        scene = campaigns.create_scenario(demo.id, "hangar_eve", slug="eve", clock=CLOCK)
        player = User.get(User.name == "player1")
        aoi = Character.get(Character.owner == player, Character.campaign == demo.id)
        scenarios.join_scenario(scene.id, aoi.id, user_id=player.id, clock=CLOCK)
        rnd = rounds.create_round(scene.id, CLOCK.now() + timedelta(hours=1), clock=CLOCK)
        rounds.open_round(rnd.id, clock=CLOCK)
        rounds.resolve_round(rnd.id, clock=FixedClock(CLOCK.now() + timedelta(hours=2)))
    client = _as(world)
    assert client.get(_url(world, rnd.id)).status_code == 200
    assert (
        client.post(
            _url(world, rnd.id), data=_form(client, _url(world, rnd.id), action="publish", confirm="yes")
        ).status_code
        == 303  # aoi's entry is missing: the GM confirmed it
    )
    assert client.get(_url(world, rnd.id)).status_code == 200
    with _db(world):
        assert publishing.corrections(rnd.id) == [] and not ReportCorrection.select().exists()


def test_the_static_export_carries_the_correction_note_and_the_text_before(world, tmp_path):
    with _db(world):
        story = Report.get(Report.round == world.published[0]).draft_md
        publishing.correct_report(world.published[0], "誤字を直しました。", story + "\n\n追記。", clock=CLOCK)
    out = tmp_path / "site"
    export_site(make_app(world.url), out)
    page = (out / "blog/demo/tama_river/round-1/index.html").read_text(encoding="utf-8")
    assert "誤字を直しました。" in page and 'href="corrections/1/index.html"' in page
    before = (out / "blog/demo/tama_river/round-1/corrections/1/index.html").read_text(encoding="utf-8")
    assert "誤字を直しました。" in before and "追記。" not in before


def test_a_browsers_line_breaks_leave_the_text_as_generated(world):
    """A browser sends every textarea with \\r\\n: the draft and the English story sent back unchanged are still
    the generated ones (no warning, no English story of the GM's)."""
    client = _as(world)
    base = _form(client, _url(world), action="save")
    crlf = {k: v.replace("\n", "\r\n") if k in ("story", "story_en") else v for k, v in base.items()}
    assert "\r\n" in crlf["story"] and "\r\n" in crlf["story_en"]
    page = client.post(_url(world), data={**crlf, "action": "preview"}).get_data(as_text=True)
    assert "You edited the" not in page and "Unchanged: as generated." in page
    assert client.post(_url(world), data=crlf).status_code == 303
    report = _report(world)
    assert report.story_en_md is None and report.draft_md == report.generated_md.strip()


def test_a_published_english_story_the_phrasings_no_longer_write_is_said_and_kept(world, monkeypatch):
    """After a change to the English phrasings, the English written anew (the form's) differs from the published
    page's: the report page says so, and a correction of the Japanese alone leaves the English page as published."""
    gm, published = _as(world), _url(world, world.published[0])
    assert 'class="notice warning reworded"' not in gm.get(published).get_data(as_text=True)
    with _db(world):
        before = Report.get(Report.round == world.published[0]).html_en
    assert before
    generated = publishing._generated_english
    monkeypatch.setattr(publishing, "_generated_english", lambda rnd: (generated(rnd) or "") + "\n\nA new line.")
    page = gm.get(published).get_data(as_text=True)
    assert 'class="notice warning reworded"' in page and "A new line." in _textareas(page)["story_en"]
    fixed = _form(gm, published, action="correct", story=_textareas(page)["story"] + "\n\n追記。", note="typo")
    assert gm.post(published, data=fixed).status_code == 303
    with _db(world):
        assert Report.get(Report.round == world.published[0]).html_en == before
