"""The end phase's entry on the form (K-END, K-PLAY-8), generated from legal_actions as the rest of the kancolle form:
the traits a ship girl may drop, the friends whose emotion she trims first, the base's stored pieces she scraps (by
their names, not their ids); what is ticked is the order the engine takes, both ways."""

from __future__ import annotations

from typing import Any

import pytest

from pbp.engine.kancolle import KANCOLLE
from pbp.reports.narrative import Names
from pbp.web.player.kancolle_form import Labels, form_of, groups_for, order_of
from pbp.web.player.orders import FormData
from tests.kancolle.kc_builders import encounter, of, pc, run

TRAITS = [{"name": "砲撃", "kind": "merit"}, {"name": "規律", "kind": "merit"}, {"name": "元気", "kind": "weakness"}]
STORE = [{"id": "old", "name": "旧式砲", "en": "Old gun", "kind": "gun", "range": "短"}]


def _end() -> dict[str, Any]:
    feelings = {k: {"value": v, "attribute": None, "box": "clear"} for k, v in (("b", 3), ("c", 4))}
    units = [pc("a", traits=TRAITS, initial_traits=2, emotions=feelings), pc("b"), pc("c")]
    return encounter(units, "end", battle=None, base={"level": 1, "resources": {}, "store": STORE})


def _fields(locale: str, enc: dict[str, Any] | None = None) -> dict[str, list[tuple[str, str]]]:
    enc = enc or _end()
    units = {u["id"]: u for u in enc["units"]}
    labels = Labels(Names(locale, {}, units, display={"b": "夕立", "c": "北上"}), {}, units["a"], STORE)
    (group,) = groups_for(KANCOLLE.legal_actions(enc, "a"), labels)
    return {f.name: f.choices for f in group.fields}


@pytest.mark.rule("K-PLAY-8")
@pytest.mark.parametrize(("locale", "old_gun"), [("ja", "旧式砲"), ("en", "Old gun")])
def test_the_end_phase_offers_drops_trims_and_scraps_from_legal_actions(locale, old_gun) -> None:
    fields = _fields(locale)
    assert fields["many:end.drop"] == [(t["name"], t["name"]) for t in TRAITS]
    assert fields["many:end.trim"] == [("b", "夕立"), ("c", "北上")]
    assert fields["many:end.scrap"] == [("old", old_gun)]
    bare = _end()
    bare["units"][0]["emotions"], bare["base"]["store"] = {}, []
    assert list(_fields(locale, bare)) == ["many:end.drop"]  # nothing to trim, nothing stored: no empty fields


@pytest.mark.rule("K-END-2")
@pytest.mark.rule("K-END-6")
def test_what_is_ticked_is_the_order_the_engine_plays() -> None:
    posted = FormData({"many:end.drop": ["元気"], "many:end.trim": ["c"], "many:end.scrap": ["old"]})
    parsed = order_of(posted)
    assert parsed.errors == {} and parsed.order == {"end": {"drop": ["元気"], "scrap": ["old"], "trim": ["c"]}}
    assert order_of(form_of(parsed.order)).order == parsed.order
    assert KANCOLLE.refusals(_end(), {"unit": "a", **parsed.order}) == []
    done = of(run(_end(), [{"unit": "a", **parsed.order}], [1, 1]), "end_phase")[0]
    assert done["drops"] == [{"unit": "a", "trait": "元気"}] and done["scraps"][0]["piece"] == "old"
    assert done["trims"][0]["toward"] == "c"  # 7 > level + 5: her own pick is trimmed first
