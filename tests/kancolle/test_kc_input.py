"""Bad input (C-20): sheets, encounters, orders and overrides are refused with their file and path, before any die;
and no mutation of a valid input ever ends in anything but a result or BadInput."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kc_builders import GRID, encounter, enemy, pc, piece, run

from pbp.engine import SeededDice
from pbp.engine.errors import BadInput
from pbp.engine.kancolle import KANCOLLE
from pbp.engine.kancolle.grid import BUILTIN_GRID

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "kancolle-vectors"


def bad_paths(enc: dict[str, Any], orders: list[dict[str, Any]] | None = None) -> list[tuple[str | None, str]]:
    with pytest.raises(BadInput) as bad:
        run(enc, orders)
    return [(p.file, p.path) for p in bad.value.problems]


@pytest.mark.rule("K-SHEET-5")
def test_k_sheet_5_the_grid_is_six_categories_of_rows_2_to_12_each_cell_named_once() -> None:
    assert all(1 <= c <= 6 and 2 <= r <= 12 for c, r in BUILTIN_GRID.values())
    assert KANCOLLE.validate_pack({"grid": GRID}) == []
    twice = KANCOLLE.validate_pack({"grid": {**GRID, "砲撃2": [6, 7]}})
    assert [p.path for p in twice] == ["grid.砲撃2"]
    assert bad_paths(encounter([pc("a"), enemy("e")], grid={**GRID, "外": [7, 2]})) == [("encounter", "grid.外")]


@pytest.mark.rule("K-SHEET-7")
def test_k_sheet_7_a_trait_is_a_merit_or_a_weakness_of_the_grid() -> None:
    odd = pc("a", traits=[{"name": "砲撃", "kind": "○"}])
    assert bad_paths(encounter([odd, enemy("e")])) == [("encounter", "units[0].traits[0].kind")]
    none = pc("a", traits=[])
    assert bad_paths(encounter([none, enemy("e")])) == [("encounter", "units[0].traits")]


@pytest.mark.rule("K-SHEET-8")
def test_k_sheet_8_emotion_is_0_to_5_with_a_clear_or_checked_box() -> None:
    hot = pc("a", emotions={"b": {"value": 6, "attribute": None, "box": "clear"}})
    assert bad_paths(encounter([hot, enemy("e")])) == [("encounter", "units[0].emotions.b.value")]
    boxed = pc("a", emotions={"b": {"value": 2, "attribute": None, "box": "×"}})
    assert bad_paths(encounter([boxed, enemy("e")])) == [("encounter", "units[0].emotions.b.box")]


@pytest.mark.rule("K-SHEET-9")
def test_k_sheet_9_at_most_two_items_and_at_most_soubiryoku_pieces() -> None:
    laden = pc("a", items=["a", "b", "c"])
    assert bad_paths(encounter([laden, enemy("e")])) == [("encounter", "units[0].items")]
    armed = pc("a", equipment=[piece(f"g{i}") for i in range(4)])
    assert bad_paths(encounter([armed, enemy("e")])) == [("encounter", "units[0].equipment")]


def _valid_inputs() -> list[tuple[dict[str, Any], dict[str, Any], list[Any]]]:
    """Every resolve vector's encounter, orders and overrides (skipped without ../shared), and a built battle."""
    found = []
    for path in sorted(VECTORS.glob("*.json")):
        v = json.loads(path.read_text(encoding="utf-8"))
        if "encounter" in v and "error" not in v["expect"]:
            ov = v.get("overrides", {})
            found.append((v["encounter"], v.get("orders", {"orders": []}), ov.get("overrides", []) if ov else []))
    gun = piece("g", firepower=2)
    built = encounter([pc("a", equipment=[gun]), enemy("e", equipment=[gun])], rnd=2)
    return [*found, (built, {"orders": [{"unit": "a", "shelling": {"targets": ["e"]}}]}, [])]


VALID = _valid_inputs()
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 8), st.sampled_from([10**12, -(10**12), 1.5, "", "x", "砲撃", "-"]),
    st.just([]), st.just({}), st.just([None]), st.just({"x": None}),
)  # fmt: skip


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*here, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> tuple[dict[str, Any], Any, Any]:
    """A valid input with one to three of its values replaced by junk or deleted (paths drawn afresh each time)."""
    enc, orders, overrides = copy.deepcopy(draw(st.sampled_from(VALID)))
    doc = {"encounter": enc, "orders": orders, "overrides": overrides}
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)[1:]))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, (dict, list)) and draw(st.booleans()):
            del parent[path[-1]]  # a field or a list item (a unit, a piece, an order) gone
        else:
            parent[path[-1]] = copy.deepcopy(draw(JUNK))
    return doc.get("encounter"), doc.get("orders"), doc.get("overrides")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_input_gives_a_result_or_bad_input_never_a_traceback(doc: tuple[Any, Any, Any]) -> None:
    enc, orders, overrides = doc
    try:
        KANCOLLE.resolve(enc, orders, SeededDice("fuzz"), rounds=2, overrides=overrides)
    except BadInput as e:
        assert e.problems and all(p.file in ("encounter", "orders", "overrides", None) for p in e.problems)


@pytest.mark.parametrize("index", range(0, len(VALID), 4))
def test_resolve_never_mutates_its_inputs_and_the_same_seed_gives_the_same_bytes(index: int) -> None:
    enc, orders, overrides = VALID[index]
    before = json.dumps([enc, orders, overrides], ensure_ascii=False)
    outputs = {
        json.dumps(vars(KANCOLLE.resolve(enc, orders, SeededDice("same"), rounds=2, overrides=overrides)),
                   ensure_ascii=False)
        for _ in range(2)
    }  # fmt: skip
    assert len(outputs) == 1
    assert json.dumps([enc, orders, overrides], ensure_ascii=False) == before
