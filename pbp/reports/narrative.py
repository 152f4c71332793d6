"""Events -> a short story (SS, リプレイ) in Markdown: the round is planned as scenes (`plan.py`), then realised in
sentences from the locale's phrasebook (`templates/narrative/<ruleset>/<locale>/phrases.toml`) and lexicon.

Phrasings are data: several per slot, picked deterministically from the round's seed hash, the slot and how often
it was used, so a re-run writes the same story. No sentence is written twice in a scenario: the sentences of the
earlier rounds' stories (`memory`) and of this one are remembered, and a phrasing that would repeat one is
re-picked. A phrasing is written only where what it claims is true at that moment (`facts.py`) and every slot it
prints has a value. The players' プレイング is read by `playing.py` and woven by `weave.py` (every line of dialogue,
the intent as the attempt, notes never); numbers, gauges and rule terms never reach the prose: the state list
after the rule carries them.
"""

from __future__ import annotations

import logging
import re
import tomllib
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from pbp.engine.dice import seed_hash
from pbp.engine.pool.types import (
    AbilityEvent,
    AttackEvent,
    CheckEvent,
    CleanupEvent,
    DamageEvent,
    DeathEvent,
    DisengageEvent,
    EngageEvent,
    GimmickEvent,
    InitiativeEvent,
    MoveEvent,
    RefusedEvent,
    ReloadEvent,
    RemovedEvent,
    RestoreEvent,
    StatusEvent,
    SwapEvent,
)
from pbp.paths import TEMPLATES_DIR
from pbp.reports.anaphora import first_sentence, refer
from pbp.reports.english import common_noun, with_pronoun
from pbp.reports.facts import Claim, Facts, split_claims
from pbp.reports.plan import Beat, GmBeat, Plan, Scene, plan_round
from pbp.reports.playing import read_playing
from pbp.reports.setting import scenario_setting
from pbp.reports.weave import PlayerWords
from pbp.text import is_japanese

log = logging.getLogger(__name__)

NARRATIVE_DIR = TEMPLATES_DIR / "narrative"
LOCALES = ("ja", "en")
#: How many phrasings (and combinations of nested picks) to try for one that repeats nothing.
_RETRIES = 48
#: How many of those are spent on a sentence shape not used yet in this report (variety, not a rule).
_SHAPE_RETRIES = 8
_SENTENCE = re.compile(r"[^。！？!?.]+[。！？!?.]*[」』”\"）)]?")
#: Runs of ASCII white space (a line break in a player's line): one space. A full-width space (U+3000) is a
#: Japanese player's punctuation and stays, so a quoted line is verbatim.
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~{}])")
_MD_BLOCK_START = re.compile(r"^(\d*)([-+.)])")
_NESTED = re.compile(r"\{~([\w.]+)\}")
_LOWER_START = re.compile(r"(^|[.!?][”\"]?\s+)([a-z])")
_QUOTED = re.compile(r"「[^「」]*」|（[^（）]*）|“[^“”]*”|\*(?:\\\*|[^*])*\*\{: lang=\"ja\"\}")
_ENDING = re.compile(r"[。！？!?.」』”\"）)\s]+$")
_SLOTS = re.compile(r"\{(\w+)\}")
#: The placeholders that stand for one unit (a claim about "t" is about the unit named there).
_ROLES = ("a", "t", "n", "goal")


class NarrativeError(ValueError):
    """The story cannot be written: an event type has no phrasing for this ruleset and locale."""


class _Unsayable(Exception):
    """No phrasing of a slot fits the moment: the sentence is left out."""


@dataclass(frozen=True)
class Said:
    """One sentence written, as the checker reads it: its slot, its text, the moment told (an event's index; -1
    the round's start, the number of events its end) and every claim its phrasings made, with the unit of each."""

    slot: str
    text: str
    at: int
    claims: tuple[tuple[Claim, str | None], ...]


@lru_cache(maxsize=8192)
def _parsed(phrase: str) -> tuple[tuple[Claim, ...], str]:
    return split_claims(phrase)


@lru_cache(maxsize=8192)
def _slots_in(text: str) -> frozenset[str]:
    """The placeholders a phrasing prints (parsed once: a report tries thousands of phrasings)."""
    return frozenset(_SLOTS.findall(text))


def _printable(text: str, empty: frozenset[str]) -> bool:
    """Whether a phrasing prints none of the slots that are empty at this moment."""
    return not (empty and empty & _slots_in(text))


def md_text(value: Any) -> Any:
    """Every value printed into the Markdown story is inert text (no HTML, no Markdown)."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return _inert(value)


@lru_cache(maxsize=4096)  # the same names and words are printed many times in every report
def _inert(value: str) -> Markup:
    text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", _SPACES.sub(" ", text).strip())
    # A value may open a paragraph: a leading list or heading marker must stay text.
    return Markup(_MD_BLOCK_START.sub(r"\1\\\2", text))


@cache
def environment() -> Environment:
    """The Jinja environment of the state list under the story: autoescaped, strict about undefined names."""
    return Environment(
        loader=FileSystemLoader(NARRATIVE_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=md_text,
        auto_reload=False,
    )


@cache
def lexicon(ruleset: str, locale: str) -> dict[str, Any]:
    """The locale's words for the ruleset's terms (stages, statuses, reasons, wounds) and its sentence joiner."""
    with (NARRATIVE_DIR / ruleset / locale / "lexicon.toml").open("rb") as f:
        return tomllib.load(f)


@cache
def phrasebook(ruleset: str, locale: str) -> dict[str, Any]:
    """The locale's phrasings by slot (`attack.open.beam`): nested tables flattened to dotted keys."""
    with (NARRATIVE_DIR / ruleset / locale / "phrases.toml").open("rb") as f:
        data = tomllib.load(f)
    flat: dict[str, Any] = {}

    def walk(prefix: str, node: Any) -> None:
        for key, value in node.items():
            slot = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                walk(slot, value)
            else:
                flat[slot] = value

    walk("", data)
    return flat


def story_template_name(ruleset: str, locale: str, part: str) -> str:
    return f"{ruleset}/{locale}/story/{part}.md.j2"


@dataclass
class Names:
    """Display names in one locale: units from `display` (the caller's, e.g. character sheets), else the campaign
    pack (its characters, the round's scenario's placed enemies, enemy types), else the encounter's own name."""

    locale: str
    pack: dict[str, Any] = field(repr=False)
    units: dict[str, dict[str, Any]] = field(repr=False)
    scenario: str | None = None  # the pack scenario of the round, when known
    display: dict[str, str] = field(default_factory=dict, repr=False)

    def of(self, section: str, key: str | None) -> str:
        """The name of `key` in a pack section (weapons, vehicles, abilities ...), else the key itself."""
        if key is None:
            return ""
        entry = self.pack.get(section, {}).get(key)
        if isinstance(entry, dict):
            return str(entry.get(self.locale) or entry.get("ja") or key)
        return key

    def _own_scenario(self) -> dict[str, Any]:
        own = self.pack.get("scenarios", {}).get(self.scenario) if self.scenario else None
        return own if isinstance(own, dict) else {}

    def gimmick(self, gid: str) -> str:
        """A gimmick's name from the round's own pack scenario, else its id: another scenario's text is never read
        (one nobody has played yet is a GM secret)."""
        for g in self._own_scenario().get("gimmicks", []):
            if isinstance(g, dict) and g.get("id") == gid:
                return str(g.get(self.locale) or g.get("ja") or gid)
        return gid

    def unit(self, uid: str | None) -> str:
        if uid in self.display:
            return self.display[uid]
        unit = self.units.get(uid or "")
        if not unit:
            return str(uid or "")
        if self.locale != "ja":
            translated = self._pack_unit(str(uid))
            if translated:
                return translated
        return str(unit.get("name") or uid)

    def _pack_unit(self, uid: str) -> str | None:
        """A unit's name in this locale from the pack: a ready-made character, a placed enemy (its own name in the
        locale, else its type's when the scenario gave it no name of its own)."""
        sheet = self.pack.get("characters", {}).get(uid)
        if isinstance(sheet, dict) and sheet.get(self.locale):
            return str(sheet[self.locale])
        for placed in self._own_scenario().get("enemies", []):
            if isinstance(placed, dict) and placed.get("id") == uid:
                if placed.get(self.locale):
                    return str(placed[self.locale])
                kind = self.pack.get("enemies", {}).get(placed.get("type"))
                if not placed.get("name") and isinstance(kind, dict) and kind.get(self.locale):
                    return str(kind[self.locale])
                return None
        # a GM's reinforcement: not placed by the scenario, named as its enemy type (the unit carries its ja name)
        name = self.units.get(uid, {}).get("name")
        for kind in self.pack.get("enemies", {}).values():
            if isinstance(kind, dict) and name and kind.get("ja") == name and kind.get(self.locale):
                return str(kind[self.locale])
        return None


def grade(event: Mapping[str, Any]) -> str | None:
    """A scene check graded by its margin: fail, success, or great (need + 2 or more); None when nothing was needed."""
    if event.get("need") is None or event.get("success") is None:
        return None
    if not event["success"]:
        return "fail"
    return "great" if event["successes"] - event["need"] >= 2 else "success"


def _stages_checked(gauge: dict[str, Any] | None) -> int:
    """The deepest fully checked stage of a gauge (-1: none)."""
    if not gauge:
        return -1
    checked = [i for i, (cap, taken) in enumerate(zip(gauge["capacity"], gauge["taken"], strict=False)) if taken >= cap]
    return max(checked, default=-1)


def _hurt(gauge: dict[str, Any] | None) -> bool:
    return bool(gauge) and any(gauge["taken"])


def sentences(text: str) -> set[str]:
    """The sentences of a text as the repeat check counts them (a story's memory for the next round). Quoted words
    (a player's, in 「」, （）, “” or set off as Japanese) are blanked: they are the players', not the narrator's
    phrasing, and the frame around them is what must not repeat. A line break ends a sentence, and a title (a
    Markdown heading) is one of its own: no later round of the scenario gets the same title or opens on the same
    words under another one."""
    bare = _QUOTED.sub("\x02", text)
    return {s for line in bare.splitlines() for s in (_split(line) if not line.startswith("#") else [_title_of(line)])}


def _title_of(heading: str) -> str:
    """A Markdown heading's text, as a title phrasing gives it (the repeat check's form of a title)."""
    return heading.lstrip("#").strip()


def _split(bare: str) -> set[str]:
    return {x for s in _SENTENCE.findall(bare) if len(x := s.strip()) > 3}


@dataclass
class _Candidate:
    """One phrasing tried by `Narrator.say`: its text, its sentences (quotes blanked), and the phrasings it used."""

    text: str
    said: set[str]
    bare: str
    picks: list[str]
    topic: str | None = None  # the name the phrasing opens on as its subject (「{a}は」, "{a} held")


class Narrator:
    """Writes one round's story; one instance per report (it remembers every sentence already written)."""

    def __init__(
        self,
        bundle: dict[str, Any],
        *,
        prose: dict[str, str],
        growth: dict[str, int] | None,
        locale: str,
        pack: dict[str, Any] | None,
        strict: bool = False,
        memory: Iterable[str] = (),
        previous_events: list[dict[str, Any]] | None = None,
        names: dict[str, str] | None = None,
        pronouns: dict[str, str] | None = None,
    ):
        if locale not in LOCALES:
            raise NarrativeError(f"unknown locale {locale!r} (known: {', '.join(LOCALES)})")
        self.ruleset = bundle.get("ruleset") or bundle.get("encounter", {}).get("ruleset") or "pool"
        self.locale = locale
        self.ja = locale == "ja"
        self.lex = lexicon(self.ruleset, locale)
        self.book = phrasebook(self.ruleset, locale)
        self.joiner = self.lex["joiner"]
        # The public commitment keys the phrasing, so the draft (seed still secret) and any re-run read the same.
        self.seed = str(bundle.get("seed_hash") or (seed_hash(bundle["seed"]) if bundle.get("seed") else ""))
        self.round = bundle.get("round") or {}
        self.bundle = bundle
        self.before = {u["id"]: u for u in bundle.get("encounter", {}).get("units", [])}
        self.after = {u["id"]: u for u in bundle.get("state", {}).get("units", [])}
        # Before the GM's actions (a unit the GM took off the map is only here): for names.
        self.start = {u["id"]: u for u in (bundle.get("start") or {}).get("units", [])}
        self.events: list[dict[str, Any]] = list(bundle.get("events", []))
        self.prose = prose or {}
        self.pronouns = dict(pronouns or {})
        self.player_words: dict[str, PlayerWords] = {}  # each PC's reading and what the story used of it
        self.wounds_used: set[str] = set()  # the lexicon's wound words this report used
        self.strict = strict
        self.growth = growth or {}
        self.previous_events = previous_events
        self._first_of_roll: dict[str, int] = {}
        for i, e in enumerate(self.events):
            if e.get("type") == "attack" and e.get("attack_check"):
                self._first_of_roll.setdefault(e["attack_check"], i)
        self._views: dict[str | None, dict[str, Any]] = {}
        scenario = self.round.get("pack_scenario") or self.round.get("scenario")  # bundles before pack_scenario
        self.names = Names(locale, pack or {}, {**self.start, **self.before, **self.after}, scenario, dict(names or {}))
        self.used: set[str] = set(memory)
        self.shapes: set[str] = set()
        self.counts: dict[str, int] = {}
        self.picked: set[str] = set()  # the phrasings this report used: another one is preferred next time
        self.repeats: list[str] = []  # the slots that ran out of fresh phrasings (a repeat was written)
        self.last_ending = ""
        #: The pieces (`say`'s, and `_join`'s of them) that open on their actor as the subject (「{a}は…」, "{a} held
        #: …"), by text: `_join` does not name the subject again when the sentence before opened on it, as prose does
        #: (真琴は息を止めた。静かに引き金を引いた。; Makoto held their breath. They fired.). A table, not a mark in the
        #: text, so that nothing a player wrote can be taken for one.
        self._opens_on: dict[str, str] = {}
        self._name_cache: dict[str | None, str] = {}
        self._moment_openers: set[str] = set()  # first sentences that turn the story to a PC: they keep the name
        names_md = sorted(
            {str(md_text(self.names.unit(uid))) for uid in self.names.units} - {""}, key=len, reverse=True
        )
        # Longest first, so that a name containing another is blanked whole.
        self._names_re = re.compile("|".join(map(re.escape, names_md))) if names_md else None
        own = self.names._own_scenario()
        place = " ".join(str(own.get(k) or "") for k in ("ja", "description", "setting"))
        self.facts = Facts(bundle, entered=self.prose, place=place, battle=own.get("kind", "battle") != "scene")
        self.cast: list[str] = []  # the PCs a phrasing's {pcs} lists (set where the opening names them)
        self.at = -1  # the moment being told: an event's index (-1: before the fighting; len(events): after it)
        self.trace: list[Said] = []  # every sentence written, with what it claimed (tests check the claims)
        self._claims_by_text: dict[str, tuple[Claim, ...]] = {}
        self._fit_cache: dict[tuple[Any, ...], list[tuple[tuple[Claim, ...], str]]] = {}
        self._printable_cache: dict[tuple[str, frozenset[str]], list[tuple[tuple[Claim, ...], str]]] = {}
        self._uid_by_name = {self.name(uid): uid for uid in self.names.units}
        # The earlier rounds' sentence shapes (the same words around other names) are avoided too, as this round's
        # are: a scenario whose every round says "X shouted" of someone reads as a template.
        self.shapes |= {shape for sentence in self.used for shape in self._shape(sentence)}

    # --- words --------------------------------------------------------------------------------------------------
    def name(self, uid: str | None) -> str:
        if uid not in self._name_cache:
            self._name_cache[uid] = str(md_text(self.names.unit(uid)))
        return self._name_cache[uid]

    def listing(self, uids: Iterable[str | None]) -> str:
        """Names as a list a reader does not stumble on: 葵と真琴, 葵、真琴とハヤチ; Aoi and Makoto, A, B and C."""
        names = [self.name(u) for u in uids]
        if len(names) <= 1:
            return "".join(names)
        if self.ja:
            return "、".join(names[:-1]) + "と" + names[-1]
        return ", ".join(names[:-1]) + " and " + names[-1]

    def gear(self, section: str, key: str | None) -> str:
        """A piece of gear's name; mid-sentence in English a common noun is lower-case ("her beam rifle")."""
        name = self.names.of(section, key)
        return str(md_text(name if self.ja or section not in ("weapons", "items") else common_noun(name)))

    def player_text(self, text: str, ja: bool) -> str:
        """A player's words as printed: inert text; in an English story, Japanese words set off and marked as the
        player's own."""
        inert = str(md_text(text))
        if not self.ja and ja:
            return f'*{inert}*{{: lang="ja"}}'
        return inert

    def sometimes(self, key: str) -> bool:
        """A deterministic coin for this round (from the seed's hash): a flourish told on some rounds only."""
        return self._index(key, 2) == 0

    def order_target(self, uid: str) -> str | None:
        """Whom the PC's orders aimed at (the first target of their attack, else where they moved), if anyone."""
        orders = self.bundle.get("orders") or {}
        listed = orders.get("orders", []) if isinstance(orders, dict) else orders
        order = next((o for o in listed if isinstance(o, dict) and o.get("unit") == uid), {})
        for action in (order.get("major"), order.get("minor")):
            if isinstance(action, dict):
                targets = action.get("targets") or [action.get("target"), action.get("toward")]
                found = next((t for t in targets if isinstance(t, str) and t in self.names.units), None)
                if found:
                    return found
        return None

    # --- picking ------------------------------------------------------------------------------------------------
    def _index(self, key: str, n: int) -> int:
        return zlib.crc32(f"{self.seed}\x1f{key}".encode()) % n  # deterministic across runs and machines

    def _fill(self, slot: str, attempt: int, key: str, context: dict[str, str]) -> tuple[str, int, list[str]]:
        """One phrasing of `slot` for this attempt, nested picks filled; returns it, the number of combinations
        (mixed radix: the slot's own choice varies fastest, then each nested pick in turn) and the phrasings used.
        Only phrasings that fit the moment are candidates (`_fits`); a slot with none gives `_Unsayable`."""
        options = self.book.get(slot)
        if not options:
            raise NarrativeError(f"no phrasing for {slot!r} in {self.ruleset}/{self.locale}")
        fitting = self._fitting(slot, options, context)
        if not fitting:
            raise _Unsayable(slot)
        n = len(fitting)
        claims, phrase = fitting[(self._index(key, n) + attempt) % n]
        self._claims_by_text[phrase] = claims
        rest, combos, picks = attempt // n, n, [phrase]

        def nested(m: re.Match[str]) -> str:
            nonlocal rest, combos
            text, size, inner = self._fill(m.group(1), rest, f"{key}\x1f{m.group(1)}", context)
            rest //= size
            combos *= size
            picks.extend(inner)
            return text

        return _NESTED.sub(nested, phrase), combos, picks

    def _fitting(self, slot: str, options: list[str], context: dict[str, str]) -> list[tuple[tuple[Claim, ...], str]]:
        """The phrasings of `slot` that fit the moment, once per slot, moment and context: a say() retries up to
        _RETRIES times over the same candidates. A fit depends only on which slots are empty (`_printable`, kept
        across moments) and on the units the role slots name."""
        empty = frozenset(k for k, v in context.items() if not v)
        key = (slot, self.at, empty, tuple(context.get(k) for k in _ROLES), "pcs" in context)
        if key not in self._fit_cache:
            printable = self._printable_cache.get((slot, empty))
            if printable is None:
                printable = [p for p in map(_parsed, options) if _printable(p[1], empty)]
                self._printable_cache[(slot, empty)] = printable
            self._fit_cache[key] = [p for p in printable if not p[0] or self._holds(p[0], context)]
        return self._fit_cache[key]

    def _fits(self, parsed: tuple[tuple[Claim, ...], str], context: dict[str, str]) -> bool:
        """A phrasing fits when every slot it prints has a value (no 「、の」 with a name missing) and every claim it
        declares holds at the moment being told (`facts.py`)."""
        claims, text = parsed
        return _printable(text, frozenset(k for k, v in context.items() if not v)) and self._holds(claims, context)

    def _holds(self, claims: tuple[Claim, ...], context: dict[str, str]) -> bool:
        return all(self.facts.holds(c, uid, self.at) for c in claims for uid in self._role_units(c, context))

    def _role_units(self, claim: Claim, context: dict[str, str]) -> list[str | None]:
        """The units a claim is about: the one named in its slot; `pcs`: every PC of the cast listed; none for a
        claim about the round or the place."""
        if claim.role is None:
            return [None]
        if claim.role == "pcs":
            return list(self.cast) if "pcs" in context else [None]
        return [self._uid_by_name.get(context.get(claim.role, ""))]

    def _shape(self, bare: str) -> set[str]:
        """The sentences of `bare` (quotes blanked) with unit names blanked too: the same words around other names."""
        if self._names_re is not None:
            bare = self._names_re.sub("\x00", bare)
        return _split(bare)

    def _ending(self, sentence: str) -> str:
        return _ENDING.sub("", sentence)[-3:]

    def say(self, slot: str, **context: str) -> str:
        """One piece of the story from `slot`, its placeholders filled with the (already inert) values. A phrasing
        that repeats a sentence of the scenario, or ends on the same words as the sentence before it, is re-picked;
        one that only repeats a sentence's shape (the same words around other names) or a phrasing this report
        used already is re-picked a few times, then accepted. A slot none of whose phrasings fits the moment (a
        claim that does not hold, a name that is missing) writes nothing: the story leaves it out rather than lie."""
        k = self.counts.get(slot, 0)
        self.counts[slot] = k + 1
        key = f"{slot}\x1f{k}"
        words = {name: context[name] for name in ("text", "plan", "direction") if name in context}
        values = {**context, **{name: f"\x01{name}\x01" for name in words}}
        first: _Candidate | None = None
        chosen: _Candidate | None = None
        combos = 1
        for attempt in range(_RETRIES):
            if attempt >= combos:
                break
            try:
                phrase, combos, picks = self._fill(slot, attempt, key, context)
            except _Unsayable:
                return ""
            if chosen and attempt < _SHAPE_RETRIES and self.picked.intersection(picks):
                continue  # every test below would pass it over, and a fallback is already held
            text = self._finish(self._gendered(phrase, context).format_map(values), words)
            bare = _QUOTED.sub("\x02", text)
            candidate = _Candidate(text, _split(bare), bare, picks, self._topic(phrase, context))
            first = first or candidate
            if candidate.said & self.used:
                continue
            ends = [self._ending(x) for x in _SENTENCE.findall(bare)]
            if (
                self.ja
                and ends
                and (ends[0] == self.last_ending or any(a == b for a, b in zip(ends, ends[1:], strict=False)))
            ):
                chosen = chosen or candidate
                continue
            if attempt < _SHAPE_RETRIES and (self.picked.intersection(picks) or self._shape(bare) & self.shapes):
                chosen = chosen or candidate
                continue
            chosen = candidate
            break
        best = chosen or first
        assert best is not None
        self.picked.update(p for p in best.picks if p)
        self.trace.append(Said(slot, best.text, self.at, self._claimed(best.picks, context)))
        if best.said & self.used:
            self.repeats.append(slot)
        self.used |= best.said
        self.shapes |= self._shape(best.bare)
        ends = _SENTENCE.findall(best.bare)
        self.last_ending = self._ending(ends[-1]) if ends else self.last_ending
        if best.topic:
            self._opens_on[best.text] = best.topic
        return best.text

    def pronoun(self, uid: str | None) -> str:
        """A PC's English pronoun: the caller's (the sheet's), else the pack character's, else they."""
        sheet = self.names.pack.get("characters", {}).get(uid or "") or {}
        return str(self.pronouns.get(uid or "") or sheet.get("pronoun") or "they")

    def _gendered(self, phrase: str, context: dict[str, str]) -> str:
        """An English phrasing about one PC (its only unit slot, no list of names) in that PC's pronoun; the
        phrasings say "they" of a PC. Where another unit or a list shares the sentence, "they" stays."""
        if self.ja or any(k in context for k in ("who", "pcs", "foes")):
            return phrase
        pcs = {self.name(u) for u in self.pcs_ever()}
        named = {context[k] for k in _ROLES if k in context and f"{{{k}}}" in phrase} & pcs  # an enemy is "it"
        if len(named) != 1:
            return phrase
        return with_pronoun(phrase, self.pronoun(self._uid_by_name.get(named.pop())))

    def _claimed(self, picks: list[str], context: dict[str, str]) -> tuple[tuple[Claim, str | None], ...]:
        """What the chosen phrasings claim, each claim with the unit it is about (for the checker)."""
        return tuple(
            (c, uid) for p in picks for c in self._claims_by_text.get(p, ()) for uid in self._role_units(c, context)
        )

    def _topic(self, phrase: str, context: dict[str, str]) -> str | None:
        """The actor a phrasing opens on as its subject (「{a}は…」; "{a} held …"), if it does."""
        after = "は" if self.ja else " "
        return next((context[k] for k in ("a", "n") if k in context and phrase.startswith(f"{{{k}}}{after}")), None)

    def _finish(self, text: str, words: dict[str, str]) -> str:
        """English sentences start with a capital (a lexicon word or a name may open one); then the player's
        words go in as written."""
        if not self.ja:
            text = _LOWER_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)
        for name, value in words.items():
            text = text.replace(f"\x01{name}\x01", value)
        return text

    # --- the plan realised ----------------------------------------------------------------------------------------
    def write(self) -> str:
        plan = plan_round(self.bundle, set(self.prose), self.previous_events)
        self.at = -1
        title = self._title(plan)
        blocks = [self._opening(plan)]
        for scenes in self._meetings(plan):
            blocks.append(self._pc_scene(scenes, plan) if scenes[0].kind == "pc" else self._scene(scenes[0], plan))
        self.at = len(self.events)
        blocks.append(self._closing(plan))
        return self._story(title, blocks, plan)

    def _story(self, title: str, prose: list[str], plan: Plan) -> str:
        """The story's Markdown: the title, the prose (naming a PC only where the reader needs it: `anaphora.py`;
        the opening, which sets the scene and who is in it, as written) and the state list."""
        prose = prose[:1] + [self._names_spaced(b) for b in prose[1:]]
        return "\n\n".join(b for b in [title, *prose, self._state(plan)] if b) + "\n"

    def _names_spaced(self, block: str) -> str:
        """Each paragraph of `block` referring to the PCs as a reader needs (`anaphora.py`)."""
        if self._names_re is None or not block:
            return block
        pronouns = {self.name(uid): self.pronoun(uid) for uid in self.pcs_ever()}

        def fresh(sentence: str) -> bool:
            said = sentences(sentence)
            if said & self.used:
                return False
            self.used |= said
            return True

        return "\n\n".join(
            refer(p, self._names_re, pronouns, fresh, self._moment_openers, self.locale) for p in block.split("\n\n")
        )

    def _join(self, parts: Iterable[str]) -> str:
        """The pieces of one paragraph in a row. In English a piece that opens on the subject the sentence before it
        opened on does not name it again: "they" of a PC (their pronoun here), "it" of an enemy; never twice in a
        row, never after a quote or across paragraphs (Japanese refers to its PCs in `_story`, by `anaphora.py`).
        The paragraph opens on what its first piece opens on, for the paragraph it may join."""
        pieces = [p for p in parts if p]
        kept = pieces[:1]
        for piece in pieces[1:]:
            kept.append(self._subject_not_named_again(kept[-1], piece))
        joined = self.joiner.join(kept)
        if pieces and pieces[0] in self._opens_on:
            self._opens_on[joined] = self._opens_on[pieces[0]]
        return joined

    def _subject_not_named_again(self, before: str, piece: str) -> str:
        """`piece` saying "they" (the PC's pronoun) or "it" for the subject it opens on when `before` ended on a
        sentence opening on it, unless a sentence it then starts with was written already."""
        name = self._opens_on.get(piece)
        if name is None:
            return piece
        opening = f"{name} "
        sentences = _SENTENCE.findall(before)
        if not (sentences and sentences[-1].lstrip().startswith(opening) and piece.startswith(opening)):
            return piece
        rest = piece[len(opening) :]
        if name in {self.name(uid) for uid in self.pcs_ever()}:  # every phrasing is in the past tense
            they = "They " + ("were " + rest[4:] if rest.startswith("was ") else rest)
            shorter = with_pronoun(they, self.pronoun(self._uid_by_name.get(name)))
        else:  # an enemy is "it", as the phrasings say ("its head")
            shorter = "It " + rest
        said = _split(_QUOTED.sub("\x02", shorter))
        if said & self.used:
            return piece
        self.used |= said
        return shorter

    def _opening(self, plan: Plan) -> str:
        parts = []
        for uid in plan.fallen:
            side = "pc" if self.before.get(uid, {}).get("side") == "pc" else "foe"
            parts.append(self.say(f"continuity.fallen_{side}", n=self.name(uid)))
        for uid, status in plan.lingering:
            if self.before.get(uid, {}).get("side") == "pc":
                slot = f"continuity.{status}" if f"continuity.{status}" in self.book else "continuity.other"
                parts.append(self.say(slot, n=self.name(uid), s=self._status_word(status)))
        if not plan.gm:
            return self._join([*parts, *self._facing(plan)])
        # What the GM did between the rounds is a paragraph of its own, after the continuity, before the fighting.
        continuity, gm = self._join(parts), self._gm_actions(plan)
        return "\n\n".join(p for p in (continuity, gm, self._join(self._facing(plan))) if p)

    def _facing(self, plan: Plan) -> list[str]:
        """Who faces whom, a glance at each PC, who moves first: the last words before the fighting."""
        parts = []
        pcs, foes = self._cast_words(plan.pcs), self.listing(plan.foes)
        self.cast = list(plan.pcs)
        own = self.names._own_scenario()
        title = str(own.get(self.locale) or self.round.get("scenario_title") or "")
        title = "" if not self.ja and is_japanese(title) else str(md_text(title))  # no English title known
        number = self.round.get("number", 1)
        if number == 1 or self.sometimes("setting again"):  # the place again, some rounds
            setting = scenario_setting(self.names.pack, self.names.scenario, self.locale)
            where = {"place": setting.place, "time": setting.time, "weather": setting.weather}
            parts.append(self.say("opening.setting" if number == 1 else "opening.setting_again", **where))
        if not plan.pcs:
            parts.append(self.say("opening.lost"))
        elif not plan.foes:
            parts.append(self.say("opening.clear", pcs=pcs))
        elif self.round.get("number", 1) == 1 and title:
            parts.append(self.say("opening.first", pcs=pcs, foes=foes, title=title))
        elif len(plan.pcs) == 1 and len(self.pcs_ever()) > 1:
            parts.append(self.say("opening.alone", pcs=pcs, foes=foes))
        else:
            parts.append(self.say("opening.again", pcs=pcs, foes=foes))
        # One glance, at the PC who acts first, on some rounds: a glance at every PC each round read as a roll-call.
        glanced = next((u for u in plan.pcs if self.facts.holds(Claim("acted", "n"), u, -1)), None)
        if glanced and self.sometimes("glance"):
            parts.append(self.say("opening.glance", n=self.name(glanced), v=self._vehicle_word(glanced)))
        if plan.first:
            alone = len(plan.pcs) + len(plan.foes) == 1
            parts.append(self.say("initiative.alone" if alone else "initiative.first", a=self.name(plan.first)))
        return parts

    def _cast_words(self, pcs: list[str]) -> str:
        """The PCs as the opening names them: by name in a scenario's first round (or when one or two are left),
        after it as the group they are (四人; all four of them): the cast is known, and every name again in every
        opening is a roll-call."""
        if self.round.get("number", 1) == 1 or len(pcs) <= 2:
            return self.listing(pcs)
        return str(self.lex["group"].get(str(len(pcs)), self.lex["group"]["many"]))

    def _title(self, plan: Plan) -> str:
        """The round's title from its focal moment (a death, the heaviest blow; else a standoff or the end of the
        enemy), as a heading over the story."""
        living = [u for u in plan.pcs if not self.unit_view(u)["dead"]]
        foes_left = [u for u, x in self.after.items() if x.get("side") != "pc" and not x.get("dead")]
        hits = [e for e in self.events if e.get("type") == "damage" and e.get("amount", 0) > 0 and e.get("by")]
        heaviest = max(hits, key=lambda e: e["amount"], default={})  # no climax: the heaviest blow still titles it
        e = self.events[plan.climax] if plan.climax is not None else heaviest
        if e.get("type") == "death":
            side = "pc" if self.before.get(e["unit"], {}).get("side") == "pc" else "foe"
            title = self.say(f"title.fall_{side}", t=self.name(e["unit"]))
        elif e.get("type") == "damage":
            title = self.say("title.blow", t=self.name(e["unit"]), a=self.name(e.get("by")))
        elif not living:
            title = self.say("title.lost")
        elif plan.foes and not foes_left:
            title = self.say("title.victory")
        else:
            title = self.say("title.standoff")
        return f"### {title}" if title else ""

    # --- the GM's actions between the rounds ----------------------------------------------------------------------
    def _gm_actions(self, plan: Plan) -> str:
        """The GM's actions told in the story's voice, in the order taken. The GM's reason is not told: it is a
        note to the players, shown as written with the GM's actions on the page; the story stays in the fiction."""
        return self._join(self._gm_beat(b, plan) for b in plan.gm)

    def _gm_beat(self, beat: GmBeat, plan: Plan) -> str:
        """One GM action told; one the phrasebook cannot tell is a marked gap (an error when strict), as an event."""
        return self._told(
            f"_gm_{beat.kind}", beat.kind, f"the GM action {beat.kind!r}", f"GM action {beat.kind}", beat, plan
        )

    def _gm_arrive(self, beat: GmBeat, plan: Plan) -> str:
        return self.say("gm.arrive", t=self.name(beat.unit))

    def _gm_vanish(self, beat: GmBeat, plan: Plan) -> str:
        return self.say("gm.vanish", t=self.name(beat.unit))

    def _gm_retreat(self, beat: GmBeat, plan: Plan) -> str:
        return self.say(f"gm.retreat_{beat.side}", t=self.name(beat.unit))

    def _gm_death(self, beat: GmBeat, plan: Plan) -> str:
        """A death by the GM's hand is a death: told with the same weight as one in the fighting, and mourned."""
        t = self.name(beat.unit)
        if beat.side != "pc":
            return self.say("death.foe", t=t)
        living = [p for p in plan.pcs if p != beat.unit]
        mourn = self.say("death.mourn", t=t, who=self.listing(living)) if living else ""
        return self._join([self.say("death.injury", t=t), mourn])

    def _gm_wound(self, beat: GmBeat, plan: Plan) -> str:
        gauge = str(beat.gauge)
        key = f"gm\x1f{beat.unit}\x1f{gauge}"
        wounds = self._wound_words(beat.unit, gauge, beat.stage)
        wound = self._wound(key, wounds)
        body = self._body(beat.unit) if gauge == "damage" else self.book["body.foot"]  # an injury is the rider's
        return self.say("gm.wound", t=self.name(beat.unit), wound=wound, body=body)

    def _gm_mend(self, beat: GmBeat, plan: Plan) -> str:
        return self.say("restore.damage" if beat.gauge == "damage" else "restore.injury", t=self.name(beat.unit))

    def _gm_status_on(self, beat: GmBeat, plan: Plan) -> str:
        slot = f"status.applied.{beat.status}"
        s = self._status_word(str(beat.status))
        return self.say(slot if slot in self.book else "status.applied.default", t=self.name(beat.unit), s=s)

    def _gm_status_off(self, beat: GmBeat, plan: Plan) -> str:
        return self.say("status.ended", t=self.name(beat.unit), s=self._status_word(str(beat.status)))

    def _gm_move(self, beat: GmBeat, plan: Plan) -> str:
        return self.say("gm.move", t=self.name(beat.unit))

    def _gm_revive(self, beat: GmBeat, plan: Plan) -> str:
        return self.say(f"gm.revive_{beat.side}", t=self.name(beat.unit))

    def pcs_ever(self) -> list[str]:
        return [uid for uid, u in self.before.items() if u.get("side") == "pc"]

    def _scene(self, scene: Scene, plan: Plan) -> str:
        if scene.kind == "cleanup":
            told = [self._beat_text(b, plan) for b in scene.beats]
            if not any(told):
                return ""  # nothing happened at the end of the round: no filler sentence
            return self._join([self.say("cleanup.lead"), *told])
        parts = []
        if scene.kind == "foes":
            actors = list(dict.fromkeys(b.actor for b in scene.beats if b.actor))
            parts.append(self.say("scene.foes", who=self.listing(actors)))
        parts += self._beats_text(scene.beats, plan)
        return self._join(parts)

    def _pc_scene(self, scenes: list[Scene], plan: Plan) -> str:
        """PCs who meet (`_meetings`) share one paragraph, their doings interleaved in the order they happened."""
        return self._join(self._pc_parts(scenes, plan))

    def _pc_parts(self, scenes: list[Scene], plan: Plan) -> list[str]:
        """The PCs' moment: a line of air, then for each PC their inner voice, their intent as the attempt, their
        first line, what they did with its outcome, their other lines; the enemies' doings on them in between, in
        the order they happened. A PC who did nothing gets a neutral moment (no entry, or an entry the round gave
        no chance to act on)."""
        owners = [str(sc.owner) for sc in scenes]
        beats = sorted((b for sc in scenes for b in sc.beats), key=lambda b: b.events[0][0])
        parts = [self.say("air", n=self.name(owners[0]))]
        for uid in owners:
            if not any(b.actor == uid and b.kind == "action" for b in beats):
                parts += self._opening_moment(self._idle(uid, plan))
        pending = set(owners)
        last = owners[0]
        others: list[Beat] = []  # the enemies' beats in a row, told together (a shared move is one sentence)
        for beat in [*beats, None]:
            if beat is not None and beat.actor not in owners:
                others.append(beat)
                continue
            parts += self._beats_text(others, plan)
            parts.append(self._reaction(self._most_struck(owners, others), others))  # one, not a roll-call
            others = []
            if beat is None:
                break
            uid = str(beat.actor)
            words = self._words_of(uid)
            turn = len(owners) > 1 and uid != last  # the scene turns to another PC: said, not just cut to
            thought = words.inner(self) if uid in pending else ""
            intent = words.intent(self, turn=turn)
            # A thought opens the PC's moment, unless the scene turns to them: then 「一方、葵は…」 names them first.
            moment = [intent, thought] if turn else [thought, intent]
            if uid in pending:
                moment.append(words.speech(self, 1, known=bool(intent)))
            moment += self._beats_text([beat], plan)
            parts += self._opening_moment(moment) if turn or uid in pending else moment
            last = uid
            parts.append(self._reaction(uid, [beat]))
            if uid in pending:
                parts.append(words.speech(self, None))
                pending.discard(uid)
        return parts

    def _opening_moment(self, pieces: list[str]) -> list[str]:
        """`pieces`, which open a PC's moment: its first sentence names them, whoever the reader last followed."""
        first = next((p for p in pieces if p), "")
        if first:
            self._moment_openers.add(first_sentence(first, self.locale))
        return pieces

    def _most_struck(self, owners: list[str], beats: list[Beat]) -> str:
        """Of the PCs sharing a scene, the one the enemies' beats hit (else aimed at) last: whose reaction is told."""
        aimed = [e for b in beats for _, e in b.events if e.get("type") == "attack" and e.get("target") in owners]
        hit = [e for e in aimed if e.get("hit")]
        return str((hit or aimed)[-1]["target"]) if aimed else owners[0]

    def _idle(self, uid: str, plan: Plan) -> list[str]:
        """A PC who did not act: their inner voice and words still theirs, a neutral moment."""
        n, words = self.name(uid), self._words_of(uid)
        parts = [words.inner(self), self.say("idle.no_entry" if uid not in self.prose else "idle.waited", n=n)]
        foes = [u for u in plan.foes if self.facts.alive(u, self.at)]
        if foes and uid in self.prose:
            parts.append(self.say("idle.watch", n=n, who=self.listing(foes)))
        return [*parts, words.intent(self), words.speech(self, None)]

    def _meetings(self, plan: Plan) -> list[list[Scene]]:
        """The round's scenes with the PCs who meet sharing one: PCs who fight the same enemy, or speak to each
        other by name, or whose players asked for it (連携). Within a shared scene, one who calls another by name
        comes first (the question before the answer). Other scenes stay as planned."""
        pc_scenes = {sc.owner: sc for sc in plan.scenes if sc.kind == "pc"}
        group = {uid: uid for uid in pc_scenes}

        def root(u: str | None) -> str | None:
            while group[u] != u:
                u = group[u]
            return u

        targets: dict[str, set[str]] = {}
        for uid, sc in pc_scenes.items():
            for b in sc.beats:
                if b.actor == uid:
                    targets.setdefault(str(uid), set()).update(
                        str(e.get("target")) for _, e in b.events if e.get("type") == "attack"
                    )
        calls = {uid: self._called(str(uid)) for uid in pc_scenes}
        for a in pc_scenes:
            for b in pc_scenes:
                meet = targets.get(str(a), set()) & targets.get(str(b), set()) or b in calls[a]
                if a != b and meet and root(a) != root(b):
                    group[root(b)] = root(a)
        out: list[list[Scene]] = []
        placed: dict[str | None, list[Scene]] = {}
        for sc in plan.scenes:
            if sc.kind != "pc":
                out.append([sc])
                continue
            key = root(sc.owner)
            if key in placed:
                placed[key].append(sc)
            else:
                placed[key] = [sc]
                out.append(placed[key])
        for shared in out:
            shared.sort(key=lambda sc: -sum(str(o.owner) in calls.get(sc.owner, ()) for o in shared))
        return out

    def _called(self, uid: str) -> set[str]:
        """The PCs `uid`'s player addresses by name in a line or asks to share a scene with."""
        reading = self._words_of(uid).reading
        if reading is None:
            return set()
        wanted = {p.addressee for p in reading.pieces if p.addressee} | set(reading.partners)
        return {pc for pc in self.pcs_ever() if pc != uid and self._known_as(pc) & wanted}

    def _known_as(self, uid: str) -> set[str]:
        """Every name a player may call a PC by: the story's, and the pack sheet's in either language."""
        sheet = self.names.pack.get("characters", {}).get(uid) or {}
        unit = self.before.get(uid) or {}
        return {self.name(uid), str(unit.get("name") or ""), *(str(sheet.get(k) or "") for k in LOCALES)} - {""}

    def _words_of(self, uid: str) -> PlayerWords:
        if uid not in self.player_words:
            prose = self.prose.get(uid)
            names = tuple(self.name(u) for u in self.pcs_ever())
            self.player_words[uid] = PlayerWords(uid, read_playing(prose, names=names) if prose else None)
        return self.player_words[uid]

    def _reaction(self, uid: str, beats: list[Beat]) -> str:
        """How the PC took what just happened, once for a run of beats: their own attack landing or not; an enemy's
        blow on them or past them (the last one counts). Nothing for other beats, or for a PC who died in them."""
        slot = None
        for beat in beats:
            main = beat.main
            if self._dead_after(uid, beat):
                return ""
            if main["type"] != "attack" or main.get("skipped"):
                continue
            if beat.actor == uid:  # their own blow: on some rounds only, or every attack ends on a nod
                if self.sometimes(f"react\x1f{beat.events[0][0]}"):
                    slot = "react.hit" if any(e.get("hit") for _, e in beat.events) else "react.miss"
                continue
            aimed = [e for _, e in beat.events if e.get("type") == "attack" and e.get("target") == uid]
            if aimed:
                slot = "react.hurt" if any(e.get("hit") for e in aimed) else "react.spared"
        return self.say(slot, n=self.name(uid)) if slot else ""

    def _dead_after(self, uid: str, beat: Beat) -> bool:
        return any(e["type"] == "death" and e["unit"] == uid for _, e in beat.events)

    # --- events ---------------------------------------------------------------------------------------------------
    def _beats_text(self, beats: list[Beat], plan: Plan) -> list[str]:
        """Beats told in order; several enemies making the same move toward the same one are told together."""
        out: list[str] = []
        k = 0
        while k < len(beats):
            group = [beats[k]]
            while k + len(group) < len(beats) and self._same_move(beats[k], beats[k + len(group)]):
                group.append(beats[k + len(group)])
            if len(group) > 1:
                move = group[0].main
                goal = move.get("toward")
                who = self.listing(b.actor for b in group)
                if goal:
                    out.append(self.say("move.group_toward", who=who, goal=self.name(goal)))
                else:
                    out.append(self.say("move.group_free", who=who))
                for beat in group:  # what followed each move (an engagement) is still told
                    out += [self._event(i, e) for i, e in beat.events[1:]]
            else:
                out.append(self._beat_text(beats[k], plan))
            k += len(group)
        return out

    def _same_move(self, a: Beat, b: Beat) -> bool:
        ma, mb = a.main, b.main
        return (
            ma["type"] == mb["type"] == "move"
            and self.before.get(a.actor or "", {}).get("side") != "pc"
            and self.before.get(b.actor or "", {}).get("side") != "pc"
            and ma.get("toward") == mb.get("toward")
            and ma.get("kind") != "leave"
            and mb.get("kind") != "leave"
            and all(e["type"] in ("move", "engage") for _, e in (*a.events, *b.events))
        )

    def _beat_text(self, beat: Beat, plan: Plan) -> str:
        parts = []
        if any(i == plan.climax for i, _ in beat.events):
            # Whose moment it is: the PC an enemy's blow falls on, else whoever acts.
            target = beat.main.get("target")
            subject = target if self.before.get(target or "", {}).get("side") == "pc" else beat.actor
            parts.append(self.say("climax.lead", a=self.name(subject)))
        engaged: set[str] = set()
        for i, e in beat.events:
            if e["type"] == "engage":  # both sides of one engagement are one event to a reader
                if e["unit"] in engaged:
                    continue
                engaged |= {e["unit"], *(e.get("with") or [])}
            parts.append(self._event(i, e))
            if i == plan.climax:
                parts.append(self._aftermath(e, plan))
        return self._join(parts)

    def _aftermath(self, e: dict[str, Any], plan: Plan) -> str:
        if e["type"] == "death":
            living = [p for p in plan.pcs if p != e["unit"] and not self.after.get(p, {}).get("dead")]
            if self.before.get(e["unit"], {}).get("side") == "pc" and living:
                return self.say("death.mourn", t=self.name(e["unit"]), who=self.listing(living))
            return ""
        return self.say("climax.hit", t=self.name(e.get("unit")), body=self._body(e.get("unit") or ""))

    def _event(self, i: int, e: dict[str, Any]) -> str:
        """One event told. One the phrasebook cannot tell (a type without phrasings, a field it does not expect)
        is an error when strict (tests); otherwise the GM finds a marked gap, because a round's resolution must
        never fail over its prose."""
        self.at = i
        kind = e.get("type")  # `_tell_<type>` reads the engine's shape of that event type (pbp.engine.pool.types)
        return self._told(f"_tell_{kind}", str(e.get("type", "?")), f"event type {kind!r}", f"event {i} ({kind})", i, e)

    def _told(self, method: str, kind: str, phrasing: str, label: str, *args: Any) -> str:
        """`self.<method>(*args)` as text; a `kind` without phrasings, or a field its teller does not expect, is an
        error when strict, else a marked gap (`phrasing` names it in the error, `label` in the log)."""
        try:
            teller = getattr(self, method, None)
            if teller is None:
                raise NarrativeError(f"no narrative phrasing for {phrasing}")
            return str(teller(*args))
        except (NarrativeError, LookupError, TypeError, ValueError) as error:
            if self.strict:
                raise
            log.warning("round story: %s left untold: %s", label, error)
            return self.say("untold.any", type=str(md_text(kind)))

    def _weapon_kind(self, weapon: str | None) -> str:
        kind = (self.names.pack.get("weapons", {}).get(weapon) or {}).get("kind")
        return kind if isinstance(kind, str) and f"attack.open.{kind}" in self.book else "default"

    def _tell_attack(self, i: int, e: AttackEvent) -> str:
        a, t, w = self.name(e["attacker"]), self.name(e["target"]), self.gear("weapons", e["weapon"])
        kind = self._weapon_kind(e["weapon"])
        shot = self.book.get(f"shot.{kind}") or self.book["shot.default"]
        ctx = {"a": a, "t": t, "w": w, "shot": shot, "body": self._body(e["target"])}
        if e.get("skipped"):
            return self.say("attack.skipped", **ctx)
        roll = e.get("attack_check")
        volley = roll is not None and self._first_of_roll.get(roll, i) < i  # an area weapon's later targets share it
        opening = self.say("attack.volley" if volley else f"attack.open.{kind}", **ctx)
        aims = self.sometimes(f"aim\x1f{i}")  # the aim told on some attacks: on every one it reads as a log
        if not volley and aims and self.before.get(e["attacker"], {}).get("side") == "pc":  # a PC's moment
            opening = self._join([self.say("attack.aim.any", **ctx), opening])
        heavy = e.get("margin", 0) >= 3
        if e["hit"] and not heavy and not self.facts.checks_after(i, e["target"]):  # a light hit that leaves a scratch
            outcome = "attack.graze"
        elif e["hit"]:
            outcome = "attack.clean" if heavy else "attack.hit"
        elif e["attack_successes"] - e["evade_successes"] >= -1:
            outcome = "attack.near"
        else:
            outcome = "attack.miss"
        special = f"attack.miss_by.{kind}"
        if outcome in ("attack.near", "attack.miss") and special in self.book:
            outcome = special
        return self._join([opening, self.say(outcome, **ctx)])

    def _vehicle_word(self, uid: str) -> str:
        kind = ((self.before.get(uid) or {}).get("vehicle") or {}).get("kind")
        kinds = self.lex["vehicle_kinds"]
        return str(md_text(kinds.get(kind, kinds["default"]) if kind else self.book["body.foot"]))

    def _wound_words(self, uid: str, gauge: str, stage: int) -> list[str]:
        """The words for a hit on `uid`'s gauge that checked `stage` (-1: none): a monster's damage gauge in its own
        (`damage_yamatsukami`: shell and ichor, not armour, wiring and cockpits) where the lexicon has them."""
        kind = self._kind(uid)
        table = self.lex["wound"] if stage >= 0 else self.lex["shallow"]
        words = table.get(f"{gauge}_{kind}") or table[gauge]
        context = {"t": self.name(uid)}  # a word that says the blow was light is for a light blow only
        options = map(_parsed, words[stage] if stage >= 0 else words)
        return [parsed[1] for parsed in options if self._fits(parsed, context)]

    def _kind(self, uid: str) -> str | None:
        """The kind of what `uid` rides (`savior`, `fighter`, `yamatsukami`: a monster's own body), None on foot."""
        unit = self.before.get(uid) or self.after.get(uid) or {}
        return (unit.get("vehicle") or {}).get("kind")

    def _body(self, uid: str) -> str:
        """What a wound is told on: a machine, a monster's bulk, a body on foot."""
        kind = self._kind(uid)
        return str(self.book.get(f"body.{kind}") or self.book["body.riding" if kind else "body.foot"])

    def _tell_damage(self, i: int, e: DamageEvent) -> str:
        t = self.name(e["unit"])
        parts = []
        if e.get("source") in ("heat", "lock_on"):
            parts.append(self.say(f"damage.{e['source']}", t=t))
        if e.get("redirected"):
            parts.append(self.say("damage.redirected", t=t))
        stage = max(e["checked"]) if e.get("checked") else -1
        gauge = e["gauge"]
        wounds = self._wound_words(e["unit"], gauge, stage)
        if stage >= 0:
            wound = self._wound(f"wound\x1f{i}", wounds)
            slot = "damage.grave" if stage >= 3 else "damage.stage"
        else:
            wound = self._wound(f"shallow\x1f{i}", wounds)
            slot = "damage.shallow"
        parts.append(self.say(slot, t=t, wound=wound, body=self._body(e["unit"])))
        return self._join(parts)

    def _wound(self, key: str, wounds: list[str]) -> str:
        """One of the lexicon's words for a wound, picked as a phrasing is, and not one this report used already
        while another is left (two hits told with the same 「甲殻の表面が削れ、粉が散った」 read as a template)."""
        start = self._index(key, len(wounds))
        turned = [wounds[(start + k) % len(wounds)] for k in range(len(wounds))]
        wound = next((w for w in turned if w not in self.wounds_used), turned[0])
        self.wounds_used.add(wound)
        return wound

    def _status_word(self, sid: str) -> str:
        return str(md_text(self.lex["statuses"].get(sid, self.lex["statuses"]["default"])))

    def _tell_status(self, i: int, e: StatusEvent) -> str:
        t, s = self.name(e["unit"]), self._status_word(e["id"])
        if e.get("renewed") or e["change"] == "renewed":
            return self.say("status.renewed", t=t, s=s)
        if e["change"] == "applied":  # a monster's in its own words (no cockpit, no instruments) where there are some
            slots = (f"status.applied_{self._kind(e['unit'])}.{e['id']}", f"status.applied.{e['id']}")
            return self.say(next((s for s in slots if s in self.book), "status.applied.default"), t=t, s=s)
        if e["change"] == "fired":
            return self.say("status.fired", t=t, s=s)
        return self.say("status.ended", t=t, s=s)

    def _tell_death(self, i: int, e: DeathEvent) -> str:
        uid = e["unit"]
        if self.before.get(uid, {}).get("side") == "pc":
            slot = "death.destroyed" if e.get("cause") == "destroyed" else "death.injury"
        else:
            slot = "death.foe"
        return self.say(slot, t=self.name(uid))

    def _tell_removed(self, i: int, e: RemovedEvent) -> str:
        prev = self.events[i - 1] if i > 0 else {}
        if prev.get("type") == "death" and prev.get("unit") == e["unit"]:
            slot = "removed.after_death"
        else:
            slot = "removed.destroyed" if e.get("reason") == "destroyed" else "removed.other"
        return self.say(slot, t=self.name(e["unit"]))

    def _tell_move(self, i: int, e: MoveEvent) -> str:
        a = self.name(e["unit"])
        if e.get("kind") == "leave":
            return self.say("move.leave", a=a)
        full = "full_" if e.get("kind") == "full_move" else ""
        if e.get("toward"):
            return self.say(f"move.{full}toward", a=a, goal=self.name(e["toward"]))
        return self.say(f"move.{full}free", a=a)

    def _tell_engage(self, i: int, e: EngageEvent) -> str:
        side = self.before.get(e["unit"], {}).get("side")
        foes = [u for u in e.get("with") or [] if self.before.get(u, {}).get("side", "?") != side]  # not its allies
        if foes:
            return self.say("engage.with", a=self.name(e["unit"]), who=self.listing(foes))
        return self.say("engage.alone", a=self.name(e["unit"]))

    def _tell_disengage(self, i: int, e: DisengageEvent) -> str:
        return self.say("engage.disengage", a=self.name(e["unit"]))

    def _tell_gimmick(self, i: int, e: GimmickEvent) -> str:
        name = self.names.gimmick(e["id"])
        g = str(md_text(name if self.ja else common_noun(name)))
        if e.get("units"):
            return self.say("gimmick.units", g=g, who=self.listing(e["units"]))
        return self.say("gimmick.none", g=g)

    def _tell_ability(self, i: int, e: AbilityEvent) -> str:
        a, s = self.name(e["unit"]), self.gear("abilities", e["id"])
        if e.get("target") and e["target"] != e["unit"]:
            return self.say("ability.target", a=a, s=s, t=self.name(e["target"]))
        return self.say("ability.self", a=a, s=s)

    def _tell_reload(self, i: int, e: ReloadEvent) -> str:
        return self.say("reload.any", a=self.name(e["unit"]), w=self.gear("weapons", e["weapon"]))

    def _tell_swap(self, i: int, e: SwapEvent) -> str:
        a, w = self.name(e["unit"]), self.gear("weapons", e["weapon"])
        if e.get("with"):
            return self.say("swap.with", a=a, w=w, old=self.gear("weapons", e["with"]))
        return self.say("swap.draw", a=a, w=w)

    def _tell_refused(self, i: int, e: RefusedEvent) -> str:
        why = self.lex["reasons"].get(e["reason"], self.lex["reasons"]["default"])
        act = self.lex["actions"].get(e.get("order"), self.lex["actions"]["default"])
        return self.say("refused.any", a=self.name(e["unit"]), why=str(md_text(why)), act=str(md_text(act)))

    def _tell_check(self, i: int, e: CheckEvent) -> str:
        a = self.name(e["unit"])
        skill = str(md_text(self.lex.get("skills", {}).get(e["skill"]) or self.names.of("skills", e["skill"])))
        if e.get("purpose") == "recover":
            return self.say("check.recover_ok" if e["success"] else "check.recover_fail", a=a, skill=skill)
        outcome = grade(e) or "open"
        told = [self.say("check.try", a=a, skill=skill), self.say(f"check.{outcome}", a=a, skill=skill)]
        if e.get("purpose") == "adhoc" and e.get("text"):  # a GM's ad-hoc check: the GM's words for what came of it
            told.append(str(md_text(e["text"])))
        return self._join(told)

    def _tell_restore(self, i: int, e: RestoreEvent) -> str:
        return self.say("restore.damage" if e["gauge"] == "damage" else "restore.injury", t=self.name(e["unit"]))

    def _tell_cleanup(self, i: int, e: CleanupEvent) -> str:
        return ""  # the aftermath's lead line is written only when something follows it

    def _tell_initiative(self, i: int, e: InitiativeEvent) -> str:
        return ""  # told in the opening

    # --- the end of the round ---------------------------------------------------------------------------------------
    def _closing(self, plan: Plan) -> str:
        """One closing image and the hook for the next round, not a roll-call: the state list under the story
        carries every PC's condition, and a death was told where it happened."""
        living_pcs = [u for u in plan.pcs if not self.unit_view(u)["dead"] and not self.unit_view(u)["removed"]]
        focal = self._focal(plan, living_pcs)
        image = ""
        if focal is not None:
            x = self.unit_view(focal)
            if x["damage"] >= 3 or x["injury"] >= 2:
                image = self.say("closing.grave", n=self.name(focal))
            elif x["damage"] >= 0 or x["injury"] >= 0 or any(x["hurt"].values()):
                image = self.say("closing.hurt", n=self.name(focal))
            else:
                image = self.say("closing.fine", n=self.name(focal))
        foes_left = [u for u, x in self.after.items() if x.get("side") != "pc" and not x.get("dead")]
        foes_left = [u for u in foes_left if not self.after[u].get("removed")]
        marked = [u for u in living_pcs if "lock_on" in self.unit_view(u)["statuses"]]
        if marked:
            hook = self.say("hook.lock_on", n=self.name(marked[0]))
        elif not living_pcs:
            hook = self.say("hook.lost")
        elif not foes_left:
            hook = self.say("hook.victory")
        else:
            hook = self.say("hook.foes", who=self.listing(foes_left))
        return "\n\n".join(p for p in (image, hook) if p)

    def _focal(self, plan: Plan, living: list[str]) -> str | None:
        """The living PC the round's end looks at: the one its climax fell on or came from, else the most hurt,
        else the first who acted."""
        if plan.climax is not None:
            e = self.events[plan.climax]
            for uid in (e.get("unit"), e.get("target"), e.get("attacker"), e.get("by")):
                if uid in living:
                    return str(uid)
        hurt = sorted(living, key=lambda u: -max(self.unit_view(u)["damage"], self.unit_view(u)["injury"]))
        if hurt and max(self.unit_view(hurt[0])["damage"], self.unit_view(hurt[0])["injury"]) >= 0:
            return hurt[0]
        return next((u for u in living if self.facts.holds(Claim("acted", "n"), u, self.at)), None)

    def unit_view(self, uid: str | None) -> dict[str, Any]:
        """A unit as the state list sees it: names, what it rides, its gauges' deepest stages after the round."""
        if uid not in self._views:
            self._views[uid] = self._view(uid)
        return self._views[uid]

    def _view(self, uid: str | None) -> dict[str, Any]:
        unit = self.after.get(uid or "") or self.before.get(uid or "") or {}
        vehicle = unit.get("vehicle")
        return {
            "id": uid,
            "name": self.names.unit(uid),
            "pc": unit.get("side") == "pc",
            "riding": bool(vehicle),
            "vehicle": self.names.of("vehicles", (vehicle or {}).get("id")) if vehicle else "",
            "dead": bool(unit.get("dead")),
            "removed": bool(unit.get("removed")),
            "injury": _stages_checked(unit.get("injury")),
            "damage": _stages_checked((vehicle or {}).get("damage")),
            "hurt": {"injury": _hurt(unit.get("injury")), "damage": _hurt((vehicle or {}).get("damage"))},
            "statuses": [s["id"] for s in unit.get("statuses", [])],
        }

    def _state(self, plan: Plan) -> str:
        pcs = [self.unit_view(uid) for uid in plan.roster]
        template = environment().get_template(story_template_name(self.ruleset, self.locale, "state"))
        return template.render(pcs=pcs, growth=self.growth, lex=self.lex).strip()


def draft_report(
    bundle: dict[str, Any],
    *,
    prose: dict[str, str],
    growth: dict[str, int] | None = None,
    locale: str = "ja",
    pack: dict[str, Any] | None = None,
    strict: bool = False,
    memory: Iterable[str] = (),
    previous_events: list[dict[str, Any]] | None = None,
    names: dict[str, str] | None = None,
    pronouns: dict[str, str] | None = None,
) -> str:
    """The generated story of one round as Markdown, for the GM to edit. `prose`: each entered PC's prose by unit
    id (a PC without a key wrote no entry). `pack` (the campaign pack's data) gives gear its display names; without
    it the campaign named in the bundle is looked up under campaigns/. `memory`: the sentences of the scenario's
    earlier stories (`sentences(story)`), none of which is written again; `previous_events`: the round before's
    events (who fell then); `names`: display names by unit id in this locale; `pronouns`: each PC's English pronoun
    by unit id (she, he or they: the sheet's, else the pack's, else they). `strict` raises on an event the
    phrasebook cannot tell instead of leaving a marked gap."""
    if pack is None:
        pack = _campaign_pack((bundle.get("round") or {}).get("campaign"))
    narrator = _narrator_for(bundle, pack)(
        bundle,
        prose=prose,
        growth=growth,
        locale=locale,
        pack=pack,
        strict=strict,
        memory=memory,
        previous_events=previous_events,
        names=names,
        pronouns=pronouns,
    )
    return narrator.write()


def _narrator_for(bundle: dict[str, Any], pack: dict[str, Any]) -> type[Narrator]:
    """The narrator of a round: by the bundle's ruleset (kancolle's battles and base phase have their own shape),
    then, for pool, a scene is told with its own words. The narrators build on this module, hence the late imports."""
    ruleset = bundle.get("ruleset") or bundle.get("encounter", {}).get("ruleset") or "pool"
    if ruleset == "kancolle":
        from pbp.reports.kancolle_story import KancolleNarrator

        return KancolleNarrator
    from pbp.reports.scene_story import SceneNarrator, is_scene_round

    return SceneNarrator if is_scene_round(bundle, pack) else Narrator


@cache
def _campaign_pack_cached(campaign: str) -> dict[str, Any]:
    from pbp.packs import load_pack_by_id

    try:
        return load_pack_by_id(campaign).data
    except (ValueError, OSError):
        return {}


def _campaign_pack(campaign: str | None) -> dict[str, Any]:
    """The pack of a campaign by id, for names only; an unknown campaign gives ids as names."""
    return _campaign_pack_cached(campaign) if campaign else {}
