"""The entry form in the browser's place: what it offers, saving and editing with receipts, refusals that keep the
text, previews, the deadline and an expired CSRF token, in Japanese and English; nobody sees another's entry."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from html import unescape
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.errors import UserError
from pbp.models import Campaign, Entry, EntryRevision, Scenario, ScenarioSecret
from pbp.services import shaping
from pbp.services.clock import FixedClock, to_db
from pbp.services.entries import receipt_for, save_entry
from pbp.services.entry_desk import HISTORY_SHOWN
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


@pytest.mark.parametrize(("lang", "words"), [("ja", ("メジャーアクション", "ビームライフル", "締切",
                                                     "照準レーザー 1500 m：地図全体が射程内")),
                                             ("en", ("Major action", "Beam rifle", "Deadline",
                                                     "Targeting laser 1500 m: the whole map is within reach"))])  # noqa: E501 # fmt: skip
def test_the_form_offers_the_units_legal_actions_with_odds_and_the_map(world, lang, words) -> None:
    html = page(signed_in(app_at(world, WRITING), lang=lang), url(world))
    assert all(w in html for w in words)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="battlemap"' in html
    assert 'name="major" value="attack"' in html and 'name="targets" value="kagachi1"' in html
    assert 'value="pistol"' not in html.split('name="weapon"')[1].split("</select>")[0]  # R-FIX-2: not while riding
    assert re.search(r"≥1 \d+%", html)  # the player's own odds against an enemy
    assert '<script src="/static/entry.js" defer></script>' in html and "<script>" not in html
    assert 'datetime="2026-12-04T00:00:00Z"' in html  # the deadline, in the HTML for a page without JavaScript


TIPS = {
    "ja": "葵 / セイヴァー 十式「ムラクモ」 0% / ♥ 12% / スタン / ビームライフル 4/6, 照準レーザー 3/3",
    "en": "Aoi / Savior Type-10 &#x27;Murakumo&#x27; 0% / ♥ 12% / Stun / Beam rifle 4/6, Targeting laser 3/3",
}


@pytest.mark.parametrize(("lang", "tip"), TIPS.items())
def test_the_maps_tooltips_name_vehicles_and_weapons_in_the_pages_language(world, lang, tip) -> None:
    """Hovering over one's own unit: its vehicle, statuses and weapons by name, never by the pack's ids."""
    html = page(signed_in(app_at(world, WRITING), lang=lang), url(world))
    assert f'data-unit="pc1"><title>{tip}</title>' in html and "beam_rifle 4/6" not in html


def test_an_english_form_names_the_pcs_by_their_english_names(world) -> None:
    """The map, the targets and the odds name the characters from their sheets in the page's language."""
    html = page(signed_in(app_at(world, WRITING), lang="en"), url(world))
    assert 'name="targets" value="pc2"> Makoto <span class="warn">' in html and "葵" not in html and "真琴" not in html


ALLY = {"ja": "真琴 ⚠ 味方：命中すると味方が傷つきます", "en": "Makoto ⚠ ally: a hit harms your own side"}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_targets_list_the_foes_first_and_warn_that_an_ally_is_one(world, lang) -> None:
    """An ally in reach may be shot (the rules allow it), but the form lists the foes first and warns beside the
    ally, in the boxes and in the odds, so that nobody ticks a friend for an enemy."""
    html = page(signed_in(app_at(world, WRITING), lang=lang), url(world))
    boxes = [(v, " ".join(re.sub(r"<[^>]+>", " ", label).split()))
             for v, label in re.findall(r'name="targets" value="([^"]+)">(.*?)</label>', html)]  # fmt: skip
    sides = ["ally" if value.startswith("pc") else "foe" for value, _label in boxes]
    assert sides == sorted(sides, key=lambda side: side == "ally") and "ally" in sides and "foe" in sides
    assert [label for value, label in boxes if value.startswith("pc")] == [ALLY[lang]]
    assert all("⚠" not in label for value, label in boxes if not value.startswith("pc"))
    rows = odds_rows(html)["beam_rifle"]
    assert list(rows)[-1] == "pc2" and re.search(r"(命中|hit) \d+% ⚠ (味方|ally)$", rows["pc2"]), rows


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
    shown = unescape(re.search(r'<pre class="receipt-json"[^>]*>(.*?)</pre>', html, re.S)[1])
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


#: Two reasons the rules refuse an order (R-MINOR-1: both weapons are in hand; R-FIX-2: a rider attacks only with
#: its vehicle's weapons): the service's English line, as the CLI prints it, and each reason as a page shows it
#: beside its field, in the page's language, the weapons by their names.
REFUSED = (
    "minor.with: 'beam_rifle' and 'hf_knife' cannot swap (one must be in hand, R-MINOR-1); major.weapon: "
    "'pistol' is not among the unit's vehicle's weapons: a rider attacks only with its vehicle's, a unit on foot "
    "only with its own (R-FIX-2)"
)
REFUSED_BESIDE = {
    "ja": {
        "minor_swap": "「ビームライフル」と「高周波ナイフ」は持ち替えられません"
        "（一方が手に持っている武器でなければなりません。R-MINOR-1）",
        "weapon": "「拳銃」はこのユニットの機体の武器ではありません：搭乗中は機体の武器だけ、生身では自分の武器だけで"
        "攻撃します（R-FIX-2）",
    },
    "en": {
        "minor_swap": "‘Beam rifle’ and ‘High-frequency knife’ cannot swap (one must be in hand, R-MINOR-1)",
        "weapon": "‘Handgun’ is not among the unit's vehicle's weapons: a rider attacks only with its vehicle's, a "
        "unit on foot only with its own (R-FIX-2)",
    },
}


def odds_rows(html: str) -> dict[str, dict[str, str]]:
    """The odds table's chance against each target, by weapon and target: its words without markup."""
    table = html.split('<table class="odds">')[1].split("</table>")[0]
    rows = re.findall(r'href="[^"]*#weapon-([^"]+)".*?<ul class="odds-targets">(.*?)</ul>', table, re.S)
    return {
        weapon: {t: " ".join(re.sub(r"<[^>]+>", " ", said).split())
                 for t, said in re.findall(r'<li data-target="([^"]+)">(.*?)</li>', items, re.S)}
        for weapon, items in rows
    }  # fmt: skip


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_odds_give_the_chance_to_hit_each_enemy_of_a_public_type_and_keep_a_secret_types(world, lang) -> None:
    """Kagachi are on the game-data pages: the exact chance to hit each is shown (from its type's public numbers and
    the ground it stands on, which the map shows: Kagachi Two, on the collapsed levee (x0.25), evades worse than
    Kagachi One in the mud (x0.5)); the Hayachi's type
    is the GM's secret, so its evasion is said to be, with no chance."""
    rows = odds_rows(page(signed_in(app_at(world, WRITING), lang=lang), url(world)))
    for weapon in ("beam_rifle", "marker_laser"):
        hit = {t: re.search(r"(?:命中|hit) (\d+)%", said) for t, said in rows[weapon].items()}
        assert hit["kagachi1"] and hit["kagachi2"] and int(hit["kagachi1"][1]) < int(hit["kagachi2"][1]), rows
        secret = "回避はGMの秘密" if lang == "ja" else "GM's secret"
        assert hit["hayachi1"] is None and secret in rows[weapon]["hayachi1"]


def test_the_odds_against_an_enemy_never_tell_its_secret_state_or_a_secret_type(world) -> None:
    """The GM's state of an enemy (a status that weakens its evasion) does not move the chance shown, which is its
    type's public numbers'; an enemy the setup places as a secret type shows no chance, whatever its name says."""
    app = app_at(world, WRITING)
    client = signed_in(app, lang="en")
    before = odds_rows(page(client, url(world)))["beam_rifle"]["kagachi1"]
    with pbp_db.using(database.of(app)):
        gm = Campaign.get(Campaign.slug == world.campaign).gm_id
        for status in ("leg_damage", "stun"):
            shaping.record_action(world.open_round, "add_status", {"unit": "kagachi1", "status": status, "rounds": 2},
                                  reason="罠にかかった", actor_id=gm)  # fmt: skip
    assert odds_rows(page(client, url(world)))["beam_rifle"]["kagachi1"] == before
    with pbp_db.using(database.of(app)):
        secret = ScenarioSecret.get(ScenarioSecret.scenario == Scenario.get(Scenario.slug == world.scenario))
        setup = {**secret.setup, "enemies": [{**e, "type": "hayachi"} if e["id"] == "kagachi1" else e
                                             for e in secret.setup["enemies"]]}  # fmt: skip
        ScenarioSecret.update(setup=setup).where(ScenarioSecret.id == secret.id).execute()
    rows = odds_rows(page(client, url(world)))["beam_rifle"]
    assert "%" not in rows["kagachi1"] and "GM's secret" in rows["kagachi1"] and "%" in rows["kagachi2"]


@pytest.mark.parametrize(("lang", "words"), [
    ("ja", ("戦場は x が -200〜900（左から右）、y が -400〜500（上から下）", "ユニットの位置", "移動 75 m",
            "全力移動 225 m", "（飛行：×2）")),
    ("en", ("The field runs from x -200 to 900 (left to right) and y -400 to 500 (top to bottom)",
            "Who stands where", "Move range 75 m", "Full move range 225 m", "(flying: ×2)")),
])  # fmt: skip
def test_the_map_to_act_on_numbers_its_field_lists_the_units_and_draws_the_moves(world, lang, words) -> None:
    html = page(signed_in(app_at(world, WRITING), lang=lang), url(world))
    assert all(w in html for w in words), [w for w in words if w not in html]
    assert '<section class="map" id="map" data-field="-200 -400 900 500"' in html  # what entry.js reads
    assert '<g class="axes"><rect class="field" x="-200" y="-400" width="1100" height="900"/>' in html
    assert 'clip-path="url(#field)"' in html
    rows = re.findall(r'<tr data-unit="([^"]+)"><th scope="row">.*?</th>\s*<td class="num">(-?\d+)</td>'
                      r'<td class="num">(-?\d+)</td>', html, re.S)  # fmt: skip
    assert rows[0] == ("pc1", "0", "0") and {u for u, _x, _y in rows} >= {"pc2", "kagachi1", "kagachi2", "hayachi1"}


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "地点 (99999, 0) は戦場の外です。x は -200〜900、y は -400〜500 の範囲で指定してください"),
    ("en", "the point (99999, 0) is off the battlefield: x from -200 to 900, y from -400 to 500"),
])  # fmt: skip
def test_a_point_off_the_battlefield_is_refused_beside_its_field_with_the_text_kept(world, lang, said) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app, lang=lang)
    before = stored(app, world).receipt
    move = {"minor": "", "major": "full_move", "full_move_toward": "point", "full_move_x": "99999", "full_move_y": "0"}
    status, html = save(client, url(world), prose="川を渡って回り込む。", **move)
    assert status == 422 and stored(app, world).receipt == before and "川を渡って回り込む。" in html
    assert beside(html) == {"full_move_toward": said}
    status, _ = save(client, url(world), prose="川を渡って回り込む。", **{**move, "full_move_x": "900"})
    assert status == 303 and stored(app, world).order["major"]["toward"] == [900, 0]


def beside(html: str) -> dict[str, str]:
    """The messages shown beside the form's fields, by field."""
    return {k: unescape(v) for k, v in re.findall(r'<span class="error" id="err-([^"]+)">(.*?)</span>', html, re.S)}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_order_the_rules_refuse_is_refused_on_save_in_the_pages_language_with_the_text_kept(world, lang) -> None:
    """The engine's reasons, each beside the field it is about, in the page's language, naming the weapons by
    their names (never a field path); the service's refusal itself stays the engine's English line."""
    app = app_at(world, WRITING)
    client = signed_in(app, lang=lang)
    before = stored(app, world).receipt
    prose = "拳銃で撃つ！「ここで止める」"
    swap = {"minor": "swap", "minor_swap": "beam_rifle|hf_knife"}
    status, html = save(client, url(world), prose=prose, **{**ATTACK, "weapon": "pistol", **swap})
    assert status == 422
    assert beside(html) == REFUSED_BESIDE[lang] and "major.weapon" not in html
    assert NOT_SAVED[lang] in alert(html)  # at the top, where a player looks first: the save did not happen
    assert 'aria-describedby="err-weapon"' in html and 'aria-describedby="err-minor_swap"' in html
    assert "拳銃で撃つ！" in html and "ここで止める" in html and stored(app, world).receipt == before
    with pbp_db.using(database.of(app)), pytest.raises(UserError) as refused:
        order = {"minor": {"type": "swap", "weapon": "beam_rifle", "with": "hf_knife"},
                 "major": {"type": "attack", "weapon": "pistol", "targets": ["kagachi1"], "item": None}}  # fmt: skip
        save_entry(
            world.open_round, world.characters["aoi"], user_id=stored(app, world).character.owner_id,
            order=order, prose=prose, clock=FixedClock(WRITING),
        )  # fmt: skip
    assert str(refused.value) == REFUSED and refused.value.field == "order"


#: What the top of a refused save's page says, by page language (the entry saved before stands).
NOT_SAVED = {"ja": "保存していません。", "en": "Nothing was saved"}


def alert(html: str) -> str:
    """The page's first alert (above the map), its text."""
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found[1]) if found else ""


def chosen(html: str, name: str) -> list[tuple[str, str]]:
    """The options a page's select `name` shows selected: (value, text)."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return [(unescape(v), unescape(t)) for v, t in re.findall(r'<option value="([^"]*)" selected>(.*?)</option>',
                                                              select.group(1))]  # fmt: skip


#: The refused save's choices as the form shows them again, by page language: the values as posted, by name.
UNOFFERED = {
    "ja": {"weapon": [("pistol", "拳銃（現在は選べません）")],
           "minor_swap": [("beam_rifle|hf_knife", "ビームライフル ⇄ 高周波ナイフ（現在は選べません）")]},
    "en": {"weapon": [("pistol", "Handgun (not offered now)")],
           "minor_swap": [("beam_rifle|hf_knife", "Beam rifle ⇄ High-frequency knife (not offered now)")]},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_choice_the_form_does_not_offer_comes_back_as_chosen_never_as_another(world, lang) -> None:
    """A weapon or swap the unit cannot use (R-FIX-2, R-MINOR-1) is shown selected by its name and marked, not
    replaced by the select's first option: saving the page again sends the same choice (refused again), never one
    the player did not make."""
    client = signed_in(app_at(world, WRITING), lang=lang)
    fields = {**ATTACK, "weapon": "pistol", "minor": "swap", "minor_swap": "beam_rifle|hf_knife"}
    status, html = save(client, url(world), prose="拳銃で撃つ！", **fields)
    assert status == 422
    assert {name: chosen(html, name) for name in UNOFFERED[lang]} == UNOFFERED[lang]
    assert chosen(html, "major_weapon") == [] and chosen(html, "minor_weapon") == []
    status, html = save(client, url(world), prose="拳銃で撃つ！", **fields)  # the page sent again as it came back
    assert status == 422 and beside(html) == REFUSED_BESIDE[lang]


def test_a_saved_choice_the_form_offers_is_shown_as_its_own_option(world) -> None:
    client = signed_in(app_at(world, WRITING), lang="en")
    html = page(client, url(world))  # aoi's saved attack, with the beam rifle
    assert chosen(html, "weapon") == [("beam_rifle", "Beam rifle")] and "(not offered now)" not in html


def test_a_refused_save_keeps_every_unit_chosen_checked_and_selected(world) -> None:
    """The choices that list a whole battle's units (where to move, the attack's targets) come back as the player
    made them after a refusal (here: a move toward a point with no x)."""
    client = signed_in(app_at(world, WRITING), lang="en")
    fields = {**ATTACK, "targets": ["kagachi1", "kagachi2"], "minor": "move", "minor_toward": "point",
              "full_move_toward": "hayachi1"}  # fmt: skip
    status, html = save(client, url(world), prose="keep me", **fields)
    assert status == 422 and 'id="err-minor_x"' in html
    assert chosen(html, "minor_toward") == [("point", "the point x, y below")]
    assert chosen(html, "full_move_toward") == [("hayachi1", "Hayachi")]
    boxes = re.findall(r'<input type="checkbox" name="targets" value="([^"]+)" checked>', html)
    assert boxes == ["kagachi1", "kagachi2"]


def test_a_choice_missing_its_fields_is_shown_beside_them(world) -> None:
    client = signed_in(app_at(world, WRITING), lang="en")
    status, html = save(client, url(world), prose="keep me", minor="move", major="attack", weapon="beam_rifle")
    assert status == 422 and NOT_SAVED["en"] in alert(html)
    assert 'id="err-minor_toward"' in html and 'id="err-targets"' in html and "keep me" in html


#: The form's own errors (pbp.web.player.orders) for a point's x that is not a number and an attack without a weapon,
#: as each page language says them (a coordinate's message names its axis: x's and y's are shown side by side).
FIELD_ERRORS = {
    "ja": {"minor_x": "x: 整数（m単位）で入力してください。", "weapon": "武器を選んでください。"},
    "en": {"minor_x": "x: A whole number of metres.", "weapon": "Choose a weapon."},
}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_fields_own_error_is_said_beside_it_in_the_pages_language_with_the_text_kept(world, lang) -> None:
    app = app_at(world, WRITING)
    client = signed_in(app, lang=lang)
    before = stored(app, world).receipt
    fields = {"minor": "move", "minor_toward": "point", "minor_x": "十", "minor_y": "3", "major": "attack",
              "targets": "kagachi1"}  # fmt: skip
    status, html = save(client, url(world), prose="川面を渡って斬り込む。「遅れるな」", **fields)
    assert status == 422
    said = {key: unescape(m) for key, m in re.findall(r'<span class="error" id="err-(\w+)">(.*?)</span>', html)}
    assert said == FIELD_ERRORS[lang]
    assert "川面を渡って斬り込む。" in html and "遅れるな" in html and 'name="minor_x" value="十"' in html
    assert stored(app, world).receipt == before


class _Described(HTMLParser):
    """The ids of the messages on a page (`<span class="error" id=...>`), and who points at each (aria-describedby),
    with aria-invalid where the pointer is a control."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: set[str] = set()
        self.pointers: dict[str, list[tuple[str, str | None]]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "span" and a.get("class") == "error" and a.get("id"):
            self.messages.add(str(a["id"]))
        for target in (a.get("aria-describedby") or "").split():
            self.pointers.setdefault(target, []).append((tag, a.get("aria-invalid")))


def test_every_message_on_the_form_is_pointed_at_by_its_field(world) -> None:
    """A screen reader hears a field's message on the field: each control (or the group of radios or checkboxes)
    whose message the form shows is marked invalid and described by it."""
    client = signed_in(app_at(world, WRITING))
    fields = {"minor": "move", "minor_toward": "point", "minor_x": "十", "minor_y": "", "major": "attack"}
    status, html = save(client, url(world), prose="x" * 5000, **fields)
    assert status == 422
    page = _Described()
    page.feed(html)
    assert {"err-minor_x", "err-minor_y", "err-weapon", "err-targets"} <= page.messages
    for message in page.messages:
        pointers = page.pointers.get(message)
        assert pointers, f"nothing points at {message}"
        assert all(invalid == "true" for tag, invalid in pointers if tag in ("input", "select", "textarea"))
    status, html = save(client, url(world), prose="x" * 5000, **ATTACK)
    page = _Described()
    page.feed(html)
    assert page.messages == {"err-prose"} and page.pointers["err-prose"] == [("textarea", "true")]


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


# ---- the history -----------------------------------------------------------------------------------------------


def saved_many(app: Flask, world: World, n: int, pc: str = "aoi") -> list[str]:
    """`n` more saves of `pc`'s entry in the open round, straight into its history; their receipts, oldest first."""
    receipts = [f"{pc}{i:03d}".ljust(64, "f") for i in range(n)]
    with pbp_db.using(database.of(app)):
        for i, receipt in enumerate(receipts):
            EntryRevision.create(round=world.open_round, character=world.characters[pc], action="edit",
                                 order={"minor": None, "major": None}, prose=f"下書き{i}", receipt=receipt,
                                 saved_at=to_db(WRITING))  # fmt: skip
    return receipts


def listed(html: str) -> list[str]:
    """The receipts the history section lists, in its order."""
    section = html.split('<section class="history" id="history">', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<code class="check-id">(\w+)</code>', section)


def saves_of(app: Flask, world: World, pc: str = "aoi") -> int:
    with pbp_db.using(database.of(app)):
        return EntryRevision.select().where(EntryRevision.round == world.open_round,
                                            EntryRevision.character == world.characters[pc]).count()  # fmt: skip


def test_the_history_lists_the_latest_saves_and_every_one_when_asked(world) -> None:
    app = app_at(world, WRITING)
    receipts = saved_many(app, world, 25)
    total = saves_of(app, world)
    client = signed_in(app, lang="en")
    html = page(client, url(world))
    assert listed(html) == [r[:12] for r in reversed(receipts)][:HISTORY_SHOWN]  # the latest first
    assert f"The latest {HISTORY_SHOWN} of {total} saves." in html and f'<ol reversed start="{total}">' in html
    everything = page(client, unescape(re.search(r'href="([^"]*history=all[^"]*)"', html)[1]))
    assert len(listed(everything)) == total and listed(everything)[:25] == [r[:12] for r in reversed(receipts)]
    assert "The latest" not in everything and f'<ol reversed start="{total}">' in everything
    # a short history is listed whole, with no link
    fresh = page(signed_in(app, "player2", lang="en"), url(world, "makoto"))
    assert len(listed(fresh)) == saves_of(app, world, "makoto") < HISTORY_SHOWN and "history=all" not in fresh


def test_the_whole_history_is_the_players_own_entrys_with_each_versions_text_and_no_gm_notes(world) -> None:
    app = app_at(world, WRITING)
    theirs = saved_many(app, world, 3, "makoto")
    saved_many(app, world, 12)
    for name in ("player2", "gm"):
        assert signed_in(app, name).get(url(world) + "?history=all").status_code == 403
    html = page(signed_in(app), url(world) + "?history=all")
    assert len(listed(html)) == saves_of(app, world)  # this round's saves of this entry: no other round's
    assert not any(r[:12] in html for r in theirs)
    history = html.split('id="history"')[1]
    assert all(f"下書き{i}</pre>" in history for i in range(12))  # what each of its saves said, to find it again
    with pbp_db.using(database.of(app)):
        notes = [s.gm_notes for s in ScenarioSecret.select() if s.gm_notes]
    assert notes and not any(line.strip() in html for n in notes for line in n.splitlines() if line.strip())


def test_the_history_reads_the_latest_saves_only_and_not_their_orders(world, caplog) -> None:
    app = app_at(world, WRITING)
    saved_many(app, world, 25)
    client = signed_in(app)
    with caplog.at_level(logging.DEBUG, logger="peewee"):
        page(client, url(world))
    reads = [r.msg for r in caplog.records if isinstance(r.msg, tuple) and '"entry_revision"' in r.msg[0]]
    assert reads and all('"order"' not in sql for sql, _params in reads)
    rows = [(sql, params) for sql, params in reads if "ORDER BY" in sql]  # the list (the other read counts them)
    assert len(rows) == 1 and rows[0][0].endswith("LIMIT ?") and rows[0][1][-1] == HISTORY_SHOWN


def test_the_entry_and_sheet_pages_link_the_campaigns_game_data(world) -> None:
    """A player writing an entry or editing a sheet reaches the game data from the menu (their addresses name no
    campaign, as the campaign's own pages do)."""
    client = signed_in(app_at(world, WRITING))
    aoi = world.characters["aoi"]
    nav = '<a href="/campaigns/demo/data/">'
    for path in (url(world), f"/characters/{aoi}/edit", f"/characters/{aoi}/growth"):
        assert nav in page(client, path), path
    assert nav not in page(client, "/me")


def test_the_odds_name_each_weapon_with_a_link_to_its_data_opened_beside_the_form(world) -> None:
    """What a weapon does is one click from the odds, in a new tab: the entry being written stays as it is."""
    html = page(signed_in(app_at(world, WRITING)), url(world))
    odds = html.split('<table class="odds">')[1].split("</table>")[0]
    link = '<a class="data" href="/campaigns/demo/data/weapons/#weapon-beam_rifle" target="_blank" rel="noopener">'
    assert f"{link}ビームライフル</a>" in odds


@pytest.mark.rule("R-DMG-2")
def test_a_riders_gauge_choice_offers_the_default_damage_gauge_once(world) -> None:
    """A rider's damage goes to the vehicle's damage gauge unless the order says the injury gauge: "the vehicle
    (default)" beside "Damage gauge" was one choice offered twice."""
    html = page(signed_in(app_at(world, WRITING), lang="en"), url(world))
    select = re.search(r'<select name="damage_to"[^>]*>(.*?)</select>', html, re.S)
    assert select, "a rider chooses the gauge"
    options = [(v, unescape(t)) for v, t in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', select[1])]
    assert options == [("", "Damage gauge (the vehicle's: the default)"), ("injury", "Injury gauge")]
