"""Events -> a short story (SS) in Markdown, through Jinja templates per ruleset, event type and locale.

The events are the facts; this module only decides what goes in which paragraph and hands each piece to a template
(`templates/narrative/<ruleset>/<locale>/...`). The wording lives in the templates and in the locale's
`lexicon.toml`: several phrasings per event, picked deterministically from the round's seed and the event's
position, so a re-run writes the same story. No sentence is written twice in one report: a phrasing that would
repeat one is re-picked.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError
from markupsafe import Markup

from pbp.engine.dice import seed_hash
from pbp.paths import TEMPLATES_DIR

log = logging.getLogger(__name__)

NARRATIVE_DIR = TEMPLATES_DIR / "narrative"
LOCALES = ("ja", "en")
#: Events told as part of the paragraph of whoever acted before them, never opening one of their own.
_FOLLOW_UPS = frozenset({"damage", "status", "death", "removed", "restore", "engage", "disengage"})
#: How many other phrasings to try before accepting one that repeats a sentence.
_RETRIES = 8
#: How many of those are spent looking for a sentence shape not used yet (variety, not a rule).
_SHAPE_RETRIES = 3
_SENTENCE = re.compile(r"[^。！？!?.]+[。！？!?.]*[」』”\"]?")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
_MD_BLOCK_START = re.compile(r"^(\d*)([-+.)])")


class NarrativeError(ValueError):
    """The story cannot be written: an event type has no template for this ruleset and locale."""


def md_text(value: Any) -> Any:
    """Jinja `finalize`: every value printed into the Markdown story is inert text (no HTML, no Markdown)."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return _inert(value)


@lru_cache(maxsize=4096)  # the same names and words are printed many times in every report
def _inert(value: str) -> Markup:
    text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    # A value may open a paragraph: a leading list or heading marker must stay text.
    return Markup(_MD_BLOCK_START.sub(r"\1\\\2", text))


class _DataEnvironment(Environment):
    """Templates read plain event dicts (`e.attacker`): look keys up first, where Jinja would first try an attribute
    and pay for the AttributeError on every access. A dict method (`d.items`) is still found when no key has its
    name."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


@cache
def environment() -> Environment:
    """The narrative environment: autoescaped (for Markdown), strict about undefined names, shared by all reports."""
    return _DataEnvironment(
        loader=FileSystemLoader(NARRATIVE_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=md_text,
        auto_reload=False,  # templates are part of the release; no stat() per render
    )


@cache
def lexicon(ruleset: str, locale: str) -> dict[str, Any]:
    """The locale's words for the ruleset's terms (stages, statuses, reasons, grades) and its sentence joiner."""
    with (NARRATIVE_DIR / ruleset / locale / "lexicon.toml").open("rb") as f:
        return tomllib.load(f)


@cache
def _template_exists(name: str) -> bool:
    return (NARRATIVE_DIR / name).is_file()


def event_template_name(ruleset: str, locale: str, event_type: str) -> str:
    return f"{ruleset}/{locale}/events/{event_type}.md.j2"


def story_template_name(ruleset: str, locale: str, part: str) -> str:
    return f"{ruleset}/{locale}/story/{part}.md.j2"


@dataclass
class Names:
    """Display names in one locale: units from the encounter, gear and the rest from the campaign pack if known."""

    locale: str
    pack: dict[str, Any] = field(repr=False)
    units: dict[str, dict[str, Any]] = field(repr=False)
    scenario: str | None = None  # the pack scenario of the round, when known

    def of(self, section: str, key: str | None) -> str:
        """The name of `key` in a pack section (weapons, vehicles, abilities ...), else the key itself."""
        if key is None:
            return ""
        entry = self.pack.get(section, {}).get(key)
        if isinstance(entry, dict):
            return str(entry.get(self.locale) or entry.get("ja") or key)
        return key

    def gimmick(self, gid: str) -> str:
        """A gimmick's name from the round's own pack scenario, else its id: another scenario's text is never read
        (one nobody has played yet is a GM secret)."""
        own = self.pack.get("scenarios", {}).get(self.scenario) if self.scenario else None
        for g in own.get("gimmicks", []) if isinstance(own, dict) else []:
            if isinstance(g, dict) and g.get("id") == gid:
                return str(g.get(self.locale) or g.get("ja") or gid)
        return gid

    def unit(self, uid: str | None) -> str:
        unit = self.units.get(uid or "")
        return str(unit.get("name") or uid) if unit else str(uid or "")


def pc_voice(prose: str, limit: int = 90) -> dict[str, str] | None:
    """A PC's voice from the player's prose: the first 「quoted line」 as speech, else its first sentence as intent."""
    text = " ".join((prose or "").split())
    if not text:
        return None
    quoted = re.search(f"「([^「」]{{1,{limit}}})」", text) or re.search(f'["“]([^"“”]{{1,{limit}}})["”]', text)
    if quoted:
        return {"kind": "speech", "text": quoted.group(1).strip()}
    first = _SENTENCE.match(text)
    sentence = (first.group(0) if first else text).strip()
    if len(sentence) > limit:
        sentence = sentence[: limit - 1].rstrip() + "…"
    return {"kind": "intent", "text": sentence}


def _stages_checked(gauge: dict[str, Any] | None) -> int:
    """The deepest fully checked stage of a gauge (-1: none)."""
    if not gauge:
        return -1
    checked = [i for i, (cap, taken) in enumerate(zip(gauge["capacity"], gauge["taken"], strict=False)) if taken >= cap]
    return max(checked, default=-1)


def _hurt(gauge: dict[str, Any] | None) -> bool:
    return bool(gauge) and any(gauge["taken"])


def grade(event: dict[str, Any]) -> str | None:
    """A scene check graded by its margin: fail, success, or great (need + 2 or more); None when nothing was needed."""
    if event.get("need") is None or event.get("success") is None:
        return None
    if not event["success"]:
        return "fail"
    return "great" if event["successes"] - event["need"] >= 2 else "success"


@dataclass
class _Paragraph:
    actor: str | None
    engagement: str | None
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    kind: str = "exchange"  # exchange | gimmick | cleanup


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
    ):
        if locale not in LOCALES:
            raise NarrativeError(f"unknown locale {locale!r} (known: {', '.join(LOCALES)})")
        self.ruleset = bundle.get("ruleset") or bundle.get("encounter", {}).get("ruleset") or "pool"
        self.locale = locale
        self.env = environment()
        self.lex = lexicon(self.ruleset, locale)
        # The public commitment keys the phrasing, so the draft (seed still secret) and any re-run read the same.
        self.seed = str(bundle.get("seed_hash") or (seed_hash(bundle["seed"]) if bundle.get("seed") else ""))
        self.round = bundle.get("round") or {}
        self.before = {u["id"]: u for u in bundle.get("encounter", {}).get("units", [])}
        self.after = {u["id"]: u for u in bundle.get("state", {}).get("units", [])}
        self.events: list[dict[str, Any]] = list(bundle.get("events", []))
        self.prose = prose or {}
        self.strict = strict
        self.growth = growth or {}
        scenario = self.round.get("pack_scenario") or self.round.get("scenario")  # bundles before pack_scenario
        self.names = Names(locale, pack or {}, {**self.before, **self.after}, scenario)
        self.used: set[str] = set()
        self.shapes: set[str] = set()
        self.worn: set[str] = set()  # templates whose every phrasing's shape this report has used
        self._views: dict[str | None, dict[str, Any]] = {}
        self._globals = {
            "lex": self.lex,
            "u": self.unit_view,
            "name": self.names.unit,
            "names": lambda ids: [self.names.unit(i) for i in ids],
            "gear": self.names.of,
            "gimmick": self.names.gimmick,
        }
        # Longest first, so that a name containing another is blanked whole.
        names = {md_text(self.names.unit(uid)) for uid in self.names.units}
        self._unit_names = sorted((n for n in names if n), key=len, reverse=True)
        self.voiced: set[str] = set()

    # --- what templates see -------------------------------------------------------------------------------------
    def _picker(
        self, slot: str, attempt: int, radices: list[int] | None = None
    ) -> Callable[[int | Sequence[Any]], Any]:
        """`pick` for one render. Each call's first choice is keyed by the seed, the slot and the call's position; a
        re-pick (`attempt` > 0) moves each call by its own offset: the attempts count through the combinations of
        the piece's picks in mixed radix (digit `r_c` of `attempt`, the sizes of the earlier calls as the radix) and
        call `c` moves by `r_0 + ... + r_c`. So every attempt gives another combination until all are tried, the
        first few move every pick at once (as a plain rotation would) and attempt 0 is the seed's own choice.
        `radices` (when given) receives each call's size, for the caller to know how many combinations there are."""
        calls = iter(range(1_000_000))
        sizes: list[int] = [] if radices is None else radices
        state = {"place": 1, "carry": 0}  # the product of the earlier calls' sizes, the sum of their digits

        def pick(choices: int | Sequence[Any]) -> Any:
            n = max(choices if isinstance(choices, int) else len(choices), 1)
            key = f"{self.seed}\x1f{slot}\x1f{next(calls)}".encode()
            digit = (attempt // state["place"]) % n
            state["carry"] += digit
            state["place"] *= n
            sizes.append(n)
            i = (int.from_bytes(hashlib.sha256(key).digest()[:8], "big") + state["carry"]) % n
            return i if isinstance(choices, int) else choices[i]

        return pick

    def unit_view(self, uid: str | None) -> dict[str, Any]:
        """A unit as templates see it: names, side, what it rides, its gauges' deepest stages after the round."""
        if uid not in self._views:
            self._views[uid] = self._view(uid)
        return self._views[uid]

    def _view(self, uid: str | None) -> dict[str, Any]:
        unit = self.after.get(uid or "") or self.before.get(uid or "") or {}
        vehicle = unit.get("vehicle")
        kind = (vehicle or {}).get("kind")
        return {
            "id": uid,
            "name": self.names.unit(uid),
            "pc": unit.get("side") == "pc",
            "side": unit.get("side", ""),
            "riding": bool(vehicle),
            "vehicle": self.names.of("vehicles", (vehicle or {}).get("id")) if vehicle else "",
            "kind": self.lex["vehicle_kinds"].get(kind, self.lex["vehicle_kinds"]["default"]) if vehicle else "",
            "dead": bool(unit.get("dead")),
            "removed": bool(unit.get("removed")),
            "injury": _stages_checked(unit.get("injury")),
            "damage": _stages_checked((vehicle or {}).get("damage")),
            "hurt": {"injury": _hurt(unit.get("injury")), "damage": _hurt((vehicle or {}).get("damage"))},
            "statuses": [s["id"] for s in unit.get("statuses", [])],
        }

    def _render(self, template: str, slot: str, *, quoting: str = "", **context: Any) -> str:
        """Render one piece. A phrasing that repeats a sentence of the report is re-picked; one that only repeats a
        sentence's shape (the same words around other names) is re-picked a few times, then accepted. A player's
        words the piece quotes (`quoting`) are in every phrasing, so they count as a name, not as a repeat: two
        players who wrote the same line get different phrasings around it, not a search through all of them."""
        tmpl = self.env.get_template(template)
        own = str(_inert(" ".join(quoting.split()))) if quoting else ""

        def phrasing(text: str) -> str:
            return text.replace(own, "\x00") if own else text

        chosen = text = ""
        tried: set[str] = set()
        combinations = 1
        # Once a template has run out of fresh shapes in this report, looking for one again only costs renders.
        seek_shape = template not in self.worn
        for attempt in range(_RETRIES):
            if attempt and attempt >= combinations:  # every combination of this piece's picks was tried
                break
            radices: list[int] = []
            raw = tmpl.render(pick=self._picker(slot, attempt, radices), **self._globals, **context)
            combinations = math.prod(radices)
            if raw in tried:  # another combination that reads the same (a choice this phrasing does not use)
                continue
            tried.add(raw)
            text = self._flow(raw)
            if self._sentences(phrasing(text)) & self.used:
                continue
            chosen = chosen or text
            if not seek_shape or not self._shapes(phrasing(text)) & self.shapes:
                chosen = text
                break
            if attempt + 1 >= _SHAPE_RETRIES:
                self.worn.add(template)
                break
        text = chosen or text
        self.used |= self._sentences(phrasing(text))
        self.shapes |= self._shapes(phrasing(text))
        return text

    def _flow(self, raw: str) -> str:
        """Template lines joined into running prose: Japanese without spaces between lines, English with one."""
        return re.sub(r"\s*\n\s*", self.lex["joiner"], raw).strip()

    @staticmethod
    def _sentences(text: str) -> set[str]:
        return {s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 3}

    def _shapes(self, text: str) -> set[str]:
        """The sentences of `text` with unit names blanked: two sentences that differ only in names count as one."""
        for name in self._unit_names:
            text = text.replace(name, "\x00")
        return {s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 3}

    # --- structure ----------------------------------------------------------------------------------------------
    def _actor(self, event: dict[str, Any]) -> str | None:
        return event.get("attacker") or event.get("unit")

    def _paragraphs(self) -> Iterator[_Paragraph]:
        """The round as scenes: one paragraph per exchange (a unit's main process with what followed from it)."""
        engagement = {uid: u.get("engagement") for uid, u in self.before.items()}
        current: _Paragraph | None = None
        for i, event in enumerate(self.events):
            kind = event["type"]
            if kind == "initiative":  # told in the opening
                continue
            if kind in ("engage", "disengage"):
                engagement[event["unit"]] = event["engagement"] if kind == "engage" else None
            actor = self._actor(event)
            starts = (
                current is None
                or kind in ("gimmick", "cleanup")
                or (kind not in _FOLLOW_UPS and (current.kind != "exchange" or actor != current.actor))
            )
            if starts:
                if current is not None:
                    yield current
                para_kind = kind if kind in ("gimmick", "cleanup") else "exchange"
                current = _Paragraph(actor, engagement.get(actor or ""), kind=para_kind)
            assert current is not None
            current.events.append((i, event))
        if current is not None:
            yield current

    def _voice(self, uid: str | None) -> str:
        """The PC's own words or intent, once per report, at the start of their first moment."""
        if not uid or uid in self.voiced or not self.unit_view(uid)["pc"]:
            return ""
        voice = pc_voice(self.prose.get(uid, ""))
        if voice is None:
            return ""
        self.voiced.add(uid)
        template = story_template_name(self.ruleset, self.locale, "voice")
        return self._render(template, f"voice:{uid}", quoting=voice["text"], who=uid, **voice)

    def _event(self, i: int, event: dict[str, Any]) -> str:
        """One event told. An event the templates cannot tell (a type without a template, a field they do not
        expect) is an error when strict (tests); otherwise the GM finds a marked gap in the draft, because a
        round's resolution must never fail over its prose."""
        try:
            return self._tell(i, event)
        except (NarrativeError, TemplateError, LookupError, TypeError, ValueError) as error:
            if self.strict:
                raise
            log.warning("round story: event %d (%s) left untold: %s", i, event.get("type"), error)
            return self._story("untold", f"untold:{i}", e=event)

    def _tell(self, i: int, event: dict[str, Any]) -> str:
        name = event_template_name(self.ruleset, self.locale, str(event.get("type")))
        if not _template_exists(name):
            raise NarrativeError(f"no narrative template {name} for event type {event.get('type')!r}")
        prev = self.events[i - 1] if i > 0 else {}
        extra: dict[str, Any] = {}
        if event["type"] == "check":
            extra["grade"] = grade(event)
        if event["type"] == "attack":  # an area weapon's later targets share the first one's roll
            roll = event.get("attack_check")
            extra["volley"] = bool(roll) and any(e.get("attack_check") == roll for e in self.events[:i])
        return self._render(name, f"e{i}", e=event, prev=prev, **extra)

    def _story(self, part: str, slot: str, **context: Any) -> str:
        return self._render(story_template_name(self.ruleset, self.locale, part), slot, **context)

    def write(self) -> str:
        """The whole story: opening, one paragraph per scene, cleanup, each PC's closing line and state."""
        units = [self.unit_view(uid) for uid in self.before]
        opening = [
            self._story(
                "opening",
                "opening",
                round=self.round,
                pcs=[x["id"] for x in units if x["pc"]],
                enemies=[x["id"] for x in units if not x["pc"]],
            )
        ]
        opening += [self._event(i, e) for i, e in enumerate(self.events) if e["type"] == "initiative"]
        blocks = [self.lex["joiner"].join(opening)]
        previous_engagement: str | None = None
        for para in self._paragraphs():
            parts = []
            if para.kind == "exchange" and para.engagement and para.engagement != previous_engagement:
                members = [uid for uid, u in self.after.items() if u.get("engagement") == para.engagement]
                parts.append(self._story("scene", f"scene:{para.events[0][0]}", members=members, who=para.actor))
            previous_engagement = para.engagement or previous_engagement
            if para.kind == "exchange":
                parts.append(self._voice(para.actor))
            parts.extend(self._event(i, e) for i, e in para.events)
            blocks.append(self.lex["joiner"].join(p for p in parts if p))
        pcs = [x for x in (self.unit_view(uid) for uid in self.after) if x["pc"]]
        closing = [self._voice(x["id"]) for x in pcs]  # PCs who did not act still speak
        closing += [self._story("closing", f"closing:{x['id']}", who=x["id"]) for x in pcs]
        blocks.append(self.lex["joiner"].join(c for c in closing if c))
        blocks.append(self._story("next", "next", round=self.round))
        state = self.env.get_template(story_template_name(self.ruleset, self.locale, "state")).render(
            pcs=pcs, growth=self.growth, lex=self.lex, gear=self.names.of
        )
        blocks.append(state.strip())
        return "\n\n".join(b for b in blocks if b) + "\n"


def draft_report(
    bundle: dict[str, Any],
    *,
    prose: dict[str, str],
    growth: dict[str, int] | None = None,
    locale: str = "ja",
    pack: dict[str, Any] | None = None,
    strict: bool = False,
) -> str:
    """The generated story of one round as Markdown, for the GM to edit. `pack` (the campaign pack's data) gives
    gear its display names; without it the campaign named in the bundle is looked up under campaigns/. `strict`
    raises on an event the templates cannot tell instead of leaving a marked gap."""
    if pack is None:
        pack = _campaign_pack((bundle.get("round") or {}).get("campaign"))
    return Narrator(bundle, prose=prose, growth=growth, locale=locale, pack=pack, strict=strict).write()


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
