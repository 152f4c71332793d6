"""The encounter schema's checks of a unit, a gauge, a weapon, a status, an engagement and the encounter's own keys
say their problems by marked templates (`N_`): a page (the GM's pack upgrade trial of a running scenario's state)
says them in its language, while the command line prints the same English as before they became templates (each
line below is what the engine printed then)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pool_builders import SKILL_STATS, attack, blade, encounter, enemy, gauge, order, pc, rifle, run, vehicle

from pbp.engine.pool import schema

FULL = [10, 10, 10, 10, 1]


def _riding(*weapons: object) -> dict:
    return vehicle(weapons=list(weapons))


#: (the encounter, the English lines of its problems).
CASES: list[tuple[Callable[[], dict], list[str]]] = [
    (lambda: encounter(pc("aoi"), pc("aoi", position=[0, 10])), ["units[1].id: unit id 'aoi' is used twice"]),
    (lambda: encounter(pc(vehicle=_riding(rifle(), rifle()))),
     ["units[0].vehicle.weapons[1].id: weapon id 'rifle' is used twice"]),
    (lambda: encounter(pc(injury=5)), ["units[0].injury: must be an object, got int"]),
    (lambda: encounter(pc(injury={"capacity": [1, 2], "taken": [0, 0]})),
     ["units[0].injury.capacity: must list 5 stages (R-GAUGE-1), got [1, 2]"]),
    (lambda: encounter(pc(injury=gauge(FULL, [11, 0, 0, 0, 0]))),
     ["units[0].injury.taken[0]: 11 is more than the stage's capacity 10"]),
    (lambda: encounter(pc(injury=gauge(FULL, [5, 3, 0, 0, 0]))),
     ["units[0].injury.taken[1]: holds damage while an earlier stage is not full (stages fill in order)"]),
    (lambda: encounter(pc(vehicle=_riding(5))), ["units[0].vehicle.weapons[0]: must be an object, got int"]),
    (lambda: encounter(pc(vehicle=_riding(rifle(skill="狙撃")))),
     ["units[0].vehicle.weapons[0].skill: skill '狙撃' has no parent stat (add it to skill_stats or the pack)"]),
    (lambda: encounter(pc(vehicle=_riding({**rifle(), "ammo_max": None}))),
     ["units[0].vehicle.weapons[0].ammo: ammo and ammo_max must both be null (no ammunition) or both be numbers"]),
    (lambda: encounter(pc(vehicle=_riding(rifle(rng=(10, 5))))),
     ["units[0].vehicle.weapons[0].range: must be [min, max] metres with 0 <= min <= max, got [10, 5]"]),
    (lambda: encounter(pc(skill_stats_update={"射撃": "魔力"})),
     ["units[0].skill_stats.射撃: parent stat '魔力' is not among the unit's stats"]),
    (lambda: encounter(pc(skills_update={"狙撃": 2})),
     ["units[0].skills.狙撃: skill '狙撃' has no parent stat (skill_stats or the pack)"]),
    (lambda: encounter(pc(skill_stats={}, stats={"肉体": 3, "理知": 2, "文化": 2})),
     ["units[0].stats: has no '感覚', the parent stat of skill '射撃'"]),
    (lambda: encounter(pc(injury=gauge(FULL, FULL))),
     ["units[0].injury.taken: 死亡 is checked (the gauge is full) but the unit is not removed (R-GAUGE-2/7)"]),
    (lambda: encounter(pc(dead=True, removed=False)),
     ["units[0].removed: a dead unit is removed (R-GAUGE-7): it cannot stay in the battle"]),
    (lambda: encounter(pc(statuses=["stun"])),
     ["units[0].statuses[0]: must be an object with a status id, got 'stun'"]),
    (lambda: encounter(pc(statuses=[{"id": "stun"}, {"id": "stun"}])),
     ["units[0].statuses[1]: status 'stun' is listed twice (statuses do not stack, R-FIX-6)"]),
    (lambda: encounter(pc(statuses=[{"id": "stun", "turns": 2}])),
     ["units[0].statuses[0].turns: unknown status field (known: id, rounds_left, elapsed, fires_at_round)"]),
    (lambda: encounter(pc(modifiers=[{"kind": "dice", "value": 1, "rounds_left": 1, "source": "x"}])),
     ["units[0].modifiers[0].skills: is required: a list of skills or null (every skill)"]),
    (lambda: encounter(pc(vehicle_update={"movement": "air"}, engagement="e1")),
     ["units[0].engagement: a flying unit cannot be in an engagement ('e1', R-ENG-2)"]),
    (lambda: encounter(*[enemy(f"oni{i}", engagement="e1") for i in range(11)]),
     ["units[10].engagement: 'e1' already holds 10 units (R-ENG-3)"]),
    (lambda: encounter(pc(engagement="e1", position=[500, 0]), enemy(engagement="e1", position=[530, 40])),
     ["units[1].engagement: 'e1' but 50 m from 'aoi' (R-ENG-1)"]),
    (lambda: encounter(pc(engagement="e1", position=[500, 0]), enemy(engagement="e1", position=[510, 5])),
     ["units[1].engagement: 'e1' but 11 m from 'aoi' (R-ENG-1)"]),
    (lambda: encounter(pc(), ruleset="dice"), ["ruleset: 'dice' is not this ruleset ('pool')"]),
    (lambda: encounter(pc(), options={"fog_of_war": True}),
     ["options.fog_of_war: unknown option (known: clamp_successes, destroyed_kills_pilot)"]),
    (lambda: encounter(pc(injury=gauge(FULL, [11, 3, 0, 0, 0]), statuses=[{"id": "stun", "zz": 1, "aa": 2}],
                          vehicle=_riding(blade(skill="x"), blade()))),
     ["units[0].injury.taken[0]: 11 is more than the stage's capacity 10",
      "units[0].vehicle.weapons[0].skill: skill 'x' has no parent stat (add it to skill_stats or the pack)",
      "units[0].vehicle.weapons[1].id: weapon id 'blade' is used twice",
      "units[0].statuses[0].aa: unknown status field (known: id, rounds_left, elapsed, fires_at_round)",
      "units[0].statuses[0].zz: unknown status field (known: id, rounds_left, elapsed, fires_at_round)"]),
]  # fmt: skip


@pytest.mark.rule("R-GAUGE-1")
@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.rule("R-FIX-6")
@pytest.mark.rule("R-ENG-1")
@pytest.mark.rule("R-ENG-2")
@pytest.mark.rule("R-ENG-3")
@pytest.mark.parametrize(("build", "lines"), CASES, ids=[lines[0] for _, lines in CASES])
def test_each_schema_problem_is_said_by_a_template_and_the_cli_line_is_unchanged(
    build: Callable[[], dict], lines: list[str]
) -> None:
    problems = schema.validate_encounter(build(), SKILL_STATS)
    assert [str(p) for p in problems] == lines
    assert all(p.template is not None and p.template % dict(p.params) == p.message for p in problems)


def test_a_unit_with_two_orders_is_said_by_a_template() -> None:
    (problem,) = schema.validate_orders({"orders": [order("aoi"), order("aoi")]}, encounter(pc(), enemy()))
    assert str(problem) == "orders[1].unit: unit 'aoi' has two orders"
    assert problem.template is not None and problem.template % dict(problem.params) == problem.message


def test_an_unknown_ruleset_is_said_by_a_template_with_its_file() -> None:
    from pbp.engine import BadInput
    from pbp.engine.ruleset import ruleset_named

    with pytest.raises(BadInput) as refused:
        ruleset_named("chess", file="campaign.toml")
    (problem,) = refused.value.problems
    assert str(problem) == "campaign.toml: ruleset: unknown ruleset 'chess' (known: kancolle, pool)"
    assert problem.template is not None and problem.template % dict(problem.params) == problem.message


def test_a_pool_beyond_any_game_is_said_by_a_template() -> None:
    from pbp.engine import BadInput
    from pbp.engine.checks import MAX_POOL

    shooter = pc(stats={"肉体": 3, "感覚": 10**9, "理知": 2, "文化": 2})
    with pytest.raises(BadInput) as refused:
        run(encounter(shooter, enemy(position=[300, 0])), [order("aoi", major=attack("rifle", "oni1"))], seed="x")
    (problem,) = refused.value.problems
    assert str(problem) == f"r1-c1: a pool of {10**9} dice is beyond any game (at most {MAX_POOL})"
    assert problem.template is not None and problem.template % dict(problem.params) == problem.message
