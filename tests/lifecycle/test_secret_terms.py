"""Issue 31, deliverable 4, in the services: secret terms of any length (the scenario's list, and 【秘】…【/秘】 in its
GM notes) are found in every text about to be published — the report, override reasons, the units' names — with
width, kana and space variants; a refused automatic publication tells the GMs only, and nothing of what was found;
too many terms or an empty one is a clear refusal."""

from __future__ import annotations

import pytest

from pbp.errors import Forbidden, UserError
from pbp.models import AuditLog, Outbox, Resolution, ScenarioSecret
from pbp.services import authoring, campaigns, entries, leaks, notifications, publishing, rounds, secret_terms
from pbp.services.publishing import LeakFound

SHORT = ("黒幕は榊司令", "紅い月の契約")  # the two secrets: each shorter than the phrase check's clause


def _notes(world, notes: str) -> None:
    ScenarioSecret.update(gm_notes=notes).where(ScenarioSecret.scenario == world.scenario).execute()


def _resolved(world) -> int:
    rid = world.new_round()
    for uid, cid in zip(world.players, world.characters, strict=True):
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    return rid


def _found(rid: int, outro: str) -> list[str]:
    """What the leak check finds in the outro typed."""
    return [leak.found for leak in publishing.review(rid, outro=outro).leaks if leak.part == "outro"]


def test_without_marking_the_short_secrets_pass_and_marked_they_are_found(world) -> None:
    rid = _resolved(world)
    outro = "実は黒幕は榊司令だった。そして紅い月の契約が結ばれる。"
    _notes(world, "黒幕は榊司令。紅い月の契約。")
    assert _found(rid, outro) == []  # the phrase check alone: too short to be a clause
    _notes(world, "【秘】黒幕は榊司令【/秘】。【秘】紅い月の契約【/秘】。")
    assert _found(rid, outro) == list(SHORT)
    publishing.edit_report(rid, outro=outro, actor_id=world.gm, clock=world.clock)
    with pytest.raises(LeakFound) as refused:
        publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert {leak.secret.kind for leak in refused.value.leaks} == {"term"}


@pytest.mark.parametrize(
    "written",
    ["さかき司令", "ｻｶｷ司令", "サ カ キ 司 令", "**サカキ**司令", "ｻｶｷ　司令"],
)
def test_a_term_is_found_in_width_kana_space_and_markup_variants(world, written) -> None:
    rid = _resolved(world)
    secret_terms.set_terms(world.scenario, "サカキ司令", actor_id=world.gm, clock=world.clock)
    assert len(_found(rid, f"通信の主は{written}だった。")) == 1


def test_a_latin_term_is_found_as_whole_words_in_any_case(world) -> None:
    rid = _resolved(world)
    secret_terms.set_terms(world.scenario, "Red Moon\nX", actor_id=world.gm, clock=world.clock)
    assert _found(rid, "Under the RED MOON they met.") == ["RED MOON"]
    assert _found(rid, "The redmoonish glow, a Xylophone.") == []
    assert _found(rid, "Agent X spoke.") == ["X"]  # one letter: any length


def test_a_term_public_text_holds_is_still_watched(world) -> None:
    """The GM's word is final: the pack's public names do not excuse a term (the phrase check's rule does)."""
    rid = _resolved(world)
    name = campaigns.Campaign.get_by_id(world.campaign).pack["characters"]["aoi"]["ja"]
    secret_terms.set_terms(world.scenario, name, actor_id=world.gm, clock=world.clock)
    assert _found(rid, f"{name}は立ち上がった。") == [name]


def test_an_override_reason_holding_a_short_secret_is_refused_and_nothing_changes(world) -> None:
    rid = _resolved(world)
    _notes(world, "【秘】黒幕は榊司令【/秘】と【秘】紅い月の契約【/秘】")
    before = Resolution.get(Resolution.round == rid).version
    check = next(e for e in Resolution.get(Resolution.round == rid).events if e["type"] == "attack")["attack_check"]
    with pytest.raises(UserError) as refused:
        rounds.override_check(rid, check, 0, reason="黒幕は榊司令、紅い月の契約のため", actor_id=world.gm,
                              clock=world.clock)  # fmt: skip
    assert refused.value.field == "reason" and "secret term" in str(refused.value.message)
    assert Resolution.get(Resolution.round == rid).version == before


def test_a_term_in_a_units_name_is_found_there(world) -> None:
    rid = _resolved(world)
    encounter = Resolution.get(Resolution.round == rid).encounter
    enemy = next(u["name"] for u in encounter["units"] if u["side"] != "pc")
    secret_terms.set_terms(world.scenario, enemy, actor_id=world.gm, clock=world.clock)
    found = publishing.review(rid).leaks
    assert [(leak.part, leak.found) for leak in found if leak.part == "units"] == [("units", enemy)]


def test_a_refused_automatic_publication_tells_the_gms_only_and_nothing_of_the_find(world) -> None:
    notifications.set_webhook(world.campaign, "https://chat.example/hook", clock=world.clock)
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    rid = _resolved(world)
    secret_terms.set_terms(world.scenario, "紅い月", actor_id=world.gm, clock=world.clock)
    publishing.edit_report(rid, outro="紅い月が昇る。", actor_id=world.gm, clock=world.clock)
    with pytest.raises(LeakFound):
        publishing.publish_automatically(rid, clock=world.clock)
    told = list(Outbox.select().where(Outbox.kind == "round.publish_refused"))
    assert [(row.channel, row.recipient_id) for row in told] == [("email", world.gm)]
    assert "紅い月" not in str(told[0].payload)
    for locale in ("ja", "en"):
        assert "紅い月" not in "".join(notifications.message("round.publish_refused", told[0].payload, locale))
    assert Outbox.select().where(Outbox.kind == "round.opened", Outbox.channel == "webhook").exists()


def test_ten_thousand_terms_or_an_empty_one_is_refused_and_nothing_stored(world) -> None:
    secret_terms.set_terms(world.scenario, "榊", actor_id=world.gm, clock=world.clock)
    many = "\n".join(f"語{i}" for i in range(10_000))
    for text, said in ((many, "10000 secret terms"), ("榊\n・・・\n", "secret term 2"), ("x" * 101, "over 100")):
        with pytest.raises(UserError) as refused:
            secret_terms.set_terms(world.scenario, text, actor_id=world.gm, clock=world.clock)
        assert refused.value.field == "secret_terms" and said in str(refused.value.message)
    assert secret_terms.listed(world.scenario) == "榊"


def test_an_empty_marked_term_in_the_gm_form_is_refused_beside_the_notes(world) -> None:
    pack = campaigns.Campaign.get_by_id(world.campaign).pack
    spec = {**pack["scenarios"]["tama_river"], "gm_notes": "真相は【秘】 【/秘】"}
    with pytest.raises(authoring.ScenarioProblems) as refused:
        authoring.create_scenario(world.campaign, "interlude", spec, terms="", actor_id=world.gm, clock=world.clock)
    assert [p.path for p in refused.value.problems] == ["gm_notes"]
    with pytest.raises(authoring.ScenarioProblems) as refused:
        quiet, many = {**spec, "gm_notes": "静か"}, "\n".join(["a"] * 501)
        authoring.create_scenario(world.campaign, "interlude", quiet, terms=many, actor_id=world.gm, clock=world.clock)
    assert [p.path for p in refused.value.problems] == ["secret_terms"]


def test_setting_terms_is_audited_without_the_terms_and_only_by_the_gms(world) -> None:
    secret_terms.set_terms(world.scenario, "榊\n\n紅い月\n", actor_id=world.gm, clock=world.clock)
    assert secret_terms.listed(world.scenario) == "榊\n紅い月"
    logged = AuditLog.get(AuditLog.action == "scenario.secret_terms")
    assert logged.detail == {"terms": 2} and logged.actor_id == world.gm
    with pytest.raises(Forbidden):
        secret_terms.set_terms(world.scenario, "", actor_id=world.players[0], clock=world.clock)
    assert [w.term for w in secret_terms.watched(world.campaign)] == ["榊", "紅い月"]
    assert leaks.SECRET_KINDS["term"]
