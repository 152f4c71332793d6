"""Kancolle rounds for the story tests: the shared vectors' inputs resolved with their own dice, the battle vectors
played deadline by deadline over many seeds, and the two golden plays (a base cycle, a battle with night)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbp.engine.dice import ScriptedDice, SeededDice
from pbp.engine.errors import BadInput, DiceExhausted
from pbp.engine.kancolle.ruleset import KANCOLLE
from pbp.reports.narrative import sentences

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "kancolle-vectors"
#: Display names by unit id, as the services pass them (the sheet's name in the story's language).
NAMES = {
    "ja": {"a": "吹雪", "b": "夕立", "c": "北上", "d": "赤城", "kitakami": "北上", "ooi": "大井",
           "e1": "駆逐イ級", "e2": "軽巡ホ級", "e3": "駆逐ロ級", "ta": "駆逐イ級", "ta2": "雷巡チ級"},
    "en": {"a": "Fubuki", "b": "Yuudachi", "c": "Kitakami", "d": "Akagi", "kitakami": "Kitakami", "ooi": "Ooi",
           "e1": "I-class destroyer", "e2": "Ho-class light cruiser", "e3": "Ro-class destroyer",
           "ta": "I-class destroyer", "ta2": "Chi-class torpedo cruiser"},
}  # fmt: skip
PRONOUNS = {uid: "she" for uid in NAMES["en"]}
#: The players' entries: headed, plain, English, with addressed lines and a note to the master.
PROSE = {
    "ja": {
        "a": "【行動】敵の先頭艦を狙って砲撃する。\n【台詞】「吹雪、いきます！」\n「夕立ちゃん、無理しないでね……」\n"
        "【その他】アドリブ歓迎です",
        "b": "【心情】夜になれば、夕立の出番っぽい。\n【台詞】「素敵なパーティーしましょ！」\n「吹雪ちゃん、任せて！」",
        "c": "「まあ、なんとかなるでしょ」",
        "kitakami": "魚雷をばらまいて、まとめて片付ける。「ま、こんなもんでしょ」",
    },
    "en": {
        "a": 'Fubuki aims for the head of the enemy line. "Fubuki, setting out!"',
        "b": "「素敵なパーティーしましょ！」",
        "c": '"Well, it\'ll work out somehow."',
        "kitakami": "「ま、こんなもんでしょ」",
    },
}


#: Later deadlines' entries (a player writes anew each deadline), and the base phase's.
LATER = {
    "ja": [
        {"a": "「まだまだ、これからです！」\n敵の動きをよく見て、落ち着いて狙う。", "b": "「ぽいぽいぽーい！」"},
        {
            "a": "（夜の海は怖い。でも、逃げない）\n「夕立ちゃん、一緒に行こう！」",
            "b": "「夜戦なら任せるっぽい！」\n吹雪の前に出て、敵を引きつける。",
        },
        {"a": "「みんなで、帰りましょう」", "b": "「最っ高に素敵なパーティーだったっぽい！」"},
    ],
    "en": [
        {"a": '"Not done yet!"', "b": "「ぽいぽいぽーい！」"},
        {"a": '"Yuudachi, let\'s go together!"', "b": "「夜戦なら任せるっぽい！」"},
        {"a": '"Let\'s all go home."', "b": "「最っ高に素敵なパーティーだったっぽい！」"},
    ],
}
BASE_PROSE = {
    "ja": {
        "a": "【行動】演習で、北上さんに動きを見てもらう。\n【台詞】「北上さん、よろしくお願いします！」\n"
        "【その他】絡み歓迎",
        "b": "【心情】今日はお休みっぽい！\n【台詞】「吹雪ちゃん、がんばってね！」",
        "c": "「はいはい、吹雪っちね。まあ、なんとかなるでしょ」",
    },
    "en": {
        "a": 'Fubuki asks Kitakami to watch her drills. "Kitakami, please look after me!"',
        "b": "「吹雪ちゃん、がんばってね！」",
        "c": '"Sure, sure. It\'ll work out somehow."',
    },
}


def bundle_of(
    encounter: dict[str, Any], orders: dict[str, Any], result: Any, number: int = 1, seed: str = "kc"
) -> dict[str, Any]:
    """A round bundle as the services build one (what `draft_report` reads)."""
    return {
        "ruleset": "kancolle",
        "round": {"number": number, "scenario_title": "", "campaign": ""},
        "seed": seed,
        "encounter": encounter,
        "orders": orders,
        "events": result.events,
        "state": result.state,
    }


def _vectors() -> Iterator[tuple[str, dict[str, Any]]]:
    if not VECTORS.is_dir():
        pytest.skip(f"the kancolle vectors are not at {VECTORS}")
    for path in sorted(VECTORS.glob("*.json")):
        vector = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(vector.get("encounter"), dict) and not str(vector.get("name", "")).startswith("bad"):
            yield path.stem, vector


def _overrides(vector: dict[str, Any]) -> list[dict[str, Any]] | None:
    found = vector.get("overrides")
    return found.get("overrides") if isinstance(found, dict) else found


@cache
def vector_bundles() -> list[tuple[str, dict[str, Any]]]:
    """Every vector whose inputs are valid, resolved with its own dice, as a bundle."""
    out = []
    for name, v in _vectors():
        orders = v.get("orders") or {}
        try:
            result = KANCOLLE.resolve(
                v["encounter"], orders, ScriptedDice(v.get("dice") or []), rounds=v.get("rounds") or 1,
                overrides=_overrides(v),
            )  # fmt: skip
        except (BadInput, DiceExhausted):  # a vector of bad input, or one that ends on exhausted dice
            continue
        out.append((name, bundle_of(v["encounter"], orders, result, seed=name)))
    return out


def _volunteering(orders: dict[str, Any], encounter: dict[str, Any]) -> dict[str, Any]:
    """The orders with every ship girl volunteering for the night (so that some seeds reach it)."""
    orders = copy.deepcopy(orders)
    pcs = {u["id"] for u in encounter["units"] if u["side"] == "pc"}
    for order in orders.get("orders", []):
        if order.get("unit") in pcs:
            order.setdefault("night_volunteer", True)
    return orders


def play(encounter: dict[str, Any], orders: dict[str, Any], seed: str, deadlines: int) -> list[dict[str, Any]]:
    """A battle played one deadline at a time (each its own round and story), from `encounter` on."""
    bundles = []
    state = encounter
    for n in range(1, deadlines + 1):
        try:
            result = KANCOLLE.resolve(state, orders, SeededDice(f"{seed}/{n}"))
        except BadInput:
            break
        bundles.append(bundle_of(state, orders, result, number=n, seed=f"{seed}/{n}"))
        state = result.state
        if (state.get("battle") or {}).get("outcome") is not None or not result.events:
            break
    return bundles


@cache
def seeded_bundles(seeds: int = 12) -> list[tuple[str, dict[str, Any]]]:
    """The battle and base vectors' inputs over `seeds` seeds each, battles deadline by deadline."""
    out = []
    for name, v in _vectors():
        mode = v["encounter"].get("mode")
        orders = _volunteering(v.get("orders") or {}, v["encounter"]) if mode == "battle" else v.get("orders") or {}
        for s in range(seeds):
            if mode == "battle":
                out += [(f"{name}/{s}/{k}", b) for k, b in enumerate(play(v["encounter"], orders, f"{name}{s}", 5))]
                continue
            try:
                result = KANCOLLE.resolve(v["encounter"], orders, SeededDice(f"{name}{s}"))
            except BadInput:
                break
            out.append((f"{name}/{s}", bundle_of(v["encounter"], orders, result, seed=f"{name}{s}")))
    return out


def _vector(name: str) -> dict[str, Any]:
    return dict(_vectors())[name]


def golden_battle() -> list[dict[str, Any]]:
    """Two ship girls with guns and torpedoes against two abyssal destroyers, from the first round to the night:
    the vector k16's fleet, armed and ordered as players would, one deadline at a time."""
    v = _vector("k16_acting_ties")
    encounter = copy.deepcopy(v["encounter"])
    for unit in encounter["units"]:
        if unit["side"] == "pc":
            gun = unit["equipment"][0]
            unit["equipment"].append({**gun, "id": f"t{unit['id']}", "kind": "torpedo", "range": "短",
                                      "firepower": 0, "torpedo": 2, "trait": "魚雷"})  # fmt: skip
    orders = {
        "orders": [
            {"unit": "a", "shelling": {"targets": ["e1"]}, "torpedo": [{"piece": "ta", "targets": ["e1"]}],
             "night": {"targets": ["e1", "e2"]}, "night_volunteer": True},
            {"unit": "b", "shelling": {"targets": ["e2"]}, "torpedo": [{"piece": "tb", "targets": ["e2"]}],
             "night": {"targets": ["e2", "e1"]}, "night_volunteer": True},
        ]
    }  # fmt: skip
    return play(encounter, orders, "golden-battle-38", 5)  # a seed that reaches the night and sinks a ship


def golden_base() -> dict[str, Any]:
    """One base-phase cycle: the vector k08's fleet, scenes, support, discovery and docking."""
    v = _vector("k08_base_cycles")
    result = KANCOLLE.resolve(v["encounter"], v["orders"], ScriptedDice(v["dice"]))
    return bundle_of(v["encounter"], v["orders"], result, seed="golden-base")


def tell(bundles: list[dict[str, Any]], locale: str, prose: list[dict[str, str]] | None = None) -> list[str]:
    """The stories of a scenario's rounds in order (`prose`: each round's entries, else PROSE then LATER), each
    remembering the sentences of the ones before."""
    from pbp.reports.narrative import draft_report

    entries = prose if prose is not None else [PROSE[locale], *LATER[locale]]
    memory: set[str] = set()
    stories = []
    for k, bundle in enumerate(bundles):
        story = draft_report(
            bundle, prose=entries[min(k, len(entries) - 1)], locale=locale, pack={}, strict=True,
            memory=memory, names=NAMES[locale], pronouns=PRONOUNS,
        )  # fmt: skip
        memory |= sentences(story)
        stories.append(story)
    return stories
