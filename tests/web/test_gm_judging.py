"""Judging the プレイング on the GM's review (issue 31, item 7): the play bonus and ad-hoc check forms, their refusals
beside the field with everything typed kept, the campaign's GM only, and what the published report shows."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.models import AdhocCheck, AuditLog, GmAction, Resolution
from pbp.services import publishing, rounds
from pbp.services.clock import FixedClock
from tests.web.conftest import csrf_token, signed_in
from tests.web.test_gm_rounds import NOW, _as, _db, _post
from tests.web.world import World, world_with_rival


@pytest.fixture
def world(tmp_path) -> World:
    """Round 1 published, round 2 open with both entries; the rival campaign and its GM."""
    return world_with_rival(tmp_path)


def _review(world: World) -> str:
    return f"/gm/demo/rounds/{world.open_round}/review"


def _stored(world: World) -> tuple[int, int, int]:
    with _db(world):
        return (
            GmAction.select().where(GmAction.kind == "bonus").count(),
            AdhocCheck.select().count(),
            AuditLog.select().count(),
        )


def _pc(world: World) -> int:
    return next(iter(world.characters.values()))


def test_the_review_offers_the_forms_and_a_bonus_and_an_adhoc_check_reach_the_published_report(world):
    client = _as(world)
    page = client.get(_review(world)).get_data(as_text=True)
    assert 'id="judging"' in page and "Set the play bonus" in page and "Add the ad-hoc check" in page
    assert "dice +1 and successes +1 at most" in page
    pc = _pc(world)
    done = _post(client, f"/gm/demo/rounds/{world.open_round}/bonus", character=str(pc), dice="1", successes="0",
                 reason="the flanking plan was superb")  # fmt: skip
    assert done.status_code == 303 and "done=bonus" in done.headers["Location"]
    done = _post(client, f"/gm/demo/rounds/{world.open_round}/adhoc", roll=f"{pc}|情報処理", need="0",
                 success_text="She hears the enemy channel.", failure_text="Static only.",
                 reason="listening in on the radio")  # fmt: skip
    assert done.status_code == 303 and "done=adhoc" in done.headers["Location"]
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "the flanking plan was superb" in page and "listening in on the radio" in page
    with _db(world):
        rounds.resolve_round(world.open_round, clock=FixedClock(NOW + timedelta(hours=7)))
        publishing.publish_round(world.open_round, clock=FixedClock(NOW + timedelta(hours=7)))
        assert publishing.verify_round(world.open_round) is None
        res = Resolution.get(Resolution.round == world.open_round)
    assert res.adhoc_checks and any(a["kind"] == "bonus" for a in res.gm_actions)
    for lang, bonus_words, adhoc_words in (
        ("en", "Play bonus for", "GM's ad-hoc check"),
        ("ja", "プレイングボーナス", "GMの臨時判定"),
    ):
        reader = signed_in(world.url, "player1", lang=lang, CLOCK=FixedClock(NOW + timedelta(hours=8)))
        blog = reader.get("/blog/demo/tama_river/round-2/").get_data(as_text=True)
        assert bonus_words in blog and adhoc_words in blog, lang
        assert "the flanking plan was superb" in blog and "listening in on the radio" in blog
        assert blog.count("She hears the enemy channel.") == 2  # told in the story, and under its roll


@pytest.mark.parametrize(
    ("url", "form", "field_said"),
    [
        ("bonus", {"character": "", "dice": "1", "successes": "0", "reason": "why"}, "Choose the entry"),
        ("bonus", {"character": "PC", "dice": "2", "successes": "0", "reason": "kept text"}, "the campaign&#39;s cap"),
        ("bonus", {"character": "PC", "dice": "1", "successes": "0", "reason": ""}, "reason"),
        ("adhoc", {"roll": "", "need": "1", "reason": "kept text"}, "Choose who rolls which skill."),
        ("adhoc", {"roll": "PC|料理", "need": "1", "reason": "kept text"}, "料理"),
        ("adhoc", {"roll": "PC|情報処理", "need": "99", "reason": "kept text"}, "Number must be between"),
    ],
)
def test_a_refused_form_comes_back_with_its_error_and_what_was_typed_and_nothing_is_stored(
    world, url, form, field_said
):
    client = _as(world)
    before = _stored(world)
    sent = {k: v.replace("PC", str(_pc(world))) for k, v in form.items()}
    refused = _post(client, f"/gm/demo/rounds/{world.open_round}/{url}", **sent)
    page = refused.get_data(as_text=True)
    assert refused.status_code in (409, 422) and field_said in page
    assert 'class="error"' in page
    if "kept text" in form.get("reason", ""):
        assert "kept text" in page
    assert _stored(world) == before


def test_only_the_campaigns_gm_judges(world):
    pc = _pc(world)
    before = _stored(world)
    for name in ("player1", "gm2"):
        client = signed_in(world.url, name, lang="en", CLOCK=FixedClock(NOW))
        form = {"character": str(pc), "dice": "1", "successes": "0", "reason": "x", "csrf_token": csrf_token(client)}
        sent = client.post(f"/gm/demo/rounds/{world.open_round}/bonus", data=form)
        assert sent.status_code == 403, name
    assert _stored(world) == before


def test_a_published_round_is_judged_no_more(world):
    client = _as(world)
    refused = _post(client, f"/gm/demo/rounds/{world.published[0]}/bonus", character=str(_pc(world)), dice="1",
                    successes="0", reason="x")  # fmt: skip
    assert refused.status_code == 409 and "before the round is published" in refused.get_data(as_text=True)
    page = client.get(f"/gm/demo/rounds/{world.published[0]}/review").get_data(as_text=True)
    assert "Set the play bonus" not in page


def test_the_settings_offer_the_cap_and_the_review_goes_by_it(world):
    client = _as(world)
    page = client.get("/gm/demo/settings").get_data(as_text=True)
    assert "Play bonus: the most dice per entry" in page and 'name="bonus_successes_max"' in page
    with _db(world):
        from pbp.models import Campaign
        from pbp.services import campaign_settings

        campaign_settings.change(Campaign.get(Campaign.slug == "demo").id, actor_id=None, bonus_dice_max=2)
    assert "dice +2 and successes +1 at most" in client.get(_review(world)).get_data(as_text=True)
    allowed = _post(client, f"/gm/demo/rounds/{world.open_round}/bonus", character=str(_pc(world)), dice="2",
                    successes="0", reason="two dice now")  # fmt: skip
    assert allowed.status_code == 303


def test_the_gm_actions_page_names_a_play_bonus(world):
    client = _as(world)
    _post(client, f"/gm/demo/rounds/{world.open_round}/bonus", character=str(_pc(world)), dice="1", successes="1",
          reason="a daring plan")  # fmt: skip
    page = client.get(f"/gm/demo/rounds/{world.open_round}/actions").get_data(as_text=True)
    assert "Play bonus" in page and "+1 die, +1 success" in page and "a daring plan" in page
