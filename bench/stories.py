"""The stories' yardstick (issue 29): the 36 PBW entries of ../shared/prose/entries.toml played over 8 seeds, every
round's story written in Japanese and English as the lifecycle would (each scenario remembering its earlier
stories' sentences), and measured by pbp/reports/yardstick.py against its goals.

How the corpus is played:
- the cast: 葵 and 真琴 are the demo pack's ready-made aoi (Savior) and makoto (fighter); 千早 is aoi's sheet on
  foot (no vehicle: the corpus's ex-mechanic), ノア is makoto's sheet in a fighter of his own (his wingman);
- battle entries (7 chapters) are the 7 rounds of one run of the demo battle `tama_river` (the pack's only battle),
  a chapter's entries entered by their PCs with a seeded legal order (an attack when there is a target), the others
  of the cast sitting the round out (no entry); a PC fallen in an earlier round enters no more;
- scene entries (5 chapters) are the 5 rounds of one run of the scene `hangar_eve`, each PC attempting the check
  that fits them (SCENE_CHECKS) in the first chapter, the scene's other checks in turn after it;
- the cast's enemies are the scenario's own (カガチ壱, カガチ弐, ハヤチ).

`python -m bench stories` prints every figure with its goal; the goals are the integrator's to assert.
"""

from __future__ import annotations

import copy
import random
import re
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbp.engine import SeededDice, find_ruleset, seed_hash
from pbp.engine.pool.encounters import build_encounter, scene_checks
from pbp.engine.pool.legal import legal_actions
from pbp.engine.pool.tactics import default_orders
from pbp.packs import demo_pack
from pbp.reports import draft_report, sentences
from pbp.reports import yardstick as y

ENTRIES = Path(__file__).resolve().parents[2] / "shared" / "prose" / "entries.toml"
SEEDS = tuple(f"yardstick-{n}" for n in range(8))
SCENARIOS = {"battle": "tama_river", "scene": "hangar_eve"}
#: The corpus's PCs as unit ids: aoi and makoto are the pack's, chihaya and noah are made from them (bench_pack).
CAST = {"葵": "aoi", "真琴": "makoto", "千早": "chihaya", "ノア": "noah"}
#: The check each PC attempts in the hangar: 千早 repairs, 真琴 plays his harmonica, 葵 petitions (her 陳情 3).
SCENE_CHECKS = {"aoi": "petition", "makoto": "concert", "chihaya": "repair", "noah": "procure"}
GOALS = {
    "quoted": "goal 1.000",
    "leaks": "goal 0",
    "beku": "goal 0",
    "first_person": "goal 0",
    "distinct": "goal >= 0.90",
    "name_gap": "goal >= 60",
    "cjk": "goal 0",
    "mechanics": "goal 0",
    "dead_acting": "goal 0",
}


def bench_pack() -> dict[str, Any]:
    """The demo pack with the corpus's four PCs as ready-made characters (the module docstring says how)."""
    pack = copy.deepcopy(demo_pack().data)
    characters = pack["characters"]
    on_foot = {k: v for k, v in characters["aoi"].items() if k not in ("vehicle", "vehicle_weapons")}
    characters["chihaya"] = {**on_foot, "ja": "千早", "en": "Chihaya"}
    characters["noah"] = {**characters["makoto"], "ja": "ノア", "en": "Noah"}
    return pack


def chapters(entries: Iterable[y.Entry], kind: str) -> list[list[y.Entry]]:
    """The entries of one kind grouped by chapter, in the corpus's order."""
    grouped: dict[str, list[y.Entry]] = {}
    for entry in entries:
        if entry.kind == kind:
            grouped.setdefault(entry.chapter, []).append(entry)
    return list(grouped.values())


@dataclass
class Played:
    """One round played: its bundle, the prose by unit id, the entries that prose came from."""

    bundle: dict[str, Any]
    prose: dict[str, str]
    entries: list[y.Entry]
    skipped: list[str] = field(default_factory=list)  # entries of PCs fallen before their chapter


def _battle_order(encounter: dict[str, Any], uid: str, rng: random.Random) -> dict[str, Any]:
    """A seeded legal order of one PC: an attack when a weapon reaches a foe, else a move toward one."""
    legal = legal_actions(encounter, uid)
    foes = {u["id"] for u in encounter["units"] if u["side"] != "pc" and not u.get("removed")}
    weapons = [w for w in legal.weapons if set(w.targets) & foes and not w.needs_swap and not w.needs_reload]
    toward = [t for t in legal.move_toward if t in foes]
    major: dict[str, Any] | None = None
    if "attack" in legal.major and weapons:
        w = rng.choice(weapons)
        targets = [t for t in w.targets if t in foes]
        major = {"type": "attack", "weapon": w.id, "targets": rng.sample(targets, min(len(targets), w.max_targets))}
    elif "full_move" in legal.major and toward:
        major = {"type": "full_move", "toward": rng.choice(toward)}
    return {"unit": uid, "minor": None, "major": major}


def _scene_order(checks: dict[str, dict[str, Any]], uid: str, chapter: int) -> dict[str, Any]:
    """The PC's check in this chapter: the one that fits them first, then the scene's others in turn (players do
    not attempt the same thing every night, and a pack's outcome texts would repeat as no narrator's words do)."""
    ids = list(checks)
    check = checks[ids[(ids.index(SCENE_CHECKS[uid]) + chapter - 1) % len(ids)]]
    return {"unit": uid, "minor": None, "major": {"type": "check", "label": check["id"], "skill": check["skill"],
                                                  "need": check["need"]}}  # fmt: skip


def play_scenario(seed: str, kind: str, entries: list[y.Entry], pack: dict[str, Any]) -> list[Played]:
    """One run of the scenario of `kind`, a round per chapter of the corpus, the encounter carried over."""
    scenario = SCENARIOS[kind]
    rng = random.Random(f"{seed}-{kind}")
    encounter = build_encounter(pack, scenario, [(uid, pack["characters"][uid]) for uid in CAST.values()])
    checks = {c["id"]: c for c in scene_checks(pack, scenario)} if kind == "scene" else {}
    played = []
    for n, chapter in enumerate(chapters(entries, kind), start=1):
        encounter["round"] = n
        living = {u["id"] for u in encounter["units"] if u["side"] == "pc" and not u.get("removed")}
        entered = [e for e in chapter if CAST[e.pc] in living]
        pcs = [
            _scene_order(checks, CAST[e.pc], n) if checks else _battle_order(encounter, CAST[e.pc], rng)
            for e in entered
        ]
        orders = default_orders(encounter, {"orders": pcs}, sides=("enemy",))
        round_seed = f"{seed}-{kind}-{n}"
        result = find_ruleset("pool").resolve(encounter, orders, SeededDice(round_seed), pack=pack)
        bundle = {
            "round": {"number": n, "scenario": scenario, "pack_scenario": scenario, "campaign": "demo",
                      "scenario_title": pack["scenarios"][scenario]["ja"]},
            "ruleset": "pool",
            "seed_hash": seed_hash(round_seed),
            "encounter": encounter,
            "orders": orders,
            "events": result.events,
            "state": result.state,
        }  # fmt: skip
        prose = {CAST[e.pc]: e.prose for e in entered}
        played.append(Played(bundle, prose, entered, [e.id for e in chapter if e not in entered]))
        encounter = result.state
    return played


def play(seed: str) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Every round of both scenarios for `seed`: each round's bundle and prose by unit id (the corpus is needed)."""
    entries = y.load_entries(ENTRIES.read_text(encoding="utf-8"))
    pack = bench_pack()
    return [(p.bundle, p.prose) for kind in SCENARIOS for p in play_scenario(seed, kind, entries, pack)]


@dataclass
class Figures:
    """One language's findings over every scenario played: lists of what failed, so the first can be shown."""

    quotes: int = 0
    unquoted: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    beku: list[str] = field(default_factory=list)
    first_person: list[str] = field(default_factory=list)
    distinct: dict[str, float] = field(default_factory=dict)  # the lowest per scenario over the seeds
    name_gaps: list[float] = field(default_factory=list)
    cjk: list[str] = field(default_factory=list)
    mechanics: list[str] = field(default_factory=list)
    stories: int = 0

    @property
    def quoted(self) -> float:
        return 1 - len(self.unquoted) / self.quotes if self.quotes else 1.0


def _names(pack: dict[str, Any]) -> set[str]:
    """Every name a story may give a unit, in both languages (masked in the sentence frames)."""
    names = {c[k] for c in pack["characters"].values() for k in ("ja", "en")}
    names |= {e[k] for e in pack["enemies"].values() for k in ("ja", "en")}
    for scenario in SCENARIOS.values():
        names |= {e.get(k) or "" for e in pack["scenarios"][scenario].get("enemies", []) for k in ("name", "en")}
    return names - {""}


def measure(seeds: tuple[str, ...] = SEEDS) -> tuple[dict[str, Figures], dict[str, Any]]:
    """Play every seed, write every story in both languages, and measure them; the second value counts what was
    played (entries told, skipped as fallen) and the engine's dead acting."""
    corpus = y.load_entries(ENTRIES.read_text(encoding="utf-8"))
    pack = bench_pack()
    names = _names(pack)
    pcs_ja = list(CAST)
    figures = {"ja": Figures(), "en": Figures()}
    counts: dict[str, Any] = {"entries": 0, "skipped": [], "dead_acting": []}
    for seed in seeds:
        for kind, scenario in SCENARIOS.items():
            rounds = play_scenario(seed, kind, corpus, pack)
            counts["entries"] += sum(len(p.entries) for p in rounds)
            counts["skipped"] += [f"{seed} {scenario}: {i}" for p in rounds for i in p.skipped]
            dead = y.acting_after_death(p.bundle["events"] for p in rounds)
            counts["dead_acting"] += [f"{seed} {scenario} {d}" for d in dead]
            for locale, fig in figures.items():
                stories = _write(rounds, locale, pack)
                for p, story in zip(rounds, stories, strict=True):
                    _measure_story(fig, locale, story, p.entries, f"{seed} {scenario} r{p.bundle['round']['number']}")
                if locale == "ja":
                    fig.name_gaps += [g for story in stories for g in y.name_gaps(story, pcs_ja)]
                ratio = y.distinct_frames(stories, names, locale, _outcomes(pack, scenario, locale))
                fig.distinct[scenario] = min(ratio, fig.distinct.get(scenario, 1.0))
    return figures, counts


def _outcomes(pack: dict[str, Any], scenario: str, locale: str) -> list[str]:
    """The scenario's check outcomes as the pack words them: a story quotes them, they are not its phrasing."""
    checks = pack["scenarios"][scenario].get("checks", [])  # a battle has none
    texts = [c.get(k, {}).get(locale, "") for c in checks for k in ("success", "failure")]
    return [t for t in texts if isinstance(t, str)]


def _write(rounds: list[Played], locale: str, pack: dict[str, Any], names: dict[str, str] | None = None) -> list[str]:
    """The scenario's stories in order, each remembering the earlier ones' sentences (as the lifecycle does)."""
    memory: set[str] = set()
    previous: list[dict[str, Any]] | None = None
    stories = []
    for p in rounds:
        story = draft_report(p.bundle, prose=p.prose, locale=locale, pack=pack, strict=True, memory=memory,
                             previous_events=previous, names=names)  # fmt: skip
        memory |= sentences(story)
        previous = p.bundle["events"]
        stories.append(story)
    return stories


def _measure_story(fig: Figures, locale: str, story: str, entries: list[y.Entry], where: str) -> None:
    fig.stories += 1
    fig.quotes += y.quotes_total(entries, locale)
    fig.unquoted += [f"{where}: {q}" for q in y.quotes_missing(story, entries, locale)]
    fig.leaks += [f"{where}: {s}" for s in y.leaks(story, entries)]
    fig.first_person += [f"{where}: {s}" for s in y.first_person(story, locale)]
    fig.mechanics += [f"{where}: {s}" for s in y.mechanics_words(story, locale)]
    if locale == "ja":
        fig.beku += [f"{where}: {s}" for s in y.broken_beku(story)]
    else:
        fig.cjk += [f"{where}: {s}" for s in y.cjk_outside_quotes(story)]


# -- kancolle (issue 32, item 4): the demo pack's base phase and battle, deadline by deadline --------------------

KANCOLLE_SCENARIOS = {"base": "chinjufu_day", "battle": "nansei_sortie"}
KANCOLLE_DEADLINES = {"base": 3, "battle": 5}
#: Each ship girl's entries, one per deadline in turn: headed layouts, inner voice, a note to the master, English.
KANCOLLE_ENTRIES: dict[str, tuple[str, ...]] = {
    "fubuki": (
        "【心情】明日は初めての大きな作戦。\n【台詞】「吹雪、いきます！」\n【その他】アドリブ歓迎です",
        "（夕立ちゃんに置いていかれないようにしなきゃ）\n「まだまだ、これからです！」",
        "北上さんの背中を追いかける。「みんなで、帰りましょう」",
    ),
    "yuudachi": (
        "「素敵なパーティーしましょ！」\n吹雪の隣で、元気いっぱいに手を振る。",
        "【台詞】「夜戦なら任せるっぽい！」\n【連携】吹雪",
        "「ソロモンの悪夢、見せてあげる！」",
    ),
    "kitakami": (
        "「まー、やるだけやりますか」",
        "「はいはい、吹雪っちね」",
        '"Let\'s get it over with." Kitakami yawned and took her place in line.',
    ),
    "akagi": ("「第一次攻撃隊、発艦してください！」", "（慢心は、しない）", "「一航戦の誇り、見せてあげます」"),
}


def _kancolle_entries(deadline: int, kind: str) -> dict[str, y.Entry]:
    """Each ship girl's entry for a deadline (the corpus's shape: her Japanese name as `pc`)."""
    out = {}
    for ship, texts in KANCOLLE_ENTRIES.items():
        text = texts[(deadline - 1) % len(texts)]
        out[ship] = y.Entry(f"kc-{ship}-{kind}-{deadline}", ship, kind, "en" if text.isascii() else "ja", text)
    return out


def play_kancolle(seed: str, kind: str, pack: dict[str, Any]) -> list[Played]:
    """One run of the kancolle demo's scenario of `kind`, deadline by deadline (each ship girl's orders as the
    entry form offers them, `kancolle_demo.entry_for`), the encounter carried over."""
    from pbp.services.kancolle_demo import entry_for  # the demo's entries; a services import for this bench only

    ruleset = find_ruleset("kancolle")
    scenario = KANCOLLE_SCENARIOS[kind]
    fleet = list(pack["characters"])
    encounter = ruleset.build_encounter(pack, scenario, [(uid, pack["characters"][uid]) for uid in fleet])
    played = []
    for n in range(1, KANCOLLE_DEADLINES[kind] + 1):
        present = [u["id"] for u in encounter["units"] if u["side"] == "pc" and not u.get("removed")]
        entered = _kancolle_entries(n, kind)
        wanted = [{**entry_for(ruleset.legal_actions(encounter, uid)), "unit": uid} for uid in present]
        orders = ruleset.orders_file(encounter, wanted)
        round_seed = f"{seed}-kancolle-{kind}-{n}"
        result = ruleset.resolve(encounter, orders, SeededDice(round_seed), pack=pack)
        bundle = {
            "round": {"number": n, "scenario": scenario, "pack_scenario": scenario, "campaign": "kancolle-demo"},
            "ruleset": "kancolle",
            "seed_hash": seed_hash(round_seed),
            "encounter": encounter,
            "orders": orders,
            "events": result.events,
            "state": result.state,
        }
        prose = {uid: entered[uid].prose for uid in present if uid in entered}
        played.append(Played(bundle, prose, [entered[uid] for uid in present if uid in entered]))
        encounter = result.state
        if (encounter.get("battle") or {}).get("outcome") is not None:
            break
    return played


def measure_kancolle(seeds: tuple[str, ...] = SEEDS) -> dict[str, Figures]:
    """The kancolle demo's stories over the seeds, in both languages, measured as pool's are."""
    from pbp.packs import load_pack_by_id

    pack = load_pack_by_id("kancolle-demo").data
    names = {str(c[k]) for c in pack["characters"].values() for k in ("ja", "en")}
    names |= {str(e.get(k) or "") for e in pack["enemies"].values() for k in ("name", "en")}
    for scenario in KANCOLLE_SCENARIOS.values():
        placed = pack["scenarios"][scenario].get("enemies", [])
        names |= {str(e.get(k) or "") for e in placed for k in ("name", "ja", "en")}
    # The pack's event names ("Morning roll call") are the pack's words, as pool's check outcomes are.
    tables = pack.get("event_tables", {}).values()
    events = sorted({str(row[k]) for t in tables for row in t.values() for k in ("name", "en") if row.get(k)}, key=len)
    figures = {"ja": Figures(), "en": Figures()}
    for seed in seeds:
        for kind, scenario in KANCOLLE_SCENARIOS.items():
            rounds = play_kancolle(seed, kind, pack)
            for locale, fig in figures.items():
                shown = {uid: str(sheet[locale]) for uid, sheet in pack["characters"].items()}
                stories = _write(rounds, locale, pack, names=shown)
                for p, story in zip(rounds, stories, strict=True):
                    where = f"{seed} {scenario} r{p.bundle['round']['number']}"
                    _measure_story(fig, locale, _unquoted(story, events), p.entries, where)
                if locale == "ja":
                    fig.name_gaps += [g for story in stories for g in y.name_gaps(story, list(shown.values()))]
                ratio = y.distinct_frames(stories, names - {""}, locale, events)
                fig.distinct[scenario] = min(ratio, fig.distinct.get(scenario, 1.0))
    return figures


def _unquoted(story: str, quoted: Sequence[str]) -> str:
    """The story with the pack's own words (as printed, any case) blanked, for the mechanics-word count."""
    for words in reversed(quoted):
        story = re.sub(re.escape(words), "「」", story, flags=re.IGNORECASE)
    return story


def _report(figures: dict[str, Figures]) -> None:
    """Each language's figures, one line each, with its goal and the first few failures."""
    for locale, fig in figures.items():
        q = f"{fig.quoted:.3f} ({fig.quotes - len(fig.unquoted)}/{fig.quotes})"
        _line(locale, "spoken lines quoted verbatim", q, GOALS["quoted"], fig.unquoted)
        _line(locale, "headings, ** and notes to the master", str(len(fig.leaks)), GOALS["leaks"], fig.leaks)
        if locale == "ja":
            _line(locale, "〜べく after a non-volitional clause", str(len(fig.beku)), GOALS["beku"], fig.beku)
        _line(locale, "first person in narration", str(len(fig.first_person)), GOALS["first_person"], fig.first_person)
        low = ", ".join(f"{s} {r:.3f}" for s, r in fig.distinct.items())
        _line(locale, "distinct sentence frames, lowest per scenario", low, GOALS["distinct"])
        if locale == "ja":
            gap = statistics.median(fig.name_gaps) if fig.name_gaps else None
            value = "no paragraph names a PC twice" if gap is None else f"{gap:.0f} characters"
            _line(locale, "same PC's name, median gap within a paragraph", value, GOALS["name_gap"])
        else:
            _line(locale, "CJK characters outside marked player quotes", str(len(fig.cjk)), GOALS["cjk"], fig.cjk)
        _line(locale, "mechanics words", str(len(fig.mechanics)), GOALS["mechanics"], fig.mechanics)


def _line(locale: str, label: str, value: str, goal: str, examples: Sequence[str] = ()) -> None:
    shown = f" e.g. {list(examples[:3])}" if examples else ""
    print(f"  [{locale}] {label}: {value} ({goal}){shown}")


def main() -> None:
    if not ENTRIES.is_file():
        print(f"stories: skipped, no corpus at {ENTRIES}")
        return
    start = time.perf_counter()
    figures, counts = measure()
    took = time.perf_counter() - start
    n = sum(f.stories for f in figures.values())
    print(f"stories: the PBW corpus ({ENTRIES.name}) through {', '.join(SCENARIOS.values())}, {len(SEEDS)} seeds,"
          f" both languages: {n} stories in {took:.0f} s")  # fmt: skip
    print(f"  entries played: {counts['entries']}, skipped as their PC had fallen: {len(counts['skipped'])}"
          f" {counts['skipped'][:3]}")  # fmt: skip
    print(f"  units acting after their death (engine): {len(counts['dead_acting'])} ({GOALS['dead_acting']})")
    _report(figures)
    start = time.perf_counter()
    kancolle = measure_kancolle()
    took = time.perf_counter() - start
    n = sum(f.stories for f in kancolle.values())
    print(f"stories (kancolle): the demo's {', '.join(KANCOLLE_SCENARIOS.values())} deadline by deadline,"
          f" {len(SEEDS)} seeds, both languages: {n} stories in {took:.0f} s")  # fmt: skip
    _report(kancolle)
