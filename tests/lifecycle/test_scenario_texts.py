"""Issue 31, deliverable 6, in the services: a scenario's texts change at any time — a console scenario's titles and
public descriptions and any scenario's GM notes —, even once its rounds run, while what the engine used stays; each
change is audited with the texts as they were; bad text is refused beside its field with nothing stored."""

from __future__ import annotations

import pytest

from pbp.errors import Forbidden, InvalidState, UserError
from pbp.models import AuditLog, Campaign, Scenario, ScenarioSecret
from pbp.services import authoring, scenario_texts, scenarios


def _running_console_scenario(world) -> Scenario:
    """A console scenario (the battle's entry, written anew) with both characters joined and a round open."""
    pack = Campaign.get_by_id(world.campaign).pack
    spec = {**pack["scenarios"]["tama_river"], "description": "多摩川の河原で迎え撃つ。", "gm_notes": "増援あり"}
    made = authoring.create_scenario(world.campaign, "interlude", spec, actor_id=world.gm, clock=world.clock)
    for uid, cid in zip(world.players, world.characters, strict=True):
        scenarios.join_scenario(made.id, cid, user_id=uid, clock=world.clock)
    world.new_round(scenario=made.id)
    return Scenario.get_by_id(made.id)


def test_a_running_console_scenarios_texts_change_and_its_setup_stays(world) -> None:
    scenario = _running_console_scenario(world)
    setup = ScenarioSecret.get(ScenarioSecret.scenario == scenario.id).setup
    with pytest.raises(InvalidState):  # the whole entry is fixed once a round opened
        authoring.edit_scenario(scenario.id, setup, actor_id=world.gm, clock=world.clock)
    texts = {**scenario_texts.texts_of(scenario), "description": "多摩川の河原で迎え撃て。", "gm_notes": "増援なし"}
    changed = scenario_texts.edit_texts(scenario.id, texts, actor_id=world.gm, clock=world.clock)
    assert changed == ["description", "gm_notes"]
    stored = Scenario.get_by_id(scenario.id)
    secret = ScenarioSecret.get(ScenarioSecret.scenario == scenario.id)
    entry = Campaign.get_by_id(world.campaign).pack["scenarios"]["interlude"]
    assert stored.public_text == entry["description"] == secret.setup["description"] == "多摩川の河原で迎え撃て。"
    assert secret.gm_notes == entry["gm_notes"] == "増援なし"
    assert {k: v for k, v in secret.setup.items() if k not in ("description", "gm_notes")} == {
        k: v for k, v in setup.items() if k not in ("description", "gm_notes")
    }  # enemies, terrain, starts: as they were
    logged = AuditLog.select().where(AuditLog.action == "scenario.texts").get()
    assert logged.actor_id == world.gm
    assert logged.detail == {
        "changed": ["description", "gm_notes"],
        "was": {"description": "多摩川の河原で迎え撃つ。", "gm_notes": "増援あり"},
    }
    assert scenario_texts.edit_texts(scenario.id, texts, actor_id=world.gm, clock=world.clock) == []
    as_sent = {**texts, "gm_notes": "増援なし\r\n第二波\r\n"}  # a browser's line breaks
    assert scenario_texts.edit_texts(scenario.id, as_sent, actor_id=world.gm, clock=world.clock) == ["gm_notes"]
    assert ScenarioSecret.get(ScenarioSecret.scenario == scenario.id).gm_notes == "増援なし\n第二波"
    as_sent["gm_notes"] = "増援なし\r\n第二波"
    assert scenario_texts.edit_texts(scenario.id, as_sent, actor_id=world.gm, clock=world.clock) == []


def test_a_pack_scenarios_gm_notes_change_but_its_public_texts_are_the_packs(world) -> None:
    with pytest.raises(InvalidState) as refused:
        scenario_texts.edit_texts(world.scenario, {"description": "typo"}, actor_id=world.gm, clock=world.clock)
    assert refused.value.field == "description"
    assert scenario_texts.edit_texts(world.scenario, {"gm_notes": "新しい秘密"}, actor_id=world.gm) == ["gm_notes"]
    assert ScenarioSecret.get(ScenarioSecret.scenario == world.scenario).gm_notes == "新しい秘密"
    assert "新しい秘密" not in str(Campaign.get_by_id(world.campaign).pack)  # other runs of it are untouched


@pytest.mark.parametrize(
    ("texts", "field"),
    [({"ja": "長" * 81}, "ja"), ({"ja": "", "en": ""}, "ja"), ({"gm_notes": "x\x00"}, "gm_notes")],
)
def test_bad_text_is_refused_beside_its_field_and_nothing_is_stored(world, texts, field) -> None:
    scenario = _running_console_scenario(world)
    before = scenario_texts.texts_of(scenario)
    with pytest.raises(UserError) as refused:
        scenario_texts.edit_texts(scenario.id, {**before, "description": "changed", **texts}, actor_id=world.gm)
    assert refused.value.field == field and scenario_texts.texts_of(scenario) == before


def test_only_the_campaigns_gms_change_texts(world) -> None:
    with pytest.raises(Forbidden):
        scenario_texts.edit_texts(world.scenario, {"gm_notes": "x"}, actor_id=world.players[0])
