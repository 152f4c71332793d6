"""`pbp verify` on the command line reproduces a round the GM shaped (issue 10's done-when): GM enemy orders, a
reinforcement, a revive and an override, from the database and from an exported bundle; a tampered action fails."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from pbp.models import Character, Resolution, Round, User
from pbp.services import publishing, rounds, shaping
from pbp.services.clock import SYSTEM, FixedClock
from tests.lifecycle.test_cli import pbp


def _shape_and_play(gm: int, clock: FixedClock) -> int:
    """Round 2 (the demo's open round): the GM kills pc2 (a set gauge); round 3: pc2 revived, a reinforcement, the
    GM's order for kagachi1, resolved, one check overridden, published. Returns round 3's id."""
    second = Round.get(Round.state == "open")
    shaping.record_action(
        second.id, "set_gauge", {"unit": "pc2", "gauge": "injury", "taken": [10, 10, 10, 10, 1]},
        reason="caught in the flood", actor_id=gm, clock=clock,
    )  # fmt: skip
    clock.advance(3600)
    assert rounds.resolve_round(second.id, clock=clock).status == "resolved"
    publishing.publish_round(second.id, actor_id=gm, clock=clock)
    assert not Character.get_by_id(2).alive
    third = rounds.create_round(second.scenario_id, clock.now() + timedelta(hours=1), actor_id=gm, clock=clock).id
    rounds.open_round(third, actor_id=gm, clock=clock)
    shaping.record_action(third, "revive", {"unit": "pc2"}, reason="the medics", actor_id=gm, clock=clock)
    shaping.record_action(
        third, "add_unit", {"enemy": "kagachi", "id": "kagachi9", "position": [300, 20]}, reason="the swarm grows",
        actor_id=gm, clock=clock,
    )  # fmt: skip
    move = {"minor": None, "major": {"type": "full_move", "toward": [500, 0]}}
    shaping.save_enemy_order(third, "kagachi1", move, actor_id=gm, clock=clock)
    clock.advance(7200)
    assert rounds.resolve_round(third, clock=clock).status == "resolved"
    events = Resolution.get(Resolution.round == third).events
    check = next(e["attack_check"] for e in events if e["type"] == "attack" and e.get("attack_check"))
    rounds.override_check(third, check, 0, reason="the river floods the sights", actor_id=gm, clock=clock)
    publishing.publish_round(third, actor_id=gm, clock=clock)
    assert Character.get_by_id(2).alive
    return third


def test_pbp_verify_reproduces_a_shaped_and_overridden_round(instance: Path, tmp_path: Path) -> None:
    from pbp.cli.db import open_db

    with open_db():
        gm = User.get(User.name == "gm").id
        third = _shape_and_play(gm, FixedClock(SYSTEM.now()))
    ok = pbp("verify", str(third))
    assert (ok.returncode, ok.stdout) == (0, "OK\n"), ok.stderr
    exported = pbp("export-round", str(third), check=True).stdout
    bundle = json.loads(exported)
    assert [a["kind"] for a in bundle["gm_actions"]] == ["revive", "add_unit"]
    assert bundle["overrides"][0]["reason"] == "the river floods the sights"
    path = tmp_path / "bundle.json"
    path.write_text(exported, encoding="utf-8")
    assert pbp("verify", "--bundle", str(path)).stdout == "OK\n"

    bundle["gm_actions"][1]["unit"]["position"] = [310, 20]  # the reinforcement arrived elsewhere
    path.write_text(json.dumps(bundle), encoding="utf-8")
    bad = pbp("verify", "--bundle", str(path))
    assert bad.returncode == 1 and bad.stdout.startswith("DIFFERENT: encounter.units[")


@pytest.mark.parametrize("kind", ["revive", "add_unit"])
def test_pbp_verify_fails_when_a_stored_action_is_tampered_with(instance: Path, kind: str) -> None:
    from pbp.cli.db import open_db

    with open_db():
        gm = User.get(User.name == "gm").id
        third = _shape_and_play(gm, FixedClock(SYSTEM.now()))
        res = Resolution.get(Resolution.round == third)
        actions = [a for a in res.gm_actions if a["kind"] != kind]
        Resolution.update(gm_actions=actions).where(Resolution.id == res.id).execute()
    bad = pbp("verify", str(third))
    assert bad.returncode == 1 and bad.stdout.startswith("DIFFERENT: ")
