"""Issue 31, deliverable 3, in the services: a campaign's settings are changed together or not at all, each change
audited with its actor, the GMs only; the scheduler's next tick goes by them; the webhook's test event goes through
the outbox (in English in English) and the page can tell how it fared."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from pbp.errors import Forbidden, InvalidState, UserError
from pbp.models import AuditLog, Campaign, Outbox, Round
from pbp.services import campaign_settings, entries, notifications, schedule
from pbp.services.campaign_settings import Settings


def _settings(world) -> Settings:
    return campaign_settings.current(Campaign.get_by_id(world.campaign))


def _logged(world) -> list[tuple[str, int | None, dict]]:
    rows = AuditLog.select().where(AuditLog.action.startswith("campaign.")).order_by(AuditLog.id)
    return [(r.action, r.actor_id, r.detail) for r in rows if r.action != "campaign.load"]


def test_saving_stores_what_changed_with_one_audit_line_each(world) -> None:
    before = _settings(world)
    wanted = Settings(True, 0.25, "https://chat.example/hook", 3, "UTC", before.entry_char_limit)
    changed = campaign_settings.save(world.campaign, wanted, actor_id=world.gm, clock=world.clock)
    assert changed == ["publish_automatically", "hold_share", "webhook", "growth_award", "timezone"]
    assert _settings(world) == wanted
    assert _logged(world) == [
        ("campaign.policy", world.gm, {"policy": "publish_automatically", "value": True}),
        ("campaign.hold_share", world.gm, {"share": 0.25}),
        ("campaign.webhook", world.gm, {"set": True}),
        ("campaign.growth_award", world.gm, {"points": 3}),
        ("campaign.timezone", world.gm, {"was": before.timezone, "to": "UTC"}),
    ]
    assert campaign_settings.save(world.campaign, wanted, actor_id=world.gm, clock=world.clock) == []
    assert len(_logged(world)) == 5  # saved again unchanged: nothing written


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("timezone", "Mars/Olympus"),
        ("timezone", "../../etc/passwd"),
        ("entry_char_limit", 5),
        ("entry_char_limit", 10_001),
        ("growth_award", -1),
        ("hold_share", 1.5),
        ("hold_share", float("nan")),
        ("webhook", "ftp://chat.example/hook"),
    ],
)
def test_one_bad_value_refuses_the_whole_save_beside_its_field(world, field, value) -> None:
    before = _settings(world)
    wanted = {**before.__dict__, "publish_automatically": True, "growth_award": 7, field: value}
    with pytest.raises(UserError) as refused:
        campaign_settings.save(world.campaign, Settings(**wanted), actor_id=world.gm, clock=world.clock)
    assert refused.value.field == field
    assert _settings(world) == before and _logged(world) == []


def test_only_the_campaigns_gms_change_its_settings(world) -> None:
    with pytest.raises(Forbidden):
        campaign_settings.change(world.campaign, actor_id=world.players[0], growth_award=9)
    with pytest.raises(Forbidden):
        campaign_settings.test_webhook(world.campaign, actor_id=world.players[0])
    assert _settings(world).growth_award == 0
    campaign_settings.change(world.campaign, actor_id=None, clock=world.clock, entry_char_limit=1200)  # the operator
    assert _logged(world) == [("campaign.entry_limit", None, {"was": 800, "to": 1200})]


def test_the_next_tick_goes_by_the_new_publishing_policy(world) -> None:
    round_id = world.new_round(deadline_in=3600)
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(round_id, cid, user_id=uid, order=world.order(), prose="行く", clock=world.clock)
    campaign_settings.change(world.campaign, actor_id=world.gm, clock=world.clock, publish_automatically=True)
    world.clock.advance(3601)
    report = schedule.tick(clock=world.clock)
    assert report.published == [round_id] and Round.get_by_id(round_id).state == "published"


def test_the_webhook_test_is_queued_audited_and_reported(world) -> None:
    with pytest.raises(InvalidState):
        campaign_settings.test_webhook(world.campaign, actor_id=world.gm, clock=world.clock)
    assert campaign_settings.last_webhook_test(world.campaign) is None
    campaign_settings.change(world.campaign, actor_id=world.gm, clock=world.clock, webhook="https://chat.example/h")
    row_id = campaign_settings.test_webhook(world.campaign, actor_id=world.gm, clock=world.clock)
    row = Outbox.get_by_id(row_id)
    assert (row.kind, row.channel, row.address, row.recipient_id) == ("webhook.test", "webhook", row.address, None)
    assert row.address == "https://chat.example/h"
    assert campaign_settings.last_webhook_test(world.campaign).status == "pending"
    assert _logged(world)[-1] == ("campaign.webhook_test", world.gm, {"outbox": row_id})
    posted = {}

    def answer(request, timeout):
        posted.update(json.loads(request.data))
        return mock.MagicMock()

    with mock.patch("urllib.request.urlopen", answer):
        notifications.send(row, notifications.Settings.load())
    assert posted["text"].startswith("【ヤマツカミ迎撃戦線】")  # the campaign's Japanese name
    assert posted["text_en"].startswith("[The Yamatsukami Interception Line] Webhook test")
    assert not any("\u3040" <= ch <= "\u30ff" for ch in posted["text_en"])  # no kana in the English text


def test_the_console_flag_follows_the_switch(world) -> None:
    assert campaign_settings.publishing_automatically([world.campaign]) == set()
    campaign_settings.change(world.campaign, actor_id=world.gm, clock=world.clock, publish_automatically=True)
    assert campaign_settings.publishing_automatically([world.campaign]) == {world.campaign}
