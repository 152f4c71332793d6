"""The entry form's fields <-> orders: every order the form can express survives the round trip, and a choice
missing what it needs is an error on that field."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbp.web.player.orders import POINT, FormData, form_of, order_of

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
