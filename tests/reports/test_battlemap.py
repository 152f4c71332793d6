"""The battlefield SVG: well-formed XML whatever the names, every unit drawn, engagements, reach and privacy."""

from __future__ import annotations

import sys
import xml.dom.minidom
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from pool_builders import encounter, enemy, pc, vehicle  # noqa: E402

from pbp.reports.battlemap import Arrow, MapView, battle_map  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> xml.dom.minidom.Document:
    return xml.dom.minidom.parseString(svg)


def groups(doc: xml.dom.minidom.Document, cls: str) -> list:
    return [g for g in doc.getElementsByTagName("g") if cls in g.getAttribute("class").split()]


def test_every_unit_is_drawn_with_its_side_and_the_air_unit_as_a_triangle() -> None:
    flyer = enemy("hawk", vehicle=vehicle("yk9", movement="air"), position=[300, 200])
    doc = parse(battle_map(encounter(pc(), enemy(), flyer)))
    units = {g.getAttribute("data-unit"): g.getAttribute("class").split() for g in groups(doc, "unit")}
    assert set(units) == {"aoi", "oni1", "hawk"}
    assert "pc" in units["aoi"] and "enemy" in units["oni1"] and "air" in units["hawk"]
    hawk = next(g for g in groups(doc, "unit") if g.getAttribute("data-unit") == "hawk")
    assert hawk.getElementsByTagName("path") and not hawk.getElementsByTagName("circle")


def test_r_eng_1_an_engagement_is_ringed_and_its_members_drawn_apart() -> None:
    enc = encounter(pc(engagement="e1"), enemy(position=[0, 0], engagement="e1"))
    doc = parse(battle_map(enc))
    [ring] = groups(doc, "engagement")
    assert "e1" in ring.toxml()
    centres = {
        g.getAttribute("data-unit"): tuple(g.getElementsByTagName("circle")[0].getAttribute(k) for k in ("cx", "cy"))
        for g in groups(doc, "unit")
    }
    assert centres["aoi"] != centres["oni1"]  # two units on one spot are set apart to be seen


def test_the_focus_units_reach_is_drawn_and_only_for_it() -> None:
    enc = encounter(pc(), enemy())
    assert groups(parse(battle_map(enc)), "reach") == []
    doc = parse(battle_map(enc, MapView(focus="aoi", reach=[("rifle", 100, 400), ("blade", 0, 0)])))
    [reach] = groups(doc, "reach")  # a melee weapon has no ring: it reaches only inside the engagement
    assert len(reach.getElementsByTagName("circle")) == 2 and "400 m" in reach.toxml()


def test_r_gauge_7_a_removed_unit_is_crossed_out() -> None:
    doc = parse(battle_map(encounter(pc(), enemy(removed=True, dead=True))))
    oni = next(g for g in groups(doc, "unit") if g.getAttribute("data-unit") == "oni1")
    assert "removed" in oni.getAttribute("class") and "cross" in oni.toxml()


def test_secret_units_show_no_gauges_statuses_or_ammo() -> None:
    hurt = enemy(statuses=[{"id": "stun", "rounds_left": 2}])
    view = MapView(public=lambda u: u["side"] == "pc")
    doc = parse(battle_map(encounter(pc(), hurt), view))
    oni = next(g for g in groups(doc, "unit") if g.getAttribute("data-unit") == "oni1")
    title = oni.getElementsByTagName("title")[0].firstChild.data
    assert title == "oni1" and not [r for r in oni.getElementsByTagName("rect")]
    aoi = next(g for g in groups(doc, "unit") if g.getAttribute("data-unit") == "aoi")
    assert "rifle 6/6" in aoi.getElementsByTagName("title")[0].firstChild.data


def test_names_are_escaped_and_xml_forbidden_characters_replaced() -> None:
    names = {"aoi": '<script>alert(1)</script>"&\x08', "oni1": "鬼"}
    view = MapView(name=lambda uid: names[uid], title="<b>多摩川</b>", arrows=[Arrow("aoi", (0, 0), (50, 0))])
    svg = battle_map(encounter(pc(), enemy()), view)
    doc = parse(svg)
    assert "<script>" not in svg and not doc.getElementsByTagName("script")
    assert "\ufffd" in svg and "鬼" in svg
    assert doc.getElementsByTagName("line") and "arrowhead" in svg


def test_rough_ground_is_drawn_with_its_factor() -> None:
    enc = encounter(pc(), enemy(), terrain=[{"rect": [[100, -50], [300, 50]], "rough": 0.25}])
    [rough] = groups(parse(battle_map(enc)), "rough")
    assert "×0.25" in rough.toxml()
