"""Where each line of each プレイング went (issue 29): the GM's report page shows, per entry, the notes to the GM set
apart, the ad-lib wish and the partners asked for, and every line with its fate in the Japanese story as it stands
(quoted, told, left out), following the GM's edits; no player reaches it, nor another player's entry."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.errors import Forbidden, InvalidState
from pbp.models import Character, Entry, Report, Round, User
from pbp.services import entries, publishing, rounds
from pbp.services.clock import FixedClock, from_db
from pbp.services.line_fates import entry_fates
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

LINE = "「鬼ごっこはおしまいだ！」"
NOTE = "MS様へ：葵さんと連携希望です。アドリブ歓迎です。"
PROSE = f"【行動】\n低空で河原を抜け、ハヤチの背後を取る。\n\n【台詞】\n{LINE}\n\n【その他】\n{NOTE}\n"


def _world(folder: Path, **prose: str) -> World:
    """Round 1 published; round 2 resolved with the given PCs' entries (pack id -> prose) rewritten."""
    built = world_with_rival(folder)
    with pbp_db.bind(built.url).connection_context():
        for pc, text in prose.items():
            character = Character.get_by_id(built.characters[pc])
            entry = Entry.get(Entry.round == built.open_round, Entry.character == character.id)
            clock = FixedClock(from_db(entry.saved_at) + timedelta(minutes=5))
            entries.save_entry(
                built.open_round, character.id, user_id=character.owner_id, order=entry.order, prose=text, clock=clock
            )
        rounds.resolve_round(built.open_round, clock=FixedClock(START + timedelta(days=3)))
    return built


@pytest.fixture
def world(tmp_path) -> World:
    """真琴's entry is a headed プレイング with a note to the GM."""
    return _world(tmp_path, makoto=PROSE)


def _url(world: World) -> str:
    return f"/gm/demo/rounds/{world.open_round}/report"


def _makoto(page: str) -> str:
    """真琴's part of the section (the page in English names him Makoto)."""
    found = re.search(
        r'<article class="entry-fates" aria-labelledby="fates-pc\d+">\s*<h3[^>]*>Makoto.*?</article>', page, re.S
    )
    assert found, "no entry of Makoto in the section"
    return html.unescape(found[0])


def _fate_of(part: str, line: str) -> str:
    """The fate label shown beside `line`."""
    found = re.search(
        r'<span class="fate">([^<]+)</span> <span class="kind">[^<]+</span>\s*<q class="line"[^>]*>' + re.escape(line),
        part,
    )
    assert found, f"{line} is not listed"
    return found[1]


def _story_without_line(world: World) -> str:
    """The stored draft with 真琴's line cut out, the rest as generated."""
    with pbp_db.using(database.of(make_app(world.url))):
        story = Report.get(Report.round == world.open_round).draft_md
    assert story.count(LINE) == 1, "the draft quotes the line"
    return story.replace(LINE, "")


def test_the_gm_sees_the_note_apart_and_the_line_quoted(world):
    page = signed_in(world.url, "gm", lang="en").get(_url(world)).get_data(as_text=True)
    assert "Where each line went" in page and 'href="#line-fates"' in page  # the notice at the top links to it
    part = _makoto(page)
    notes = re.search(r'<div class="notes-to-gm" role="note">(.*?)</div>', part, re.S)
    assert notes and "1 note to the GM" in notes[1] and NOTE in notes[1]
    assert _fate_of(part, LINE) == "quoted"
    assert _fate_of(part, "低空で河原を抜け、ハヤチの背後を取る。") == "told"
    assert "Ad-lib welcome" in part and "Wants a scene with: 葵" in part
    assert NOTE not in part.split("</div>", 1)[1]  # the note is not listed again among the lines
    assert "【その他】" not in part and "【台詞】" not in part  # headings are structure, not lines


def test_a_line_the_gm_drops_shows_left_out_in_the_preview_and_once_saved(world):
    client = signed_in(world.url, "gm", lang="en")
    story = _story_without_line(world)
    form = {"csrf_token": csrf_token(client, _url(world)), "story": story, "intro": "", "outro": "", "story_en": ""}
    preview = client.post(_url(world), data={**form, "action": "preview"}).get_data(as_text=True)
    assert _fate_of(_makoto(preview), LINE) == "left out"
    assert _fate_of(_makoto(client.get(_url(world)).get_data(as_text=True)), LINE) == "quoted"  # nothing saved
    assert client.post(_url(world), data={**form, "action": "save"}).status_code == 303
    part = _makoto(client.get(_url(world)).get_data(as_text=True))
    assert _fate_of(part, LINE) == "left out"
    assert part.count('class="fate-left-out"') == 1  # only that line: the plan is still told


def test_the_section_speaks_japanese(world):
    page = html.unescape(signed_in(world.url, "gm", lang="ja").get(_url(world)).get_data(as_text=True))
    assert "プレイングの行方" in page and "GMへのメモ" in page and "アドリブ歓迎" in page and "連携希望：葵" in page
    assert re.search(
        r'<span class="fate">引用</span> <span class="kind">台詞</span>\s*<q class="line"[^>]*>' + LINE, page
    )


@pytest.mark.parametrize("who", ["player1", "player2", "gm2"])
def test_no_player_or_other_gm_reaches_the_section(world, who):
    client: FlaskClient = signed_in(world.url, who, lang="en")
    response = client.get(_url(world))
    assert response.status_code in (403, 404)
    assert NOTE not in html.unescape(response.get_data(as_text=True))


def test_another_players_entry_never_shows_to_a_player(world):
    client = signed_in(world.url, "player1", lang="ja")  # 葵's player
    other = client.get(f"/rounds/{world.open_round}/entry/{world.characters['makoto']}")
    assert other.status_code in (403, 404) and "おしまいだ" not in html.unescape(other.get_data(as_text=True))
    with pbp_db.using(database.of(make_app(world.url))):
        player1 = User.get(User.name == "player1").id
        with pytest.raises(Forbidden):
            entry_fates(world.open_round, actor_id=player1)


def test_the_service_reads_only_a_resolved_round_and_changes_nothing(world):
    with pbp_db.using(database.of(make_app(world.url))):
        before = Report.get(Report.round == world.open_round).updated_at
        fates = {e.name: e for e in entry_fates(world.open_round, actor_id=None)}
        assert fates["真琴"].name_en == "Makoto" and fates["真琴"].notes == (NOTE,)
        assert fates["真琴"].adlib is True and fates["真琴"].partners == ("葵",)
        assert fates["葵"].notes == () and fates["葵"].adlib is None
        assert Report.get(Report.round == world.open_round).updated_at == before
        later = FixedClock(START + timedelta(days=4))
        publishing.publish_round(world.open_round, actor_id=None, clock=later)
        assert entry_fates(world.open_round, actor_id=None)  # a published round's review stays readable
        scenario = Round.get_by_id(world.open_round).scenario_id
        draft = rounds.create_round(scenario, later.now() + timedelta(days=2), clock=later)
        with pytest.raises(InvalidState):
            entry_fates(draft.id, actor_id=None)


@pytest.mark.parametrize(
    "prose",
    [
        "【心情】\n【行動】\n■台詞\n【その他】",  # only headings
        "🔥🔥🔥✨",  # only emoji
        "**太字** `code` <script>alert(1)</script>「閉じない台詞" + "そして走る、" * 120 + "。",  # unbalanced, 800+
    ],
)
def test_bad_input_shows_as_text_and_never_breaks_the_page(tmp_path, prose):
    built = _world(tmp_path, aoi=prose)
    page = signed_in(built.url, "gm", lang="ja").get(_url(built))
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and "<script>alert" not in body
    aoi = re.search(r'<h3 id="fates-pc\d+">葵</h3>(.*?)</article>', body, re.S)
    assert aoi, "葵's entry is listed"
    assert body.count("<article") == body.count("</article>")  # nothing the player wrote opens or closes a tag
