"""The kancolle demo through the web (issue 32, deliverable 3), in ja and en: the entry form generated from
legal_actions with each check's exact odds, a refused save keeping the text, saves of every ship girl through the
form, the scheduler's tick resolving the round, the GM's review and a result override (K-GM-1), a GM action refused
cleanly, publication from the report page, the blog's page and its bundle verifying; a base cycle, then the battle's
rounds to the night and the after-battle deadline."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp import migrations
from pbp.engine import find_ruleset
from pbp.engine.verify import verify_bundle
from pbp.models import Character, Entry, Override, Resolution, Round, Scenario
from pbp.paths import CAMPAIGNS_DIR
from pbp.services import accounts, campaigns, characters, rounds, scenarios, schedule
from pbp.services.characters import unit_id
from pbp.services.clock import FixedClock
from pbp.services.demo import DEMO_PASSWORD
from pbp.services.kancolle_demo import PLAYERS, entry_for
from pbp.web.player.kancolle_form import form_of
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, fixed_seeds

SLUG = "kancolle-demo"


@dataclass
class Fleet:
    url: str
    runs: dict[str, int]
    characters: dict[str, int]  # player -> character id
    clock: FixedClock


@pytest.fixture
def fleet(tmp_path) -> Fleet:
    """The kancolle demo loaded with a GM and four players, each ship girl joined to both scenarios."""
    url = f"sqlite:///{tmp_path / 'pbp.sqlite3'}"
    clock = FixedClock(START)
    database = pbp_db.bind(url)
    with database.connection_context():
        migrations.upgrade(database)
        gm = accounts.create_user("gm", DEMO_PASSWORD, display_name="GM", clock=clock)
        campaign = campaigns.load_campaign(CAMPAIGNS_DIR / SLUG, gm_id=gm.id, clock=clock)
        runs = {s.slug: s.id for s in Scenario.select().where(Scenario.campaign == campaign.id)}
        owned = {}
        for name, ship in PLAYERS.items():
            user = accounts.create_user(name, DEMO_PASSWORD, clock=clock)
            sheet = campaign.pack["characters"][ship]
            character = characters.create_character(campaign.id, user.id, sheet, clock=clock)
            for run in runs.values():
                scenarios.join_scenario(run, character.id, user_id=user.id, clock=clock)
            owned[name] = character.id
    return Fleet(url, runs, owned, clock)


def _db(fleet: Fleet):
    return pbp_db.bind(fleet.url).connection_context()


def _open(fleet: Fleet, scenario: str) -> int:
    with _db(fleet):
        rnd = rounds.create_round(fleet.runs[scenario], fleet.clock.now() + timedelta(hours=1), clock=fleet.clock)
        rounds.open_round(rnd.id, clock=fleet.clock)
        return rnd.id


def _client(fleet: Fleet, name: str, lang: str) -> FlaskClient:
    return signed_in(fleet.url, name, lang=lang, CLOCK=fleet.clock)


def _enter_all(fleet: Fleet, round_id: int, lang: str) -> dict[str, dict]:
    """Every player's entry through the form: the choices legal_actions offers (the demo's), posted as the form's
    fields; returns each character's order as entered."""
    entered = {}
    for name, cid in fleet.characters.items():
        client = _client(fleet, name, lang)
        url = f"/rounds/{round_id}/entry/{cid}"
        page = client.get(url)
        assert page.status_code == 200
        with _db(fleet):
            rnd = Round.get_by_id(round_id)
            encounter = rounds.shaped_encounter(rnd, rounds.round_context(rnd)).encounter
        order = entry_for(find_ruleset("kancolle").legal_actions(encounter, unit_id(cid)))
        data = {k: v for k, v in form_of(order).items() if v}
        saved = client.post(url, data={**data, "prose": f"{name}の行動。", "csrf_token": csrf_token(client, url)})
        assert saved.status_code == 303, saved.get_data(as_text=True)[:2000]
        entered[name] = order
    return entered


def _resolve(fleet: Fleet, round_id: int) -> None:
    fleet.clock.advance(3601)
    with _db(fleet):
        report = schedule.tick(clock=fleet.clock)
    assert [(o.round_id, o.status) for o in report.rounds] == [(round_id, "resolved")], report.rounds


def _publish(fleet: Fleet, round_id: int, lang: str) -> None:
    gm = _client(fleet, "gm", lang)
    url = f"/gm/{SLUG}/rounds/{round_id}/report"
    page = gm.get(url).get_data(as_text=True)
    found = re.findall(r'<textarea[^>]*name="(\w+)"[^>]*>\r?\n?(.*?)</textarea>', page, re.S)
    data = {name: html.unescape(text) for name, text in found}
    done = gm.post(url, data={**data, "action": "publish", "csrf_token": csrf_token(gm, url)})
    assert done.status_code == 303, done.get_data(as_text=True)[:3000]
    with _db(fleet):
        assert Round.get_by_id(round_id).state == "published"


def _blog_verifies(fleet: Fleet, scenario: str, number: int) -> None:
    reader = make_app(fleet.url, CLOCK=fleet.clock).test_client()
    for lang in ("ja", "en"):
        page = reader.get(f"/blog/{SLUG}/{scenario}/round-{number}/{lang}/")
        assert page.status_code == 200
    bundle = reader.get(f"/blog/{SLUG}/{scenario}/round-{number}/bundle.json")
    assert bundle.status_code == 200 and verify_bundle(bundle.get_json()) is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_base_cycle_through_the_forms_review_override_and_blog(fleet, lang) -> None:
    rid = _open(fleet, "chinjufu_day")
    player = _client(fleet, "player1", lang)
    url = f"/rounds/{rid}/entry/{fleet.characters['player1']}"
    page = player.get(url).get_data(as_text=True)
    assert 'name="one:card.type"' in page and 'name="int:supply.燃料"' in page and 'name="support:check"' in page
    assert ("Daily events" if lang == "en" else "日常イベント表") in page
    assert re.search(r"\d+/36 \(\d+%\)", page)  # each row's check with its exact odds over the 36 faces
    too_long = {"one:card.type": "daily", "text:card.keyword": "とても長いキーワードです", "prose": "書いた文。"}
    refused = player.post(url, data={**too_long, "csrf_token": csrf_token(player, url)})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="err-text:card.keyword"' in body and "書いた文。" in body
    entered = _enter_all(fleet, rid, lang)
    with _db(fleet):
        stored = Entry.get(Entry.round == rid, Entry.character == fleet.characters["player1"]).order
    assert stored == entered["player1"]
    _resolve(fleet, rid)

    gm = _client(fleet, "gm", lang)
    review_url = f"/gm/{SLUG}/rounds/{rid}/review"
    review = gm.get(review_url).get_data(as_text=True)
    assert "r1-c1" in review and 'name="result"' in review
    override = {
        "check": "r1-c1",
        "result": "failure",
        "reason": "波が高すぎた",
        "csrf_token": csrf_token(gm, review_url),
    }
    assert gm.post(f"/gm/{SLUG}/rounds/{rid}/override", data=override).status_code == 303
    with _db(fleet):
        assert Override.get(Override.round == rid).result == "failure"
        events = Resolution.get(Resolution.round == rid).events
    first = next(e for e in events if e.get("id") == "r1-c1")
    assert first["success"] is False and first["overrides"][0]["reason"] == "波が高すぎた"

    _publish(fleet, rid, lang)
    _blog_verifies(fleet, "chinjufu_day", 1)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_battle_through_the_forms_to_the_night_and_after(fleet, lang) -> None:
    seen: list[str] = []
    with fixed_seeds(f"night-{lang}"):
        for number in range(1, 7):
            rid = _open(fleet, "nansei_sortie")
            if number == 1:
                gm = _client(fleet, "gm", lang)
                actions_url = f"/gm/{SLUG}/rounds/{rid}/actions"
                action = {"kind": "damage", "reason": "嵐", "csrf_token": csrf_token(gm, actions_url)}
                refused = gm.post(actions_url, data=action)
                assert refused.status_code == 422 and "contract v3" in refused.get_data(as_text=True)
            _enter_all(fleet, rid, lang)
            _resolve(fleet, rid)
            _publish(fleet, rid, lang)
            _blog_verifies(fleet, "nansei_sortie", number)
            with _db(fleet):
                res = Resolution.get(Resolution.round == rid)
            seen += [e["type"] for e in res.events]
            if res.state["battle"]["settled"]:
                break
    assert "battle_start" in seen and "battle_end" in seen
    assert "night_check" in seen
    _the_battle_is_over(fleet, lang, res.state["battle"]["outcome"])


def _the_battle_is_over(fleet: Fleet, lang: str, outcome: str) -> None:
    """After the after-battle deadline the GM's overview, the new-round page and the scenario's public pages (its page
    and its reports') say the battle is over and how it ended; the console offers no new round and refuses one
    posted."""
    words = {"ja": {"victory": "勝利", "defeat": "敗北", "wipeout": "全滅", "draw": "引き分け"},
             "en": {"victory": "victory", "defeat": "defeat", "wipeout": "wipe-out", "draw": "draw"}}  # fmt: skip
    word = words[lang][outcome]
    over = {"ja": f"戦闘は終わりました（{word}）。", "en": f"The battle is over: {word}."}[lang]
    gm = _client(fleet, "gm", lang)
    overview = html.unescape(gm.get(f"/gm/{SLUG}/").get_data(as_text=True))
    card = overview.split('id="scenario-nansei_sortie"', 1)[1].split("</section>", 1)[0]
    assert over in card and "/rounds/new" not in card
    assert "/scenarios/chinjufu_day/rounds/new" in overview  # the base phase goes on
    new_url = f"/gm/{SLUG}/scenarios/nansei_sortie/rounds/new"
    page = gm.get(new_url).get_data(as_text=True)
    assert over in html.unescape(page) and 'name="deadline"' not in page
    with _db(fleet):
        before = Round.select().where(Round.scenario == fleet.runs["nansei_sortie"]).count()
    posted = gm.post(new_url, data={"deadline": "2031-01-01T12:00", "csrf_token": csrf_token(gm, f"/gm/{SLUG}/")})
    assert posted.status_code == 409 and over in html.unescape(posted.get_data(as_text=True))
    with _db(fleet):
        assert Round.select().where(Round.scenario == fleet.runs["nansei_sortie"]).count() == before
    player = _client(fleet, "player1", lang)
    for public in (f"/campaigns/{SLUG}/scenarios/nansei_sortie/", f"/blog/{SLUG}/nansei_sortie/"):
        assert over in html.unescape(player.get(public).get_data(as_text=True)), public
    assert "battle-over" not in player.get(f"/blog/{SLUG}/chinjufu_day/").get_data(as_text=True)  # it goes on


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_ship_girl_is_made_on_the_grid_and_a_refused_one_keeps_what_was_typed(fleet, lang) -> None:
    player = _client(fleet, "player2", lang)
    url = f"/campaigns/{SLUG}/characters/new"
    page = player.get(url).get_data(as_text=True)
    assert page.count('name="trait.') == 66 and page.count('name="gap"') == 5
    assert ("Discipline" if lang == "en" else "規律") in page
    bad = {"ship": "fubuki", "ja": "白雪", "trait.規律": "merit", "csrf_token": csrf_token(player, url)}
    refused = player.post(url, data=bad)
    body = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="err-gap"' in body and 'value="白雪"' in body
    good = {**bad, "gap": "3", "trait.魚雷": "merit", "trait.寝る": "weakness", "csrf_token": csrf_token(player, url)}
    made = player.post(url, data=good)
    assert made.status_code == 303
    with _db(fleet):
        sheet = Character.get(Character.name == "白雪").sheet
    assert sheet["gap"] == 3 and sheet["class"] == "DD"
    assert sheet["traits"] == [
        {"name": "寝る", "kind": "weakness"}, {"name": "規律", "kind": "merit"}, {"name": "魚雷", "kind": "merit"},
    ]  # fmt: skip
    edit = made.headers["Location"]
    shown = player.get(edit).get_data(as_text=True)
    assert "○" in shown and 'name="trait.' not in shown  # her traits are shown, not edited


def test_the_gm_dashboard_sums_up_each_entry_in_words(fleet) -> None:
    rid = _open(fleet, "chinjufu_day")
    _enter_all(fleet, rid, "en")
    page = _client(fleet, "gm", "en").get(f"/gm/{SLUG}/rounds/{rid}/").get_data(as_text=True)
    assert "Event card: keyword 出撃準備, type daily" in page and "The scene: partner Yuudachi" in page


@pytest.mark.parametrize(
    ("lang", "says"), [("ja", ("規律", "吹雪", "日常イベント表")), ("en", ("Discipline", "Fubuki", "Daily events"))]
)
def test_the_data_pages_show_the_grid_the_ships_and_the_event_tables(fleet, lang, says) -> None:
    reader = make_app(fleet.url).test_client()
    reader.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    page = reader.get(f"/campaigns/{SLUG}/data/").get_data(as_text=True)
    assert 'class="personality-grid"' in page and page.count('<tr><th scope="row">') == 11
    assert all(word in page for word in says)
    assert "data/weapons/" not in page  # pool's sections are not offered


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_reports_dice_log_tells_kancolles_checks_and_links_their_rules(fleet, lang) -> None:
    """The published battle round's dice log shows each behaviour check's trait, DC, dice and result and each damage
    roll against the armour, each linked to its K-rule on /rules/kancolle/ (not pool's pools of successes)."""
    rid = _open(fleet, "nansei_sortie")
    _enter_all(fleet, rid, lang)
    _resolve(fleet, rid)
    _publish(fleet, rid, lang)
    reader = make_app(fleet.url, CLOCK=fleet.clock, LOCALE=lang).test_client()
    page = reader.get(f"/blog/{SLUG}/nansei_sortie/round-1/").get_data(as_text=True)
    log = page.split('<ol class="dicelog kancolle-log">', 1)[1].split("</ol>", 1)[0]
    with _db(fleet):
        events = Resolution.get(Resolution.round == rid).events
    checks = [e for e in events if e["type"] == "check" and e.get("id")]
    assert checks and all(f'<span class="check-id">[{c["id"]}]</span>' in log for c in checks)
    first = checks[0]
    assert f'<span class="dice">[{",".join(map(str, first["tries"][0]["dice"]))}]</span>' in log
    assert ("DC %s" if lang == "en" else "目標値%s") % first["dc"] in html.unescape(log)
    assert '<a class="rule" href="/rules/kancolle/#K-CHECK-' in log and 'href="/rules/kancolle/#K-DMG-2"' in log
    assert "successes" not in log and "成功数" not in log and "None" not in log
    assert reader.get("/rules/kancolle/#K-DMG-2").status_code == 200


@pytest.mark.parametrize(
    ("lang", "query", "name", "anchor"),
    [("ja", "夜戦", "夜戦", "trait-夜戦"), ("en", "night battle", "Night battle", "trait-夜戦"),
     ("en", "fubuki", "Fubuki", "ship-fubuki"), ("ja", "四連装", "61cm四連装魚雷", "ship-kitakami"),
     ("en", "daily", "Daily events", "event-table-daily")],
)  # fmt: skip
def test_the_data_search_finds_the_fleets_data(fleet, lang, query, name, anchor) -> None:
    """The game data's search covers a kancolle campaign: traits, ships, their pieces and the event tables, each
    linked to where the data page shows it (an anchor that page has)."""
    reader = make_app(fleet.url, LOCALE=lang).test_client()
    page = reader.get(f"/campaigns/{SLUG}/data/search", query_string={"q": query}).get_data(as_text=True)
    assert f'<a class="data" href="/campaigns/{SLUG}/data/#{quote(anchor)}">{name}</a>' in page, page[-3000:]
    assert f'id="{anchor}"' in reader.get(f"/campaigns/{SLUG}/data/").get_data(as_text=True)
    nothing = reader.get(f"/campaigns/{SLUG}/data/search", query_string={"q": "zzz-none"}).get_data(as_text=True)
    assert '<ul class="results">' in nothing and '<a class="data"' not in nothing.split('<ul class="results">')[1]
