"""The GM's actions between rounds in the generated story: each kind is told in the story's voice, in Japanese and
English, before the round's fighting; a death by the GM's hand is a death; the GM's reason stays on the page, out of
the story; a round without GM actions reads exactly as before."""

from __future__ import annotations

import copy
import re
import string

import pytest

from pbp.engine.pool.gm_actions import apply_gm_actions
from pbp.packs import demo_pack
from pbp.reports import draft_report
from pbp.reports.facts import split_claims
from pbp.reports.leaks import Secret, find_leaks, own_words, phrases
from pbp.reports.narrative import LOCALES, Names, phrasebook
from tests.reports.demo import PROSE, demo_bundles, reinforcement, shaped_bundle

KILL = [10, 10, 10, 10, 1]  # a full injury gauge of the demo's PCs: 死亡 checked (R-GAUGE-2, R-GAUGE-7)
GROWTH = {"aoi": 2, "makoto": 0}
#: A reason that copies a GM note: a phrase of 16 CJK characters, a secret to the leak check.
NOTE = "第三ラウンドで堤防の裏からオロチを出して葵を孤立させる予定"


def _start_with(change) -> dict:
    """Where round 1 left the demo battle, changed by `change` (a function of the state's units by id)."""
    start = copy.deepcopy(demo_bundles()[0]["state"])
    change({u["id"]: u for u in start["units"]})
    return start


def _dead_makoto() -> dict:
    killed = apply_gm_actions(demo_bundles()[0]["state"], [_act("set_gauge", "makoto", gauge="injury", taken=KILL)])
    assert isinstance(killed, dict)
    return killed


def _act(kind: str, unit: str, reason: str = NOTE, **fields) -> dict:
    return {"kind": kind, "unit": unit, **fields, "reason": reason}


def _stunned(units: dict) -> None:
    units["aoi"]["statuses"] = [{"id": "stun", "rounds_left": 1}]


#: Each kind of GM action: (actions, the start they apply to, whose name the story tells, the slot it is told from).
CASES = {
    "add_unit": ([reinforcement()], None, "elder1", "gm.arrive"),
    "remove_unit": ([_act("remove_unit", "kagachi2")], None, "kagachi2", "gm.vanish"),
    "retreat_foe": ([_act("retreat", "hayachi1")], None, "hayachi1", "gm.retreat_foe"),
    "retreat_pc": ([_act("retreat", "makoto")], None, "makoto", "gm.retreat_pc"),
    "set_gauge_kill_pc": ([_act("set_gauge", "makoto", gauge="injury", taken=KILL)], None, "makoto", "death.injury"),
    "set_gauge_kill_foe": (
        [_act("set_gauge", "kagachi2", gauge="injury", taken=[5, 5, 5, 5, 1])], None, "kagachi2", "death.foe"
    ),
    "set_gauge_wound": (
        [_act("set_gauge", "aoi", gauge="damage", taken=[10, 10, 4, 0, 0])], None, "aoi", "gm.wound"
    ),
    "set_gauge_mend": ([_act("set_gauge", "kagachi1", gauge="damage", taken=[0] * 5)], None, "kagachi1",
                       "restore.damage"),
    "add_status": ([_act("add_status", "aoi", status="lock_on", rounds=2)], None, "aoi", "status.applied.lock_on"),
    "remove_status": ([_act("remove_status", "aoi", status="stun")], _start_with(_stunned), "aoi", "status.ended"),
    "set_position": ([_act("set_position", "kagachi1", position=[300, 300])], None, "kagachi1", "gm.move"),
    "revive": ([_act("revive", "makoto")], _dead_makoto(), "makoto", "gm.revive_pc"),
}  # fmt: skip


def _name(uid: str, locale: str, bundle: dict) -> str:
    units = {u["id"]: u for key in ("start", "encounter") for u in bundle[key]["units"]}
    return Names(locale, demo_pack().data, units, "tama_river").unit(uid)


def _told_by(slot: str, text: str, locale: str, **names: str) -> bool:
    """Whether `text` holds a phrasing of `slot` with the given names in place (other placeholders: any words); in
    Japanese a name said a moment ago may stand as 彼女 / 彼 (`anaphora.py`)."""
    for phrasing in phrasebook("pool", locale)[slot]:
        phrasing = split_claims(phrasing)[1]
        pattern = ""
        for literal, field, _, _ in string.Formatter().parse(phrasing):
            pattern += re.escape(literal)
            if field is not None:
                said_as = re.escape(names.get(field, "")) + ("|彼女|彼" if locale == "ja" else "")
                pattern += f"(?:{said_as})" if field in names else ".+?"
        if re.search(pattern, text, re.IGNORECASE):
            return True
    return False


def _story(bundle: dict, locale: str, **kwargs) -> str:
    return draft_report(bundle, prose=PROSE, growth=GROWTH, locale=locale, strict=True, **kwargs)


def _paragraphs(story: str) -> list[str]:
    """The story's paragraphs under its title (the round's heading)."""
    return [p for p in story.split("\n---\n")[0].strip().split("\n\n") if not p.startswith("### ")]


@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_kind_of_gm_action_is_told_before_the_fighting(case, locale):
    """The GM's action is the story's first paragraph (round 2 of the demo carries no continuity), in the story's
    words and the locale's names (the reinforcement is 古カガチ / Elder Kagachi), never in the fighting after it;
    the same inputs write the same text."""
    actions, start, uid, slot = CASES[case]
    bundle = shaped_bundle(actions, start=start)
    story = _story(bundle, locale)
    name = _name(uid, locale, bundle)
    first, *rest = _paragraphs(story)
    assert _told_by(slot, first, locale, t=name), (slot, first)
    assert not any(_told_by(slot, p, locale, t=name) for p in rest), story
    if uid == "elder1":  # a reinforcement is named as its enemy type, in the story's language
        assert name == {"ja": "古カガチ", "en": "Elder Kagachi"}[locale]
    if locale == "en":
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", first), first
    assert _story(bundle, locale) == story


@pytest.mark.rule("R-GAUGE-2")
@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_pc_the_gm_killed_by_filling_its_injury_gauge_is_told_as_a_death(locale):
    """The GM's gauge kills 真琴 before the round: no death event exists, yet the story tells the death with its
    weight (a death phrasing, 葵's grief) once, where it happens: 真琴 takes no part in the fighting, is not named
    again at the round's end (no roll-call), and is listed dead."""
    bundle = shaped_bundle([_act("set_gauge", "makoto", gauge="injury", taken=KILL)])
    assert not any(e["type"] == "death" for e in bundle["events"])
    story = _story(bundle, locale)
    paragraphs = _paragraphs(story)
    makoto, aoi = _name("makoto", locale, bundle), _name("aoi", locale, bundle)
    assert _told_by("death.injury", paragraphs[0], locale, t=makoto)
    assert _told_by("death.mourn", paragraphs[0], locale, t=makoto, who=aoi)
    after = paragraphs[1:]  # the face-off, the scenes, the closing image and the hook: a death is told once
    assert all(makoto not in p for p in after), after
    state = story.split("\n---\n")[1]
    row = next(line for line in state.splitlines() if f"**{makoto}**" in line)
    assert re.search(r"負傷 死亡|injury dead", row), row  # the state list: dead, and said once (not 死亡 twice)
    assert row.count("死亡") + row.count("dead") == 1, row


@pytest.mark.parametrize("locale", LOCALES)
def test_a_round_without_gm_actions_reads_exactly_as_before(locale):
    """No GM action, no change: a bundle that says so (`start` the encounter, no actions) writes what a bundle of
    before migration 0009 writes (the golden stories, tests/reports/golden, are unchanged)."""
    for bundle in demo_bundles():
        plain = _story(bundle, locale)
        assert _story({**bundle, "start": bundle["encounter"], "gm_actions": []}, locale) == plain


@pytest.mark.parametrize("locale", LOCALES)
def test_the_gms_reason_stays_out_of_the_story_and_the_leak_check_still_guards_it(locale):
    """Every GM action's reason here copies a GM note. The reason is the GM's note to the players, shown on the page
    with the GM's actions; the story tells the action in its own words and never the reason, so the leak check finds
    nothing in it. A GM who copies the reason into the story is stopped by the check as for any other text."""
    bundle = shaped_bundle([_act("set_gauge", "makoto", gauge="injury", taken=KILL), {**reinforcement(),
                            "reason": NOTE}, _act("add_status", "aoi", status="stun")])  # fmt: skip
    story = _story(bundle, locale)
    assert NOTE not in story
    secrets = [Secret(p, True, "gm_notes", "tama_river") for p in phrases(NOTE)]
    public = [*own_words(), "古カガチ", "Elder Kagachi"]  # on the field this round: no secret
    assert find_leaks({"story": story}, secrets, public) == []
    edited = story.replace("\n\n", f"\n\n{NOTE}。\n\n", 1)
    assert [leak.part for leak in find_leaks({"story": edited}, secrets, public)] == ["story"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_gm_slot_has_several_phrasings(locale):
    """Variety, as for the events: a GM action of the same kind twice in a scenario is not told twice alike."""
    slots = {slot: options for slot, options in phrasebook("pool", locale).items() if slot.startswith("gm.")}
    assert set(slots) >= {"gm.arrive", "gm.vanish", "gm.retreat_pc", "gm.retreat_foe", "gm.wound", "gm.move",
                          "gm.revive_pc", "gm.revive_foe"}  # fmt: skip
    assert all(len(options) >= 3 for options in slots.values()), slots


@pytest.mark.rule("R-GAUGE-7")
@pytest.mark.parametrize("locale", LOCALES)
def test_what_the_gm_did_is_not_told_again_as_continuity(locale):
    """真琴 fell in round 1 and the GM revives it: the story tells the return, not the loss, and 真琴 fights again.
    A status the GM sets is news, told as set, not as one carried over from before."""
    previous = [{"type": "death", "unit": "makoto", "cause": "injury"}]
    revived = shaped_bundle([_act("revive", "makoto")], start=_dead_makoto())
    story = _story(revived, locale, previous_events=previous)
    makoto = _name("makoto", locale, revived)
    first, *rest = _paragraphs(story)
    assert _told_by("gm.revive_pc", first, locale, t=makoto)
    assert not _told_by("continuity.fallen_pc", story, locale, n=makoto), story
    assert any(makoto in p for p in rest[1:-2]), story  # a scene of its own in the fighting
    stunned = _story(shaped_bundle([_act("add_status", "aoi", status="stun")]), locale)
    aoi = _name("aoi", locale, revived)
    assert _told_by("status.applied.stun", _paragraphs(stunned)[0], locale, t=aoi)
    assert not _told_by("continuity.stun", stunned, locale, n=aoi), stunned


def test_a_gm_action_the_phrasebook_cannot_tell_is_an_error_when_strict_and_a_marked_gap_otherwise():
    """As for an event: a kind added to the engine before its phrasings never fails a round's report."""
    from pbp.reports import NarrativeError

    bundle = {**demo_bundles()[1], "start": demo_bundles()[1]["encounter"],
              "gm_actions": [{"kind": "set_weather", "unit": "aoi", "reason": "雨"}]}  # fmt: skip
    with pytest.raises(NarrativeError, match="set_weather"):
        draft_report(bundle, prose=PROSE, strict=True)
    assert "GMへ" in _paragraphs(draft_report(bundle, prose=PROSE))[0]
