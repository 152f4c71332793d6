"""The stories' yardstick (issue 11): the demo battle played for 12 rounds with varied entries over 8 seeds, every
round's story written in Japanese and English as the lifecycle would (each scenario remembering its earlier
stories' sentences), and measured:

- distinct-sentence ratio per scenario (goal >= 0.97, both languages);
- share of the players' sentences that reach the story (>= 0.9);
- mechanics words in the story (0);
- CJK characters in the English story outside the player's quoted words (0);
- characters per participant in Japanese (400-800, the median round of each scenario);
- a dead PC acting, or dying, after its death (0).

`python -m bench stories` prints the figures; tests/reports/test_yardstick.py asserts the goals.
"""

from __future__ import annotations

import random
import re
import statistics
from dataclasses import dataclass, field
from typing import Any

from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.encounters import encounter_for_scenario
from pbp.engine.pool.legal import legal_actions
from pbp.engine.pool.tactics import default_orders
from pbp.packs import demo_pack
from pbp.reports import draft_report
from pbp.reports.narrative import md_text, sentences
from pbp.reports.voice import split_prose

ROUNDS = 12
SEEDS = tuple(f"yardstick-{n}" for n in range(8))
SCENARIO = "tama_river"
#: Words that are rules, not fiction: none may appear in a story's prose.
MECHANICS = {
    "ja": (
        "ゲージ",
        "判定",
        "成功数",
        "ダイス",
        "ダメージ",
        "小破",
        "中破",
        "大破",
        "軽傷",
        "重傷",
        "瀕死",
        "大成功",
        "R-",
    ),
    "en": ("gauge", "successes", "dice", "roll", "stage", "R-", "light damage", "moderate damage", "heavy damage"),
}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff01-\uff60]")
_QUOTED_JA = re.compile(r"\*(?:\\\*|[^*])*\*\{: lang=\"ja\"\}")
_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]*[」』”\"）)]?")

#: What players write: plans, shouts, murmurs, questions, thoughts, and the awkward cases (one long sentence, only
#: quotes, only emoji, two languages, Markdown tricks, nothing at all).
PROSES = [
    "「ここで止める——絶対に！」\nカガチの群れを川で食い止める。ビームライフルで先頭を狙う。",
    "上空から全体を見渡し、ミサイルで群れをまとめて叩く。軽口は叩くが、油断はしない。",
    "川霧の向こう、先頭のカガチに照準を合わせる。「……外さない」",
    "低空で河原を抜け、上空のハヤチの背後を取る。「鬼ごっこはおしまいだ！」",
    "「まだ動けるか？」僚機に呼びかける。背中は任せた。",
    "故郷の町のことを思い出す。あの日の煙の匂いは忘れない。次は守ってみせる。",
    "「……了解」短く答え、操縦桿を倒す。敵の懐に飛び込む。",
    "弾はまだある。焦るな、と自分に言い聞かせる。",
    "堤防の陰に回り込み、死角から撃つ。",
    "「こっちだ、化け物！」注意を引きつけて仲間から引き離す。",
    "息を整える。手の震えが止まらない。それでも前へ。",
    "全弾を撃ち尽くすつもりで、群れの中央に火力を集中させる。退路は考えない。",
    "「みんな、生きて帰るぞ！」",
    "「了解」「援護する」「今だ！」",
    "🔥🔥🔥",
    "I will hold the line at the river. 「絶対に通さない」 Stay sharp.",
    "# 見出し\n**太字** [リンク](javascript:alert(1)) <script>alert(1)</script> 前に出る。",
    "川霧の中を進みながら、カガチの群れの動きを見極め、隙を見つけたら一気に距離を詰めて至近距離から撃ち込み、"
    "そのまま離脱して次の目標に向かうという流れを頭の中で何度も繰り返しながら、震える指先を押さえつけて機を待つ",
    "",
]


@dataclass
class Figures:
    """One language's measures over every scenario played."""

    distinct: list[float] = field(default_factory=list)  # per scenario
    words_total: int = 0
    words_told: int = 0
    mechanics: list[str] = field(default_factory=list)
    cjk: list[str] = field(default_factory=list)
    per_participant: list[float] = field(default_factory=list)  # per scenario: the median round
    rounds_in_range: int = 0  # rounds whose length per participant is within 400-800
    rounds: int = 0
    dead_acting: list[str] = field(default_factory=list)

    @property
    def words_share(self) -> float:
        return self.words_told / self.words_total if self.words_total else 1.0


def body(story: str) -> str:
    """The prose of a story: what comes before the state list."""
    return story.split("\n---\n")[0]


def _orders(encounter: dict[str, Any], rng: random.Random) -> tuple[list[dict[str, Any]], set[str]]:
    """The PCs' entries of one round: each living PC has one five times in six, with an order picked among its
    legal actions (an attack when it has a target, else a move)."""
    orders, entered = [], set()
    for unit in encounter["units"]:
        if unit["side"] != "pc" or unit.get("dead") or unit.get("removed"):
            continue
        if rng.random() < 1 / 6:
            continue
        entered.add(unit["id"])
        legal = legal_actions(encounter, unit["id"])
        foes = {u["id"] for u in encounter["units"] if u["side"] != "pc"}
        weapons = [w for w in legal.weapons if set(w.targets) & foes and not w.needs_swap and not w.needs_reload]
        major: dict[str, Any] | None = None
        if "attack" in legal.major and weapons:
            w = rng.choice(weapons)
            targets = [t for t in w.targets if t in foes]
            major = {"type": "attack", "weapon": w.id, "targets": rng.sample(targets, min(len(targets), w.max_targets))}
        elif "full_move" in legal.major and legal.move_toward:
            major = {"type": "full_move", "toward": rng.choice([t for t in legal.move_toward if t in foes] or ["x"])}
            if major["toward"] == "x":
                major = None
        minor = None
        if "move" in legal.minor and rng.random() < 0.3:
            toward = [t for t in legal.move_toward if t in foes]
            minor = {"type": "move", "toward": rng.choice(toward)} if toward else None
        orders.append({"unit": unit["id"], "minor": minor, "major": major})
    return orders, entered


def _acts(event: dict[str, Any]) -> str | None:
    if event["type"] in ("attack",):
        return str(event["attacker"])
    if event["type"] in ("move", "ability", "reload", "swap", "check", "death"):
        return str(event["unit"])
    return None


def play(seed: str) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """The demo battle played for ROUNDS rounds: each round's bundle and prose by unit id."""
    pack = demo_pack().data
    rng = random.Random(seed)
    encounter = encounter_for_scenario(pack, SCENARIO, list(pack["characters"].items()))
    rounds = []
    # A player writes a new entry each round: each PC draws its proses from its own shuffled deck.
    written = {u["id"]: rng.sample(PROSES, len(PROSES)) for u in encounter["units"] if u["side"] == "pc"}
    for n in range(1, ROUNDS + 1):
        encounter["round"] = n
        pcs, entered = _orders(encounter, rng)
        orders = default_orders(encounter, {"orders": pcs}, sides=("enemy",))
        round_seed = f"{seed}-{n}"
        result = find_ruleset("pool").resolve(encounter, orders, SeededDice(round_seed), pack=pack)
        bundle = {
            "round": {"number": n, "scenario": SCENARIO, "pack_scenario": SCENARIO, "campaign": "demo",
                      "scenario_title": pack["scenarios"][SCENARIO]["ja"]},
            "ruleset": "pool",
            "seed_hash": seed_hash(round_seed),
            "encounter": encounter,
            "events": result.events,
            "state": result.state,
        }  # fmt: skip
        rounds.append((bundle, {uid: written[uid].pop() for uid in sorted(entered)}))
        encounter = result.state
    return rounds


def measure(seeds: tuple[str, ...] = SEEDS) -> dict[str, Figures]:
    """Play every seed, write every story in both languages, and measure them."""
    figures = {"ja": Figures(), "en": Figures()}
    pack = demo_pack().data
    for seed in seeds:
        rounds = play(seed)
        for locale, fig in figures.items():
            memory: set[str] = set()
            said: list[str] = []
            lengths: list[float] = []
            previous: list[dict[str, Any]] | None = None
            fallen: set[str] = set()
            for bundle, prose in rounds:
                story = draft_report(bundle, prose=prose, locale=locale, pack=pack, strict=True, memory=memory,
                                     previous_events=previous)  # fmt: skip
                memory |= sentences(story)
                text = body(story)
                said += [s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 3]
                _measure_round(fig, locale, bundle, prose, text, lengths, fallen, seed)
                previous = bundle["events"]
            fig.distinct.append(len(set(said)) / len(said))
            fig.per_participant.append(statistics.median(lengths) if lengths else 0.0)
    return figures


def _measure_round(
    fig: Figures,
    locale: str,
    bundle: dict[str, Any],
    prose: dict[str, str],
    text: str,
    lengths: list[float],
    fallen: set[str],
    seed: str,
) -> None:
    where = f"{seed} round {bundle['round']['number']}"
    for written in prose.values():
        for line in split_prose(written):
            fig.words_total += 1
            told = str(md_text(line.told))
            fig.words_told += told in text
    found = [w for w in MECHANICS[locale] if (re.search(rf"\b{re.escape(w)}\b", text) if locale == "en" else w in text)]
    fig.mechanics += [f"{where}: {w}" for w in found]
    if locale == "en":
        outside = _QUOTED_JA.sub("", text)
        fig.cjk += [f"{where}: {m}" for m in _CJK.findall(outside)][:3]
    else:
        pcs = [u for u in bundle["encounter"]["units"] if u["side"] == "pc" and not u.get("dead")]
        if pcs:
            lengths.append(len(text) / len(pcs))
            fig.rounds += 1
            fig.rounds_in_range += 400 <= lengths[-1] <= 800
    for e in bundle["events"]:
        if _acts(e) in fallen:
            fig.dead_acting.append(f"{where}: {e['type']} by {_acts(e)}")
    fallen |= {e["unit"] for e in bundle["events"] if e["type"] == "death"}
    for u in bundle["encounter"]["units"]:
        if u.get("dead") and u["side"] == "pc" and locale == "ja":
            name = str(u.get("name"))
            # A fallen PC is remembered, not shown acting: no closing line, no share in the opening's cast.
            if text.count(name) > 3:
                fig.dead_acting.append(f"{where}: {name} named {text.count(name)} times after death")


def main() -> None:
    figures = measure()
    print(f"stories: the demo battle, {ROUNDS} rounds x {len(SEEDS)} seeds, both languages")
    for locale, fig in figures.items():
        print(f"  [{locale}] distinct sentences per scenario: min {min(fig.distinct):.3f} (goal >= 0.97)")
        print(f"  [{locale}] players' sentences told: {fig.words_share:.3f} (goal >= 0.9)")
        print(f"  [{locale}] mechanics words: {len(fig.mechanics)} (goal 0) {fig.mechanics[:3]}")
        print(f"  [{locale}] dead PCs acting after death: {len(fig.dead_acting)} (goal 0) {fig.dead_acting[:3]}")
        if locale == "en":
            print(f"  [en] CJK outside quoted player words: {len(fig.cjk)} (goal 0) {fig.cjk[:3]}")
        else:
            low, high = min(fig.per_participant), max(fig.per_participant)
            print(f"  [ja] characters per participant (median round per scenario): {low:.0f}-{high:.0f} (goal 400-800);"
                  f" rounds within 400-800: {fig.rounds_in_range}/{fig.rounds}")  # fmt: skip
