"""Issue 31, deliverable 5, through the test client: the roster page lists a scenario's sign-ups by name with their
sheets and the lottery's draw; the GM accepts one applicant and turns down another (each player told); a change
while a round runs is refused beside its sign-up and changes nothing; ja and en."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Campaign, Outbox, Participation, Scenario, User
from pbp.services import accounts, characters, scenarios
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

NOW = START + timedelta(hours=30)
BATTLE = "/gm/demo/scenarios/tama_river/roster"
SCENE = "/gm/demo/scenarios/hangar_eve/roster"


@pytest.fixture
def world(tmp_path) -> World:
    return world_with_rival(tmp_path)


def _as(world: World, lang: str = "en") -> FlaskClient:
    return signed_in(world.url, "gm", lang=lang, CLOCK=FixedClock(NOW))


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _post(client: FlaskClient, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, url)})


def _applicants(world: World, names: tuple[str, ...]) -> list[int]:
    """New players' characters applied to the scene (its sign-up deadline set); their ids."""
    clock = FixedClock(NOW)
    with _db(world):
        scene = Scenario.get(Scenario.slug == "hangar_eve")
        scenarios.set_signup_deadline(scene.id, NOW + timedelta(hours=2), clock=clock)
        pack = Campaign.get(Campaign.slug == "demo").pack
        ids = []
        for name in names:
            user = accounts.create_user(name, "player-password", display_name=name.title(), clock=clock)
            made = characters.create_character(scene.campaign_id, user.id, pack["characters"]["makoto"], clock=clock)
            scenarios.join_scenario(scene.id, made.id, user_id=user.id, clock=clock)
            ids.append(made.id)
    return ids


def _statuses(world: World) -> dict[int, str]:
    with _db(world):
        return {p.character_id: p.status for p in Participation.select()}


def test_the_roster_names_who_takes_part_with_their_sheets(world):
    page = unescape(_as(world).get(BATTLE).get_data(as_text=True))
    for character_id in world.characters.values():
        assert f'href="/blog/demo/characters/{character_id}/"' in page
    slots = re.search(r'<p class="lead">(.*?)</p>', page)[1]
    assert re.fullmatch(r"2 of \d+ slots taken", slots) and page.count(">joined<") == 2
    assert "Round 2 is being played: the roster changes only between rounds." in page
    assert 'name="action"' not in page  # no button while the round runs
    ja = unescape(_as(world, "ja").get(BATTLE).get_data(as_text=True))
    assert "参加者名簿" in ja and "参加状況" in ja


def test_a_change_while_a_round_runs_is_refused_beside_its_sign_up(world):
    before = _statuses(world)
    cid = next(iter(world.characters.values()))
    refused = _post(_as(world), BATTLE, character=str(cid), action="remove")
    page = unescape(refused.get_data(as_text=True))
    assert refused.status_code == 409
    row = re.search(rf'<tr id="signup-{cid}" class="invalid">.*?</tr>', page, re.S)
    assert row and "round 2 of" in row[0] and "the roster changes only between rounds" in row[0]
    assert _statuses(world) == before


def test_the_gm_accepts_one_applicant_and_turns_down_another_and_both_are_told(world):
    kept, turned = _applicants(world, ("newcomer", "latecomer"))
    client = _as(world)
    page = unescape(client.get(SCENE).get_data(as_text=True))
    assert page.count(">applied<") == 2 and "Newcomer" in page and "Latecomer" in page
    done = _post(client, SCENE, character=str(kept), action="accept")
    assert done.status_code == 303 and done.headers["Location"].endswith("?done=accept")
    assert "Accepted: the character joined, and the player is told." in client.get(done.headers["Location"]).get_data(
        as_text=True
    )
    assert _post(client, SCENE, character=str(turned), action="reject").status_code == 303
    statuses = _statuses(world)
    assert statuses[kept] == "joined" and turned not in statuses
    with _db(world):
        told = {
            (o.kind, User.get_by_id(o.recipient_id).name)
            for o in Outbox.select().where(Outbox.kind.startswith("roster."))
        }
    assert told == {("roster.accept", "newcomer"), ("roster.reject", "latecomer")}


def test_the_lottery_is_shown_by_name_with_its_seed(world):
    ids = _applicants(world, ("first", "second", "third"))
    with _db(world):
        scene = Scenario.get(Scenario.slug == "hangar_eve")
        Scenario.update(slots=1).where(Scenario.id == scene.id).execute()
        scenarios.close_signup(scene.id, clock=FixedClock(NOW))
        seed = Scenario.get_by_id(scene.id).lottery_seed
    page = unescape(_as(world).get(SCENE).get_data(as_text=True))
    drawn = re.search(r'<ol class="lottery">(.*?)</ol>', page, re.S)
    assert seed in page and drawn and drawn[1].count("<li>") == len(ids)
    assert drawn[1].count("drawn: joined") == 1 and drawn[1].count("not drawn: waitlisted") == 2


def test_a_move_that_is_none_is_refused(world):
    refused = _post(_as(world), SCENE, character="1", action="promote")
    assert refused.status_code == 422 and 'class="error refusal"' in refused.get_data(as_text=True)
