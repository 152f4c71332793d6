"""Outside the battle (§6, §10): supply, scenes and their effects, docking, the end phase; sheets from a pack."""

from __future__ import annotations

from typing import Any

import pytest
from kc_builders import GRID, encounter, of, pc, run, state_unit

from pbp.engine.errors import BadInput
from pbp.engine.kancolle import KANCOLLE

ROW = {"name": "日常", "trait": "砲撃", "success": [], "failure": []}


def tables(**rows: dict[str, Any]) -> dict[str, Any]:
    """One event type, EVNT, whose every row is ROW unless given ("r7": {...} sets row 7)."""
    return {"EVNT": {str(r): {**ROW, **rows.get(f"r{r}", {})} for r in range(2, 13)}}


def base(units: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return encounter(units, "base", battle=None, event_tables=fields.pop("event_tables", tables()), **fields)


def entry(uid: str, **fields: Any) -> dict[str, Any]:
    return {"unit": uid, "card": {"type": "EVNT", "keyword": "演習"}, **fields}


def cycle(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"orders": [], "cycle": list(entries)}


@pytest.mark.rule("K-SHEET-2")
def test_k_sheet_2_affinity_one_for_one_two_for_one_or_none_up_to_the_maximum() -> None:
    a = pc("a", ap=9, affinity={"燃料": "○", "弾薬": "△", "鋼材": "×"})
    b = pc("b", ap=2, affinity={"弾薬": "△"})
    orders = cycle(entry("a", supply={"燃料": 5, "鋼材": 1}), entry("b", supply={"弾薬": 3}))
    res = run(base([a, b]), orders, [3] * 8)  # two scenes: the event roll and the check each
    assert [(e["unit"], e["resource"], e["spent"]) for e in of(res, "supply")] == [("a", "燃料", 1), ("b", "弾薬", 2)]
    assert [e["reason"] for e in of(res, "refused")] == ["no_affinity"]
    assert (state_unit(res, "a")["ap"], state_unit(res, "b")["ap"]) == (10, 3)


@pytest.mark.rule("K-SHEET-14")
def test_k_sheet_14_the_base_holds_the_resources_its_ship_girls_share() -> None:
    a, b = pc("a", ap=1, affinity={"燃料": "○"}), pc("b", ap=1, affinity={"燃料": "○"})
    enc = base([a, b], base={"level": 1, "resources": {"燃料": 6}})
    res = run(enc, cycle(entry("a", supply={"燃料": 4}), entry("b", supply={"燃料": 4})), [3] * 8)
    assert [e["reason"] for e in of(res, "refused")] == ["no_resources"]
    assert res.state["base"]["resources"]["燃料"] == 2


@pytest.mark.rule("K-SHEET-12")
@pytest.mark.rule("K-DMG-7")
def test_k_sheet_12_level_defaults_to_1_and_docking_costs_level_plus_repair_a_step() -> None:
    enc = base([pc("a", steps=3, repair=2), pc("b", level=3, steps=1, repair=2)])
    scenes = [entry(u, scene={"sub": [{"type": "dock", "steps": 2}]}) for u in ("a", "b")]
    res = run(enc, cycle(*scenes), [3, 3, 3, 3, 3, 3, 3, 3])
    assert state_unit(res, "a")["level"] == 1
    assert [(e["unit"], e["steps_after"], e["cost"]["燃料"]) for e in of(res, "dock")] == [("a", 1, 6)]
    assert [e["reason"] for e in of(res, "refused")] == ["no_resources"]  # b needs 5 of each, 4 are left


@pytest.mark.rule("K-BASE-11")
@pytest.mark.rule("K-EMO-2")
def test_k_base_11_the_scene_player_and_those_it_names_appear() -> None:
    row = {"success": [{"kind": "ap", "value": 2, "on": "appearing"},
                       {"kind": "emotion", "value": 1, "from": "appearing", "to": "self"}]}  # fmt: skip

    def fond() -> dict[str, Any]:
        return {"a": {"value": 1, "attribute": "信頼", "box": "clear"}}

    units = [pc("a", ap=5), pc("b", ap=5, emotions=fond()), pc("c", ap=5, emotions=fond())]
    res = run(base(units, event_tables=tables(r6=row)), cycle(entry("a", scene={"appearing": ["b"]})), [3, 3, 3, 3])
    assert of(res, "scene")[0]["appearing"] == ["a", "b"]
    assert [(e["unit"], e["after"]) for e in of(res, "ap")] == [("a", 7), ("b", 7)]
    (emotion,) = of(res, "emotion")
    assert (emotion["from"], emotion["after"], emotion["attribute"]) == ("b", 2, "信頼")
    assert state_unit(res, "c")["emotions"]["a"]["value"] == 1


@pytest.mark.rule("K-BASE-3")
def test_k_base_3_an_event_type_without_a_table_is_bad_input() -> None:
    enc = base([pc("a")])
    with pytest.raises(BadInput) as bad:
        run(enc, cycle({"unit": "a", "card": {"type": "ETHT", "keyword": "x"}}))
    assert [p.path for p in bad.value.problems] == ["cycle[0].card.type"]


@pytest.mark.rule("K-BASE-6")
@pytest.mark.rule("K-BASE-7")
@pytest.mark.rule("K-BASE-9")
@pytest.mark.rule("K-SHEET-11")
@pytest.mark.rule("K-SHELL-11")
def test_k_base_6_development_refit_exchange_and_moves_are_not_in_contract_v3() -> None:
    enc = base([pc("a"), pc("b")])
    cases = [
        (cycle(entry("a", scene={"sub": [{"type": "develop"}]})), "cycle[0].scene.sub[0].type"),
        (cycle(entry("a", refit=[{"piece": "g"}])), "cycle[0].refit"),
        (cycle(entry("a", exchange={"with": "b"})), "cycle[0].exchange"),
    ]
    for orders, path in cases:
        with pytest.raises(BadInput) as bad:
            run(enc, orders)
        assert [p.path for p in bad.value.problems] == [path]
    battle = encounter([pc("a"), {**pc("e"), "side": "enemy"}], rnd=2)
    with pytest.raises(BadInput) as bad:
        run(battle, [{"unit": "a", "move": {"ability": "突撃"}}])
    assert [p.path for p in bad.value.problems] == ["orders[0].move"]


def end(units: list[dict[str, Any]], entries: list[dict[str, Any]], dice: list[int], **fields: Any) -> Any:
    return run(encounter(units, "end", battle=None, **fields), entries, dice)


@pytest.mark.rule("K-END-1")
def test_k_end_1_every_ship_girl_not_lost_is_reset() -> None:
    worn = pc("a", ap=2, steps=3, items=["応急修理要員"], removed=True,
              modifiers=[{"value": -1, "until": "battle", "source": "accident4"}])  # fmt: skip
    lost = pc("b", ap=1, steps=4, lost=True)
    res = end([worn, lost], [], [])
    a = state_unit(res, "a")
    assert (a["ap"], a["steps"], a["items"], a["modifiers"], a["removed"]) == (10, 0, [], [], False)
    assert (state_unit(res, "b")["ap"], state_unit(res, "b")["steps"]) == (1, 4)
    assert of(res, "end_phase")[0]["resets"] == ["a"]


@pytest.mark.rule("K-END-2")
def test_k_end_2_a_trait_drop_never_goes_below_the_initial_count() -> None:
    traits = [
        {"name": "砲撃", "kind": "merit"},
        {"name": "規律", "kind": "merit"},
        {"name": "元気", "kind": "weakness"},
    ]
    res = end([pc("a", traits=traits, initial_traits=2)], [{"unit": "a", "end": {"drop": ["元気", "規律"]}}], [])
    assert of(res, "end_phase")[0]["drops"] == [{"unit": "a", "trait": "元気"}]
    assert [(e["action"], e["reason"]) for e in of(res, "refused")] == [("drop", "too_few_traits")]


@pytest.mark.rule("K-END-3")
@pytest.mark.rule("K-EMO-4")
def test_k_end_3_emotion_totals_are_trimmed_to_level_plus_5_named_keys_first_then_the_smallest() -> None:
    def feelings() -> dict[str, Any]:
        return {k: {"value": v, "attribute": None, "box": "clear"} for k, v in (("b", 3), ("c", 2), ("d", 4))}

    named = end([pc("a", emotions=feelings())], [{"unit": "a", "end": {"trim": ["d"]}}], [])
    assert of(named, "end_phase")[0]["trims"] == [{"unit": "a", "toward": "d", "before": 4, "after": 1}]
    smallest = end([pc("a", emotions=feelings())], [], [])
    assert [(t["toward"], t["after"]) for t in of(smallest, "end_phase")[0]["trims"]] == [("c", 0), ("b", 2)]


@pytest.mark.rule("K-END-6")
def test_k_end_6_a_scrapped_piece_rolls_a_d8_from_2d6_again_above_32() -> None:
    store = [{"id": "old", "name": "旧式砲", "kind": "gun", "range": "短"}]
    res = end([pc("a")], [{"unit": "a", "end": {"scrap": ["old"]}}], [6, 6, 2, 4],
              base={"level": 1, "resources": {}, "store": store})  # fmt: skip
    assert of(res, "end_phase")[0]["scraps"] == [{"unit": "a", "piece": "old", "dice": [6, 6, 2, 4], "d8": 2}]
    assert res.state["base"]["store"] == []


@pytest.mark.rule("K-SHEET-1")
def test_k_sheet_1_a_ship_girl_is_copied_from_its_template_into_the_encounter() -> None:
    fubuki = {"name": "吹雪", "class": "DD", "ratings": {"命中": 1, "火力": 1, "回避": 2, "装甲": 5, "装備力": 2},
              "ap_max": 8, "traits": [{"name": "砲撃", "kind": "merit"}], "gap": 5}  # fmt: skip
    enemies = {"ro": {"name": "駆逐ロ級", "ratings": fubuki["ratings"], "ap_max": 5}}
    pack = {"grid": GRID, "characters": {"fubuki": fubuki}, "enemies": enemies,
            "scenarios": {"s1": {"enemies": [{"type": "ro", "position": 2}]}}}  # fmt: skip
    enc = KANCOLLE.build_encounter(pack, "s1", [("fubuki", fubuki)])
    assert [(u["id"], u["side"], u["ap"]) for u in enc["units"]] == [("fubuki", "pc", 8), ("e1", "enemy", 5)]
    assert KANCOLLE.validate_encounter(enc) == [] and KANCOLLE.validate_character(pack, fubuki) == []
    assert KANCOLLE.validate_character(pack, {**fubuki, "gap": 6})[0].path == "gap"


def test_a_pack_is_checked_as_its_encounters_would_be() -> None:
    row = {"name": "日常", "trait": "砲撃", "success": [{"kind": "ap", "value": "2d6"}], "failure": []}
    pack = {
        "grid": GRID, "options": {"victory": "most"},
        "enemies": {"ro": {"ratings": {"命中": 0, "火力": 1, "回避": 0, "装甲": 0, "装備力": 1}, "ap_max": 5}},
        "event_tables": {"EVNT": {str(r): row for r in range(2, 13)}},
        "characters": {"fubuki": {"ratings": {"命中": 0, "火力": 1, "回避": 0, "装甲": 5, "装備力": 1},
                                  "ap_max": 8, "traits": [{"name": "未知", "kind": "merit"}], "gap": 5}},
    }  # fmt: skip
    paths = [p.path for p in KANCOLLE.validate_pack(pack)]
    assert paths == [
        "options.victory", *[f"event_tables.EVNT.{r}.success[0].value" for r in range(2, 13)],
        "enemies.ro.ratings.装甲", "characters.fubuki.traits[0].name",
    ]  # fmt: skip


def test_legal_actions_offer_the_rounds_phases_and_refusals_name_the_entrys_problems() -> None:
    gun, torp = {"id": "g", "kind": "gun", "range": "中"}, {"id": "t", "kind": "torpedo", "range": "短", "torpedo": 2}
    enc = encounter([pc("a", equipment=[gun, torp]), pc("b"), {**pc("e"), "side": "enemy"}], rnd=3)
    legal = KANCOLLE.legal_actions(enc, "a")
    assert (legal["torpedo"], legal["targets"], legal["night_volunteer"], legal["support"]) == (
        ["t"],
        ["e"],
        True,
        ["b"],
    )
    assert "shelling" not in legal
    assert [p.path for p in KANCOLLE.refusals(enc, {"unit": "a", "torpedo": [{"piece": "g", "targets": ["e"]}]})] == [
        "orders[0].torpedo[0].piece"
    ]
