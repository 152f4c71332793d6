"""The digest's tables agree with BCDice's KanColle game system (issue 32, deliverable 5).

Source: github.com/bcdice/BCDice at 98145305 (files last changed in d5c8d136, 2021-04-17; BSD-3-Clause):
`lib/bcdice/game_system/KanColle.rb` (the tables ACT, MHT, SNT, SNZ and RTT, quoted row by row below) and
`test/data/KanColle.toml` (its published results for given dice, quoted as (input, dice, output)). The engine is
run on the same dice and its lookups compared with BCDice's rows.
"""

from __future__ import annotations

import unicodedata

import pytest
from kc_builders import encounter, enemy, of, pc, piece, run

from pbp.engine.kancolle.core import RESOURCES
from pbp.engine.kancolle.grid import BUILTIN_GRID, CATEGORIES
from pbp.engine.kancolle.odds import outcome

# KanColle.rb, "SNZ" 戦場表 (1D6)
SNZ = [
    "同航戦（P231）",
    "反航戦（P231）",
    "Ｔ字有利（P231）",
    "Ｔ字不利（P231）",
    "悪天候（P231）",
    "悪海象（あくかいしょう）（P231）",
]
# KanColle.rb, "MHT" 目標表 (1D6)
MHT = [
    "敵艦の中で、もっとも航行序列の高いＰＣ",
    "敵艦の中で、もっとも損傷の多いＰＣ",
    "敵艦の中で、もっとも【装甲力】の低いＰＣ",
    "敵艦の中で、もっとも【回避力】の低いＰＣ",
    "敵艦の中で、もっとも【火力】の高いＰＣ",
    "敵艦の中から完全にランダムに決定",
]
# KanColle.rb, "SNT" 戦果表 (1D6)
SNT = [
    "燃料／１Ｄ６＋[敵艦隊の人数]個",
    "弾薬／１Ｄ６＋[敵艦隊の人数]個",
    "鋼材／１Ｄ６＋[敵艦隊の人数]個",
    "ボーキサイト／１Ｄ６＋[敵艦隊の人数]個",
    "任意の資材／１Ｄ６＋[敵艦隊の人数]個",
    "感情値／各自好きなキャラクターへの【感情値】＋１",
]
# KanColle.rb, "ACT" アクシデント表 (1D6), each row's key phrase
ACT = [
    "何もなし",
    "属性（【長所】と【弱点】）が反対になる",
    "声援欄にチェックが入る",
    "マイナス１の修正",
    "損傷が一つ発生する",
    "【行動力】が１Ｄ６点減少する",
]
# KanColle.rb, RTT (category 1D6, row 2D6): 航海 and 戦闘, rows 2..12
RTT = {
    "航海": ["暗号", "通信", "索敵", "規律", "補給", "待機", "機動", "海図", "指揮", "衛生", "整備"],
    "戦闘": ["電子戦", "航空打撃戦", "航空戦", "対空戦闘", "突撃", "砲撃", "退却", "支援", "魚雷", "対潜戦闘", "夜戦"],
}
# test/data/KanColle.toml: (input, dice, output)
PUBLISHED_CHECKS = [
    ("2d6>=7", [3, 4], "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
    ("2d6>=7", [2, 3], "(2D6>=7) ＞ 5[2,3] ＞ 5 ＞ 失敗"),
    ("2d6>=7", [6, 6], "(2D6>=7) ＞ 12[6,6] ＞ 12 ＞ スペシャル（判定成功。【行動力】が1D6点回復）"),
    ("2d6>=7", [1, 1], "(2D6>=7) ＞ 2[1,1] ＞ 2 ＞ ファンブル（判定失敗。アクシデント表を自分のPCに適用）"),
    ("2d6+2>=7", [1, 1], "(2D6+2>=7) ＞ 2[1,1]+2 ＞ 4 ＞ ファンブル（判定失敗。アクシデント表を自分のPCに適用）"),
    ("2d6+2>=7", [5, 5], "(2D6+2>=7) ＞ 10[5,5]+2 ＞ 12 ＞ 成功"),
    ("2D6-10>=5", [1, 2], "(2D6-10>=5) ＞ 3[1,2]-10 ＞ -7 ＞ 失敗"),
]
PUBLISHED_TABLES = [
    ("SNZ", [6], "戦場表(6) ＞ 悪海象（あくかいしょう）（P231）"),
    ("MHT", [6], "目標表(6) ＞ 敵艦の中から完全にランダムに決定"),
    ("SNT", [6], "戦果表(6) ＞ 感情値／各自好きなキャラクターへの【感情値】＋１"),
    ("KTM", [6, 6, 6], "個性：一括(6,12) ＞ 《夜戦／戦闘12》"),
    ("BT", [6], "個性：分野表(6) ＞ 戦闘"),
]


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


@pytest.mark.rule("K-CHECK-7")
@pytest.mark.rule("K-CHECK-8")
@pytest.mark.parametrize(("command", "dice", "output"), PUBLISHED_CHECKS)
def test_a_check_reads_as_bcdice_publishes_it(command: str, dice: list[int], output: str) -> None:
    modifier = int(command[3:].split(">=")[0] or 0)
    dc = int(command.split(">=")[1])
    success, special, fumble = outcome((dice[0], dice[1]), dc, modifier=modifier)
    verdict = output.rsplit(" ＞ ", 1)[1]
    assert (success, special, fumble) == (
        verdict.startswith(("成功", "スペシャル")),
        verdict.startswith("スペシャル"),
        verdict.startswith("ファンブル"),
    )


@pytest.mark.rule("K-FIELD-1")
def test_the_battlefield_roll_is_bcdices_snz() -> None:
    for die, row in enumerate(SNZ, 1):
        enc = encounter([pc("a"), enemy("e")], battle={"started": False, "battlefield": None})
        (start,) = of(run(enc, dice=[die]), "battle_start")
        assert nfkc(row).startswith(nfkc(start["battlefield"])) and start["battlefield_roll"] == die
    assert PUBLISHED_TABLES[0][2].endswith(SNZ[5])


@pytest.mark.rule("K-FLEET-4")
def test_the_target_table_is_bcdices_mht() -> None:
    """Five ship girls, each alone in the one thing a row looks for; row 6 picks at random (K-RAND-1, die 3)."""
    units = [
        pc("a", position=1, ratings={"回避": 2}), pc("b", position=2, steps=2, ratings={"回避": 2}),
        pc("c", position=3, ratings={"装甲": 3, "回避": 2}), pc("d", position=3),
        pc("f", position=3, ratings={"火力": 5, "回避": 2}),
        enemy("e", position=6, equipment=[piece("g")]),
    ]  # fmt: skip
    looks_for = {
        "a": "航行序列の高い",
        "b": "損傷の多い",
        "c": "【装甲力】の低い",
        "d": "【回避力】の低い",
        "f": "【火力】の高い",
    }
    for die, row in enumerate(MHT, 1):
        dice = [die, 3, 1, 1] if die == 6 else [die, 1, 1]  # the roll, K-RAND-1's die, a fumbled hit
        (pick,) = of(run(encounter(units, rnd=2), dice=dice), "target_roll")
        if die == 6:
            assert "ランダム" in row and (pick["rand"], pick["target"]) == ([3], "c")  # the 3rd in encounter order
        else:
            assert looks_for[pick["target"]] in row
    assert PUBLISHED_TABLES[1][2].endswith(MHT[5])


@pytest.mark.rule("K-SPOILS-1")
def test_the_spoils_table_is_bcdices_snt() -> None:
    for die, row in enumerate(SNT, 1):
        enc = encounter([pc("a"), pc("b"), enemy("e", steps=4, removed=True)])
        enc["battle"]["outcome"] = "victory"
        res = run(enc, dice=[die] if die == 6 else [die, 1])
        (spoils,) = of(res, "spoils")
        if die <= 4:
            assert row.startswith(spoils["resource"] + "／") and spoils["resource"] == RESOURCES[die - 1]
        elif die == 5:
            assert row.startswith("任意の資材") and spoils["resource"] in RESOURCES
        else:
            assert row.startswith("感情値") and spoils["resource"] is None and len(of(res, "emotion")) == 2
    assert PUBLISHED_TABLES[2][2].endswith(SNT[5])


@pytest.mark.rule("K-ACC-1")
def test_the_accident_table_is_bcdices_act() -> None:
    effect_of_row = {1: set(), 2: {"flip"}, 3: {"boxes_checked"}, 4: {"modifier_now"}, 5: {"steps"}, 6: {"ap_die"}}
    for die, phrase in enumerate(ACT, 1):
        weak = pc("a", traits=[{"name": "元気", "kind": "weakness"}])
        dice = [die, 1, 3, 3] if die == 6 else [die, 3, 3]
        res = run(encounter([weak], "checks", checks=[{"unit": "a", "designated": "元気"}]), dice=dice)
        (accident,) = of(res, "accident")
        assert set(accident["effects"]) == effect_of_row[die], phrase


@pytest.mark.rule("K-SALV-2")
def test_the_trait_roll_is_bcdices_rtt_and_the_built_in_labels_sit_where_it_puts_them() -> None:
    for name, (c, r) in BUILTIN_GRID.items():
        assert RTT[CATEGORIES[c - 1]][r - 2] == name
    assert PUBLISHED_TABLES[4][2].endswith(CATEGORIES[5])
    # KTM (6, 6+6) names 《夜戦／戦闘12》: the engine's salvage roll on the same dice names the same trait.
    fond = {"b": {"value": 1, "attribute": None, "box": "clear"}}
    enc = encounter([pc("a", emotions=fond), pc("b", steps=4, removed=True), enemy("e")])
    enc["battle"]["outcome"] = "draw"
    res = run(enc, [{"unit": "a", "salvage": ["b"]}], [6, 6, 6, 4, 4])
    (salvage,) = of(res, "salvage")
    assert (salvage["trait_roll"], salvage["trait"]) == ([6, 12], "夜戦")
    assert PUBLISHED_TABLES[3][2].endswith(f"《{salvage['trait']}／{CATEGORIES[5]}12》")
