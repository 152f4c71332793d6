"""The leak check's text work (pbp.reports.leaks): what a secret phrase is, where it is found (whole, trimmed,
through markup, width and case, only on word boundaries in Latin text), what is left out as already public, and
that the narrator's own stories of the demo battle never trip it."""

from __future__ import annotations

import pytest

from bench.stories import play
from pbp.packs import demo_pack
from pbp.reports import draft_report
from pbp.reports.leaks import Secret, find_leaks, own_words, phrases
from pbp.services.leaks import public_pack

NOTES = """
第3ラウンド開始時、上流から古カガチが増援として現れる（位置 [1000, 300]）。PCには知らせないこと。
ハヤチは体力が半分を切ると北へ逃げる。
The elder Kagachi arrives from upstream in round three; keep it quiet.
Reinforcements: two."""


def notes_secrets(text: str = NOTES) -> list[Secret]:
    return [Secret(p, True, "gm_notes", "tama_river") for p in phrases(text)]


ELDER = Secret("古カガチ", False, "enemy", "kagachi_elder")
OROCHI = Secret("Orochi", False, "enemy", "orochi")


def found(parts: dict[str, str], secrets: list[Secret], public: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    return [(leak.part, leak.secret.text, leak.found) for leak in find_leaks(parts, secrets, public)]


def test_a_phrase_is_what_lies_between_punctuation_and_weighs_enough():
    """8 kanji or kana (a CJK character weighs 2), or three words of 16 letters; single words never."""
    assert phrases(NOTES) == [
        "第3ラウンド開始時",
        "上流から古カガチが増援として現れる",
        "PCには知らせないこと",
        "ハヤチは体力が半分を切ると北へ逃げる",
        "The elder Kagachi arrives from upstream in round three",
    ]
    assert phrases("位置。増援。北へ逃げる。keep it quiet. Reinforcements") == []  # short, or one word
    assert phrases("七文字の言葉だ。八文字の言葉です。") == ["八文字の言葉です"]
    assert phrases("one two abcdefghi. one two abcdefghij") == ["one two abcdefghij"]  # 15 vs 16 letters


def test_a_copied_phrase_is_found_through_markup_width_and_case():
    parts = {
        "intro": "霧の中、**上流から**古カガチ*が増援として*現れる気配がした。",
        "story": "ＰＣには　知らせないこと、と彼は言った。",
        "outro": "THE ELDER kagachi arrives — from upstream in round THREE.",
    }
    assert found(parts, notes_secrets()) == [
        ("intro", "上流から古カガチが増援として現れる", "上流から**古カガチ*が増援として*現れる"),
        ("story", "PCには知らせないこと", "ＰＣには　知らせないこと"),
        ("outro", "The elder Kagachi arrives from upstream in round three",
         "THE ELDER kagachi arrives — from upstream in round THREE"),
    ]  # fmt: skip


def test_a_long_phrase_is_found_with_its_ends_trimmed():
    """Any stretch of 12 kanji or kana (weight 24) of a long phrase: a copied clause is found without its start."""
    assert found({"story": "古カガチが増援として現れるのだ。"}, notes_secrets()) == [
        ("story", "上流から古カガチが増援として現れる", "古カガチが増援として現れる")
    ]
    assert found({"story": "増援として現れるのだ。"}, notes_secrets()) == []  # 8 characters: too short a stretch


def test_a_paraphrase_or_single_words_are_not_found():
    parts = {"story": "上流から増援が来るかもしれない。古い敵がいる。北へ逃げた影。Round three is near."}
    assert found(parts, notes_secrets()) == []


def test_names_are_found_whole_and_latin_ones_only_as_words():
    parts = {"story": "Orochimaru was there; an orochi-like shape.", "outro": "霧の中の古カガチ。"}
    assert found(parts, [ELDER, OROCHI]) == [("story", "Orochi", "orochi"), ("outro", "古カガチ", "古カガチ")]
    assert found({"story": "Orochimaru waited."}, [OROCHI]) == []
    assert found({"story": "古い影"}, [Secret("影", False, "enemy", "x")]) == []  # one kanji: too common a name


def test_what_only_the_rendered_page_shows_is_found_too():
    """An entity hides a name from the Markdown as written, not from the page; a link target is on the page."""
    parts = {"intro": "&#21476;カガチ", "outro": "[霧](https://example.org/?q=Orochi)"}
    leaks = find_leaks(parts, [ELDER, OROCHI])
    assert [(leak.part, leak.found) for leak in leaks] == [("intro", "古カガチ"), ("outro", "Orochi")]


def test_what_is_public_already_is_no_secret():
    """The pack's public data, the narrator's words, earlier published reports: a phrase or name they hold."""
    public = ("ハヤチは体力が半分を切ると北へ逃げる、と前回の報告書にあった。", "古カガチ")
    parts = {"story": "ハヤチは体力が半分を切ると北へ逃げる。古カガチもいる。"}
    assert found(parts, [*notes_secrets(), ELDER], public) == []
    assert found(parts, [*notes_secrets(), ELDER]) != []


def test_a_find_is_shown_with_its_surroundings():
    [leak] = find_leaks({"intro": "前置き。\n次に、PCには知らせないこと。後略"}, notes_secrets())
    assert (leak.before, leak.found, leak.after) == ("前置き。 次に、", "PCには知らせないこと", "。後略")
    long = "あ" * 60 + "PCには知らせないこと" + "い" * 60
    [leak] = find_leaks({"story": long}, notes_secrets())
    assert leak.before == "…" + "あ" * 40 and leak.after == "い" * 40 + "…"


def test_each_secret_is_reported_once_per_part_in_the_order_of_the_parts():
    parts = {"intro": "古カガチ、古カガチ。", "story": "PCには知らせないこと。古カガチ。"}
    assert found(parts, [*notes_secrets(), ELDER]) == [
        ("intro", "古カガチ", "古カガチ"),
        ("story", "PCには知らせないこと", "PCには知らせないこと"),
        ("story", "古カガチ", "古カガチ"),
    ]


@pytest.mark.parametrize("seed", ["leak-a", "leak-b"])
def test_the_narrators_own_stories_of_the_demo_never_trip_the_check(seed):
    """Every round of the demo battle (12, varied entries) in both languages, against the demo's secrets: its GM
    notes and the enemy types never fielded (the elder and the Orochi)."""
    pack = demo_pack().data
    secrets = [Secret(p, True, "gm_notes", s) for s, sc in pack["scenarios"].items() for p in phrases(sc["gm_notes"])]
    for tid in ("kagachi_elder", "orochi"):
        enemy = pack["enemies"][tid]
        secrets += [Secret(enemy["ja"], False, "enemy", tid), Secret(enemy["en"], False, "enemy", tid)]
        secrets += [Secret(p, True, "enemy", tid) for p in phrases(enemy["description"])]
    public = (*public_pack(pack), *own_words())
    for bundle, prose in play(seed):
        for locale in ("ja", "en"):
            story = draft_report(bundle, prose=prose, pack=pack, locale=locale, strict=True)
            assert find_leaks({"story": story}, secrets, public) == [], (bundle["round"]["number"], locale)
