"""A round in the GM's console (issue 10, items 4 and 5) through the test client: the dashboard (entries against
participants, the guard's verdict, every lifecycle button and its refusals), a new round, the dry-run preview that
stores nothing, the review of a resolved round (dice log with check ids, units before and after, the battlefield)
and the override (R-GM-1) with its refusals, the GM's edited draft kept through an override."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.errors import Forbidden, UserError
from pbp.models import AuditLog, Campaign, Entry, Outbox, Override, Report, Resolution, Round, User
from pbp.services import campaigns, entries, publishing, rounds
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

#: Before the open round's deadline (START + 36 h): it still takes entries.
NOW = START + timedelta(hours=30)


@pytest.fixture
def world(tmp_path) -> World:
    """Round 1 published, round 2 open with both entries; the rival campaign and its GM."""
    return world_with_rival(tmp_path)


def _as(world: World, name: str = "gm") -> FlaskClient:
    """Signed in as `name`, reading English pages, on a clock before the open round's deadline."""
    return signed_in(world.url, name, lang="en", CLOCK=FixedClock(NOW))


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _dash(world: World, round_id: int | None = None) -> str:
    return f"/gm/demo/rounds/{round_id or world.open_round}/"


def _post(client: FlaskClient, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, "/gm/demo/")})


def _round(world: World, round_id: int | None = None) -> Round:
    with _db(world):
        return Round.get_by_id(round_id or world.open_round)


def _resolve(world: World) -> None:
    with _db(world):
        rounds.resolve_round(world.open_round, clock=FixedClock(NOW))


def _counts(world: World) -> dict[str, object]:
    """What any change would touch."""
    with _db(world):
        rnd = Round.get_by_id(world.open_round)
        return {
            "resolutions": Resolution.select().count(),
            "reports": Report.select().count(),
            "audit": AuditLog.select().count(),
            "outbox": Outbox.select().count(),
            "overrides": Override.select().count(),
            "round": (rnd.state, rnd.seed, rnd.deadline, rnd.failures),
        }


# ---- the dashboard ------------------------------------------------------------------------------------------------


def test_the_dashboard_shows_state_deadline_orders_and_prose(world):
    page = _as(world).get(_dash(world)).get_data(as_text=True)
    assert "open for entries" in page
    assert "2026-12-03 09:00 JST" in page and "2026-12-03T00:00:00Z" in page  # local and ISO
    assert "2 of 2 received" in page
    assert "Major: attack Kagachi One with Beam rifle" in page  # the orders in words, not JSON
    assert '"targets"' not in page
    assert "先頭のカガチに照準を合わせる" in page  # the prose, rendered
    assert '<div class="prose story" lang="ja">' in page  # Japanese on an English page: Japanese glyphs
    for button in ("Close (no more entries)", "Resolve now", "Hold", "Extend the deadline", "Cancel the round"):
        assert button in page
    assert "Open for entries</button>" not in page and "Release</button>" not in page


def test_the_dashboard_renders_prose_as_sanitised_markdown(world):
    with _db(world):
        character = world.characters["aoi"]
        user = User.get(User.name == "player1")
        order = Entry.get(Entry.round == world.open_round, Entry.character == character).order
        entries.save_entry(world.open_round, character, user_id=user.id, order=order,
                           prose="**強く**<script>alert(1)</script>", clock=FixedClock(NOW))  # fmt: skip
    page = _as(world).get(_dash(world)).get_data(as_text=True)
    assert "<strong>強く</strong>" in page and "<script>alert(1)" not in page


def test_a_missing_entry_is_highlighted_and_the_guards_verdict_follows_the_campaigns_share(world):
    with _db(world):
        user = User.get(User.name == "player2")
        entries.withdraw_entry(world.open_round, world.characters["makoto"], user_id=user.id, clock=FixedClock(NOW))
    client = _as(world)
    page = client.get(_dash(world)).get_data(as_text=True)
    assert "1 of 2 received" in page and 'class="entry-card missing"' in page and "No entry" in page
    assert "1 of 2 characters have no entry" in page and "would resolve this round" in page  # 50% is not > 50%
    with _db(world):
        campaigns.set_hold_share(Campaign.get(Campaign.slug == "demo").id, 0.25)
    page = client.get(_dash(world)).get_data(as_text=True)
    assert "would HOLD this round" in page
    assert _round(world).state == "open"  # a verdict only: the guard itself acts at the deadline


def test_a_closed_round_with_every_entry_in_says_it_resolves_on_the_schedulers_next_pass(world):
    """Closed early with every entry in, a round is due at once in a campaign that resolves complete rounds
    (`resolve_when_complete`): the page must not say it waits for its deadline."""
    client = _as(world)
    assert _post(client, _dash(world), action="close").status_code == 303
    page = client.get(_dash(world)).get_data(as_text=True)
    assert "resolves it on its next pass" in page and "at its deadline." not in page
    with _db(world):
        assert world.open_round in rounds.due_round_ids(clock=FixedClock(NOW))  # what the page says
        campaigns.set_policy(Campaign.get(Campaign.slug == "demo").id, "resolve_when_complete", False)
        assert world.open_round not in rounds.due_round_ids(clock=FixedClock(NOW))
    assert "would resolve this round at its deadline" in client.get(_dash(world)).get_data(as_text=True)


def test_close_hold_release_and_cancel_go_through_the_services_and_the_audit_log(world):
    client = _as(world)
    url = _dash(world)
    done = _post(client, url, action="close")
    assert done.status_code == 303 and "done=close" in done.headers["Location"]
    assert _round(world).state == "closed"
    assert "takes no more entries" in client.get(done.headers["Location"]).get_data(as_text=True)
    refused = _post(client, url, action="hold", reason="")
    assert refused.status_code == 422 and "Say why" in refused.get_data(as_text=True)
    assert _round(world).state == "closed"
    assert _post(client, url, action="hold", reason="a player asked for a day").status_code == 303
    assert (_round(world).state, _round(world).held_from) == ("held", "closed")
    assert _post(client, url, action="release").status_code == 303
    assert _round(world).state == "closed"
    assert _post(client, url, action="cancel", reason="the scene ends here", confirm="yes").status_code == 303
    assert _round(world).state == "cancelled"
    with _db(world):
        logged = [
            (a.action, a.actor.name, a.detail.get("reason"))
            for a in AuditLog.select().where(AuditLog.target == f"round:{world.open_round}").order_by(AuditLog.id)
        ]
    assert logged[-4:] == [
        ("round.close", "gm", None),
        ("round.hold", "gm", "a player asked for a day"),
        ("round.release", "gm", None),
        ("round.cancel", "gm", "the scene ends here"),
    ]


def test_a_move_the_state_does_not_allow_is_refused_with_its_reason_and_changes_nothing(world):
    client = _as(world)
    before = _counts(world)
    refused = _post(client, _dash(world), action="open")
    assert refused.status_code == 409
    assert "only a draft round opens" in refused.get_data(as_text=True)
    assert _counts(world) == before
    assert _post(client, _dash(world), action="launch").status_code == 400


def test_extend_moves_the_deadline_logs_it_and_tells_the_players(world):
    client = _as(world)
    done = _post(client, _dash(world), action="extend", deadline="2026-12-04T21:00")  # Asia/Tokyo
    assert done.status_code == 303
    assert _round(world).deadline.isoformat() == "2026-12-04T12:00:00"
    with _db(world):
        logged = AuditLog.select().where(AuditLog.action == "round.extend").order_by(AuditLog.id.desc()).first()
        told = Outbox.select().where(Outbox.kind == "round.extended")
        told_users = sorted(User.get_by_id(o.recipient_id).name for o in told if o.recipient_id)
    assert logged.detail["deadline"] == "2026-12-04T12:00:00Z" and logged.actor.name == "gm"
    assert told_users == ["player1", "player2"]
    assert "2026-12-04 21:00" in next(iter(told)).payload["deadline"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("2026-12-01T09:00", "must lie in the future"),
        ("next tuesday", "Not a date and time"),
        ("2099-01-01T00:00", "within ten years"),
    ],
)
def test_an_extension_into_the_past_or_not_a_time_is_refused_beside_the_field(world, typed, message):
    client = _as(world)
    before = _counts(world)
    refused = _post(client, _dash(world), action="extend", deadline=typed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and message in page
    assert f'value="{typed}"' in page  # what was typed is kept
    assert _counts(world) == before


def test_the_service_refuses_an_extension_into_the_past_itself(world):
    before = _counts(world)
    with _db(world), pytest.raises(UserError, match="must lie in the future"):
        rounds.extend_round(world.open_round, NOW - timedelta(hours=1), clock=FixedClock(NOW))
    assert _counts(world) == before


def test_resolve_from_the_dashboard_then_the_links_to_review_and_report(world):
    client = _as(world)
    done = _post(client, _dash(world), action="resolve", confirm="yes")  # before the deadline: confirmed
    assert done.status_code == 303 and _round(world).state == "resolved"
    page = client.get(_dash(world)).get_data(as_text=True)
    assert f"/gm/demo/rounds/{world.open_round}/review" in page and f"/gm/demo/rounds/{world.open_round}/report" in page
    assert "Resolve now" not in page


def test_open_a_new_round_created_from_the_form(world):
    client = _as(world)
    url = "/gm/demo/scenarios/tama_river/rounds/new"
    assert "Create the round" in client.get(url).get_data(as_text=True)
    past = client.post(url, data={"deadline": "2026-12-01T00:00", "csrf_token": csrf_token(client, url)})
    assert past.status_code == 422 and "must lie in the future" in past.get_data(as_text=True)
    empty = client.post(url, data={"deadline": "", "csrf_token": csrf_token(client, url)})
    assert empty.status_code == 422 and "Fill this in." in empty.get_data(as_text=True)
    with _db(world):
        assert Round.select().count() == 2
    made = client.post(url, data={"deadline": "2026-12-06T21:00", "csrf_token": csrf_token(client, url)})
    assert made.status_code == 303
    with _db(world):
        new = Round.select().order_by(Round.id.desc()).first()
    assert (new.number, new.state, new.deadline.isoformat()) == (3, "draft", "2026-12-06T12:00:00")
    assert made.headers["Location"].startswith(f"/gm/demo/rounds/{new.id}/")
    # opening it waits for round 2 (a round starts where the last ended): refused with the reason
    refused = _post(client, _dash(world, new.id), action="open")
    assert refused.status_code == 409 and "cannot be opened before round" in refused.get_data(as_text=True)
    assert client.get("/gm/demo/scenarios/no_such/rounds/new").status_code == 404


def test_the_overview_links_each_rounds_dashboard_and_a_new_round(world):
    page = _as(world).get("/gm/demo/").get_data(as_text=True)
    assert f'href="/gm/demo/rounds/{world.open_round}/"' in page
    assert 'href="/gm/demo/scenarios/tama_river/rounds/new"' in page


# ---- the preview and the review ---------------------------------------------------------------------------------


def test_the_preview_is_marked_rolls_a_throwaway_seed_and_stores_nothing(world):
    client = _as(world)
    before = _counts(world)
    page = client.get(f"/gm/demo/rounds/{world.open_round}/review").get_data(as_text=True)
    assert "PREVIEW" in page and "throwaway seed" in page and "Nothing is stored" in page
    assert re.search(r"\[r2-c\d+\]", page)  # the dice log with check ids
    assert 'class="console-table units-table"' in page and "<svg" in page
    assert "Override and resolve again" not in page  # nothing to override before resolution
    assert _counts(world) == before  # no resolution, report, audit, outbox, override; state and seed unchanged


def test_the_preview_builds_its_inputs_where_resolution_does(world, monkeypatch):
    calls = []
    real = rounds.engine_inputs
    monkeypatch.setattr(rounds, "engine_inputs", lambda rnd, scenario: calls.append(rnd.id) or real(rnd, scenario))
    with _db(world):
        preview = rounds.preview_round(world.open_round, actor_id=None)
    assert calls == [world.open_round] and preview.events


def test_the_review_of_a_resolved_round_shows_every_die_the_units_and_the_map(world):
    _resolve(world)
    page = _as(world).get(f"/gm/demo/rounds/{world.open_round}/review").get_data(as_text=True)
    assert "PREVIEW" not in page
    with _db(world):
        events = Resolution.get(Resolution.round == world.open_round).events
    checks = [c for e in events for c in (e.get("attack_check"), e.get("evade_check"), e.get("check")) if c]
    assert checks and all(f"[{c}]" in page for c in checks)
    # each check can be picked for an override, once, by who rolled which skill and what it came to
    options = re.findall(r'<option value="(r\d+-c\d+)">([^<]*)</option>', page)
    assert [value for value, _ in options] == list(dict.fromkeys(checks))
    assert all(re.fullmatch(rf"{v} — .+, .+: -?\d+ successe?s?", unescape(text)) for v, text in options), options
    assert "Injury" in page and "Vehicle damage" in page and 'class="changed"' in page
    assert 'class="battlemap"' in page
    assert "Override and resolve again" in page


def test_an_override_is_recorded_resolved_again_and_shown_in_the_dice_log(world):
    _resolve(world)
    client = _as(world)
    url = f"/gm/demo/rounds/{world.open_round}/override"
    done = _post(client, url, check="r2-c1", successes="5", reason="the river fog lifted early")
    assert done.status_code == 303 and "done=overridden" in done.headers["Location"]
    with _db(world):
        override = Override.get(Override.round == world.open_round)
        res = Resolution.get(Resolution.round == world.open_round)
    assert (override.check, override.successes, override.gm.name) == ("r2-c1", 5, "gm")
    assert res.version == 2 and res.overrides[0]["reason"] == "the river fog lifted early"
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "GM ruling [r2-c1]" in page and "the river fog lifted early" in page
    # R-GM-1: published with the dice log
    with _db(world):
        publishing.publish_round(world.open_round, clock=FixedClock(NOW))
    blog = client.get("/blog/demo/tama_river/round-2/").get_data(as_text=True)
    assert "the river fog lifted early" in blog and "r2-c1" in blog


@pytest.mark.parametrize(
    ("form", "status", "message"),
    [
        ({"check": "", "successes": "1", "reason": "why"}, 422, "Choose the check to override."),
        ({"check": "r2-c99", "successes": "1", "reason": "why"}, 422, "has no check r2-c99"),
        ({"check": "r2-c1", "successes": "1", "reason": ""}, 422, "Fill this in."),
        ({"check": "r2-c1", "successes": "many", "reason": "why"}, 422, "Not a valid integer value."),
    ],
)
def test_an_override_naming_no_check_is_refused_and_changes_nothing(world, form, status, message):
    _resolve(world)
    client = _as(world)
    before = _counts(world)
    refused = _post(client, f"/gm/demo/rounds/{world.open_round}/override", **form)
    assert refused.status_code == status and message in refused.get_data(as_text=True)
    assert _counts(world) == before


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "&#39;r1-c2&#39;のような判定IDで指定してください（&#39;r2&#39;が指定されました）"),
        ("en", "must be a check id like &#39;r1-c2&#39;, got &#39;r2&#39;"),
    ],
)
def test_r_gm_1_an_override_of_no_check_id_is_said_beside_the_check_in_the_pages_language(world, lang, said):
    """A check the form did not offer, and no check id at all: said beside the check by the engine's rule for
    overrides, not as a failed resolution."""
    _resolve(world)
    client = signed_in(world.url, "gm", lang=lang, CLOCK=FixedClock(NOW))
    before = _counts(world)
    refused = _post(client, f"/gm/demo/rounds/{world.open_round}/override", check="r2", successes="1", reason="why")
    assert refused.status_code == 422 and f'<span class="error">{said}</span>' in refused.get_data(as_text=True)
    assert _counts(world) == before


def test_an_override_of_an_unresolved_or_published_round_is_refused(world):
    client = _as(world)
    open_round = _post(client, f"/gm/demo/rounds/{world.open_round}/override", check="r2-c1", successes="1", reason="x")
    assert open_round.status_code == 409 and "only a resolved, unpublished round" in open_round.get_data(as_text=True)
    published = _post(
        client, f"/gm/demo/rounds/{world.published[0]}/override", check="r1-c1", successes="1", reason="x"
    )
    assert published.status_code == 409 and "only a resolved, unpublished round" in published.get_data(as_text=True)
    with _db(world):
        assert Override.select().count() == 0


def test_an_override_keeps_the_gms_edited_draft_and_the_report_page_says_the_generated_one_changed(world):
    _resolve(world)
    with _db(world):
        publishing.edit_report(world.open_round, "GMが書き直した物語。", clock=FixedClock(NOW))
        generated = Report.get(Report.round == world.open_round).generated_md
    client = _as(world)
    assert "An override changed the round" not in client.get(f"/gm/demo/rounds/{world.open_round}/report").get_data(
        as_text=True
    )
    _post(client, f"/gm/demo/rounds/{world.open_round}/override", check="r2-c1", successes="0", reason="misfire")
    with _db(world):
        report = Report.get(Report.round == world.open_round)
    assert report.draft_md == "GMが書き直した物語。"  # the GM's text, not overwritten
    assert report.generated_md != generated  # the diff compares against the new generated draft
    page = client.get(f"/gm/demo/rounds/{world.open_round}/report").get_data(as_text=True)
    assert "An override changed the round after you edited the story" in page
    # saved again by the GM: the notice has served
    with _db(world):
        publishing.edit_report(world.open_round, "GMが書き直した物語。二度目。", clock=FixedClock(NOW))
    page = client.get(f"/gm/demo/rounds/{world.open_round}/report").get_data(as_text=True)
    assert "An override changed the round" not in page


def test_an_override_of_an_unedited_draft_writes_the_new_draft(world):
    _resolve(world)
    with _db(world):
        rounds.override_check(world.open_round, "r2-c1", 0, reason="misfire", clock=FixedClock(NOW))
        report = Report.get(Report.round == world.open_round)
    assert report.draft_md == report.generated_md


# ---- who may ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["player1", "gm2"])
def test_a_player_or_another_campaigns_gm_reaches_no_round_page_and_the_services_refuse_them(world, name):
    client = _as(world, name)
    for url in (_dash(world), f"{_dash(world)}review", "/gm/demo/scenarios/tama_river/rounds/new"):
        assert client.get(url).status_code == 403
    with _db(world):
        user = User.get(User.name == name)
        for call in (
            lambda: rounds.close_round(world.open_round, actor_id=user.id),
            lambda: rounds.hold_round(world.open_round, reason="x", actor_id=user.id),
            lambda: rounds.extend_round(world.open_round, NOW + timedelta(days=9), actor_id=user.id),
            lambda: rounds.cancel_round(world.open_round, reason="x", actor_id=user.id),
            lambda: rounds.resolve_round(world.open_round, actor_id=user.id),
            lambda: rounds.preview_round(world.open_round, actor_id=user.id),
            lambda: rounds.override_check(world.published[0], "r1-c1", 1, reason="x", actor_id=user.id),
        ):
            with pytest.raises(Forbidden):
                call()
    assert _round(world).state == "open"


def test_a_co_gm_runs_the_round_too(world):
    client = _as(world, "cogm")
    assert client.get(_dash(world)).status_code == 200
    assert _post(client, _dash(world), action="close").status_code == 303
    assert _round(world).state == "closed"


def test_a_round_of_another_campaign_or_none_is_not_found_under_this_one(world):
    client = _as(world)
    assert client.get("/gm/rival/rounds/1/").status_code == 403  # not the rival's GM
    assert client.get("/gm/demo/rounds/999/").status_code == 404
    assert client.get("/gm/demo/rounds/999/review").status_code == 404


def test_the_review_shows_each_entry_s_prose_beside_its_checks(world):
    """Issue 31, item 8: the GM judges a check with the プレイング in sight: each entry's prose in a card with the
    checks its character rolled, by id (as the dice log and the override form name them)."""
    client = signed_in(world.url, "gm", lang="en")
    html = client.get(f"/gm/demo/rounds/{world.published[0]}/review").get_data(as_text=True)
    section = html.split('class="entries review-entries"', 1)[1].split("</section>", 1)[0]
    cards = section.split('<article class="entry-card')[1:]
    assert cards, "no entry on the review"
    aoi = next(card for card in cards if "Aoi" in card or "葵" in card)
    assert 'class="prose story"' in aoi
    checks = re.findall(r"<li>(r\d+-c\d+) — ", aoi)
    dice_log = html.split('id="dice-title"', 1)[1].split("</section>", 1)[0]
    assert checks and all(c in dice_log for c in checks)  # each one the dice log above shows
