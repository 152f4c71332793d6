"""Issue 31, deliverable 3, through the test client: the GM changes the campaign's settings on its settings page
(a refusal beside its field, everything typed kept, nothing stored), switches automatic publication from the top of
the campaign page in one click, and sends the webhook a test event; each says what was done."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape
from unittest import mock

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Campaign, Outbox, Scenario, User
from pbp.services import campaign_settings, notifications, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

PAGE = "/gm/demo/settings"
FORM = {
    "publishing": "auto",
    "hold_percent": "30",
    "webhook": "https://chat.example/hook",
    "growth_award": "3",
    "timezone": "UTC",
    "entry_char_limit": "1200",
}


@pytest.fixture
def world(tmp_path) -> World:
    return world_with_rival(tmp_path)


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _post(client: FlaskClient, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, PAGE)})


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


def _settings(world: World) -> campaign_settings.Settings:
    with _db(world):
        return campaign_settings.current(Campaign.get(Campaign.slug == "demo"))


def test_the_gm_saves_the_settings_and_the_log_names_the_gm(world):
    client = signed_in(world.url, "gm", lang="en")
    done = _post(client, PAGE, **FORM)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"{PAGE}?done=saved")
    page = _text(client.get(done.headers["Location"]))
    assert "The settings are saved: the scheduler goes by them from its next tick." in page
    assert "Automatic publication is on." in page and 'value="UTC"' in page
    assert _settings(world) == campaign_settings.Settings(True, 0.3, "https://chat.example/hook", 3, "UTC", 1200)
    with _db(world):
        gm = User.get(User.name == "gm").id
        logged = {r.action: r.actor_id for r in AuditLog.select().where(AuditLog.action != "campaign.load")}
    changes = ("policy", "hold_share", "webhook", "growth_award", "timezone", "entry_limit")
    assert {f"campaign.{name}": gm for name in changes}.items() <= logged.items()
    again = _post(client, PAGE, **FORM)
    assert "Nothing was changed." in _text(client.get(again.headers["Location"]))


def test_bad_values_are_refused_beside_their_fields_with_the_text_kept(world):
    client = signed_in(world.url, "gm", lang="en")
    before = _settings(world)
    refused = _post(client, PAGE, **{**FORM, "timezone": "Mars/Olympus", "entry_char_limit": "5"})
    page = _text(refused)
    assert refused.status_code == 422 and 'value="Mars/Olympus"' in page and 'value="5"' in page
    assert "A whole number from 100 to 10000." in page
    assert _settings(world) == before
    zone = _post(client, PAGE, **{**FORM, "timezone": "Mars/Olympus"})
    assert zone.status_code == 422 and "unknown time zone 'Mars/Olympus'" in _text(zone)
    assert _settings(world) == before  # the valid settings beside it are not stored either


def test_the_campaign_page_says_it_publishes_by_itself_and_switches_in_one_click(world):
    client = signed_in(world.url, "gm", lang="en")
    page = _text(client.get("/gm/demo/"))
    assert "Review first." in page and "Switch to automatic publication" in page
    on = _post(client, "/gm/demo/settings/publishing", publish_automatically="on", back="campaign")
    assert on.status_code == 303 and on.headers["Location"].endswith("/gm/demo/?done=auto_on")
    page = _text(client.get(on.headers["Location"]))
    assert "Rounds are now published as soon as they are resolved." in page
    assert "Automatic publication is on." in page and "Switch to review first" in page
    assert "publishes automatically" in _text(client.get("/gm/"))
    off = _post(client, "/gm/demo/settings/publishing", publish_automatically="off", back="settings")
    assert off.headers["Location"].endswith(f"{PAGE}?done=auto_off") and not _settings(world).publish_automatically
    assert _post(client, "/gm/demo/settings/publishing", publish_automatically="maybe").status_code == 400


def test_the_webhook_test_is_refused_without_a_webhook_then_queued(world):
    client = signed_in(world.url, "gm", lang="en")
    assert "No webhook is set" in _text(client.get(PAGE))
    refused = _post(client, "/gm/demo/settings/webhook-test")
    assert refused.status_code == 409 and "no webhook is set: save one first" in _text(refused)
    _post(client, PAGE, **FORM)
    done = _post(client, "/gm/demo/settings/webhook-test")
    assert done.headers["Location"].endswith(f"{PAGE}?done=test")
    page = _text(client.get(done.headers["Location"]))
    assert "A test event is queued" in page and "waiting for the scheduler." in page
    with _db(world):
        assert Outbox.select().where(Outbox.kind == "webhook.test", Outbox.channel == "webhook").count() == 1


def test_the_settings_page_in_japanese(world):
    client = signed_in(world.url, "gm", lang="ja")
    page = _text(client.get(PAGE))
    assert "キャンペーン設定" in page and "タイムゾーン" in page and "確認してから公開" in page
    assert "Campaign settings" not in page


def test_an_opened_rounds_webhook_is_english_in_english_and_links_pages_that_exist(world):
    clock = FixedClock(START + timedelta(hours=40))
    with _db(world):
        demo = Campaign.get(Campaign.slug == "demo")
        campaign_settings.change(demo.id, actor_id=None, webhook="https://chat.example/hook")
        scenario = Scenario.get(Scenario.slug == "tama_river")
        rounds.cancel_round(world.open_round, reason="a new start", clock=clock)
        rnd = rounds.create_round(scenario.id, clock.now() + timedelta(hours=12), clock=clock)
        rounds.open_round(rnd.id, clock=clock)
        row = Outbox.get(Outbox.kind == "round.opened", Outbox.channel == "webhook")
    posted = {}

    def answer(request, timeout):
        posted.update(json.loads(request.data))
        return mock.MagicMock()

    with mock.patch("urllib.request.urlopen", answer):
        notifications.post_webhook(row.address, row.kind, row.payload, "https://pbp.example")
    assert posted["text_en"].startswith("[The Battle of the Tama River] Round 3 is open")
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", posted["text_en"])
    link = posted["text_en"].rsplit("\n", 1)[-1]
    client = make_app(world.url).test_client()
    for path in (link.removeprefix("https://pbp.example"), posted["path"]):
        assert client.get(path).status_code == 200, path
