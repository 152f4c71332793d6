"""The kancolle demo through the same services as pool (issue 32, deliverable 3): the pack loads, its ship girls
join, a base cycle and a battle's rounds (with the night when it comes) are entered as legal_actions offers, closed
and resolved by the scheduler's tick, reviewed, published and verified; GM actions are refused cleanly."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.engine import find_ruleset
from pbp.engine.verify import verify_bundle
from pbp.errors import InvalidState, UserError
from pbp.models import Report, Resolution, Round, Scenario
from pbp.paths import CAMPAIGNS_DIR
from pbp.services import accounts, campaigns, characters, entries, publishing, rounds, scenarios, schedule, shaping
from pbp.services.characters import unit_id
from pbp.services.kancolle_demo import entry_for
from tests.lifecycle.conftest import FAST_HASHER, pbp

FLEET = ("fubuki", "yuudachi", "kitakami", "akagi")
KANCOLLE = find_ruleset("kancolle")


@pytest.fixture
def fleet(db, clock, monkeypatch):
    """The kancolle demo loaded, a GM and four players, each with one ship girl joined to both scenarios."""
    monkeypatch.setattr(accounts, "_HASHER", FAST_HASHER)
    gm = accounts.create_user("gm", "gm-password", clock=clock)
    campaign = campaigns.load_campaign(CAMPAIGNS_DIR / "kancolle-demo", gm_id=gm.id, clock=clock)
    runs = {s.slug: s.id for s in Scenario.select().where(Scenario.campaign == campaign.id)}
    members = []
    for i, ship in enumerate(FLEET):
        user = accounts.create_user(f"admiral{i}", "player-password", clock=clock)
        character = characters.create_character(campaign.id, user.id, campaign.pack["characters"][ship], clock=clock)
        for run in runs.values():
            scenarios.join_scenario(run, character.id, user_id=user.id, clock=clock)
        members.append((user.id, character.id))
    return gm.id, runs, members


def _play(gm: int, scenario: int, members, clock, rnd: Round | None = None) -> int:
    """One deadline: a round (`rnd`, else a new one) opened, every ship girl's entry as legal_actions offers it, the
    deadline passed and the scheduler's tick closing and resolving it."""
    rnd = rnd or rounds.create_round(scenario, clock.now() + timedelta(hours=1), actor_id=gm, clock=clock)
    rounds.open_round(rnd.id, actor_id=gm, clock=clock)
    encounter = rounds.round_encounter(rnd, rounds.round_context(rnd))
    for user, character in members:
        legal = KANCOLLE.legal_actions(encounter, unit_id(character))
        order = entry_for(legal)
        entries.save_entry(rnd.id, character, user_id=user, order=order, prose="「いきます！」", clock=clock)
    clock.advance(3601)
    report = schedule.tick(clock=clock)
    assert [o.status for o in report.rounds] == ["resolved"], report.rounds
    return rnd.id


def _publish_and_verify(gm: int, round_id: int, clock) -> None:
    publishing.publish_round(round_id, actor_id=gm, clock=clock)
    assert Round.get_by_id(round_id).state == "published"
    assert verify_bundle(publishing.round_bundle(round_id)) is None


def test_a_base_cycle_is_entered_resolved_by_the_tick_published_and_verified(fleet, clock) -> None:
    gm, runs, members = fleet
    rid = _play(gm, runs["chinjufu_day"], members, clock)
    events = Resolution.get(Resolution.round == rid).events
    assert [e["type"] for e in events][0] == "cycle_start"
    assert sum(e["type"] == "scene" for e in events) == len(members)
    assert Report.get(Report.round == rid).draft_md.strip()
    _publish_and_verify(gm, rid, clock)


def test_three_battle_rounds_and_the_after_battle_deadline_are_played_published_and_verified(fleet, clock) -> None:
    gm, runs, members = fleet
    seen: list[str] = []
    for _ in range(5):
        rid = _play(gm, runs["nansei_sortie"], members, clock)
        seen += [e["type"] for e in Resolution.get(Resolution.round == rid).events]
        _publish_and_verify(gm, rid, clock)
        state = Resolution.get(Resolution.round == rid).state
        if state["battle"]["settled"]:
            break
    assert "battle_start" in seen and "battle_end" in seen
    assert state["battle"]["outcome"] is not None


def test_a_gm_action_the_ruleset_refuses_is_a_clear_refusal(fleet, clock) -> None:
    gm, runs, members = fleet
    rnd = rounds.create_round(runs["nansei_sortie"], clock.now() + timedelta(hours=1), actor_id=gm, clock=clock)
    action = {"unit": unit_id(members[0][1]), "amount": 1}
    with pytest.raises(UserError, match="not in kancolle's contract v3"):
        shaping.record_action(rnd.id, "damage", action, reason="嵐", actor_id=gm, clock=clock)
    assert rounds.gm_actions_of(rnd.id) == []


def test_pbp_demo_loads_the_kancolle_demo_beside_the_pool_demo_and_its_cycle_verifies(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "instance"))
    done = pbp("demo", "--campaign", "kancolle-demo", "--deadline-in", "600", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "'kancolle-demo'" in done.stdout and "round 1: published" in done.stdout
    assert "round 2: open, deadline in 600 s, 4 entries" in done.stdout
    both = pbp("demo", cwd=tmp_path)
    assert both.returncode == 0 and "'demo'" in both.stdout, both.stderr
    assert pbp("verify", "1", cwd=tmp_path).stdout.startswith("OK")
    again = pbp("demo", "--campaign", "kancolle-demo", cwd=tmp_path)
    assert again.returncode != 0 and "already loaded" in again.stderr


def test_pbp_round_override_sets_a_kancolle_checks_result(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "instance"))
    assert pbp("demo", "--campaign", "kancolle-demo", "--deadline-in", "1", cwd=tmp_path).returncode == 0
    assert pbp("round", "resolve", "2", cwd=tmp_path).returncode == 0
    done = pbp("round", "override", "2", "r1-c1", "failure", "--reason", "波が高い", cwd=tmp_path)
    assert done.returncode == 0 and "r1-c1 now failure" in done.stdout, done.stderr
    wrong = pbp("round", "override", "2", "r1-c1", "3", "--reason", "x", cwd=tmp_path)
    assert (wrong.returncode, wrong.stderr) == (2, "pbp: 3 is not one of success, failure\n")


def test_a_kancolle_state_keeps_its_own_round_count_from_deadline_to_deadline() -> None:
    """A recon fleet's first formation is a deadline of its own (K-FORM-3 (3)): the engine leaves `round` at 1, and
    the next deadline must start there, not at the scenario's deadline number."""
    from pbp.engine.verify import continued

    split = {"ruleset": "kancolle", "mode": "battle", "round": 1, "units": []}
    assert continued(split, 2) == split
    assert continued({"ruleset": "pool", "round": 1}, 2) == {"ruleset": "pool", "round": 2}
    assert continued({"round": 1}, 3) == {"round": 3}  # a pool state may leave its ruleset out


def test_no_round_is_created_or_opened_for_a_battle_that_is_over(fleet, clock) -> None:
    """The after-battle deadline still comes once the battle ends; after it a deadline would resolve with no events,
    so the service refuses to create one or to open a draft made ahead, and says how the battle ended."""
    gm, runs, members = fleet
    sortie = runs["nansei_sortie"]
    for _ in range(5):
        rid = _play(gm, sortie, members, clock)
        if Resolution.get(Resolution.round == rid).state["battle"]["outcome"] is not None:
            break
    assert rounds.battle_over(sortie) is None  # ended, not yet settled: the after-battle deadline is to come
    after = rounds.create_round(sortie, clock.now() + timedelta(hours=1), actor_id=gm, clock=clock)
    ahead = rounds.create_round(sortie, clock.now() + timedelta(hours=2), actor_id=gm, clock=clock)
    _play(gm, sortie, members, clock, after)
    outcome = Resolution.get(Resolution.round == after.id).state["battle"]["outcome"]
    assert rounds.battle_over(sortie) == outcome
    assert rounds.battle_over(sortie, published=True) is None  # the players learn it when the GM publishes
    word = {"victory": "victory", "defeat": "defeat", "wipeout": "wipe-out", "draw": "draw"}[outcome]
    with pytest.raises(InvalidState, match=rf"battle is over \({word}\): no new round can be created"):
        rounds.create_round(sortie, clock.now() + timedelta(hours=1), actor_id=gm, clock=clock)
    with pytest.raises(InvalidState, match=rf"battle is over \({word}\): no new round can be opened"):
        rounds.open_round(ahead.id, actor_id=gm, clock=clock)
    assert Round.get_by_id(ahead.id).state == "draft"
    assert Round.select().where(Round.scenario == sortie).count() == after.number + 1
    publishing.publish_round(after.id, actor_id=gm, clock=clock)
    assert rounds.battle_over(sortie, published=True) == outcome
    rounds.create_round(runs["chinjufu_day"], clock.now() + timedelta(hours=1), actor_id=gm, clock=clock)  # goes on


def test_only_a_settled_kancolle_battle_is_over_and_a_pool_battle_never_is() -> None:
    """kancolle: over once the after-battle deadline has run, never in a base phase; pool: the GM may still add
    units or revive on the next round, so no state of it is over, not even one without a unit left."""
    battle = {"mode": "battle", "battle": {"outcome": "wipeout", "settled": False}}
    assert KANCOLLE.battle_over(battle) is None
    assert KANCOLLE.battle_over({**battle, "battle": {"outcome": "wipeout", "settled": True}}) == "wipeout"
    assert KANCOLLE.battle_over({"mode": "base", "battle": {"outcome": "victory", "settled": True}}) is None
    assert find_ruleset("pool").battle_over({"ruleset": "pool", "round": 9, "units": []}) is None
