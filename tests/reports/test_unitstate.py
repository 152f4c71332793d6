"""The review's units table (pbp.reports.unitstate): every unit before and after a round, what changed."""

from __future__ import annotations

from pbp.reports.unitstate import Gauge, unit_table


def _unit(uid: str, *, taken: int = 0, ammo: int = 3, at: tuple[int, int] = (0, 0), **extra: object) -> dict:
    return {
        "id": uid,
        "side": "pc" if uid.startswith("pc") else "enemy",
        "injury": {"capacity": [5, 5, 5, 5, 1], "taken": [taken, 0, 0, 0, 0]},
        "vehicle": {
            "damage": {"capacity": [10, 10], "taken": [0, 0]},
            "weapons": [{"id": "gun", "ammo": ammo, "ammo_max": 3}],
        },
        "weapons": [{"id": "knife", "ammo": None}],
        "statuses": [],
        "position": list(at),
        **extra,
    }


def test_each_unit_before_and_after_with_the_columns_that_changed() -> None:
    before = {"units": [_unit("pc1"), _unit("kagachi1", at=(500, 0))]}
    after = {
        "units": [
            _unit("pc1", ammo=2, at=(10, 0)),
            _unit("kagachi1", taken=4, at=(500, 0), statuses=[{"id": "stun", "rounds_left": 1}]),
            _unit("kagachi2", at=(900, 0)),  # came during the round (a reinforcement)
        ]
    }
    rows = {row.unit: row for row in unit_table(before, after)}
    assert list(rows) == ["pc1", "kagachi1", "kagachi2"]
    assert rows["pc1"].changed == {"ammo", "position"}
    assert rows["pc1"].after.ammo == (("gun", 2, 3),)  # only weapons with ammunition
    assert rows["kagachi1"].changed == {"injury", "statuses"}
    assert (
        rows["kagachi1"].after.injury == Gauge(4, 21, (4, 0, 0, 0, 0)) and str(rows["kagachi1"].after.injury) == "4/21"
    )
    assert rows["kagachi1"].after.statuses == (("stun", 1),)
    assert rows["kagachi2"].before is None and rows["kagachi2"].side == "enemy"


def test_a_unit_on_foot_has_no_vehicle_gauge() -> None:
    on_foot = {**_unit("pc1"), "vehicle": None}
    (row,) = unit_table({"units": [on_foot]}, {"units": [on_foot]})
    assert row.before.damage is None and row.changed == frozenset()
