"""The プレイング reader: the 36 corpus entries (../shared/prose/entries.toml) read as a master reads them, plus
hand-written cases and hostile input."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.reports.playing import Piece, Reading, read_playing

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "prose" / "entries.toml"
NAMES = ("葵", "真琴", "千早", "ノア")
PAIRS = {"「": "」", "『": "』", "（": "）", "(": ")", "“": "”"}
FIRST_PERSON = re.compile(r"私|俺|僕|あたし|^うち[はがのも]|、うち[はがのも]|\b(?:I|me|my|I'm|I'll)\b")
#: The told of a plan says it was tried, never that it succeeded.
ATTEMPT_ENDINGS = ("うとした", "ようとした", "つもりだった", "としていた", "たかった")


def balanced(text: str) -> bool:
    stack: list[str] = []
    for ch in text:
        if ch in PAIRS:
            stack.append(PAIRS[ch])
        elif ch in PAIRS.values() and (not stack or stack.pop() != ch):
            return False
    return not stack


@pytest.fixture(scope="module")
def corpus() -> dict[str, dict]:
    if not CORPUS.exists():
        pytest.skip(f"the prose corpus is not here ({CORPUS}): it lives in the shared design folder beside the repo")
    return {e["id"]: e for e in tomllib.loads(CORPUS.read_text(encoding="utf-8"))["entry"]}


@pytest.fixture(scope="module")
def readings(corpus: dict[str, dict]) -> dict[str, Reading]:
    return {key: read_playing(e["prose"], NAMES) for key, e in corpus.items()}


def pieces(readings: dict[str, Reading], kind: str | None = None) -> list[Piece]:
    return [p for r in readings.values() for p in r.pieces if kind is None or p.kind == kind]


def find(reading: Reading, start: str) -> Piece:
    return next(p for p in reading.pieces if p.text.startswith(start))


# ---------------------------------------------------------------------------------------------------- structure


def test_headings_are_structure_never_text(readings: dict[str, Reading]) -> None:
    for p in pieces(readings):
        assert not re.search(r"【|】|^■|^\[(?:Action|Dialogue|Notes)\]|^やること$", p.text), p
        assert not re.search(r"【|】|■", p.told), p
    p01 = readings["p01"]
    assert {p.section for p in p01.pieces} == {"心情", "行動", "台詞"}
    assert find(readings["p11"], "Noah takes").section == "行動"
    assert find(readings["p03"], "空を飛べる").section == "心情"


def test_a_bold_label_with_content_is_an_action_its_marks_are_not(readings: dict[str, Reading]) -> None:
    goal = readings["p17"].pieces[0]
    assert goal.kind == "action"
    assert goal.text == "大型ハヤチの着地点をつくる"
    assert goal.told == "大型ハヤチの着地点をつくろうとした"
    assert all("やること" not in p.text for p in readings["p09"].pieces)


def test_notes_go_to_the_master_never_into_the_pieces(readings: dict[str, Reading]) -> None:
    note_words = re.compile(r"アドリブ|絡み|連携|MS様|ＭＳ|PL|※|NG|おまかせ|お任せ|お返事|お借り|参加します|[Aa]dlib")
    for p in pieces(readings):
        assert not note_words.search(p.text), p
    assert readings["p01"].notes == ("アドリブ歓迎です。苦戦・負傷の描写もOKです！",)
    assert readings["p12"].notes == ("アドリブ歓迎！",)
    assert readings["p12"].pieces[0].kind == "action"  # the sentence before the note on the same line stays
    assert readings["p17"].notes == ("葵さん・真琴さんと連携希望です。", "囮役なので、多少ボロボロになってもOKです！")
    assert readings["p21"].notes == ("葵さんの問いかけへのお返事です。アドリブ歓迎！",)
    assert readings["p23"].notes == ("(Adlib welcome! This is my reply to Chihaya's question.)",)
    p24 = readings["p24"].notes
    assert p24[0].endswith("で参加します。") and "PLのわがまま" in p24[1] and p24[2].startswith("NG：")
    assert "（MS様、前回の隊長の台詞の拾い方、すごく好きでした……！）" in readings["p14"].notes
    assert readings["p34"].notes == ("絡み・アドリブ歓迎です。",)


def test_partners_and_adlib_per_entry(readings: dict[str, Reading]) -> None:
    expected = {
        "p01": ((), True), "p02": (("葵",), True), "p03": ((), True), "p04": ((), True), "p05": ((), None),
        "p09": ((), None), "p11": ((), True), "p13": ((), True), "p14": ((), None), "p16": ((), True),
        "p17": (("葵", "真琴"), None),
        "p20": (("真琴",), True), "p21": (("葵",), True), "p22": (("ノア",), None), "p23": (("Chihaya",), True),
        "p25": ((), None), "p26": (("葵",), True), "p27": (("千早",), True), "p28": (("葵",), True),
        "p31": (("千早",), True), "p35": ((), None),
    }  # fmt: skip
    for key, (partners, adlib) in expected.items():
        assert (readings[key].partners, readings[key].adlib) == (partners, adlib), key


def test_adlib_refused_and_partners_by_honorific() -> None:
    r = read_playing("盾を構える。\n\nアドリブNGでお願いします。千早ちゃんと連携希望です。")
    assert r.adlib is False
    assert r.partners == ("千早",)
    assert [p.kind for p in r.pieces] == ["action"]


# ---------------------------------------------------------------------------------------------------- speech


def test_every_quoted_line_is_a_speech_verbatim(corpus: dict[str, dict], readings: dict[str, Reading]) -> None:
    for key, entry in corpus.items():
        spoken = [p.text for p in readings[key].pieces if p.kind == "speech"]
        for line in entry["prose"].splitlines():
            m = re.match(r"^\s*[「『\"]([^」』\"]*(?:「[^」]*」[^」』\"]*)*)[」』\"]", line)
            if m:
                assert m.group(1) in spoken, (key, line)


def test_a_quote_inside_a_sentence_stays_in_it(readings: dict[str, Reading]) -> None:
    speech = {p.text for p in pieces(readings, "speech")}
    assert "左後ろ脚の付け根" not in speech
    assert "上手くないのに" not in speech
    assert "上！" not in speech
    assert find(readings["p06"], "狙うのは").text == "狙うのは、千早が無線で叫んでた「左後ろ脚の付け根」。"
    assert find(readings["p21"], "葵に「上手くないのに」").kind == "narration"


def test_stage_directions_stay_beside_their_line(readings: dict[str, Reading]) -> None:
    assert find(readings["p01"], "……大丈夫").direction == "自分に言い聞かせるように"
    assert find(readings["p14"], "落ち着け").direction == "冗談めかして言ったが、操縦桿を握る手には変に力が入っていた"
    assert find(readings["p08"], "こっちだ").direction.startswith("そう叫びながらも")
    directed = {p.direction for p in pieces(readings, "speech")}
    assert all(not p.text.startswith("冗談めかして") for p in pieces(readings))
    assert all(not d or balanced(d) for d in directed)


def test_addressee_tone_and_remembered_voices(readings: dict[str, Reading]) -> None:
    assert find(readings["p02"], "葵、右の").addressee == "葵"
    assert find(readings["p09"], "千早さん、予備").addressee == "千早"
    assert find(readings["p22"], "なあノアくん").addressee == "ノア"
    assert find(readings["p04"], "Makoto, two").addressee == "Makoto"
    assert find(readings["p11"], "Got your back").addressee is None
    assert find(readings["p27"], "ありがとう、千早さん").addressee == "千早"  # after an interjection
    assert find(readings["p16"], "了解、追い立て").addressee is None
    assert find(readings["p02"], "葵、右の").tone == "shout"
    assert find(readings["p22"], "なあノアくん").tone == "ask"
    assert find(readings["p36"], "……きれい").tone == "murmur"
    mother = find(readings["p18"], "葵、前だけ見て")
    assert (mother.kind, mother.tone) == ("speech", "say")


# ---------------------------------------------------------------------------------------------------- actions


def test_plans_are_told_as_attempts_in_the_past(readings: dict[str, Reading]) -> None:
    actions = [p for p in pieces(readings, "action") if p.ja]
    assert len(actions) >= 80
    for p in actions:
        assert not p.told or p.told.endswith(ATTEMPT_ENDINGS), p
        assert not p.plain or p.plain.endswith(("た", "だ")), p
        assert "べく" not in p.told or "べく" in p.source, p  # the player's own べく only
    p01 = readings["p01"]
    block = find(p01, "セイヴァーで丸子橋")
    assert block.told == "セイヴァーで丸子橋のたもとに陣取り、橋へ向かうカガチの進路をふさごうとした"
    assert block.plain == "セイヴァーで丸子橋のたもとに陣取り、橋へ向かうカガチの進路をふさいだ"
    assert find(p01, "大盾を前に").told.endswith("撃ち抜くつもりだった")
    assert find(readings["p02"], "戦闘機で上空").told == "戦闘機で上空から地上を援護しようとした"
    assert find(readings["p08"], "一羽でも多く").told == "一羽でも多く、地上の避難所から引き離すのを第一としていた"
    assert find(readings["p35"], "誰が一番").told == "誰が一番長く持つか、勝負しようとした"
    assert find(readings["p36"], "パチパチと").told == "パチパチと散る火花を、しばらく黙って見ていたかった"
    assert find(readings["p15"], "頭の上を").told.endswith("地面に伏せようとした")


def test_a_plan_is_told_without_its_leading_connective(readings: dict[str, Reading]) -> None:
    """「だから…」 ties to the player's sentence before; retold in the story's order it would tie to nothing."""
    plan = find(readings["p09"], "だから空のハヤチ")
    assert plan.told.startswith("空のハヤチは") and plan.plain.startswith("空のハヤチは")
    assert not any(p.told.startswith(("だから", "でも", "それで")) for p in pieces(readings, "action"))


def test_a_named_topic_is_lifted_out_of_told(readings: dict[str, Reading]) -> None:
    p = find(readings["p08"], "真琴はスロットル")
    assert (p.kind, p.subject) == ("action", "真琴")
    assert p.told.startswith("スロットルを押し込み")
    assert (
        find(readings["p15"], "葵ちゃんが先頭").told
        == "葵ちゃんが先頭を押し返してくれているなら、群れの横腹を狙おうとした"
    )
    assert find(readings["p16"], "千早が煙で").told.startswith("千早が煙で")  # a が-subject in a condition stays


NEVER_PLANS = [
    ("p01", "橋の上には、まだ避難の車列が残っているはずだから。"),  # はず
    ("p02", "一撃離脱、同じコースは二度使わない。"),  # negative
    ("p03", "鋏の届く距離には入らへん。"),  # negative (Kansai)
    ("p06", "あの鋏なら、戦闘機なんか一振りで叩き落とされる。"),  # passive
    ("p09", "そこなら当てられる。"),  # potential
    ("p09", "でも、降りてくる瞬間だけはまっすぐこっちに向かってくる。"),  # coming, someone else
    ("p13", "左腕の反応が鈍いのは分かっている。"),  # stative
    ("p13", "水路さえ越えさせなければ、家には届かない。"),  # conditional + negative
    ("p15", "ガシャン、と金具が鳴る。"),  # another subject
    ("p15", "ワイヤーを引いたときの手応えで、相手の重さはだいたい分かる。"),  # non-volitional
    ("p18", "その瞬間だけなら、飛べない私の機体でも届く。"),  # potential/intransitive
    ("p18", "あいつは地上へ降りてくるとき、必ず一度、鉤爪を前に出して速度を落とす。"),  # someone else
    ("p19", "夜間哨戒の途中、葵は機体のセンサーに小さな反応を拾った。"),  # past
    ("p20", "明日、もし私が戻らなかったら"),  # conditional
    ("p29", "最後まで通して吹けたことは、一度もない。"),  # negative
    ("p33", "真琴と千早さんの話し声が聞こえてきて、なんとなく、ほっとする。"),  # a feeling
    ("p34", "たぶん半分くらいで音を外す。"),  # a guess
    ("p36", "線香花火の勝負では、負けたくない。"),  # negative wish
    ("p10", "重いけど、うちなら運べる。"),  # potential
]


@pytest.mark.parametrize(("key", "sentence"), NEVER_PLANS)
def test_non_plans_are_never_forced_into_a_plan(readings: dict[str, Reading], key: str, sentence: str) -> None:
    piece = next(p for p in readings[key].pieces if p.text == sentence)
    assert piece.kind != "action"


def test_hand_written_clause_types() -> None:
    kinds = {
        "敵が見える。": "narration",
        "盾を構えている。": "narration",
        "弾を撃った。": "narration",
        "撃つ？": "narration",
        "撃てるなら。": "narration",
        "俺は撃たない。": "inner",
        "【心情】\n盾を構える。": "inner",
        "撃てるなら撃つ。": "action",
        "盾を構えておく。": "action",
        "前に出るつもりだ。": "action",
    }
    for prose, kind in kinds.items():
        assert [p.kind for p in read_playing(prose).pieces] == [kind], prose
    polite = {"重い箱は私が持ちます。": "重い箱は持とうとした", "戦闘機で援護します。": "戦闘機で援護しようとした"}
    for prose, told in polite.items():
        assert read_playing(prose).pieces[0].told == told
    assert read_playing("運転手やります！").pieces[0].told == ""  # the particle is dropped: no safe clause


# ---------------------------------------------------------------------------------------------------- first person


def test_no_told_carries_a_first_person_pronoun(readings: dict[str, Reading]) -> None:
    for p in pieces(readings):
        if p.kind != "speech":
            assert not FIRST_PERSON.search(re.sub(r"「[^」]*」", "", p.told)), p
    dropped = find(readings["p06"], "俺は機首を")
    assert (dropped.first_person, dropped.told) == (True, "機首を下げて、川面すれすれまで高度を落とそうとした")
    assert find(readings["p01"], "私にはこの機体").told == ""  # a pronoun that cannot be dropped: not told
    thought = find(readings["p20"], "明日、もし私が")
    assert (thought.kind, thought.text) == ("inner", "明日、もし私が戻らなかったら")
    assert find(readings["p27"], "お母さんの声は").first_person is False  # 思い出せるうちに: うち is "while"
    quoted = read_playing("隊長が「俺は飛ぶ」って言ってたのを思い出して、息を吐く。").pieces[0]
    assert (quoted.kind, quoted.first_person) == ("action", False)  # the captain's 俺, inside his words
    assert quoted.told == "隊長が「俺は飛ぶ」って言ってたのを思い出して、息を吐こうとした"


# ---------------------------------------------------------------------------------------- Markdown, English, blank


def test_markdown_is_read_as_the_preview_shows_it(readings: dict[str, Reading]) -> None:
    for p in pieces(readings):
        assert not re.search(r"[*#`]", p.text + p.told + p.direction), p
    assert find(readings["p17"], "河川敷のグラウンド").text.count("いかにも人が集まってそうな") == 1
    listed = find(readings["p09"], "土手の上に機体を")
    assert listed.section == "行動" and listed.kind == "action"
    r = read_playing("# 作戦\n\n1. **盾**を構える。\n2. [地図](https://example.com)を _広げる_。\n\n`code`を見る。")
    assert [p.text for p in r.pieces] == ["盾を構える。", "地図を 広げる。", "codeを見る。"]
    assert r.pieces[0].section == "作戦" and r.pieces[0].told == "盾を構えようとした"


def test_english_entries_keep_their_sentences(readings: dict[str, Reading]) -> None:
    p04 = readings["p04"]
    assert all(not p.ja for p in p04.pieces)
    noah = find(p04, "Noah flies")
    assert noah.kind == "action" and noah.told.startswith("Noah flies as Makoto's wingman")
    for p in readings["p23"].pieces:
        if p.kind != "speech":
            assert (p.kind, p.told, p.first_person) == ("inner", "", True)
    assert [p.kind for p in readings["p11"].pieces].count("speech") == 2


@pytest.mark.parametrize(
    "prose", ["", None, "（白紙）", "白紙", "おまかせします", "😀🔥", "……！？", "【その他】\nアドリブ歓迎"]
)
def test_blank_entries(prose: str | None) -> None:
    assert read_playing(prose).blank is True


def test_a_note_beside_content_leaves_the_entry_unblank() -> None:
    r = read_playing("■ 盾を構えて前に出る。\nおまかせします")
    assert (r.blank, r.notes, [p.text for p in r.pieces]) == (False, ("おまかせします",), ["盾を構えて前に出る。"])


def test_the_corpus_blank_and_cache(corpus: dict[str, dict], readings: dict[str, Reading]) -> None:
    assert readings["p25"].blank and not readings["p25"].pieces
    assert sum(r.blank for r in readings.values()) == 1
    assert read_playing(corpus["p01"]["prose"], NAMES) is readings["p01"]


# ---------------------------------------------------------------------------------------------------- bad input


def check_safe(reading: Reading) -> None:
    for p in reading.pieces:
        for text in (p.text, p.told, p.plain, p.direction):
            assert balanced(text), (text, p)
            assert not re.search(r"[*#`]", text), (text, p)


def test_hostile_shapes() -> None:
    long = "盾を構えて" + "、前へ出て" * 160 + "撃つ。"
    for prose in [
        long,
        "【心情】\n【行動】\n■台詞",
        "「ここで止める",
        "（考える。\n」逆。",
        "**",
        "# \n- \n1. ",
        "【葵】「行くよ」",
    ]:
        check_safe(read_playing(prose))
    assert read_playing(long).pieces[0].told.endswith("撃とうとした")
    assert read_playing("「ここで止める").pieces[0].text == "ここで止める"
    named = read_playing("【葵】「行くよ」")
    assert [(p.kind, p.text, p.section) for p in named.pieces] == [("speech", "行くよ", "葵")]


ALPHABET = st.sampled_from(list("盾を構える。撃つ私は俺「」『』（）()“”*_#`-[]:：！？ \n【】■葵さんAdlib😀…"))


@settings(max_examples=150, deadline=None)
@given(st.text(ALPHABET, max_size=120))
def test_any_text_is_read_safely(prose: str) -> None:
    check_safe(read_playing(prose))


def test_an_entry_written_as_a_story_has_no_plans_and_a_thing_is_no_one_s_plan(readings):
    """p20 is written as a story (a third of its sentences in the past): its present tense is the story's present,
    told as written (「考えかけて、首を振る」, not 「首を振ろうとした」); a sentence about a thing (コンクリートの床は…
    奪っていく) is never a plan, in any entry; a heading-structured plan keeps its plans."""
    hangar = readings["p20"]
    assert not [p for p in hangar.pieces if p.kind == "action"]
    assert find(hangar, "考えかけて").told == "考えかけて、首を振る"
    assert find(hangar, "コンクリートの床").kind == "narration"
    floor = read_playing("コンクリートの床は冷たくて、体温を奪っていく。")
    assert floor.pieces[0].kind == "narration" and "ようとした" not in floor.pieces[0].told
    assert [p.kind for p in read_playing("重い箱は私が持ちます。").pieces] == ["action"]  # 私が: the PC's plan
    assert any(p.kind == "action" for p in readings["p01"].pieces)  # 【行動】
