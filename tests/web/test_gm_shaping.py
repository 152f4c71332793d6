"""The GM's shaping pages (issue 10, item 3): every kind of GM action recorded from its form, refusals beside their
field with the GM's input kept and nothing changed, delete, an enemy's order from the player's order fields, and
the link from the campaign overview. The open round of the world is round 2."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import GmAction, GmOrder
from pbp.services import publishing, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

ACTIONS = "/gm/demo/rounds/2/actions"


@pytest.fixture
def world(tmp_path) -> World:
    return world_with_rival(tmp_path)


def _as(world: World, name: str) -> FlaskClient:
    return signed_in(world.url, name)


def _post(client: FlaskClient, url: str, data: dict) -> object:
    return client.post(url, data={**data, "csrf_token": csrf_token(client, ACTIONS)})


def _counts(world: World) -> tuple[int, int]:
    with pbp_db.using(database.of(make_app(world.url))):
        return GmAction.select().count(), GmOrder.select().count()


def test_the_overview_links_the_open_rounds_actions(world):
    assert ACTIONS in _as(world, "gm").get("/gm/demo/").get_data(as_text=True)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "300", "y": "20"},
        {"kind": "retreat", "unit": "kagachi2"},
        {"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken_0": "5", "taken_1": "2"},
        {"kind": "add_status", "unit": "kagachi1", "status": "stun", "rounds": "2"},
        {"kind": "set_position", "unit": "kagachi1", "x": "500", "y": "0"},
    ],
)
def test_every_action_is_recorded_from_its_form(world, data):
    gm = _as(world, "gm")
    response = _post(gm, ACTIONS, {**data, "reason": "the river rises"})
    assert response.status_code == 303, response.get_data(as_text=True)
    page = gm.get(ACTIONS).get_data(as_text=True)
    assert "the river rises" in page and _counts(world) == (1, 0)


def test_the_gauge_form_shows_every_units_gauges_as_they_stand(world):
    """Setting a gauge gives each stage's damage anew: the form shows what each unit holds now (after the actions
    recorded before), so that a GM adding damage does not heal the unit by typing only the damage to add."""
    gm = _as(world, "gm")
    reason = {"reason": "the river rises"}
    _post(gm, ACTIONS, {"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken_0": "5", **reason})
    page = gm.get(ACTIONS).get_data(as_text=True)
    table = page.split('class="console-table gauges-now"')[1].split("</table>")[0]
    row = next(r for r in table.split("<tr>") if "カガチ壱" in r)
    assert re.search(r"<td>5/\d+ · 0/\d+ · 0/\d+ · 0/\d+ · 0/\d+</td>", row), row
    assert "段階1" in page.split('id="action-set_gauge"')[1]


def test_a_reinforcement_is_taken_off_again(world):
    gm = _as(world, "gm")
    _post(gm, ACTIONS, {"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "300", "y": "20", "reason": "a"})
    assert _post(gm, ACTIONS, {"kind": "remove_unit", "unit": "kagachi9", "reason": "b"}).status_code == 303
    assert _counts(world) == (2, 0)


def test_a_status_is_removed_and_an_action_deleted(world):
    gm = _as(world, "gm")
    _post(gm, ACTIONS, {"kind": "add_status", "unit": "kagachi1", "status": "stun", "reason": "flash"})
    assert _post(gm, ACTIONS, {"kind": "remove_status", "unit": "kagachi1", "status": "stun", "reason": "cured"})
    assert _counts(world) == (2, 0)
    with pbp_db.using(database.of(make_app(world.url))):
        last = GmAction.select().order_by(GmAction.seq.desc()).first().id
    assert _post(gm, f"{ACTIONS}/{last}/delete", {}).status_code == 303
    assert _counts(world) == (1, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "0", "y": "0"},
         "[0, 0]には「葵 (pc1)」がいます（「葵 (pc1)」の位置: [0, 0]）"),
        ({"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "east", "y": "0"}, "整数で入力してください。"),
        ({"kind": "add_unit", "enemy": "dragon", "id": "kagachi9", "x": "300", "y": "0"},
         "敵の種類&#39;dragon&#39;はありません"),  # a form the page did not offer
        ({"kind": "retreat", "unit": "nobody"}, "ユニット「nobody」は戦場にいません"),
        ({"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken_0": "99"},
         "99は範囲（0〜5、その段階の容量）の外です"),
        ({"kind": "set_gauge", "unit": "kagachi1", "gauge": "injury", "taken_0": "x"}, "整数で入力してください。"),
        ({"kind": "revive", "unit": "kagachi1"}, "「カガチ壱 (kagachi1)」は死亡していません"),
        ({"kind": "remove_unit", "unit": "hayachi1"},  # an entry targets it
         "このラウンドの指示が成り立たなくなります: 真琴 (pc2)の指示: ユニット「ハヤチ (hayachi1)」は存在しません"),
    ],
)  # fmt: skip
def test_a_refused_action_stands_beside_its_field_keeps_the_input_and_changes_nothing(world, data, message):
    """The engine's reason in the page's language (Japanese, the site's), beside the field it is about, naming the
    units by their names and ids."""
    response = _post(_as(world, "gm"), ACTIONS, {**data, "reason": "kept reason"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in page and 'class="error"' in page and 'value="kept reason"' in page
    assert _counts(world) == (0, 0)


@pytest.mark.parametrize(
    ("lang", "alert"),
    [("ja", "「撤退」は記録されていません：下のフォームに理由があります。"),
     ("en", "“Retreat” was not recorded: its form below says why.")],
)  # fmt: skip
def test_a_refused_action_is_announced_at_the_top_and_said_once_in_its_form(world, lang, alert):
    """The page comes back at its top while the reason stands beside the form far below: the top says which action
    was refused and links to its form; the reason itself is said once (it was said twice when it had no field)."""
    gm = signed_in(world.url, "gm", lang=lang)
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "a"})
    page = _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "b"}).get_data(as_text=True)
    assert f'<p class="error" role="alert"><a href="#action-retreat">{alert}</a></p>' in page
    assert page.count('class="error"') == 2 and 'id="action-retreat"' in page


def test_an_action_form_returns_to_itself_and_a_recorded_action_to_the_list(world):
    """Each form is sent to its own anchor (a refusal comes back scrolled to it); once recorded, the browser is
    sent to the list of recorded actions, which says it was."""
    gm = _as(world, "gm")
    page = gm.get(ACTIONS).get_data(as_text=True)
    assert f'action="{ACTIONS}#action-set_position"' in page and 'id="recorded"' in page
    response = _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi1", "reason": "a"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"{ACTIONS}?done=recorded#recorded")
    said = gm.get(response.headers["Location"]).get_data(as_text=True)
    assert 'role="status">行動を記録しました' in said  # the confirmation issue 31 asks of every GM action


def test_a_revive_sent_with_no_dead_unit_says_so_in_its_form(world):
    """No unit is dead, so the page offers no revive form; one sent anyway comes back refused, saying there is none
    rather than an empty choice."""
    page = _post(_as(world, "gm"), ACTIONS, {"kind": "revive", "unit": "kagachi1", "reason": "a"})
    body = page.get_data(as_text=True)
    form = body[body.find('id="action-revive"') :]
    assert page.status_code == 422 and "復活させられる死亡ユニットはいません" in form[: form.find("</form>")]
    assert '<select name="unit">\n</select>' not in body and _counts(world) == (0, 0)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "「カガチ弐 (kagachi2)」はすでに戦闘から離脱しています"),
        ("en", "‘Kagachi Two (kagachi2)’ is out of the battle"),
    ],  # fmt: skip
)
def test_an_action_on_a_unit_out_of_the_battle_is_refused_in_the_pages_language(world, lang, said):
    gm = signed_in(world.url, "gm", lang=lang)
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "a"})
    refused = _post(gm, ACTIONS, {"kind": "add_status", "unit": "kagachi2", "status": "stun", "reason": "b"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and f'<span class="error">{said}</span>' in page and _counts(world) == (1, 0)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "ja",
            "後のGMアクションが適用できなくなります: actions[0].unit: ユニット「カガチ (kagachi9)」は戦場にいません",
        ),
        (
            "en",
            "the later actions would no longer apply: actions[0].unit: no unit ‘Kagachi (kagachi9)’ in the encounter",
        ),
    ],
)
def test_a_delete_a_later_action_needs_is_refused_in_the_pages_language(world, lang, said):
    """Each problem of the actions after it, after its path, said in the page's language."""
    gm = signed_in(world.url, "gm", lang=lang)
    _post(gm, ACTIONS, {"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "300", "y": "20", "reason": "a"})
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi9", "reason": "b"})
    with pbp_db.using(database.of(make_app(world.url))):
        first = GmAction.get(GmAction.seq == 1).id
    refused = _post(gm, f"{ACTIONS}/{first}/delete", {})
    assert refused.status_code == 422 and said in refused.get_data(as_text=True) and _counts(world) == (2, 0)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "GMアクションを適用できません: actions[0].unit: ユニット&#39;nobody&#39;は戦場にいません"),
        ("en", "the GM&#39;s actions do not apply: actions[0].unit: no unit &#39;nobody&#39; in the encounter"),
    ],
)
def test_recorded_actions_that_no_longer_apply_are_said_in_the_pages_language(world, lang, said):
    """The round's start changed under its recorded actions (an override of the round before, say): the console
    says why they no longer apply."""
    gm = signed_in(world.url, "gm", lang=lang)
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "a"})
    with pbp_db.using(database.of(make_app(world.url))):
        GmAction.update(payload={"unit": "nobody"}).execute()
    page = gm.get(ACTIONS)
    assert page.status_code == 400 and said in page.get_data(as_text=True)


def test_a_reinforcement_off_the_map_is_refused(world):
    page = _post(_as(world, "gm"), ACTIONS, {"kind": "add_unit", "enemy": "kagachi", "id": "k9", "x": "150000",
                                             "y": "0", "reason": "r"})  # fmt: skip
    assert page.status_code == 422 and "の間で入力" in page.get_data(as_text=True) and _counts(world) == (0, 0)


def test_a_reason_is_required(world):
    response = _post(_as(world, "gm"), ACTIONS, {"kind": "retreat", "unit": "kagachi1", "reason": ""})
    assert response.status_code == 422 and _counts(world) == (0, 0)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ja", ["GMの秘密の文が含まれています", "tama_riverのGMメモ"]), ("en", ["GM notes of tama_river"])],
)
def test_a_reason_with_a_gm_secret_is_refused_in_the_pages_language_with_the_text_kept(world, lang, words):
    secret = "上流から古カガチが増援として現れる"  # a phrase of tama_river's GM notes
    client = signed_in(world.url, "gm", lang=lang)
    response = _post(client, ACTIONS, {"kind": "retreat", "unit": "kagachi1", "reason": f"{secret}ため"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and f'value="{secret}ため"' in page and _counts(world) == (0, 0)
    assert all(word in page for word in words), page[page.find('class="error"') :][:400]


def test_another_campaigns_gm_and_a_player_are_refused(world):
    for name in ("gm2", "player1"):
        client = _as(world, name)
        assert client.get(ACTIONS).status_code == 403
        assert client.get("/gm/demo/rounds/2/orders/kagachi1").status_code == 403
    assert _counts(world) == (0, 0)


def test_an_enemy_order_from_the_players_fields(world):
    gm = _as(world, "gm")
    url = "/gm/demo/rounds/2/orders/kagachi1"
    page = gm.get(url).get_data(as_text=True)
    assert 'name="major"' in page and 'value="full_move"' in page
    saved = _post(gm, url, {"minor": "", "major": "full_move", "full_move_toward": "point", "full_move_x": "500",
                            "full_move_y": "0"})  # fmt: skip
    assert saved.status_code == 303 and _counts(world) == (0, 1)
    refused = _post(gm, url, {"minor": "", "major": "full_move", "full_move_toward": ""})
    assert refused.status_code == 422 and 'id="err-full_move_toward"' in refused.get_data(as_text=True)
    assert _post(gm, url, {"clear": "1"}).status_code == 303 and _counts(world) == (0, 0)
    assert gm.get("/gm/demo/rounds/2/orders/pc1").status_code == 404


@pytest.mark.parametrize(("lang", "said"), [("ja", "移動先を選んでください。"), ("en", "Choose where to move.")])
def test_an_enemy_orders_field_error_is_said_in_the_pages_language(world, lang, said):
    gm = signed_in(world.url, "gm", lang=lang)
    refused = _post(gm, "/gm/demo/rounds/2/orders/kagachi1", {"minor": "", "major": "full_move"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and f'<span class="error" id="err-full_move_toward">{said}</span>' in page


def test_the_published_report_shows_the_gm_actions_with_their_reasons(world):
    gm = _as(world, "gm")
    _post(gm, ACTIONS, {"kind": "add_unit", "enemy": "kagachi", "id": "kagachi9", "x": "300", "y": "20",
                        "reason": "上流から増援"})  # fmt: skip
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "傷ついて退く"})
    app = make_app(world.url)
    with pbp_db.using(database.of(app)):
        clock = FixedClock(START + timedelta(days=30))
        assert rounds.resolve_round(2, clock=clock).status == "resolved"
        publishing.publish_round(2, clock=clock)
    page = app.test_client().get("/blog/demo/tama_river/round-2/").get_data(as_text=True)
    section = page.split('<ol class="gm-actions">', 1)[1].split("</ol>", 1)[0]
    assert "理由：<bdi>上流から増援</bdi>" in section and "理由：<bdi>傷ついて退く</bdi>" in section
    assert "増援：" in section
    english = make_app(world.url, LOCALE="en").test_client().get("/blog/demo/tama_river/round-2/")
    assert "retreats — reason: <bdi>傷ついて退く</bdi>" in english.get_data(as_text=True)


def test_a_round_of_another_campaign_is_not_found(world):
    assert _as(world, "gm2").get("/gm/rival/rounds/2/actions").status_code == 404
    assert _as(world, "gm2").get("/gm/rival/rounds/2/orders/kagachi1").status_code == 404
    assert _as(world, "gm").get("/gm/rival/rounds/2/actions").status_code == 403


def test_the_round_pages_link_the_actions_and_the_preview_shows_them_with_their_reasons(world):
    gm = _as(world, "gm")
    assert ACTIONS in gm.get("/gm/demo/rounds/2/").get_data(as_text=True)
    _post(gm, ACTIONS, {"kind": "retreat", "unit": "kagachi2", "reason": "the river rises"})
    preview = gm.get("/gm/demo/rounds/2/review").get_data(as_text=True)
    assert "preview-banner" in preview and ACTIONS in preview
    assert 'class="gm-action retreat"' in preview and "the river rises" in preview


@pytest.mark.parametrize("url", [ACTIONS, "/gm/demo/rounds/2/orders/kagachi1"])
def test_an_english_page_names_the_pcs_by_their_english_names(world, url):
    """The PCs' names come from their sheets in the page's language, as on the review and the published report."""
    page = _as(world, "gm").get(url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Aoi" in page and "Makoto" in page
    assert "葵" not in page and "真琴" not in page


def test_an_enemy_order_the_rules_refuse_is_said_beside_its_field(world):
    """The engine's reason beside the field it is about, in the page's language, the unit by its name (the GM's
    form is the players' own)."""
    gm = signed_in(world.url, "gm", lang="ja")
    order = {"minor": "", "major": "attack", "weapon": "bogus", "targets": "aoi"}
    refused = _post(gm, "/gm/demo/rounds/2/orders/kagachi1", order)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and _counts(world) == (0, 0)
    assert '<span class="error" id="err-weapon">ユニット「カガチ壱」は武器「bogus」を持っていません</span>' in page
