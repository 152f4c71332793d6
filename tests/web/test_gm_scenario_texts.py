"""Issue 31, deliverable 6, through the test client: a running console scenario's texts page says what stays fixed,
saves a typo fix of its public description (the public page shows it, the page the diff), keeps what was typed
beside a refusal; a pack scenario's page offers its GM notes only."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Scenario, User
from pbp.services import authoring, rounds, scenario_texts, scenarios
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

PAGE = "/gm/demo/scenarios/interlude/texts"
NOW = START + timedelta(hours=30)


@pytest.fixture
def world(tmp_path) -> World:
    """The demo world with a console scenario, `interlude`, whose first round is open."""
    built = world_with_rival(tmp_path)
    clock = FixedClock(NOW)
    with pbp_db.using(database.of(make_app(built.url))):
        demo = Campaign.get(Campaign.slug == "demo")
        gm = User.get(User.name == "gm").id
        spec = {**demo.pack["scenarios"]["tama_river"], "description": "多摩川の河原で迎え撃つ。", "en": "Interlude"}
        made = authoring.create_scenario(demo.id, "interlude", spec, actor_id=gm, clock=clock)
        for name, pc in (("player1", "aoi"), ("player2", "makoto")):
            user = User.get(User.name == name).id
            scenarios.join_scenario(made.id, built.characters[pc], user_id=user, clock=clock)
        rnd = rounds.create_round(made.id, clock.now() + timedelta(hours=12), clock=clock)
        rounds.open_round(rnd.id, clock=clock)
    return built


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


def _post(client, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, url)})


def test_a_running_scenarios_typo_is_fixed_and_the_diff_shown(world):
    client = signed_in(world.url, "gm", lang="en")
    page = _text(client.get(PAGE))
    assert "What the engine has used stays as it is" in page and 'name="description"' in page
    with pbp_db.using(database.of(make_app(world.url))):
        fields = scenario_texts.texts_of(Scenario.get(Scenario.slug == "interlude"))
    fields["description"] = "多摩川の河原で迎え撃て。"
    done = _post(client, PAGE, **fields)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"{PAGE}?done=saved")
    page = _text(client.get(done.headers["Location"]))
    assert "The texts are saved" in page and "The last change" in page
    assert "<del>迎え撃つ</del>" in page and "<ins>迎え撃て</ins>" in page  # the changed word, inside the line
    public = _text(make_app(world.url).test_client().get("/campaigns/demo/scenarios/interlude/"))
    assert "多摩川の河原で迎え撃て。" in public
    assert "changed the texts of Interlude" in _text(client.get("/gm/demo/audit"))


def test_a_refusal_keeps_what_was_typed(world):
    client = signed_in(world.url, "gm", lang="en")
    refused = _post(client, PAGE, ja="", en="", description="新しい説明", gm_notes="")
    page = _text(refused)
    assert refused.status_code == 422 and "a scenario needs a title in Japanese or English" in page
    assert "新しい説明" in page
    with pbp_db.using(database.of(make_app(world.url))):
        assert Scenario.get(Scenario.slug == "interlude").public_text == "多摩川の河原で迎え撃つ。"


def test_a_pack_scenario_offers_its_gm_notes_only(world):
    client = signed_in(world.url, "gm", lang="ja")
    page = _text(client.get("/gm/demo/scenarios/tama_river/texts"))
    assert 'name="gm_notes"' in page and not re.search(r'<textarea[^>]*name="description"', page)
    assert "パックの" in page
    done = _post(client, "/gm/demo/scenarios/tama_river/texts", gm_notes="増援は二波", description="typo")
    assert done.status_code == 303
    assert "増援は二波" in _text(client.get("/gm/demo/scenarios/tama_river/texts"))
