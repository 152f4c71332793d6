"""Issue 31, deliverable 2, through the test client: resolve-now, cancel and publish on a round whose deadline lies
ahead or whose entries are missing first show a confirmation page naming what will happen (who has no entry, the
time left, the campaign's publish policy, that it cannot be undone); without `confirm` nothing changes; resolve-now
honours the missing-entries guard unless the GM chooses to resolve anyway; a round resolved by hand in a campaign
that publishes by itself is still unpublished after the scheduler's tick."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import AuditLog, Campaign, Character, Outbox, Report, Resolution, Round, User
from pbp.services import campaigns, entries, rounds, schedule
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import csrf_token, make_app, signed_in
from tests.web.world import START, World, world_with_rival

#: Six hours before the open round's deadline (START + 36 h).
NOW = START + timedelta(hours=30)


@pytest.fixture
def world(tmp_path) -> World:
    """Round 1 published, round 2 open with both entries; the rival campaign and its GM."""
    return world_with_rival(tmp_path)


def _as(world: World, lang: str = "en", now=NOW) -> FlaskClient:
    return signed_in(world.url, "gm", lang=lang, CLOCK=FixedClock(now))


def _db(world: World):
    return pbp_db.using(database.of(make_app(world.url)))


def _dash(world: World) -> str:
    return f"/gm/demo/rounds/{world.open_round}/"


def _post(client: FlaskClient, url: str, **form: str):
    return client.post(url, data={**form, "csrf_token": csrf_token(client, "/gm/demo/")})


def _withdraw(world: World, *pcs: str) -> list[tuple[str, str]]:
    """Withdraw the entries of `pcs`; their characters' English names (their sheets') and their players' names."""
    names = []
    with _db(world):
        for pc in pcs:
            character = Character.get_by_id(world.characters[pc])
            user = User.get_by_id(character.owner_id)
            entries.withdraw_entry(world.open_round, character.id, user_id=user.id, clock=FixedClock(NOW))
            names.append((character.sheet["en"], user.display_name or user.name))
    return names


def _state(world: World) -> dict[str, object]:
    """What any move would change."""
    with _db(world):
        rnd = Round.get_by_id(world.open_round)
        return {
            "round": (rnd.state, rnd.held_from, rnd.guard_held_at, rnd.resolved_at, rnd.published_at),
            "resolutions": Resolution.select().count(),
            "audit": AuditLog.select().count(),
            "outbox": Outbox.select().count(),
            "reports": [(r.draft_md, r.intro_md) for r in Report.select().order_by(Report.round)],
        }


def _hidden(page: str) -> dict[str, str]:
    """The confirmation form's hidden fields, as the browser would post them."""
    fields = {}
    for tag in re.findall(r"<input\b[^>]*>", _form(page)):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        if attrs.get("type") == "hidden":
            fields[attrs["name"]] = unescape(attrs.get("value", ""))
    return fields


def _form(page: str) -> str:
    start = page.index('class="form confirm-move"')
    return page[start : page.index("</form>", start)]


def _buttons(page: str) -> list[str]:
    """The confirmation form's buttons, in order."""
    return [re.sub(r"<[^>]+>", "", b).strip() for b in re.findall(r"<button[^>]*>(.*?)</button>", _form(page), re.S)]


def test_resolve_now_without_confirm_changes_nothing_and_names_the_missing_entry_and_time_left(world):
    missing = _withdraw(world, "makoto")
    client = _as(world)
    before = _state(world)
    asked = _post(client, _dash(world), action="resolve")
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Resolve this round now?" in page
    assert _state(world) == before  # nothing resolved, logged or sent
    assert "1 of 2 characters has no entry" in page and f"<bdi>{missing[0][0]}</bdi>" in page
    assert f"player {missing[0][1]}" in page and missing[0][0] != "真琴"  # named in the page's language
    assert "The deadline is 6 hours away" in page and "2026-12-03 09:00" in page
    assert "does not publish by itself" in page and "This cannot be undone." in page
    fields = _hidden(page)
    assert fields["action"] == "resolve" and fields["confirm"] == "yes" and "csrf_token" in fields
    assert _buttons(page) == ["Yes, resolve it now"]  # 1 of 2 missing is not over the guard's half


def test_resolve_now_with_confirm_resolves_as_before(world):
    _withdraw(world, "makoto")
    client = _as(world)
    done = _post(client, _dash(world), action="resolve", confirm="yes")
    assert done.status_code == 303 and "done=resolve" in done.headers["Location"]
    assert _state(world)["round"][0] == "resolved"


@pytest.mark.parametrize("confirm", ["", "no", "YES", "yes " * 200])
def test_anything_but_yes_is_no_confirmation(world, confirm):
    client = _as(world)
    before = _state(world)
    response = _post(client, _dash(world), action="resolve", confirm=confirm)
    assert response.status_code == 200 and "Resolve this round now?" in response.get_data(as_text=True)
    assert _state(world) == before


def test_the_guard_holds_a_round_with_most_entries_missing_unless_the_gm_resolves_anyway(world):
    _withdraw(world, "aoi", "makoto")
    client = _as(world)
    page = _post(client, _dash(world), action="resolve").get_data(as_text=True)
    assert "2 of 2 characters have no entry" in page and "the missing-entries guard will hold the round" in page
    assert _buttons(page) == ["Apply the guard (hold the round)", "Resolve anyway"]
    held = _post(client, _dash(world), **_hidden(page))  # the first button: the guard
    assert held.status_code == 303 and "done=held" in held.headers["Location"]
    rnd = _state(world)["round"]
    assert rnd[:2] == ("held", "open") and rnd[3] is None  # held, not resolved
    assert "The guard held the round" in client.get(held.headers["Location"]).get_data(as_text=True)


def test_resolve_anyway_resolves_a_round_the_guard_would_hold(world):
    _withdraw(world, "aoi", "makoto")
    client = _as(world)
    page = _post(client, _dash(world), action="resolve").get_data(as_text=True)
    done = _post(client, _dash(world), **_hidden(page), anyway="yes")  # the second button
    assert done.status_code == 303 and _state(world)["round"][0] == "resolved"


def test_a_hand_resolved_round_of_an_auto_publishing_campaign_is_unpublished_after_a_tick(world):
    with _db(world):
        campaigns.set_policy(Campaign.get(Campaign.slug == "demo").id, "publish_automatically", True)
    client = _as(world)
    page = _post(client, _dash(world), action="resolve").get_data(as_text=True)
    assert "a round you resolve by hand waits for your review" in page
    assert _post(client, _dash(world), **_hidden(page)).status_code == 303
    with _db(world):
        report = schedule.tick(clock=FixedClock(NOW + timedelta(hours=1)))
        rnd = Round.get_by_id(world.open_round)
        told = [o.recipient_id for o in Outbox.select().where(Outbox.kind == "round.resolved")]
    assert report.published == [] and rnd.state == "resolved" and rnd.published_at is None
    assert told  # the GMs are told a round waits for them


def test_cancel_asks_first_and_carries_the_reason(world):
    client = _as(world)
    before = _state(world)
    asked = _post(client, _dash(world), action="cancel", reason='道が<崩れた> "本当"')
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Cancel this round?" in page and _state(world) == before
    assert "Every character has an entry (2 of 2)." in page and "6 hours away" in page
    assert _hidden(page)["reason"] == '道が<崩れた> "本当"' and "<崩れた>" not in page  # escaped, carried whole
    done = _post(client, _dash(world), **_hidden(page))
    assert done.status_code == 303 and _state(world)["round"][0] == "cancelled"
    with _db(world):
        cancel = AuditLog.get(AuditLog.action == "round.cancel")
    assert cancel.detail["reason"] == '道が<崩れた> "本当"'


def test_cancel_and_resolve_past_the_deadline_with_every_entry_in_do_not_ask(world):
    client = _as(world, now=START + timedelta(hours=37))
    assert _post(client, _dash(world), action="resolve").status_code == 303
    assert _state(world)["round"][0] == "resolved"


def test_publish_with_entries_missing_asks_first_and_keeps_the_text_typed(world):
    _withdraw(world, "makoto")
    with _db(world):
        rounds.resolve_by_hand(world.open_round, clock=FixedClock(NOW))
    client = _as(world)
    url = f"/gm/demo/rounds/{world.open_round}/report"
    before = _state(world)
    typed = "第2ラウンド。\n\n二行目 & <b>"
    asked = client.post(url, data={"csrf_token": csrf_token(client, url), "action": "publish", "intro": typed,
                                   "story": "物語\n本文"})  # fmt: skip
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Publish this round's report?" in page and _state(world) == before
    assert "1 of 2 characters has no entry" in page and "Their characters did nothing" in page
    assert "6 hours away" in page and "told they had until then" in page and "This cannot be undone." in page
    fields = _hidden(page)
    assert (fields["intro"], fields["story"], fields["confirm"]) == (typed, "物語\n本文", "yes")
    assert client.post(url, data=fields).status_code == 303
    with _db(world):
        rnd = Round.get_by_id(world.open_round)
        report = Report.get(Report.round == rnd.id)
    assert rnd.state == "published" and report.intro_md == typed


def test_the_confirmation_speaks_japanese(world):
    _withdraw(world, "makoto")
    page = _post(_as(world, "ja"), _dash(world), action="resolve").get_data(as_text=True)
    assert "このラウンドを今すぐ処理しますか？" in page and "取り消せません" in page and "6 時間" in page
    assert "Resolve this round now?" not in page
