"""Issue 31, deliverable 4, through the test client: the GM keeps a scenario's secret terms on its page (and in the
scenario form), the report page says which terms are watched, a short secret in an override reason is refused
beside the field, and bad lists (10,000 terms, an empty term) are refused with what was typed kept."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Override, Scenario, ScenarioSecret
from pbp.services import rounds, secret_terms
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

NOW = START + timedelta(hours=30)
PAGE = "/gm/demo/scenarios/tama_river/secrets"


@pytest.fixture
def world(tmp_path) -> World:
    return world_with_rival(tmp_path)


def _as(world: World, lang: str = "en") -> FlaskClient:
    return signed_in(world.url, "gm", lang=lang, CLOCK=FixedClock(NOW))


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _post(client: FlaskClient, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, PAGE)})


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


def _listed(world: World) -> str:
    with _db(world):
        return secret_terms.listed(Scenario.get(Scenario.slug == "tama_river").id)


def test_the_gm_saves_terms_and_sees_them_and_the_marked_ones(world):
    with _db(world):
        secret = ScenarioSecret.get(ScenarioSecret.scenario == Scenario.get(Scenario.slug == "tama_river").id)
        ScenarioSecret.update(gm_notes=secret.gm_notes + "\n【秘】紅い月の契約【/秘】").where(
            ScenarioSecret.id == secret.id
        ).execute()
    client = _as(world)
    done = _post(client, PAGE, secret_terms="榊司令\n\nサカキ\n")
    assert done.status_code == 303 and done.headers["Location"].endswith(f"{PAGE}?done=saved")
    page = _text(client.get(done.headers["Location"]))
    assert "The secret terms are saved." in page and "\n榊司令\nサカキ</textarea>" in page
    assert "<bdi>紅い月の契約</bdi>" in page  # marked in the notes
    assert _listed(world) == "榊司令\nサカキ"
    with _db(world):
        assert AuditLog.get(AuditLog.action == "scenario.secret_terms").detail == {"terms": 2}
    ja = _text(_as(world, "ja").get(PAGE))
    assert "秘密の語句" in ja and "GMメモで指定された語句" in ja


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("\n".join(f"語{i}" for i in range(10_000)), "10000 secret terms: at most 500 may be watched"),
        ("榊\n・・・", "secret term 2 (・・・) has no letter or digit to look for"),
    ],
)
def test_a_bad_list_is_refused_beside_the_field_with_the_text_kept(world, typed, said):
    refused = _post(_as(world), PAGE, secret_terms=typed)
    page = _text(refused)
    assert refused.status_code == 422
    assert re.search(r'<span class="error">' + re.escape(said), page)
    assert typed.splitlines()[-1] in page and _listed(world) == ""


def test_the_report_page_lists_the_watched_terms(world):
    with _db(world):
        rounds.resolve_round(world.open_round, clock=FixedClock(START + timedelta(hours=37)))
        secret_terms.set_terms(Scenario.get(Scenario.slug == "tama_river").id, "榊司令", actor_id=None)
    page = _text(_as(world).get(f"/gm/demo/rounds/{world.open_round}/report"))
    watched = re.search(r'<p class="watched">.*?</p>', page, re.S)
    assert watched and '<bdi class="term">榊司令</bdi>' in watched[0] and f'href="{PAGE}"' in watched[0]


def test_a_short_secret_in_an_override_reason_is_refused_and_nothing_changes(world):
    with _db(world):
        rounds.resolve_round(world.open_round, clock=FixedClock(START + timedelta(hours=37)))
    client = _as(world)
    assert _post(client, PAGE, secret_terms="榊").status_code == 303
    url = f"/gm/demo/rounds/{world.open_round}/override"
    refused = _post(client, url, check="r2-c1", successes="5", reason="榊の命令で霧が晴れた")
    page = _text(refused)
    assert refused.status_code == 422 and "'榊' (secret term of tama_river)" in page
    assert "榊の命令で霧が晴れた" in page  # the reason typed is kept
    with _db(world):
        assert Override.select().count() == 0


def test_the_scenario_form_keeps_terms_and_refuses_an_empty_marked_one(world):
    client = _as(world)
    form = {
        "slug": "interlude", "ja": "幕間", "en": "Interlude", "kind": "scene", "checks-0-id": "c", "checks-0-ja": "c",
        "checks-0-en": "c", "checks-0-skill": "知覚", "checks-0-need": "1", "checks-0-success_ja": "s",
        "checks-0-success_en": "s", "checks-0-failure_ja": "f", "checks-0-failure_en": "f",
    }  # fmt: skip
    refused = _post(client, "/gm/demo/scenarios/new", **form, gm_notes="真相は【秘】【/秘】", secret_terms="榊")
    page = _text(refused)
    assert refused.status_code == 422 and "a term marked 【秘】…【/秘】 in the GM notes is empty" in page
    assert "\n榊</textarea>" in page
    made = _post(client, "/gm/demo/scenarios/new", **form, gm_notes="真相は【秘】榊【/秘】", secret_terms="紅い月")
    assert made.status_code == 303
    with _db(world):
        scenario = Scenario.get(Scenario.slug == "interlude")
        assert secret_terms.listed(scenario.id) == "紅い月"
    edit = _text(client.get("/gm/demo/scenarios/interlude/edit"))
    assert "\n紅い月</textarea>" in edit
