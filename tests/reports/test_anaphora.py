"""A Japanese paragraph refers to a PC it has just named by nothing, by 彼女 / 彼, or by name (`anaphora.py`)."""

from __future__ import annotations

import re

from pbp.reports.anaphora import first_sentence, refer

NAMES = re.compile("カガチ壱|カガチ弐|真琴|千早|葵")
PRONOUNS = {"真琴": "he", "葵": "she", "千早": "they"}


def _refer(paragraph: str, openers: tuple[str, ...] = (), written: set[str] | None = None) -> str:
    said = written if written is not None else set()

    def fresh(sentence: str) -> bool:
        if sentence in said:
            return False
        said.add(sentence)
        return True

    return refer(paragraph, NAMES, PRONOUNS, fresh, openers)


def test_the_centre_pc_is_not_named_again_as_topic_or_owner():
    told = _refer("真琴は息を止めた。誰かが息を呑んだ瞬間、真琴はカガチ壱を捕捉した。真琴の機関砲が火を噴いた。")
    assert told == "真琴は息を止めた。誰かが息を呑んだ瞬間、カガチ壱を捕捉した。機関砲が火を噴いた。"


def test_a_sentence_naming_no_one_keeps_the_centre_and_a_subjectless_one_too():
    told = _refer("千早は叫んだ。狙い通りだった。カガチ壱だけを見ていた。千早の拳銃が続けざまに吼えた。")
    assert told == "千早は叫んだ。狙い通りだった。カガチ壱だけを見ていた。拳銃が続けざまに吼えた。"


def test_an_enemy_taking_the_lead_moves_the_centre_and_a_pronoun_stands_for_the_pc_just_named():
    told = _refer("カガチ弐は千早へ突き進んだ。千早は盾を構えた。カガチ壱は葵へ向かった。葵は引き金を引いた。")
    # 千早's pronoun is `they`: her name stays; 葵 is 彼女 (named a moment ago, no other PC since)
    assert told == "カガチ弐は千早へ突き進んだ。千早は盾を構えた。カガチ壱は葵へ向かった。彼女は引き金を引いた。"


def test_a_pronoun_once_between_two_names():
    told = _refer("カガチ壱は葵へ向かった。葵は身構えた。カガチ弐も葵を狙った。葵は跳んだ。")
    assert told == "カガチ壱は葵へ向かった。彼女は身構えた。カガチ弐も葵を狙った。彼女は跳んだ。"
    twice = _refer("カガチ壱は葵へ向かった。カガチ弐は葵を狙った。カガチ壱は葵に迫った。")
    assert twice == "カガチ壱は葵へ向かった。カガチ弐は彼女を狙った。カガチ壱は葵に迫った。"


def test_no_pronoun_when_another_pc_came_between_or_shares_it():
    told = _refer("カガチ壱は葵へ向かった。真琴が撃った。カガチ弐は葵を狙った。")
    assert told == "カガチ壱は葵へ向かった。真琴が撃った。カガチ弐は葵を狙った。"


def test_a_line_of_dialogue_alone_opens_the_topic_again():
    told = _refer("葵は盾を構えた。「来い！」葵は前に出た。")
    assert "「来い！」葵は前に出た。" in told
    alone = _refer("葵は盾を構えた。「来い！」。葵は一歩、前に出た。")
    assert alone.endswith("」。彼女は一歩、前に出た。")  # not left out: whoever spoke, 葵 is said


def test_a_turn_to_a_pc_keeps_the_name():
    told = _refer("葵は盾を構えた。一方、葵は後ろを振り返った。", openers=("一方、葵は後ろを振り返った。",))
    assert told == "葵は盾を構えた。一方、葵は後ろを振り返った。"
    assert first_sentence("「行くぞ」葵は言った。霧が流れた。") == "「行くぞ」葵は言った。"
    assert first_sentence("“Go,” Aoi said. The fog rolled.", "en") == "“Go,” Aoi said."


def test_a_sentence_too_curt_without_the_name_or_said_before_keeps_it():
    assert _refer("葵は走った。葵は叫んだ。") == "葵は走った。葵は叫んだ。"
    thought = _refer("葵は盾を構えた。（私が稼ぐ）——葵は思う。")
    assert thought.endswith("——葵は思う。")  # the thought in brackets is not the narrator's length
    assert _refer("葵は走った。葵は静かに引き金を引いた。", written={"静かに引き金を引いた。"}).count("葵") == 2


def test_the_name_comes_back_after_the_window():
    filler = "川霧が流れていく" + "ー" * 300 + "。"
    told = _refer(f"葵は盾を構えた。{filler}葵は前に出て構えた。")
    assert told.endswith("葵は前に出て構えた。")


def test_another_topic_owning_the_clause_keeps_the_owner_and_objects_keep_their_names():
    told = _refer("咆哮の余波が真琴へと広がった。咆哮は、真琴の手前で力を失った。")
    assert told == "咆哮の余波が真琴へと広がった。咆哮は、彼の手前で力を失った。"
    assert _refer("千早は走った。口火を切ったのは千早だった。").count("千早") == 2


def test_speech_is_never_touched():
    told = _refer("葵は言った。「葵、葵は負けない」葵の声が響いた。")
    assert "「葵、葵は負けない」" in told


def _refer_en(paragraph: str) -> str:
    names = re.compile("Kagachi One|Makoto|Chihaya|Aoi")
    return refer(paragraph, names, {"Makoto": "he", "Aoi": "she", "Chihaya": "they"}, lambda s: True, (), "en")


def test_english_says_she_or_he_where_the_role_is_plain():
    told = _refer_en(
        "Makoto took the blow. A jolt ran through Makoto, and Makoto's controls turned heavy. "
        "Makoto gritted his teeth. Kagachi One drove at Makoto."
    )
    # subject, object of a preposition, possessive; twice between names, then the name again
    assert told == (
        "Makoto took the blow. A jolt ran through him, and his controls turned heavy. "
        "Makoto gritted his teeth. Kagachi One drove at him."
    )


def test_english_keeps_names_in_a_list_after_one_and_where_the_role_is_unclear():
    assert _refer_en("Aoi and Makoto braced. Makoto fired.") == "Aoi and Makoto braced. Makoto fired."
    assert _refer_en("Makoto fired. A hit, yet Makoto still looked calm.").endswith("yet Makoto still looked calm.")
    assert _refer_en("Chihaya ran. Chihaya shouted.") == "Chihaya ran. Chihaya shouted."  # they: the name stays
    # after a line of dialogue the name stays ("“Good,” she breathed" or "“Down!” She ducked": the quote decides)
    assert _refer_en("Aoi ran. “Aoi, down!” Aoi ducked.") == "Aoi ran. “Aoi, down!” Aoi ducked."


def test_a_list_names_everyone_and_a_place_or_share_keeps_its_owner():
    told = _refer("カガチ壱は葵へ向かった。葵と真琴は身構えた。")
    assert told.endswith("葵と真琴は身構えた。")
    assert _refer("葵は盾を構えた。戦場に、葵の分だけの沈黙が広がった。").endswith("彼女の分だけの沈黙が広がった。")
    assert _refer("葵は盾を構えた。葵の頭上から、爪が襲いかかった。").endswith("彼女の頭上から、爪が襲いかかった。")


def test_english_keeps_a_name_right_after_a_quoted_line():
    told = _refer_en('Makoto nodded. *「行くぞ」*{: lang="ja"} Makoto\'s words rang out.')
    assert told.endswith('{: lang="ja"} Makoto\'s words rang out.')


def test_no_pronoun_after_another_pc_who_shares_it_until_the_name_comes_back():
    names = re.compile("吹雪|夕立")
    cast = {"吹雪": "she", "夕立": "she"}
    told = refer("夕立は吹雪の手伝いを買って出た。吹雪の顔には笑みが浮かんでいた。", names, cast, lambda s: True)
    assert told.endswith("吹雪の顔には笑みが浮かんでいた。")  # 彼女 would read as 夕立
