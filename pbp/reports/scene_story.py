"""A scene (a scenario without a battle: `kind = "scene"`, R-GM-2) told as a scene, not as a battle.

A night in the hangar has no riverbank, no enemy and no map: it is told with its own phrasebook
(`templates/narrative/<ruleset>/<locale>/scene.toml`: place, people, work, night) by the battle narrator's phrase
machinery (`Narrator.say`: deterministic picks, no sentence twice, no empty slot), which this class inherits. The
round opens on the pack's setting (time, place, weather: `setting.py`); each PC's moment tells the check they took
on by its pack name, their プレイング as a master reads it (`playing.py`: 「台詞」 verbatim with their stage direction,
actions as attempts, inner voice in （）, notes to the master never), and the check's own success or failure text
from the pack, as the dice graded it. PCs who speak to each other by name share one paragraph, the question before
the reply. One closing image ends it; the state list under it carries the rest.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from pbp.reports.narrative import NARRATIVE_DIR, Narrator, grade, md_text
from pbp.reports.plan import plan_round
from pbp.reports.playing import Piece, Reading, read_playing, tokens
from pbp.reports.setting import Setting, scenario_setting

#: Words of a scenario's time or title that make it night (the _night phrasings claim it).
_NIGHT = re.compile(r"夜|晩|宵|night|evening|midnight", re.IGNORECASE)
#: A note that says the entry answers another (「…へのお返事です」, "my reply to …"): told after what it answers.
#: 「お返事はお任せします」 (the reply is left to the other player) is not one.
_REPLY = re.compile(r"(?:への|に対する)お?(?:返事|返答|答え)|お?返事です|\breply\b|\banswer(?:ing)? to\b", re.I)
#: At most this many of a PC's own narration and inner sentences reach the story (speech and actions all do).
_NARRATION_MAX, _INNER_MAX = 4, 2
_TONES = ("say", "ask", "shout", "murmur")
#: A stage direction that is a sentence of its own (it ends in the past: 言ったが、声が震えた), not an adverbial.
_PAST_END = ("た", "だ")
_EN_END = (".", "!", "?", "…", "”", '"')


@cache
def scene_phrasebook(ruleset: str, locale: str) -> dict[str, list[str]]:
    """The scene's phrasings by slot: one flat table (no nesting to flatten)."""
    with (NARRATIVE_DIR / ruleset / locale / "scene.toml").open("rb") as f:
        return tomllib.load(f)


def is_scene_round(bundle: dict[str, Any], pack: dict[str, Any] | None) -> bool:
    """Whether the round's pack scenario is a scene (and its ruleset has a scene phrasebook to tell it with)."""
    info = bundle.get("round") or {}
    ruleset = bundle.get("ruleset") or bundle.get("encounter", {}).get("ruleset") or "pool"
    scenario = info.get("pack_scenario") or info.get("scenario")
    return (
        scenario_setting(pack, scenario, "ja").scene and (NARRATIVE_DIR / str(ruleset) / "ja" / "scene.toml").is_file()
    )


@lru_cache(maxsize=256)
def _plain_verb_phrase(text: str) -> bool:
    """Whether a Japanese check name ends on a verb in its plain form (修理する, 願い出る): it can then stand before
    「ことにした」. Read by the morphological analyser, not by the kana it ends in."""
    words = tokens(text)
    return bool(words) and words[-1].pos1 == "動詞" and words[-1].cform.startswith("終止形")


def _verbatim(line: str) -> str:
    """A player's line as inert text, its ideographic spaces kept (「吹くの？　……上手くないのに」 stays as written;
    `md_text` folds other whitespace)."""
    return "\u3000".join(str(md_text(part)) for part in line.split("\u3000"))


@lru_cache(maxsize=4096)
def _has_topic(clause: str) -> bool:
    """Whether a Japanese clause has a topic of its own (床は冷たくて…, 明日は…): the PC's name is not put before it
    (「葵は、床は冷たくて」 is not Japanese)."""
    return any(t.pos1 == "助詞" and t.pos2 == "係助詞" and t.surface == "は" for t in tokens(clause))


class SceneNarrator(Narrator):
    """Writes one scene round's story; the battle narrator's picking, joining and memory, the scene's phrasebook."""

    def __init__(self, bundle: dict[str, Any], **kwargs: Any):
        super().__init__(bundle, **kwargs)
        self.book = scene_phrasebook(self.ruleset, self.locale)  # type: ignore[assignment]
        self.setting: Setting = scenario_setting(self.names.pack, self.names.scenario, self.locale)
        both = (scenario_setting(self.names.pack, self.names.scenario, loc) for loc in ("ja", "en"))
        self.night = any(_NIGHT.search(f"{s.time} {s.title}") for s in both)  # the same in both languages
        self.readings: dict[str, Reading] = {uid: read_playing(text) for uid, text in self.prose.items()}
        own = (self.names.pack.get("scenarios") or {}).get(self.names.scenario) or {}
        self.checks = {c.get("id"): c for c in own.get("checks", []) if isinstance(c, dict)}

    def write(self) -> str:
        plan = plan_round(self.bundle, set(self.prose), self.previous_events)
        present = [uid for uid in plan.roster if not self.unit_view(uid)["dead"]]
        self.cast = present
        self.at = -1
        blocks = [self._scene_opening(present)]
        self.at = 0
        blocks += [self._join(self._group(g)) for g in self._groups(present)]
        self.at = len(self.events)
        blocks.append(self._scene_closing(present))
        return self._story("", blocks, plan)

    # --- the opening and the close ------------------------------------------------------------------------------
    def _words(self) -> dict[str, str]:
        s = self.setting
        return {k: str(md_text(v)) for k, v in (("place", s.place), ("time", s.time), ("weather", s.weather))}

    def _scene_opening(self, present: list[str]) -> str:
        """Time, place and weather as the pack gives them (a slot is chosen only for what is known), who is there,
        and the air of the place."""
        w = self._words()
        known = tuple(k for k in ("time", "place", "weather") if w[k])
        slot = {
            ("time", "place", "weather"): "set_full",
            ("time", "place"): "set_time_place",
            ("place", "weather"): "set_place",
            ("place",): "set_place",
            ("time", "weather"): "set_time",
            ("time",): "set_time",
        }.get(known)
        title = str(md_text(self.setting.title))
        parts = []
        if slot:
            parts.append(self.say(slot, **w))
        elif title:
            parts.append(self.say("set_title", title=title))
        if present:
            parts.append(self.say("people_one" if len(present) == 1 else "people", pcs=self.listing(present)))
        parts.append(self.say("air_night" if self.night else "air"))
        return self._join(parts)

    def _scene_closing(self, present: list[str]) -> str:
        place = self._words()["place"]
        slot = "closing" + ("_night" if self.night else "") + ("_place" if place else "")
        parts = [self.say(slot, place=place)]
        if present:
            parts.append(self.say("hook", pcs=self.listing(present)))
        return self._join(parts)

    # --- who shares a paragraph ---------------------------------------------------------------------------------
    def _aliases(self, uid: str) -> set[str]:
        """Every name a player may call a PC by: this story's, the pack sheet's in each language, the unit's own."""
        sheet = (self.names.pack.get("characters") or {}).get(uid) or {}
        unit = self.before.get(uid) or self.after.get(uid) or {}
        names = {self.names.unit(uid), sheet.get("ja"), sheet.get("en"), unit.get("name")}
        return {n for n in names if isinstance(n, str) and n.strip()}

    def _addressed(self, reading: Reading) -> str:
        """Whom an entry turns to: the names its lines call out to, its partners and its notes to the master (「真琴
        さんをお借りしています」, "my reply to Chihaya"). A name only mentioned in a line or in narration is not one."""
        called = [p.addressee or "" for p in reading.pieces]
        return "\n".join([*called, *reading.partners, *reading.notes])

    def _groups(self, order: list[str]) -> list[list[str]]:
        """The PCs in paragraphs: those whose entries name each other (a line, an addressee, a partner, a note)
        together; within one, an entry that says it replies comes after the others; paragraphs in joining order."""
        root = {uid: uid for uid in order}

        def find(uid: str) -> str:
            while root[uid] != uid:
                uid = root[uid]
            return uid

        aliases = {uid: self._aliases(uid) for uid in order}
        for uid in order:
            reading = self.readings.get(uid)
            if reading is None:
                continue
            words = self._addressed(reading)
            for other in order:
                if other != uid and any(name in words for name in aliases[other]):
                    root[find(other)] = find(uid)
        groups: dict[str, list[str]] = {}
        for uid in order:
            groups.setdefault(find(uid), []).append(uid)
        return [sorted(g, key=lambda u: (self._replies(u), order.index(u))) for g in groups.values()]

    def _replies(self, uid: str) -> bool:
        reading = self.readings.get(uid)
        return reading is not None and any(_REPLY.search(note) for note in reading.notes)

    def _group(self, members: list[str]) -> list[str]:
        """One paragraph: each member's moment (the check taken on, their プレイング), then how the checks went."""
        parts: list[str] = []
        for uid in members:
            parts += self._opening_moment(self._moment(uid))
        for uid in members:
            parts += [self._outcome(uid, e) for e in self._checks_of(uid)]
        return parts

    # --- a PC's moment ------------------------------------------------------------------------------------------
    def _checks_of(self, uid: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == "check" and e.get("purpose") == "scene" and e["unit"] == uid]

    def _moment(self, uid: str) -> list[str]:
        a = self.name(uid)
        checks = self._checks_of(uid)
        parts = [self._take(a, e) for e in checks]
        reading = self.readings.get(uid)
        if reading is not None and not reading.blank:
            others = [n for u in self.cast if u != uid for n in self._aliases(u)]
            failed = any(not e.get("success") for e in checks)
            parts += self._pieces(a, reading.pieces, others, failed)
        if not any(parts):  # no entry, a blank one, or nothing of it tellable: a quiet moment, never a mocking one
            place = self._words()["place"]
            parts.append(self.say("neutral_place" if place else "neutral", a=a, place=place))
        return parts

    def _check_name(self, e: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """The pack check an event made (by its `label`) and its name in this locale."""
        check = self.checks.get(e.get("label"))
        name = check.get(self.locale) if check else None
        return (name if isinstance(name, str) else ""), check

    def _take(self, a: str, e: dict[str, Any]) -> str:
        """The check the PC took on, by its pack name: a plain verb phrase reads as their decision (修理することに
        した; set out to repair), anything else as the task named."""
        name, _ = self._check_name(e)
        if not name:
            return ""
        if self.ja:
            slot = "take_verb" if _plain_verb_phrase(name) else "take_named"
        else:
            slot = "take_verb"
            if not name[1:2].isupper():  # "Repair the joints" -> "repair the joints"; "HQ" stays
                name = name[:1].lower() + name[1:]
        return self.say(slot, a=a, check=str(md_text(name.rstrip("。.!！ "))))

    def _outcome(self, uid: str, e: dict[str, Any]) -> str:
        """How the check went, as the dice graded it: the pack's own success or failure text, else the skill."""
        level = grade(e)
        if level is None:
            return ""
        a = self.name(uid)
        _, check = self._check_name(e)
        outcome = (check or {}).get("success" if e["success"] else "failure")
        text = outcome.get(self.locale) if isinstance(outcome, dict) else None
        if isinstance(text, str) and text.strip():
            return self.say(level, a=a, text=str(md_text(text)))
        skill = self.lex.get("skills", {}).get(e["skill"]) or self.names.of("skills", e["skill"])
        return self.say(f"{level}_bare", a=a, skill=str(md_text(skill)))

    def _pieces(self, a: str, pieces: Iterable[Piece], others: list[str], failed: bool) -> list[str]:
        """The player's pieces in their order: every line, every action, narration that brings in another PC; a
        few more of the narration and of the inner voice. An English story tells a Japanese entry's lines only
        (set apart as the player's own words)."""
        told: list[str] = []
        counts = {"narration": 0, "inner": 0}
        for piece in pieces:
            limited = piece.kind in counts and not any(name in piece.text for name in others)
            if limited and counts[piece.kind] >= (_NARRATION_MAX if piece.kind == "narration" else _INNER_MAX):
                continue
            text = self._piece(a, piece, failed)
            if text and limited:
                counts[piece.kind] += 1
            told.append(text)
        return told

    def _piece(self, a: str, piece: Piece, failed: bool) -> str:
        """One piece told. An action is told as done (in a scene what a PC does around their check is not at
        stake), but as the attempt when their check failed: no sentence claims what the dice denied."""
        if piece.kind == "speech":
            return self._speech(a, piece)
        if piece.ja != self.ja:  # a Japanese sentence in English narration, or the reverse: its line is quoted
            return ""
        if piece.kind == "inner":
            text = piece.text.strip().rstrip("。")
            return self.say("inner", a=a, text=str(md_text(text))) if text else ""
        told = (piece.told if failed or piece.kind != "action" else piece.plain or piece.told).strip().rstrip("。")
        if not told:
            return ""
        if not self.ja and not told.endswith(_EN_END):
            told += "."
        retold = piece.kind == "action" or piece.first_person
        slot = "action" if retold and self.ja and not _has_topic(told) else "narration"
        return self.say(slot, a=a, plan=str(md_text(told)))

    def _speech(self, a: str, piece: Piece) -> str:
        """A line verbatim: in 「」 (a Japanese story), in quotation marks (English), a Japanese line in an English
        story set apart and marked as the player's own words; with the player's stage direction beside it."""
        text = _verbatim(piece.text.strip())
        if not text:
            return ""
        if not self.ja and piece.ja:
            return self.say("speech_ja", a=a, text=f'*「{text}」*{{: lang="ja"}}')
        direction = piece.direction.strip().rstrip("。.")
        if direction and piece.ja == self.ja:
            slot = "speech_then" if not self.ja or direction.endswith(_PAST_END) else "speech_how"
            return self.say(slot, a=a, text=text, plan=str(md_text(direction)))
        tone = piece.tone if piece.tone in _TONES else "say"
        return self.say(f"speech_{tone}", a=a, text=text)
