"""The entry form's fields <-> orders: every order the form can express survives the round trip, and a choice
missing what it needs is an error on that field."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbp.engine.pool.legal import LegalActions
from pbp.web.player.orders import POINT, FormData, field_of, form_of, order_of

UNITS = st.sampled_from(["pc1", "kagachi1", "hayachi1"])
WEAPONS = st.sampled_from(["beam_rifle", "hf_knife", "pistol"])
ITEMS = st.one_of(st.none(), st.sampled_from(["medkit", "scope"]))
POINTS = st.lists(st.integers(-5000, 5000), min_size=2, max_size=2)
TOWARD = st.one_of(UNITS, POINTS)

MINORS = st.one_of(
    st.none(),
    st.builds(lambda t: {"type": "move", "toward": t}, TOWARD),
    st.builds(lambda w: {"type": "reload", "weapon": w}, WEAPONS),
    st.builds(lambda a, b: {"type": "swap", "weapon": a, "with": b}, WEAPONS, WEAPONS),
    st.builds(lambda a: {"type": "ability", "id": a, "target": None}, st.sampled_from(["focus", "boost"])),
)
MAJORS = st.one_of(
    st.none(),
    st.builds(
        lambda w, ts, i: {"type": "attack", "weapon": w, "targets": ts, "item": i},
        WEAPONS,
        st.lists(UNITS, min_size=1, max_size=3, unique=True),
        ITEMS,
    ),
    st.builds(lambda t: {"type": "full_move", "toward": t}, TOWARD),
    st.builds(lambda t: {"type": "leave", "toward": t}, st.one_of(st.none(), TOWARD)),
    st.builds(lambda w: {"type": "reload", "weapon": w}, WEAPONS),
    st.builds(lambda i: {"type": "recover", "status": "system_down", "item": i}, ITEMS),
    st.builds(lambda c, i: {"type": "check", "label": c, "item": i}, st.sampled_from(["scout", "repair"]), ITEMS),
    st.builds(
        lambda a, t: {"type": "ability", "id": a, "target": t}, st.sampled_from(["cover"]), st.one_of(st.none(), UNITS)
    ),
)


@st.composite
def orders(draw: st.DrawFn) -> dict:
    order = {"minor": draw(MINORS), "major": draw(MAJORS)}
    for key, values in (("damage_to", ["injury", "damage"]), ("evade_item", ["charm"])):
        if draw(st.booleans()):
            order[key] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        order["setup"] = [draw(st.sampled_from(["focus", "war_cry"]))]
    return order


@given(orders())
def test_every_order_the_form_can_express_survives_the_round_trip(order: dict) -> None:
    parsed = order_of(form_of(order))
    assert parsed.errors == {}
    assert parsed.order == order


def test_an_empty_form_is_an_order_to_do_nothing() -> None:
    parsed = order_of(FormData({}))
    assert parsed.order == {"minor": None, "major": None} and parsed.errors == {}


def test_a_choice_missing_its_fields_is_an_error_on_each_field() -> None:
    parsed = order_of(FormData({"minor": ["move"], "major": ["attack"]}))
    assert set(parsed.errors) == {"minor_toward", "weapon", "targets"}
    parsed = order_of(FormData({"major": ["full_move"], "full_move_toward": [POINT], "full_move_x": ["ten"],
                                "full_move_y": ["999999"]}))  # fmt: skip
    assert set(parsed.errors) == {"full_move_x", "full_move_y"}


def test_a_choice_the_form_does_not_offer_is_an_error() -> None:
    parsed = order_of(FormData({"major": ["teleport"], "minor": ["dance"]}))
    assert set(parsed.errors) == {"major", "minor"}


def test_only_the_chosen_actions_fields_are_read() -> None:
    form = FormData({"major": ["reload"], "major_weapon": ["pistol"], "weapon": ["beam_rifle"], "targets": ["x"]})
    assert order_of(form).order["major"] == {"type": "reload", "weapon": "pistol"}


# ---- where a refused order's problem is shown -------------------------------------------------------------------

ALL_OFFERED = LegalActions(
    unit="pc1",
    minor=("move", "reload", "swap", "ability"),
    major=("attack", "full_move", "leave", "reload", "recover", "check", "ability"),
    items=("medkit",),
    evade_items=("scope",),
    damage_to=("vehicle", "injury"),
    setup=("focus",),
)
ORDERS = {
    "attack": {"major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"], "item": "medkit"}},
    "reload": {"minor": {"type": "reload", "weapon": "pistol"}, "major": {"type": "reload", "weapon": "pistol"}},
    "swap": {"minor": {"type": "swap", "weapon": "beam_rifle", "with": "hf_knife"}},
    "move": {"minor": {"type": "move", "toward": [1, 2]}, "major": {"type": "full_move", "toward": "kagachi1"}},
    "check": {"major": {"type": "check", "label": "scout", "item": "medkit"}},
    "ability": {"minor": {"type": "ability", "id": "focus", "target": None},
                "major": {"type": "ability", "id": "boost", "target": "pc2"}},
}  # fmt: skip


@pytest.mark.parametrize(
    ("order", "path", "field"),
    [
        ("attack", "major.targets[1]", "targets"),
        ("attack", "major.weapon", "weapon"),
        ("attack", "major.item", "attack_item"),
        ("attack", "major.type", "major"),
        ("attack", "major", "major"),
        ("reload", "major.weapon", "major_weapon"),
        ("reload", "minor.weapon", "minor_weapon"),
        ("swap", "minor.with", "minor_swap"),
        ("move", "minor.toward[0]", "minor_toward"),
        ("move", "major.toward", "full_move_toward"),
        ("check", "major.label", "check"),
        ("check", "major.item", "check_item"),
        ("ability", "minor.id", "minor_ability"),
        ("ability", "major.target", "major_ability"),
        ("attack", "damage_to", "damage_to"),
        ("attack", "evade_item", "evade_item"),
        ("attack", "setup[0]", "setup"),
        ("attack", "", "order"),  # the unit's whole order (out of the battle)
        ("attack", "unit", "order"),
        ("attack", "minor.weapon", "order"),  # no minor action in the order
    ],
)
def test_a_refused_orders_problem_goes_beside_the_field_it_is_about(order: str, path: str, field: str) -> None:
    assert field_of(path, ORDERS[order], ALL_OFFERED) == field


def test_a_problem_whose_field_is_not_on_the_form_goes_where_the_player_sees_it() -> None:
    """An action no longer offered has no fields on the form (its problem goes beside the slot's choices); a part
    the form does not show (no items, one gauge to take damage in, no setup) goes above the order's fields."""
    bare = LegalActions(unit="pc1", minor=(), major=("full_move",), damage_to=("injury",))
    assert field_of("major.weapon", ORDERS["attack"], bare) == "major"
    assert field_of("minor.weapon", ORDERS["reload"], bare) == "minor"
    no_items = LegalActions(unit="pc1", minor=(), major=("check",))
    assert field_of("major.item", ORDERS["check"], no_items) == "order"
    for path in ("damage_to", "evade_item", "setup[0]"):
        assert field_of(path, ORDERS["attack"], bare) == "order"
