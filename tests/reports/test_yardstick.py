"""The stories' measures (issue 29, pbp/reports/yardstick.py) on small hand-made entries and stories: each finds
what it is meant to find and nothing else. The figures over the corpus are printed by `python -m bench stories`;
their goals are asserted once the narrator meets them."""

from __future__ import annotations

import pytest

from pbp.reports import yardstick as y

CORPUS = '''
# ---- 丸子橋防衛戦 第1章: カガチの群れ ----

[[entry]]
id = "p01"
pc = "葵"
scenario_kind = "battle"
lang = "ja"
prose = """
【行動】
橋のたもとに陣取る。「ここは通さない」と小さく呟く。
「……大丈夫。手は、震えてない」（自分に言い聞かせるように）
【台詞】
「ここから先へは、一歩も行かせない」「行くよ」
「閉じない括弧
【その他】
「MS様へ」アドリブ歓迎です。苦戦もOKです！
"""

# ---- 出撃前夜、第三格納庫 ----

[[entry]]
id = "p23"
pc = "ノア"
scenario_kind = "scene"
lang = "en"
summary_en = "Noah answers."
prose = """
[Action]
Noah sits on the wing.

"Scared? Yeah. Every time."
(Adlib welcome! This is my reply.)
"""

[[entry]]
id = "p12"
pc = "真琴"
scenario_kind = "scene"
lang = "ja"
prose = "親玉に突っ込んで、翼の付け根を撃ち抜く！　アドリブ歓迎！"
'''
AOI, NOAH, MAKOTO = y.load_entries(CORPUS)


def test_entries_are_read_with_their_chapter_from_the_comment_above():
    assert [(e.id, e.pc, e.kind, e.lang, e.chapter) for e in (AOI, NOAH, MAKOTO)] == [
        ("p01", "葵", "battle", "ja", "丸子橋防衛戦 第1章: カガチの群れ"),
        ("p23", "ノア", "scene", "en", "出撃前夜、第三格納庫"),
        ("p12", "真琴", "scene", "ja", "出撃前夜、第三格納庫"),
    ]
    assert NOAH.summary_en == "Noah answers." and AOI.summary_en == ""


def test_spoken_lines_are_the_quotes_on_their_own_line_or_under_a_dialogue_heading():
    """Not the 「」 inside a narrative line, not an unclosed one, not a note's; the stage direction is no part."""
    assert y.dialogue(AOI) == [
        "「……大丈夫。手は、震えてない」",
        "「ここから先へは、一歩も行かせない」",
        "「行くよ」",
    ]
    assert y.dialogue(NOAH) == ["Scared? Yeah. Every time."]
    assert y.dialogue(MAKOTO) == []


def test_notes_are_the_other_section_and_the_sentence_that_asks_the_master():
    assert y.notes(AOI) == ["「MS様へ」アドリブ歓迎です。苦戦もOKです！"]
    assert y.notes(NOAH) == ["(Adlib welcome! This is my reply.)"]
    assert y.notes(MAKOTO) == ["\u3000アドリブ歓迎！"]  # the plan on the same line is no note
    assert y.heading_names([AOI, NOAH]) == {"行動", "台詞", "その他", "Action"}


STATE = "\n\n---\n\n**ラウンド終了時の状態**\n\n- **葵**：【無傷】 アドリブ歓迎 私"


def test_a_line_is_quoted_only_verbatim_and_only_in_the_story_of_its_language():
    told = "葵は言った。「……大丈夫。手は、震えてない」「ここから先へは、一歩も行かせない」「行くよ」"
    assert y.quotes_missing(told + STATE, [AOI, NOAH], "ja") == []
    assert y.quotes_total([AOI, NOAH], "ja") == 3
    assert y.quotes_missing(told.replace("、一歩", "一歩"), [AOI], "ja") == ["「ここから先へは、一歩も行かせない」"]
    assert y.quotes_missing(told.replace("「行くよ」", "行くよ"), [AOI], "ja") == ["「行くよ」"]
    # In the state list under the story it does not count.
    assert y.quotes_missing("……" + STATE + "「行くよ」", [AOI], "ja") == [
        "「……大丈夫。手は、震えてない」",
        "「ここから先へは、一歩も行かせない」",
        "「行くよ」",
    ]
    assert y.quotes_missing("Noah shrugged. \\*“Scared? Yeah. Every time.”", [AOI, NOAH], "en") == []
    assert y.quotes_missing("Noah shrugged.", [AOI, NOAH], "en") == ["Scared? Yeah. Every time."]


@pytest.mark.parametrize(
    ("story", "found"),
    [
        ("葵は盾を構えた。", []),
        ("（【心情】）葵は自分に言い聞かせる。", ["【心情】"]),
        ("■行動 葵は走った。", ["■"]),
        ("Noah said it — [Action] — twice.", ["[Action]"]),
        ("葵は\\*\\*太字\\*\\*と言った。", ["**", "**"]),
        ("葵は**太字**と言った。", ["**", "**"]),
        ("葵は言った。\\# 見出し", ["# "]),
        ("## 夜明けの橋\n\n葵は盾を構えた。", []),  # the narrator's own title is markup, not a leak
        ("## 行動\n\n葵は盾を構えた。", ["行動"]),  # ... but an entry's heading as a title is
        ("葵はアドリブ歓迎と思った。", ["アドリブ"]),
        ("MS様、と葵は言った。連携希望。", ["MS様", "連携希望"]),
        ("ワイヤーが脚に絡み合った。", []),  # 絡み as a verb of the story
        ('*苦戦もOKです！*{: lang="ja"}', ["苦戦もOKです！"]),  # a note's own sentence
        ("Aoi shrugged (Adlib welcome!).", ["Adlib welcome!"]),  # the note's sentence, once
        ("Aoi shrugged, ad-lib or not.", ["ad-lib"]),
    ],
)
def test_headings_bold_marks_and_notes_in_the_story_are_counted(story, found):
    assert y.leaks(story + STATE, [AOI, NOAH]) == found


@pytest.mark.parametrize(
    ("story", "why"),
    [
        ("葵は敵の姿が見えるべく前に出た。", "potential or passive"),
        ("葵は届いてしまうべく走った。", "potential or passive"),
        ("葵は撃てるべく構えた。", "potential or passive"),
        ("葵はできるべく動いた。", "potential or passive"),
        ("葵は叩き落とされるべく飛んだ。", "potential or passive"),
        ("葵は橋を守っているべく立った。", "stative"),
        ("葵は橋を守ってるべく立った。", "stative"),
        ("葵は逃げないべく踏みとどまった。", "negative"),
        ("葵は守ったべく息をついた。", "past"),
        ("葵は守りたいべく構えた。", "desire"),
        ("葵は守ろうべく構えた。", "volitional form"),
        ("葵は空回りするくらいでちょうどいいですべく身を翻した。", "not a verb"),
        ("私は正体を確かめるべく照明弾を上げた。", "first person"),
        ("うちは橋を守るべく走った。", "first person"),
        ("また、川からあいつらが上がってくるべく踏み込む。", "another subject"),
    ],
)
def test_a_beku_after_a_clause_that_is_no_aim_is_counted(story, why):
    found = y.broken_beku(story)
    assert len(found) == 1 and found[0].startswith(f"{why}: ")


@pytest.mark.parametrize(
    "story",
    [
        "葵は橋を守るべく盾を構えた。",
        "葵は正体を確かめるべく、照明弾を一発だけ打ち上げた。",
        "真琴は敵を引き離すべく機首を上げた。",
        "千早は進路を阻止すべく杭を撃ち込んだ。",
        "千早は時間を稼ぐべく走った。そのうち夜が明けた。",
        "葵は叫んだ。「見えるべく、私が行く！」",  # the player's own words, quoted
        "（うちは見えるべく）千早は思った。",  # inner voice
        "",
    ],
)
def test_a_beku_of_an_aim_and_the_players_quoted_words_are_not_counted(story):
    assert y.broken_beku(story + STATE) == []


def test_first_person_is_counted_in_narration_only():
    assert y.first_person("私は橋を守る。葵は俺の前に出た。" + STATE, "ja") == ["私", "俺"]
    assert y.first_person("うちは走った。あたしも。僕は、と言いかけた。", "ja") == ["うち", "あたし", "僕"]
    said = "「私が行く」（俺なら撃てる）『僕の町』そのうち、基地の灯りが見えた。葵は私服だった。"
    assert y.first_person(said, "ja") == []
    assert y.first_person("I held the line. My hands shook; Aoi looked at me.", "en") == ["I", "My", "me"]
    quoted = '“I\'m scared,” he said. "Me too." *私は行く*{: lang="ja"} (my own words) Aoi nodded.'
    assert y.first_person(quoted, "en") == []


def test_japanese_script_in_english_counts_outside_the_players_marked_words():
    assert y.cjk_outside_quotes('Aoi said, “*よし*{: lang="ja"}” and ran.' + STATE) == []
    assert y.cjk_outside_quotes("Makoto had a plan: 機首を下げ.") == list("機首を下げ")


def test_mechanics_words_are_whole_words_in_english():
    assert y.mechanics_words("葵は中破した。ダメージは大きい。", "ja") == ["ダメージ", "中破"]
    assert y.mechanics_words("The dice roll was bad.", "en") == ["dice", "roll"]
    assert y.mechanics_words("The enrolled pilot rolled away.", "en") == []


def test_frames_mask_names_speech_and_numbers():
    names = ["葵", "真琴", "カガチ壱"]
    one = "葵はカガチ壱を撃った。「行くよ」葵は言った。3発が当たった。"
    other = "真琴はカガチ壱を撃った。「任せろ！」真琴は言った。5発が当たった。"
    assert y.frames(one, names, "ja") == ["〇は〇を撃った。", "「」〇は言った。", "0発が当たった。"]
    assert y.frames(other, names, "ja") == y.frames(one, names, "ja")
    assert y.distinct_frames([one, other], names, "ja") == 0.5
    assert y.distinct_frames([one], names, "ja") == 1.0
    en = ['Aoi fired. “*よし*{: lang="ja"}” she said.', 'Makoto fired. "Go!" she said.']
    assert y.distinct_frames(en, ["Aoi", "Makoto"], "en") == 0.5
    assert y.distinct_frames([], names, "ja") == 1.0


def test_name_gaps_are_per_paragraph_for_the_most_named_pc_and_leave_speech_out():
    crowded = "葵は撃った。葵は走った。葵は叫んだ。"  # 葵 at 0, 6, 12
    spaced = "葵は" + "あ" * 98 + "葵は言った。"  # 葵 at 0 and 100
    assert y.name_gaps(f"{crowded}\n\n{spaced}\n\n真琴は一度だけ笑った。", ["葵", "真琴"]) == [6.0, 100.0]
    assert y.name_gaps("葵は言った。「葵、葵、葵」", ["葵"]) == []  # one mention outside the quote
    assert y.name_gaps("真琴は撃った。葵は撃った。真琴は走った。", ["葵", "真琴"]) == [13.0]


def test_a_unit_acting_after_the_round_it_fell_is_found():
    r1 = [{"type": "attack", "round": 1, "attacker": "aoi"}, {"type": "death", "round": 1, "unit": "makoto"}]
    r2 = [{"type": "move", "round": 2, "unit": "makoto"}, {"type": "attack", "round": 2, "attacker": "aoi"}]
    assert y.acting_after_death([r1, r2]) == ["2: move by makoto"]
    assert y.acting_after_death([r2, r1]) == []


BAD = [
    "葵は" + "走りながら撃ち、" * 100 + "進むべく",
    "【心情】\n【行動】\n■台詞\n[Action]",
    "🔥🔥🔥\n\n😀",
    "# 見出し\n**太字** [リンク](javascript:alert(1)) <script>alert(1)</script>",
    "I will hold 「絶対に通さない」 the line. 葵 Aoi",
    "「閉じない『括弧（と）」」」」）（（",
    "",
]


@pytest.mark.parametrize("story", BAD)
def test_no_measure_raises_on_bad_input(story):
    """The measures read whatever a narrator writes: an 800-character sentence, only headings, only emoji, only
    Markdown, mixed scripts, unbalanced brackets, nothing."""
    for locale in ("ja", "en"):
        assert isinstance(y.quotes_missing(story, [AOI, NOAH, MAKOTO], locale), list)
        assert isinstance(y.first_person(story, locale), list)
        assert isinstance(y.mechanics_words(story, locale), list)
        assert 0 < y.distinct_frames([story], ["葵"], locale) <= 1
    assert isinstance(y.leaks(story, [AOI, NOAH, MAKOTO]), list)
    assert isinstance(y.broken_beku(story), list)
    assert isinstance(y.cjk_outside_quotes(story), list)
    assert isinstance(y.name_gaps(story, ["葵"]), list)
    entry = y.Entry("x", "葵", "battle", "ja", story)
    assert isinstance(y.dialogue(entry), list) and isinstance(y.notes(entry), list)
