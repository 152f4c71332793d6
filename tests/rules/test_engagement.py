"""Section 2.2: engagement (R-ENG-1..5), R-FIX-7's `engaged` refusal, R-FIX-8 moving on foot."""

from __future__ import annotations

from pool_builders import attack, encounter, enemy, move, on_foot, order, pc, rifle, run, vehicle


def test_r_eng_1_contact_forms_an_engagement() -> None:
    r = run(encounter(pc(), enemy(position=[80, 0])), [order("aoi", minor=move("oni1"))], [])
    assert r.unit("aoi")["position"] == [80, 0]  # a move that reaches a unit ends on its position
    assert r.unit("aoi")["engagement"] == "e1"
    assert r.unit("oni1")["engagement"] == "e1"
    assert r.ev("engage", unit="aoi", engagement="e1")


def test_r_eng_1_new_engagement_takes_first_unused_name() -> None:
    units = [
        pc(),
        enemy(position=[80, 0]),
        pc("bob", position=[1000, 1000], engagement="e1"),
        enemy("oni2", position=[1000, 1000], engagement="e1"),
    ]
    r = run(encounter(*units), [order("aoi", minor=move("oni1"))], [])
    assert r.unit("aoi")["engagement"] == "e2"
    assert r.unit("oni1")["engagement"] == "e2"
    assert r.unit("bob")["engagement"] == "e1"


def test_r_eng_1_move_short_of_contact_engages_nothing() -> None:
    r = run(encounter(pc(), enemy(position=[150, 0])), [order("aoi", minor=move("oni1"))], [])
    assert r.unit("aoi")["position"] == [100, 0]
    assert r.unit("aoi")["engagement"] is None
    assert r.ev("engage") == []


def test_r_eng_2_air_unit_does_not_engage() -> None:
    jet = vehicle("f1", kind="fighter", movement="air", weapons=[rifle()])
    r = run(encounter(pc(vehicle=jet), enemy(position=[80, 0])), [order("aoi", minor=move("oni1"))], [])
    assert r.unit("aoi")["position"] == [80, 0]
    assert r.unit("aoi")["engagement"] is None
    assert r.unit("oni1")["engagement"] is None
    assert r.ev("engage") == []


def test_r_eng_2_ground_unit_moving_onto_air_unit_does_not_engage() -> None:
    jet = vehicle("f1", kind="fighter", movement="air", weapons=[rifle()])
    r = run(encounter(pc(vehicle=jet), enemy(position=[80, 0])), [order("oni1", minor=move("aoi"))], [])
    assert r.unit("oni1")["position"] == [0, 0]
    assert r.unit("oni1")["engagement"] is None and r.unit("aoi")["engagement"] is None
    assert r.ev("engage") == []


def test_r_eng_3_eleventh_unit_forms_a_new_engagement() -> None:
    crowd = [pc(f"p{i}", engagement="e1") for i in range(5)] + [
        enemy(f"o{i}", position=[0, 0], engagement="e1") for i in range(5)
    ]
    late = enemy("o9", position=[50, 0])
    r = run(encounter(*crowd, late), [order("o9", minor=move("p0"))], [])
    assert r.unit("o9")["position"] == [0, 0]
    assert r.unit("o9")["engagement"] not in (None, "e1")
    assert r.unit("o9")["engagement"] == "e2"
    assert sum(1 for u in r.state["units"] if u["engagement"] == "e1") == 10


def test_r_eng_3_ten_fit_in_one_engagement() -> None:
    crowd = [pc(f"p{i}", engagement="e1") for i in range(5)] + [
        enemy(f"o{i}", position=[0, 0], engagement="e1") for i in range(4)
    ]
    late = enemy("o9", position=[50, 0])
    r = run(encounter(*crowd, late), [order("o9", minor=move("p0"))], [])
    assert r.unit("o9")["engagement"] == "e1"


def engaged_pair() -> list[dict]:
    return [pc(engagement="e1"), enemy(position=[0, 0], engagement="e1")]


def test_r_eng_4_engaged_unit_cannot_move() -> None:
    r = run(encounter(*engaged_pair()), [order("aoi", minor=move([500, 0]))], [])
    assert r.one("refused", unit="aoi")["reason"] == "engaged"
    assert r.unit("aoi")["position"] == [0, 0] and r.unit("aoi")["engagement"] == "e1"


def test_r_eng_4_leave_moves_up_to_combat_move() -> None:
    r = run(encounter(*engaged_pair()), [order("aoi", major={"type": "leave", "toward": [500, 0]})], [])
    assert r.ev("disengage", unit="aoi", engagement="e1")
    assert r.unit("aoi")["engagement"] is None
    assert r.unit("aoi")["position"] == [100, 0]  # x1 move, not x3
    assert r.one("move", unit="aoi")["kind"] == "leave"


def test_r_eng_4_leave_when_not_engaged_is_refused() -> None:
    r = run(encounter(pc(), enemy()), [order("aoi", major={"type": "leave", "toward": [0, 500]})], [])
    assert r.one("refused", unit="aoi")["reason"] == "not_engaged"
    assert r.unit("aoi")["position"] == [0, 0]


def test_r_fix_7_engaged_unit_cannot_full_move() -> None:
    r = run(encounter(*engaged_pair()), [order("aoi", major=move([500, 0], "full_move"))], [])
    assert r.one("refused", unit="aoi")["reason"] == "engaged"
    assert r.unit("aoi")["position"] == [0, 0]


def test_r_fix_7_engaged_with_a_dead_enemy_only_may_move() -> None:
    units = [pc(engagement="e1"), enemy(position=[0, 0], engagement="e1", dead=True, removed=True)]
    r = run(encounter(*units), [order("aoi", minor=move([0, 50]))], [])
    assert r.ev("refused", unit="aoi") == []
    assert r.unit("aoi")["position"] == [0, 50]


def test_r_eng_5_distance_is_euclidean_rounded() -> None:
    def attack_at(pos: list[int]):
        e = enemy(position=pos)
        u = pc(vehicle_update={"weapons": [rifle(rng=(0, 500))]})
        return run(encounter(u, e), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)

    assert attack_at([300, 400]).ev("attack")  # exactly 500
    assert attack_at([20, 500]).ev("attack")  # 500.40 -> 500
    far = attack_at([30, 500])  # 500.90 -> 501
    assert far.one("refused", unit="aoi")["reason"] == "out_of_range"
    assert far.ev("attack") == [] and far.dice_used == 0


def test_r_eng_5_minimum_range() -> None:
    u = pc(vehicle_update={"weapons": [rifle(rng=(100, 1000))]})
    r = run(encounter(u, enemy(position=[50, 0])), [order("aoi", major=attack("rifle", "oni1"))], [6] * 6)
    assert r.one("refused", unit="aoi")["reason"] == "out_of_range"


def test_r_eng_5_melee_only_in_own_engagement() -> None:
    r = run(encounter(pc(), enemy(position=[80, 0])), [order("aoi", major=attack("blade", "oni1"))], [6] * 5)
    assert r.one("refused", unit="aoi")["reason"] == "out_of_range"
    # at distance 0 but in another engagement: still out of reach
    units = [pc(engagement="e1"), enemy(position=[0, 0], engagement="e2"), pc("bob", engagement="e2")]
    r = run(encounter(*units), [order("aoi", major=attack("blade", "oni1"))], [6] * 5)
    assert r.one("refused", unit="aoi")["reason"] == "out_of_range"
    r = run(encounter(*engaged_pair()), [order("aoi", major=attack("blade", "oni1"))], [6] * 5)
    assert r.one("attack", attacker="aoi")["weapon"] == "blade"


def test_r_eng_5_moving_to_an_engaged_unit_joins_its_engagement() -> None:
    units = [pc(), enemy(position=[80, 0], engagement="e1"), pc("bob", position=[80, 0], engagement="e1")]
    r = run(encounter(*units), [order("aoi", minor=move("oni1"))], [])
    assert r.unit("aoi")["engagement"] == "e1"
    assert r.ev("engage", unit="aoi", engagement="e1")


def test_r_eng_5_moving_to_a_point_at_a_unit_joins_too() -> None:
    r = run(encounter(pc(), enemy(position=[60, 80])), [order("aoi", minor=move([60, 80]))], [])
    assert r.unit("aoi")["engagement"] == r.unit("oni1")["engagement"] == "e1"


def test_r_fix_8_on_foot_moves_by_own_move() -> None:
    u = on_foot(pc(), move=10)
    r = run(encounter(u, enemy()), [order("aoi", minor=move([100, 0]))], [])
    assert r.unit("aoi")["position"] == [10, 0]
    r = run(encounter(u, enemy()), [order("aoi", major=move([100, 0], "full_move"))], [])
    assert r.unit("aoi")["position"] == [30, 0]


def test_r_eng_3_dead_members_do_not_count_toward_the_cap() -> None:
    crowd = [pc(f"p{i}", engagement="e1") for i in range(5)] + [
        enemy(f"o{i}", position=[0, 0], engagement="e1") for i in range(5)
    ]
    crowd[-1].update(dead=True, removed=True)
    late = enemy("o9", position=[50, 0])
    r = run(encounter(*crowd, late), [order("o9", minor=move("p0"))], [])
    assert r.unit("o9")["engagement"] == "e1"  # nine living characters plus o9


# Encounter states the engagement rules forbid: validate_encounter should name them (bad input, exit 2).


def _problems(enc: dict) -> list:
    from pbp.engine import find_ruleset

    return find_ruleset("pool").validate_encounter(enc)


def test_r_eng_1_validation_accepts_a_consistent_engagement() -> None:
    assert _problems(encounter(pc(engagement="e1"), enemy(position=[0, 0], engagement="e1"))) == []


def test_r_eng_1_engaged_units_must_stand_together() -> None:
    problems = _problems(encounter(pc(engagement="e1"), enemy(position=[500, 0], engagement="e1")))
    assert any("engagement" in p.path for p in problems)


def test_r_eng_2_air_unit_in_an_engagement_is_bad_input() -> None:
    jet = vehicle("f1", kind="fighter", movement="air", weapons=[rifle()])
    problems = _problems(encounter(pc(vehicle=jet, engagement="e1"), enemy(position=[0, 0], engagement="e1")))
    assert any("engagement" in p.path for p in problems)


def test_r_eng_3_eleven_in_one_engagement_is_bad_input() -> None:
    crowd = [pc(f"p{i}", engagement="e1") for i in range(6)] + [
        enemy(f"o{i}", position=[0, 0], engagement="e1") for i in range(5)
    ]
    assert _problems(encounter(*crowd))
