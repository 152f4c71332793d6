"""Kancolle stories (issue 32, item 4): every event told in both languages, nothing said that the events deny, the
players' lines verbatim, no mechanics or mecha words, no Japanese script in English outside the players' marked
words, no sentence twice; and the golden stories of a base cycle and of a battle that reaches the night."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from pbp.engine.kancolle.events import EVENT_TYPES
from pbp.reports.facts import CLAIMS, split_claims
from pbp.reports.kancolle_story import KancolleNarrator
from pbp.reports.narrative import LOCALES, draft_report, phrasebook, sentences
from pbp.reports.playing import read_playing
from tests.reports.kancolle_rounds import (
    BASE_PROSE,
    NAMES,
    PRONOUNS,
    PROSE,
    golden_base,
    golden_battle,
    seeded_bundles,
    tell,
    vector_bundles,
)

GOLDEN = Path(__file__).parent / "golden"
_UNITS = [
    {"id": "a", "name": "a", "side": "pc", "steps": 0, "ap": 8, "ap_max": 10},
    {"id": "b", "name": "b", "side": "pc", "steps": 0, "ap": 8, "ap_max": 10},
    {"id": "e1", "name": "e1", "side": "enemy", "steps": 0, "ap": 6, "ap_max": 6},
]
#: One event of each type, with the fields its teller reads.
SAMPLES: dict[str, dict[str, Any]] = {
    "battle_start": {"battlefield": "同航戦", "battlefield_roll": 1, "fixed": False, "plan": []},
    "recon": {"unit": "a", "target": "e1", "check": "c1", "recon": 3, "anti_air": [], "aa_reduction": 0,
              "void": False, "revealed": True},
    "positions": {"positions": {"a": 1, "e1": 1}, "final": True},
    "round_start": {},
    "round_end": {},
    "phase": {"phase": "shelling", "pass": "長", "order": ["a", "e1"]},
    "target_roll": {"unit": "e1", "die": 3, "row": 3, "rand": [], "target": "a"},
    "check": {"id": "c9", "unit": "a", "kind": "other", "success": True, "special": False, "fumble": False},
    "accident": {"unit": "a", "die": 2, "entry": 2, "check": "c1", "effects": {}},
    "ap": {"unit": "a", "before": 6, "after": 9, "reason": "special"},
    "support": {"from": "b", "to": "a", "kind": "check", "value": 2, "check": "c1"},
    "anti_air": {"unit": "a", "for": "b", "role": "defend", "dice": [3], "value": 3},
    "attack": {"attacker": "a", "target": "e1", "chain": ["g"], "hit_checks": ["c1"], "evade_check": "c2",
               "void": False, "hit": True, "special": False, "phase": "shelling"},
    "torpedo": {"attacker": "a", "target": "e1", "piece": "t", "check": "c1", "hit": False, "special": False},
    "air_attack": {"attacker": "a", "target": "e1", "piece": "p", "check": "c1", "hit": True, "special": True},
    "damage": {"unit": "e1", "dice": [3, 4], "total": 7, "reduction": 5, "net": 2, "armour": 5, "steps": 2,
               "before": 0, "after": 2, "state": "中破"},
    "unable_to_act": {"unit": "e1", "reason": "sunk"},
    "removed": {"unit": "e1"},
    "retreat": {"side": "pc", "unit": "a", "check": "c1", "success": True},
    "night_check": {"unit": "a", "check": "c1", "success": True},
    "battle_end": {"outcome": "victory", "cause": "annihilation", "sunk": ["e1"]},
    "refused": {"unit": "a", "action": "shelling", "reason": "target_gone"},
    "cycle_start": {"cycle": 1, "scene_order": ["a"]},
    "cycle_end": {"cycle": 1},
    "scene": {"unit": "a", "card": {"type": "EVNT"}, "event_roll": [3, 4], "row": 7, "event": "演習",
              "trait": "機動", "appearing": ["a", "b"], "partner": "b"},
    "emotion": {"from": "b", "to": "a", "before": 1, "after": 2, "attribute": None, "box_cleared": False},
    "resource": {"resource": "燃料", "before": 5, "after": 8, "reason": "event"},
    "supply": {"unit": "a", "resource": "弾薬", "spent": 3},
    "discovery": {"unit": "a", "trait": "索敵", "die": 3, "kind": "merit", "failed": False},
    "dock": {"unit": "a", "steps_before": 2, "steps_after": 0, "cost": {}},
    "spoils": {"roll": 1, "die": 5, "resource": "鋼材", "amount_die": 4, "amount": 7, "before": 1, "after": 8},
    "salvage": {"target": "b", "salvager": "a", "trait_roll": [6, 7], "trait": "砲撃", "check": "c1",
                "success": True},
    "lost": {"unit": "b", "penalties": {"exp_keep": 20, "exp_new": 10}},
    "end_phase": {"resets": ["a"], "drops": [], "trims": [], "scraps": []},
}  # fmt: skip
#: Told by the shape of the story (a new paragraph), not by a sentence of their own.
STRUCTURAL = {"round_start", "round_end", "cycle_end"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
_MARKED = re.compile(r"\*[^*]*\*\{: lang=\"ja\"\}")
#: Rule terms and numbers' words that never reach the prose, and the first ruleset's mecha and mud.
MECHANICS = {
    "ja": ["ダイス", "出目", "判定", "目標値", "達成値", "行動力", "AP", "DC", "ファンブル", "スペシャル", "ステップ",
           "修正値", "機体", "コックピット", "操縦", "泥", "セイヴァー", "ヤマツカミ"],
    "en": [r"\bdice\b", r"\bdie\b", r"\brolls?\b", r"\bDC\b", r"\bAP\b", r"\bfumble", r"\bspecial\b", r"\bsteps?\b",
           r"\bchecks?\b", r"\bmodifier", r"\bcockpit", r"\bmecha\b", r"\bmud\b", r"\bSavior", r"\bpilot"],
}  # fmt: skip


def _bundle(events: list[dict[str, Any]], mode: str = "battle", seed: str = "s") -> dict[str, Any]:
    encounter = {"ruleset": "kancolle", "mode": mode, "round": 1, "units": [dict(u) for u in _UNITS]}
    return {"ruleset": "kancolle", "round": {"number": 1}, "seed": seed, "encounter": encounter,
            "events": [{"round": 1, "phase": "shelling", **e} for e in events], "state": encounter}  # fmt: skip


def _prose(story: str) -> str:
    """The story without its state list (where the numbers belong)."""
    return story.split("\n---\n")[0]


def test_samples_cover_the_vocabulary() -> None:
    assert set(SAMPLES) == set(EVENT_TYPES)


@pytest.mark.parametrize("locale", LOCALES)
def test_both_phrasebooks_have_the_same_slots_and_known_claims(locale: str) -> None:
    book = phrasebook("kancolle", locale)
    assert set(book) == set(phrasebook("kancolle", "ja"))
    for slot, options in book.items():
        for phrase in options:
            claims, _ = split_claims(phrase)  # an unknown claim raises
            assert all(c.name in CLAIMS for c in claims), slot


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("event_type", sorted(EVENT_TYPES))
def test_every_event_type_is_told_in_several_ways(event_type: str, locale: str) -> None:
    """Every kancolle event has a teller and phrasings in both languages (strict: a missing one raises); all but
    the structural ones are told in at least two ways over the seeds."""
    event = {"type": event_type, **SAMPLES[event_type]}
    mode = "base" if event_type in ("cycle_start", "scene", "supply", "dock", "discovery", "emotion") else "battle"
    seen = set()
    for n in range(30):
        narrator = KancolleNarrator(
            _bundle([event], mode, f"seed{n}"), prose={}, growth=None, locale=locale, pack={}, strict=True,
            names=NAMES[locale], pronouns=PRONOUNS,
        )  # fmt: skip
        seen.add(narrator._event(0, narrator.events[0]).strip())
    if event_type in STRUCTURAL:
        assert seen == {""}
        return
    assert "" not in seen and len(seen) >= 2, seen


class Oracle:
    """The facts of a kancolle round by a plain replay of its events, apart from kancolle_story.py on purpose."""

    def __init__(self, bundle: dict[str, Any]):
        self.events = bundle["events"]
        self.units = {u["id"]: u for u in bundle["encounter"]["units"]}

    def gone(self, uid: str, at: int) -> bool:
        unit = self.units[uid]
        if unit.get("removed") or unit.get("lost"):
            return True
        return any(e["type"] in ("removed", "lost") and e["unit"] == uid for e in self.events[: at + 1]) or self.sunk(
            uid, at
        )

    def sunk(self, uid: str, at: int) -> bool:
        return any(e["type"] == "unable_to_act" and e["unit"] == uid and e["reason"] == "sunk"
                   for e in self.events[: at + 1])  # fmt: skip

    def hurt(self, uid: str, at: int) -> bool:
        if self.units[uid].get("steps"):
            return True
        hits = (e for e in self.events[: at + 1] if e["type"] == "damage" and e["unit"] == uid)
        accidents = (e for e in self.events[: at + 1] if e["type"] == "accident")
        return any(e["after"] > e["before"] for e in hits) or any(
            x["unit"] == uid and x["n"] for e in accidents for x in e["effects"].get("steps", [])
        )

    def holds(self, name: str, uid: str | None, at: int, *, entered: set[str], battle: bool) -> bool:
        if name == "battle":
            return battle
        assert uid is not None, name
        if name == "alive":
            return not self.gone(uid, at)
        if name == "stands":
            return not self.gone(uid, len(self.events))
        if name == "sunk":
            return self.sunk(uid, at)
        if name == "hurt":
            return self.hurt(uid, at)
        if name == "entered":
            return uid in entered
        if name == "pc":
            return self.units[uid]["side"] == "pc"
        raise AssertionError(f"a kancolle phrasing claims {name!r}, which this oracle does not know")


def _all_rounds() -> list[tuple[str, dict[str, Any]]]:
    return [*vector_bundles(), *seeded_bundles()]


def _narrated(bundle: dict[str, Any], locale: str, prose: dict[str, str]) -> tuple[KancolleNarrator, str]:
    # A vector's own names are Japanese (響): in English a unit the table does not name is called by its id.
    names = {u["id"]: NAMES[locale].get(u["id"]) or (u["name"] if locale == "ja" else u["id"].capitalize())
             for u in bundle["encounter"]["units"]}  # fmt: skip
    narrator = KancolleNarrator(bundle, prose=prose, growth=None, locale=locale, pack={}, strict=True,
                                names=names, pronouns=PRONOUNS)  # fmt: skip
    return narrator, narrator.write()


@pytest.mark.parametrize("locale", LOCALES)
def test_no_sentence_claims_what_the_events_deny(locale: str) -> None:
    """Over every vector's round and the battle and base vectors over 12 seeds (deadline by deadline): every claim
    of every sentence holds by the oracle; a hit is told only for a hit, a miss only for a miss, a sinking exactly
    once for each ship that sank and for no other; who fires is who the event says; no slot is empty."""
    rounds = _all_rounds()
    assert len(rounds) >= 300
    for name, bundle in rounds:
        prose = {u["id"]: PROSE[locale].get(u["id"], "") for u in bundle["encounter"]["units"] if u["side"] == "pc"}
        narrator, story = _narrated(bundle, locale, {k: v for k, v in prose.items() if v})
        oracle = Oracle(bundle)
        events = bundle["events"]
        battle = narrator.facts.battle
        sinkings = [e["unit"] for e in events if e["type"] == "unable_to_act" and e["reason"] == "sunk"]
        told_sunk = []
        for said in narrator.trace:
            for claim, uid in said.claims:
                assert oracle.holds(claim.name, uid, said.at, entered=set(narrator.prose), battle=battle), (
                    name, said.slot, said.text, claim, uid)  # fmt: skip
            event = events[said.at] if 0 <= said.at < len(events) else {}
            if said.slot in ("strike.hit", "strike.special"):
                assert event.get("hit"), (name, said.text)
            if said.slot in ("strike.miss", "strike.void"):
                assert event.get("type") in ("attack", "torpedo", "air_attack") and not event.get("hit"), name
            if said.slot.startswith("open."):
                assert (claim_of := dict((c.name, u) for c, u in said.claims)).get("alive") == event["attacker"], (
                    name, said.text, claim_of)  # fmt: skip
            if said.slot.startswith("end."):  # how the battle ended: its outcome, and its cause where told
                outcome, _, cause = said.slot.removeprefix("end.").partition("_")
                assert event["outcome"] == outcome and cause in ("", event["cause"]), (name, said.text, event)
            if said.slot in ("sink.pc", "sink.foe"):
                told_sunk.append(event["unit"])
            if said.slot.startswith("damage."):
                assert event.get("type") == "damage" and event.get("state") != "轟沈", name
        assert sorted(told_sunk) == sorted(sinkings), (name, told_sunk, sinkings)
        prose_text = _prose(story)
        assert "{" not in prose_text.replace('{: lang="ja"}', ""), (name, prose_text)
        assert "、の" not in prose_text and all("  " not in line for line in prose_text.split("\n")), name


@pytest.mark.parametrize("locale", LOCALES)
def test_no_mechanics_no_mecha_no_repeats_and_english_is_english(locale: str) -> None:
    words = [re.compile(w) for w in MECHANICS[locale]]
    for name, bundle in _all_rounds():
        prose = {u["id"]: PROSE[locale][u["id"]] for u in bundle["encounter"]["units"] if u["id"] in PROSE[locale]}
        _, story = _narrated(bundle, locale, prose)
        text = _prose(story)
        bare = _MARKED.sub("", text)
        for word in words:
            assert not word.search(re.sub(r"「[^」]*」|“[^”]*”", "", bare)), (name, word.pattern, text)
        if locale == "en":
            assert not _CJK.search(bare), (name, text)
        quoted = _MARKED.sub("\x02", re.sub(r"「[^「」]*」|“[^“”]*”|（[^（）]*）", "\x02", text))
        frames = [x.strip() for x in re.findall(r"[^。！？!?.\n]+[。！？!?.]*", quoted)]
        frames = [x for x in frames if len(x) > 3 and not x.startswith("#")]
        assert len(frames) == len(set(frames)), (name, [f for f in frames if frames.count(f) > 1])


@pytest.mark.parametrize("locale", LOCALES)
def test_the_players_lines_are_quoted_verbatim(locale: str) -> None:
    """Every 「台詞」 of every ship girl in the battle is in its story word for word (in English, Japanese lines set
    apart as the player's own words); a note to the master never is."""
    stories = tell(golden_battle(), locale)
    base = tell([golden_base()], locale, [BASE_PROSE[locale]])[0]
    from tests.reports.kancolle_rounds import LATER

    for story, entries in zip([*stories, base], [PROSE[locale], *LATER[locale], BASE_PROSE[locale]], strict=False):
        bundle_pcs = ("a", "b", "c")
        for uid in bundle_pcs:
            if uid not in entries or f"**{NAMES[locale][uid]}**" not in story:
                continue
            reading = read_playing(entries[uid], names=tuple(NAMES[locale].values()))
            for piece in reading.pieces:
                if piece.kind == "speech":
                    assert piece.text.strip() in story, (uid, piece.text, story)
            for note in reading.notes:
                assert note not in _prose(story)
        assert "アドリブ" not in story and "絡み歓迎" not in story


def test_a_japanese_story_of_a_whole_scenario_never_repeats_a_sentence() -> None:
    stories = tell(golden_battle(), "ja")
    seen: set[str] = set()
    for story in stories:
        mine = {s for s in sentences(_prose(story)) if not s.startswith("#")}
        assert not (mine & seen), mine & seen
        seen |= mine


def test_draft_report_tells_a_kancolle_round_with_the_kancolle_narrator() -> None:
    bundle = golden_base()
    story = draft_report(bundle, prose={}, locale="ja", pack={})
    assert "ラウンド終了時の状態" in story and "鎮守府の資材" in story
    assert "機体" not in story


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("case", ["battle", "base"])
def test_golden_kancolle_stories(case: str, locale: str) -> None:
    """A battle played deadline by deadline to the night, and one base cycle, give the stored stories (read by a
    person; PBP_UPDATE_GOLDEN=1 rewrites them after a change)."""
    if case == "battle":
        text = "\n\n".join(tell(golden_battle(), locale))
    else:
        text = tell([golden_base()], locale, [BASE_PROSE[locale]])[0]
    path = GOLDEN / f"kancolle_{case}.{locale}.md"
    if os.environ.get("PBP_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} changed (PBP_UPDATE_GOLDEN=1 to accept)"
