"""The battlefield SVG: well-formed XML whatever the names, every unit drawn, engagements, reach and privacy, and
names placed so that none covers another on a crowded map."""

from __future__ import annotations

import copy
import math
import sys
import xml.dom.minidom
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from pool_builders import encounter, enemy, pc, vehicle, weapon  # noqa: E402

from pbp.reports.battlemap import LABEL_EM, Arrow, MapView, _em, _text_box, battle_map, field_box  # noqa: E402
from tests.reports.xss_corpus import XSS_CORPUS  # noqa: E402

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


def reach_names(svg: str) -> list[tuple[str, tuple[float, float, float, float], tuple[float, float, float, float]]]:
    """Each reach's name as drawn: its text, its ink's box and the map's frame (left, top, right, bottom)."""
    doc = parse(svg)
    x0, y0, w, h = map(float, doc.documentElement.getAttribute("viewBox").split())
    names = []
    for reach in groups(doc, "reach"):
        for t in reach.getElementsByTagName("text"):
            x, y, font = (float(t.getAttribute(k)) for k in ("x", "y", "font-size"))
            text = t.firstChild.data
            names.append((text, _text_box(text, x, y, font, t.getAttribute("text-anchor") or "start"),
                          (x0, y0, x0 + w, y0 + h)))  # fmt: skip
    return names


@pytest.mark.parametrize("at", [[0, 0], [500, 0], [250, 300], [500, 300], [0, 300]])
def test_a_reachs_name_stands_wholly_on_the_map_where_its_circle_shows(at: list[int]) -> None:
    """At a map's edge the upper right of a reach's circle lies off the map: its name goes round the circle to where
    it fits, never cut by the map's edge."""
    enc = encounter(pc(position=at), enemy(position=[0, 0]), enemy("oni2", position=[500, 300]))
    svg = battle_map(enc, MapView(focus="aoi", reach=[("Beam rifle", 0, 200), ("拳銃", 0, 120)]))
    names = reach_names(svg)
    assert [text for text, _, _ in names] == ["Beam rifle 200 m", "拳銃 120 m"]
    for _, (left, top, right, bottom), (fl, ft, fr, fb) in names:
        assert fl <= left and right <= fr and ft <= top and bottom <= fb
    (_, first, _), (_, second, _) = names
    assert first[2] <= second[0] or second[2] <= first[0] or first[3] <= second[1] or second[3] <= first[1]


def test_a_reach_wider_than_the_whole_map_is_said_in_its_corner_instead_of_a_circle_off_the_map() -> None:
    enc = encounter(pc(position=[0, 0]), enemy(position=[300, 100]))
    view = MapView(focus="aoi", reach=[("Targeting laser", 0, 5000), ("Beam rifle", 0, 2000), ("Blaster", 0, 150)],
                   everywhere=lambda reach: f"{reach}: 全域")  # fmt: skip
    svg = battle_map(enc, view)
    assert [text for text, _, _ in reach_names(svg)] == [
        "Targeting laser 5000 m: 全域", "Beam rifle 2000 m: 全域", "Blaster 150 m"
    ]  # fmt: skip
    for _, (left, top, right, bottom), (fl, ft, fr, fb) in reach_names(svg):
        assert fl <= left and right <= fr and ft <= top and bottom <= fb
    whole = groups(parse(svg), "whole")
    assert len(whole) == 2 and not any(g.getElementsByTagName("circle") for g in whole)
    (_, first, _), (_, second, _), _ = reach_names(svg)
    assert first[3] <= second[1]  # one line under the other


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


def test_a_tooltip_names_the_vehicle_and_weapons_by_their_names_never_their_ids() -> None:
    """The hover text of a public unit: its vehicle's and weapons' names in the page's language (the pack's, through
    `MapView.thing`), each weapon's ammunition after its name."""
    named = {("vehicles", "sv1"): "セイヴァー", ("weapons", "rifle"): "ビーム ライフル", ("weapons", "pod"): "ミサイル"}
    view = MapView(thing=lambda section, key: named.get((section, key), f"?{key}"))
    armed = vehicle(weapons=[weapon("rifle"), weapon("pod", ammo=1, ammo_max=2)])
    doc = parse(battle_map(encounter(pc(vehicle=armed)), view))
    aoi = next(g for g in groups(doc, "unit") if g.getAttribute("data-unit") == "aoi")
    title = aoi.getElementsByTagName("title")[0].firstChild.data
    assert title == "aoi / セイヴァー 0% / ♥ 0% / ビーム ライフル 6/6, ミサイル 1/2"


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


# Names on a crowded map: no name covers another or another unit's marker; an uncrowded map keeps its names above.

IDS = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "aoi", "makoto", "hikari", "jacob", "sara"]
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
NAMES = {
    "ja": [f"カガチ{k}" for k in "壱弐参肆伍陸漆捌玖拾"] + ["葵", "真琴", "ひかり", "ジェイコブ・ハリントン", "沙羅"],
    "en": [f"Kagachi {k}" for k in ROMAN] + ["Aoi", "Makoto", "Hikari", "Jacob Harrington", "Sara"],
}


def crowded() -> dict:
    """An engagement of ten on one spot (the most R-ENG-3 allows), two units a few metres off it, two PCs side by
    side and an enemy at their heels."""
    units = [pc("aoi", position=[300, 100], engagement="e1"), pc("makoto", position=[300, 100], engagement="e1")]
    units += [enemy(f"k{i}", position=[300, 100], engagement="e1") for i in range(8)]
    units += [pc("hikari", position=[310, 104]), enemy("k8", position=[296, 93])]
    units += [pc("jacob", position=[90, 300]), pc("sara", position=[100, 300]), enemy("k9", position=[60, 300])]
    return encounter(*units)


def names_of(locale: str) -> dict[str, str]:
    return dict(zip(IDS, NAMES[locale], strict=True))


def drawn(svg: str) -> tuple[dict[str, tuple[float, float, float, float]], dict[str, tuple[float, float, float]]]:
    """Each named unit's label box (from the map's own per-character width estimate) and each unit's circle."""
    doc = parse(svg)
    labels, circles = {}, {}
    for g in groups(doc, "unit"):
        uid = g.getAttribute("data-unit")
        c = g.getElementsByTagName("circle")[0]
        circles[uid] = tuple(float(c.getAttribute(k)) for k in ("cx", "cy", "r"))
        for t in g.getElementsByTagName("text"):
            x, y, size = (float(t.getAttribute(k)) for k in ("x", "y", "font-size"))
            labels[uid] = _text_box(t.firstChild.data, x, y, size, t.getAttribute("text-anchor"))
    return labels, circles


def meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_apart(svg: str) -> dict[str, tuple[float, float, float, float]]:
    labels, circles = drawn(svg)
    boxes = sorted(labels.items())
    for i, (uid, box) in enumerate(boxes):
        assert not [other for other, b in boxes[i + 1 :] if meet(box, b)], uid
        assert not [o for o, (x, y, r) in circles.items() if o != uid and meet(box, (x - r, y - r, x + r, y + r))], uid
    return labels


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_a_crowded_engagement_names_every_unit_and_no_name_covers_another_or_a_marker(locale: str) -> None:
    enc = crowded()
    names = names_of(locale)
    svg = battle_map(enc, MapView(name=names.__getitem__, public=lambda u: u["side"] == "pc"))
    labels = assert_apart(svg)
    assert set(labels) == set(names)  # everyone is named on the picture, not only in the tooltip
    _, circles = drawn(svg)
    centres = [(x, y) for x, y, _ in circles.values()]
    r = next(iter(circles.values()))[2]
    assert all(math.dist(a, b) >= 2 * r for i, a in enumerate(centres) for b in centres[i + 1 :])  # all seen


def test_a_name_set_apart_is_tied_to_its_marker_by_a_leader_line() -> None:
    svg = battle_map(crowded(), MapView(name=names_of("ja").__getitem__))
    doc = parse(svg)
    for g in groups(doc, "unit"):
        leaders = [line for line in g.getElementsByTagName("line") if line.getAttribute("class") == "leader"]
        for line in leaders:  # it starts at the unit's own marker
            c = g.getElementsByTagName("circle")[0]
            start = (float(line.getAttribute("x1")), float(line.getAttribute("y1")))
            centre = (float(c.getAttribute("cx")), float(c.getAttribute("cy")))
            assert math.dist(start, centre) == pytest.approx(1.1 * float(c.getAttribute("r")), rel=0.01)
    assert "leader" in svg


def test_an_uncrowded_map_keeps_every_name_centred_above_its_unit() -> None:
    enc = encounter(pc(position=[0, 0]), enemy(position=[400, 0]), enemy("oni2", position=[200, 300]))
    svg = battle_map(enc)
    labels, circles = drawn(svg)
    assert set(labels) == {"aoi", "oni1", "oni2"} and "leader" not in svg
    for t in parse(svg).getElementsByTagName("text"):
        if t.parentNode.getAttribute("data-unit"):
            x, y, r = circles[t.parentNode.getAttribute("data-unit")]
            assert t.getAttribute("text-anchor") == "middle" and float(t.getAttribute("x")) == x
            assert float(t.getAttribute("y")) == pytest.approx(y - 1.5 * r, abs=0.02)


def test_the_same_crowded_encounter_draws_the_same_bytes() -> None:
    enc = crowded()
    view = MapView(name=names_of("en").__getitem__, focus="jacob", reach=[("rifle", 0, 300)])
    assert battle_map(enc, view) == battle_map(copy.deepcopy(enc), view)


@pytest.mark.parametrize("hostile", XSS_CORPUS[:12])
def test_hostile_names_in_a_crowd_are_escaped_wherever_they_are_placed(hostile: str) -> None:
    enc = crowded()
    svg = battle_map(enc, MapView(name=lambda uid: hostile + uid))
    doc = parse(svg)  # well-formed: nothing broke out of a text or an attribute
    assert not doc.getElementsByTagName("script") and "<script" not in svg.lower()
    assert {e.tagName for e in doc.getElementsByTagName("*")} <= {
        "svg", "title", "defs", "pattern", "line", "marker", "path", "g", "text", "circle", "rect",
    }  # fmt: skip


def test_a_long_name_is_cut_on_the_map_and_whole_in_its_tooltip() -> None:
    long = "ジェイコブ・ハリントン・オブ・ザ・ロング・ネーム"
    svg = battle_map(encounter(pc(), enemy()), MapView(name=lambda uid: long if uid == "aoi" else uid))
    aoi = next(g for g in groups(parse(svg), "unit") if g.getAttribute("data-unit") == "aoi")
    text = aoi.getElementsByTagName("text")[0].firstChild.data
    assert text.endswith("…") and long.startswith(text[:-1]) and _em(text) <= LABEL_EM
    assert aoi.getElementsByTagName("title")[0].firstChild.data.startswith(f"{long} / ")


def test_a_260_unit_field_names_the_players_own_unit_first_and_no_name_covers_another() -> None:
    units = [pc(f"pc{i}", position=[(i % 20) * 10, (i // 20) * 10]) for i in range(200)]
    units += [enemy(f"e{i}", position=[600 + (i % 20) * 17, (i // 20) * 23]) for i in range(60)]
    enc = encounter(*units)
    svg = battle_map(enc, MapView(focus="pc110", name=lambda uid: f"隊員{uid}"))
    labels = assert_apart(svg)
    assert "pc110" in labels  # deep inside a massed formation, the player still finds their unit
    assert len(groups(parse(svg), "unit")) == 260


def test_r_eng_3_engagements_piled_on_one_spot_print_no_label_over_another() -> None:
    units = [
        (pc if i % 2 else enemy)(f"u{i}", position=[300 + (i // 10) * 3, 100], engagement=f"e{i // 10}")
        for i in range(40)
    ]  # four engagements of ten (R-ENG-3: the eleventh forms a new one), a few metres apart
    doc = parse(battle_map(encounter(*units, pc("aoi", position=[0, 0]))))
    boxes = [
        _text_box(t.firstChild.data, *(float(t.getAttribute(k)) for k in ("x", "y", "font-size")),
                  t.getAttribute("text-anchor") or "start")
        for t in doc.getElementsByTagName("text")
    ]  # fmt: skip
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if meet(a, b)]
    assert len(groups(doc, "engagement")) == 4 and any("e0" in g.toxml() for g in groups(doc, "engagement"))


def test_a_map_to_act_on_frames_its_field_in_round_numbers_and_numbers_its_edges() -> None:
    """The entry form's map: the field (where a move's point may lie) runs out to whole grid steps, drawn as a
    frame whose top edge is numbered in x and left edge in y, outside it; a report's map has none of it."""
    enc = encounter(pc(position=[0, 0]), enemy(position=[430, 170]))
    assert field_box(enc) == (-100, -100, 500, 300)
    doc = parse(battle_map(enc, MapView(act=True)))
    [axes] = groups(doc, "axes")
    [frame] = axes.getElementsByTagName("rect")
    assert [frame.getAttribute(k) for k in ("x", "y", "width", "height")] == ["-100", "-100", "600", "400"]
    numbers = [(t.firstChild.data, float(t.getAttribute("x")), float(t.getAttribute("y")))
               for t in axes.getElementsByTagName("text")]  # fmt: skip
    xs = [n for n, _x, y in numbers if y < -100]  # above the field
    ys = [n for n, x, _y in numbers if x < -100]  # left of it
    assert xs == ["-100", "0", "100", "200", "300", "400", "500"] and ys == ["0", "100", "200", "300"]
    x0, y0, w, h = map(float, doc.documentElement.getAttribute("viewBox").split())
    assert x0 < -100 and y0 < -100 and x0 + w > 500 and y0 + h >= 300  # the numbers stand on the map
    assert groups(parse(battle_map(enc)), "axes") == [] and "clipPath" not in battle_map(enc)


def test_a_map_to_act_on_draws_the_move_ranges_and_clips_every_range_to_the_field() -> None:
    enc = encounter(pc(position=[0, 0]), enemy(position=[430, 170]))
    view = MapView(act=True, focus="aoi", reach=[("rifle", 0, 350)], moves=[("Move", 60), ("Full move", 180)])
    doc = parse(battle_map(enc, view))
    moves = groups(doc, "move-range")
    assert [g.getElementsByTagName("circle")[0].getAttribute("r") for g in moves] == ["60", "180"]
    assert "Move 60 m" in moves[0].toxml() and "Full move 180 m" in moves[1].toxml()
    ranges = [c for g in groups(doc, "reach") + moves for c in g.getElementsByTagName("circle")]
    assert ranges and all(c.getAttribute("clip-path") == "url(#field)" for c in ranges)
    [clip] = doc.getElementsByTagName("clipPath")
    assert clip.getAttribute("id") == "field" and clip.getElementsByTagName("rect")[0].getAttribute("width") == "600"


def test_a_map_to_act_on_names_a_range_whose_circle_has_no_room_for_its_name_in_the_corner() -> None:
    """Only a sliver of the rifle's circle shows, at the field's far corner: its name goes under the corner's."""
    enc = encounter(pc(position=[0, 0]), enemy(position=[430, 170]))
    view = MapView(act=True, focus="aoi", reach=[("Laser", 0, 5000), ("Rifle", 0, 560)])
    doc = parse(battle_map(enc, view))
    [whole, rifle] = groups(doc, "reach")
    [said] = whole.getElementsByTagName("text")
    [named] = rifle.getElementsByTagName("text")
    assert named.firstChild.data == "Rifle 560 m" and named.getAttribute("text-anchor") == "end"
    assert named.getAttribute("x") == said.getAttribute("x")  # the corner's column
    assert float(named.getAttribute("y")) > float(said.getAttribute("y")) and rifle.getElementsByTagName("circle")
