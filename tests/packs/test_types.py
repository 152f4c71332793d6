"""A value of the wrong type anywhere in a pack or a character sheet is a problem naming its file and key path,
never a traceback (docs/campaign-packs.md, "How problems are reported")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.engine.pool.pack_checks import validate_character, validate_pack
from pbp.packs import validate_pack_dir

#: (file, old text, new text, the problem's key path)
CASES = [
    ("vehicles.toml", 'weapons = ["beam_rifle", "hf_knife"]', "weapons = 5", "vehicles.savior.weapons"),
    ("vehicles.toml", 'weapons = ["beam_rifle", "hf_knife"]', 'weapons = "beam_rifle"', "vehicles.savior.weapons"),
    ("enemies.toml", "[enemies.kagachi]\n", "[enemies.kagachi]\nweapons = 3\n", "enemies.kagachi.weapons"),
    ("characters.toml", 'vehicle = "savior"', 'vehicle = ["savior"]', "characters.aoi.vehicle"),
    ("characters.toml", 'vehicle = "savior"', 'vehicle = { id = "savior" }', "characters.aoi.vehicle"),
    ("scenarios.toml", 'id = "kagachi1"', 'id = ["h"]', "scenarios.tama_river.enemies[0].id"),
    ("scenarios.toml", 'id = "repair"', 'id = ["h"]', "scenarios.hangar_eve.checks[0].id"),
    ("scenarios.toml", 'id = "repair"', "id = { h = 1 }", "scenarios.hangar_eve.checks[0].id"),
    # A weapon's kind (what the story's verbs follow) is one of the known kinds; a placed enemy's English name text.
    ("weapons.toml", 'kind = "beam"', 'kind = "laser"', "weapons.beam_rifle.kind"),
    ("weapons.toml", 'kind = "beam"', "kind = 3", "weapons.beam_rifle.kind"),
    ("scenarios.toml", 'en = "Kagachi One"', "en = 1", "scenarios.tama_river.enemies[0].en"),
]


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("file", "old", "new", "path"), CASES, ids=[f"{c[3]}={c[2]}" for c in CASES])
def test_a_wrongly_typed_value_is_one_problem_naming_file_and_path(
    demo_dir: Path, file: str, old: str, new: str, path: str
) -> None:
    _replace(demo_dir / file, old, new)
    got = [(Path(p.file).name, p.path) for p in validate_pack_dir(demo_dir)]
    assert got == [(file, path)]


@pytest.mark.parametrize("vehicle", [["savior"], {"id": "savior"}, 3, None, True])
def test_a_players_sheet_with_a_wrongly_typed_vehicle_is_a_problem(demo: dict[str, Any], vehicle: Any) -> None:
    """`characters.create_character` checks a player's sheet (JSON) with `validate_character`."""
    sheet = demo["characters"]["aoi"] | {"vehicle": vehicle}
    assert [p.path for p in validate_character(demo, sheet)] == ["vehicle"]


def _slots(node: Any, trail: tuple = ()) -> list[tuple]:
    """Every (container path, key) in a parsed pack."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out.append((*trail, k))
        out.extend(_slots(v, (*trail, k)))
    return out


#: Keys the pack format knows, to add where they are absent (an enemy without `weapons` gets some).
_KEYS = ["weapons", "vehicle", "vehicle_weapons", "items", "abilities", "skills", "stats", "id", "kind", "effects"]
_ODD = st.one_of(
    st.integers(-2, 7),
    st.sampled_from(["", "x", "savior", "beam_rifle", "射撃", "肉体", "heat", "battle", "scene", "dice", "tama river"]),
    st.lists(st.one_of(st.integers(-1, 3), st.sampled_from(["h", "savior", "pistol", "射撃"])), max_size=3),
    st.lists(st.lists(st.integers(0, 2), max_size=2), max_size=2),
    st.dictionaries(st.sampled_from(["id", "ja", "kind", "射撃", "肉体"]), st.integers(0, 3), max_size=2),
    st.none(),
    st.booleans(),
)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_anywhere_in_the_pack_is_a_problem_or_none_never_an_exception(
    _demo_data: dict[str, Any], data: st.DataObject
) -> None:
    pack = _copy(_demo_data)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        slot = data.draw(st.sampled_from(_slots(pack)), label="where")
        parent = pack
        for k in slot[:-1]:
            parent = parent[k]
        key = slot[-1]
        if isinstance(parent, dict) and data.draw(st.booleans(), label="another key"):
            key = data.draw(st.sampled_from(_KEYS), label="key")
        parent[key] = data.draw(_ODD, label="value")
    problems = validate_pack(pack)
    assert isinstance(problems, list)
    assert all(p.path is not None and p.message for p in problems)


def _copy(node: Any) -> Any:
    """A deep copy of JSON-shaped data, faster than copy.deepcopy."""
    if isinstance(node, dict):
        return {k: _copy(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node
