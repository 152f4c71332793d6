"""A scene scenario (the demo's hangar_eve) is told as a scene: opened on its own setting, each PC's check told by its
pack name and its own success or failure text as the dice graded it, the players' lines verbatim, the question before
the answer, no battlefield, no note to the master, no empty slot. The entries are the corpus's hangar entries
(p20-p23, /work/shared/prose/entries.toml) played by four PCs over eight seeds, in Japanese and English."""

from __future__ import annotations

import copy
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.encounters import build_encounter
from pbp.packs import demo_pack
from pbp.reports import draft_report
from pbp.reports.scene_story import is_scene_round, scene_phrasebook
from tests.reports.demo import demo_bundles

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "prose" / "entries.toml"
SEEDS = [f"hangar-{n}" for n in range(8)]
#: The corpus's hangar entries by the PC who plays them, and the check each takes on.
CAST = {"aoi": ("p20", "petition"), "makoto": ("p21", "concert"), "chihaya": ("p22", "repair"), "noa": ("p23", "drill")}
#: Words of a battlefield: none may come from the narrator (a scene's own texts or a player may say them).
BATTLE_WORDS = {
    "ja": ["敵", "機体", "装甲", "河原", "堤防", "霧", "戦場", "弾", "照準", "泥", "砲", "川"],
    "en": ["enemy", "machine", "armour", "armor", "riverbank", "levee", "fog", "battlefield", "mud", "gun", "river"],
}
#: What the notes to the master say in the corpus entries (never in the story).
NOTE_WORDS = ["アドリブ", "歓迎", "お借りしています", "お返事", "お任せします", "【", "Adlib", "reply to"]
BROKEN = ["、の", "  ", "{", "}", "\x01", "\x02", "「」", "（）", "は。", "None"]


@cache
def _entries() -> dict[str, dict[str, Any]]:
    if not CORPUS.exists():
        pytest.skip(f"the prose corpus is not here: {CORPUS}")
    with CORPUS.open("rb") as f:
        return {e["id"]: e for e in tomllib.load(f)["entry"]}


@cache
def _pack() -> dict[str, Any]:
    """The demo pack with two more PCs for the corpus's 千早 (on foot) and ノア (a fighter)."""
    pack = copy.deepcopy(demo_pack().data)
    chihaya = {k: v for k, v in pack["characters"]["aoi"].items() if k not in ("vehicle", "vehicle_weapons")}
    pack["characters"]["chihaya"] = {**chihaya, "ja": "千早", "en": "Chihaya", "skills": {"整備": 4, "調達": 2}}
    pack["characters"]["noa"] = {**pack["characters"]["makoto"], "ja": "ノア", "en": "Noah"}
    return pack


def _bundle(seed: str, cast: dict[str, tuple[str, str]] = CAST) -> dict[str, Any]:
    """One round of the hangar scene, resolved by the engine: each PC makes the check `cast` gives them."""
    pack = _pack()
    checks = {c["id"]: c for c in pack["scenarios"]["hangar_eve"]["checks"]}
    encounter = build_encounter(pack, "hangar_eve", [(uid, pack["characters"][uid]) for uid in cast])
    majors = {
        uid: {"type": "check", "label": c, "skill": checks[c]["skill"], "need": checks[c]["need"]}
        for uid, (_, c) in cast.items()
    }
    orders = {"orders": [{"unit": uid, "major": major} for uid, major in majors.items()]}
    result = find_ruleset("pool").resolve(encounter, orders, SeededDice(seed), pack=pack)
    info = {"id": 1, "number": 1, "scenario": "hangar-night", "pack_scenario": "hangar_eve", "campaign": "demo"}
    return {
        "round": info,
        "ruleset": "pool",
        "seed_hash": seed_hash(seed),
        "encounter": encounter,
        "orders": orders,
        "events": result.events,
        "state": result.state,
    }


def _prose() -> dict[str, str]:
    return {uid: _entries()[entry]["prose"] for uid, (entry, _) in CAST.items()}


@cache
def _story(seed: str, locale: str) -> str:
    return draft_report(_bundle(seed), prose=_prose(), locale=locale, pack=_pack())


def _body(story: str) -> str:
    """The story without the state list under it."""
    return story.split("\n---\n")[0]


def _lines(prose: str, opening: str, closing: str) -> list[str]:
    """The lines of an entry that are nothing but a quoted line (「…」 in Japanese, "…" in English), unquoted."""
    found = []
    for line in prose.splitlines():
        line = line.strip()
        if len(line) > 2 and line.startswith(opening) and line.endswith(closing):
            found.append(line[1:-1])
    return found


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_setting_opens_the_story(seed, locale):
    setting = {k: v[locale] for k, v in _pack()["scenarios"]["hangar_eve"].items() if k in ("setting", "time")}
    opening = _story(seed, locale).split("\n\n")[0].lower()
    assert all(word.lower() in opening for word in setting.values()), opening
    assert _pack()["scenarios"]["hangar_eve"]["weather"][locale].lower() in opening


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("locale", ["ja", "en"])
def test_each_check_is_told_by_its_name_and_its_own_outcome_as_the_dice_fell(seed, locale):
    bundle = _bundle(seed)
    story = _body(_story(seed, locale))
    checks = {c["id"]: c for c in _pack()["scenarios"]["hangar_eve"]["checks"]}
    made = [e for e in bundle["events"] if e["type"] == "check"]
    assert {e["label"] for e in made} == {c for _, c in CAST.values()}
    for e in made:
        check = checks[e["label"]]
        said, unsaid = ("success", "failure") if e["success"] else ("failure", "success")
        assert check[said][locale] in story, (e["label"], said)
        assert check[unsaid][locale] not in story, (e["label"], unsaid)
        name = check[locale] if locale == "ja" else check[locale][0].lower() + check[locale][1:]
        assert name in story


def test_the_seeds_cover_both_outcomes():
    """The eight seeds are worth running: the dice both grant and deny some checks."""
    outcomes = {e["success"] for seed in SEEDS for e in _bundle(seed)["events"] if e["type"] == "check"}
    assert outcomes == {True, False}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_battlefield_comes_from_the_narrator(seed, locale):
    """A battlefield word may be in the story only where a player or the scene's own texts said it."""
    story = _body(_story(seed, locale))
    sources = "\n".join(_prose().values()) + repr(_pack()["scenarios"]["hangar_eve"])
    for word in BATTLE_WORDS[locale]:
        if word in story.lower():
            assert word in sources.lower(), word


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_scene_phrasebook_has_no_battlefield_word(locale):
    text = "\n".join(p for options in scene_phrasebook("pool", locale).values() for p in options).lower()
    assert [w for w in BATTLE_WORDS[locale] if w in text] == []


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_blank_entries_get_quiet_moments_and_no_battlefield(locale):
    """Four blank entries (白紙, おまかせ, nothing, an empty line): each PC still has a moment, no word of war."""
    prose = {"aoi": "（白紙）", "makoto": "おまかせします。", "chihaya": "", "noa": "   "}
    story = _body(draft_report(_bundle(SEEDS[0]), prose=prose, locale=locale, pack=_pack()))
    checks = _pack()["scenarios"]["hangar_eve"]["checks"]
    own = repr([c for c in checks if c["id"] in {c for _, c in CAST.values()}])
    assert [w for w in BATTLE_WORDS[locale] if w in story.lower() and w not in own.lower()] == []
    for name in ["葵", "真琴", "千早", "ノア"] if locale == "ja" else ["Aoi", "Makoto", "Chihaya", "Noah"]:
        assert name in story
    assert not any(word in story for word in ("臆病", "ためら", "coward", "hesita"))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_line_of_the_entries_is_quoted_verbatim(seed):
    ja, en = _story(seed, "ja"), _story(seed, "en")
    for uid, (entry, _) in CAST.items():
        prose = _entries()[entry]["prose"]
        for line in _lines(prose, "「", "」"):
            assert f"「{line}」" in ja, (uid, line)
        for line in _lines(prose, '"', '"'):
            assert f"“{line}”" in en and f"「{line}」" in ja, (uid, line)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("locale", ["ja", "en"])
def test_no_note_to_the_master_and_no_empty_slot(seed, locale):
    story = _body(_story(seed, locale))
    assert [w for w in NOTE_WORDS if w in story] == []
    assert [b for b in BROKEN if b in story.replace('{: lang="ja"}', "")] == []
    if locale == "en":  # Japanese only inside a line set apart as the player's own words
        bare = re.sub(r"\*「[^」]*」\*\{: lang=\"ja\"\}", "", story)
        assert not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", bare), bare


@pytest.mark.parametrize("seed", SEEDS)
def test_those_who_speak_to_each_other_share_a_paragraph_the_question_first(seed):
    paragraphs = _body(_story(seed, "ja")).split("\n\n")
    pairs = [("真琴は、どうしてそれを吹くの？", "別に、上手くなりたくて"), ("なあノアくん。", "Scared? Yeah.")]
    for question, answer in pairs:
        [shared] = [p for p in paragraphs if question in p]
        assert answer in shared
        assert shared.index(question) < shared.index(answer)
    english = _body(_story(seed, "en"))
    assert english.index("なあノアくん。") < english.index("Scared? Yeah.")


def test_the_same_round_is_told_the_same_way():
    assert draft_report(_bundle(SEEDS[1]), prose=_prose(), locale="ja", pack=_pack()) == _story(SEEDS[1], "ja")


def test_a_scene_is_dispatched_by_its_kind_and_a_battle_is_not():
    pack = _pack()
    assert is_scene_round(_bundle(SEEDS[0]), pack)
    battle = demo_bundles()[0]
    assert not is_scene_round(battle, pack)
    assert not is_scene_round({"round": {}}, pack)
    assert "カガチ" in draft_report(battle, prose={}, locale="ja", pack=pack)  # the battle narrator tells a battle


@pytest.mark.parametrize(
    "prose",
    [
        "あ" * 800 + "。",
        "【心情】\n【行動】\n【台詞】\n",
        "😀😀😀",
        "**太字**だけ\n- リスト\n# 見出し",
        "「閉じない台詞\n（閉じない括弧",
        'Mixed 日本語 and English「混ざる」"quoted',
        "{a}は{place}の{~air}",
    ],
)
def test_bad_input_never_raises_nor_breaks_the_story(prose):
    story = draft_report(_bundle(SEEDS[2]), prose={"aoi": prose}, locale="ja", pack=_pack())
    body = _body(story)
    assert [b for b in ("、の", "\x01", "\x02", "「」", "（）") if b in body] == []
    assert body.count("「") == body.count("」") or "「閉じない台詞" in prose
