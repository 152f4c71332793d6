"""A `kancolle` round told as a story: the fleet battle as a naval battle, the base phase as scenes.

The pool narrator's machinery does the writing (`Narrator.say`: deterministic picks keyed by the seed's hash, no
sentence twice in a scenario, no phrasing whose claim is false or whose slot is empty; `_join` and `anaphora.py` for
how a paragraph refers to a ship girl; `weave.py` for the players' プレイング: 「台詞」 verbatim, the intent as the
attempt, notes never). What is kancolle's own is here: the facts its events make true (`KancolleFacts`), the shape
of its stories (a paragraph per phase or pass of the battle, a paragraph per base-phase scene), its event tellers and
its state list. The phrasebooks are `templates/narrative/kancolle/<locale>/`: no dice, DCs or AP in the prose.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbp.reports.facts import Claim, Facts
from pbp.reports.narrative import Narrator, environment, md_text, story_template_name
from pbp.reports.setting import scenario_setting

#: Damage states by steps (K-DMG-3); the state list's words for them are the lexicon's `states`.
_STATE_SLUG = {"小破": "light", "中破": "medium", "大破": "heavy"}
_PASS_SLUG = {"長": "long", "中": "mid", "短": "short"}
#: The attack events and the phrasing family of each (a night attack is a shelling event in the night phase).
_STRIKES = ("attack", "torpedo", "air_attack")
#: Checks told by what they decide (the attack, the scene, the recon, the retreat ...), never on their own.
_FOLDED_CHECKS = ("hit", "evasion", "torpedo", "air", "recon", "retreat", "night", "event", "salvage")
#: A paragraph of the battle starts at each of these (a phase or pass, a new round, the end).
_BREAKS = ("phase", "round_start", "battle_end", "cycle_start", "scene", "night_check", "retreat")
#: The events that lead up to a strike (its beat): the PC's moment opens before the first of them.
_LEAD_UP = ("ap", "check", "accident", "support", "target_roll", "anti_air")
#: A PC's deeds of her own: the first one opens her moment (her words).
_DEEDS = (*_STRIKES, "scene", "recon", "retreat")


class KancolleFacts(Facts):
    """The facts of a kancolle round: a ship that sinks or leaves the battle is gone from then on, one whose damage
    steps rose is hurt, one that fired, launched, scouted, took a scene or docked acted."""

    def __init__(self, bundle: dict[str, Any], *, entered: Iterable[str] = ()):
        # `battle`: the fleet is at sea, fighting (not the base phase, free checks or the battle's aftermath).
        kinds = {e.get("type") for e in bundle.get("events", [])}
        at_sea = bundle.get("encounter", {}).get("mode", "battle") == "battle" and bool(
            kinds & {"round_start", "phase"}
        )
        super().__init__(bundle, entered=entered, battle=at_sea)
        for u in bundle.get("encounter", {}).get("units", []):
            if u.get("removed") or u.get("lost"):
                self._gone_at[u["id"]] = -1
            if (u.get("steps") or 0) > 0:
                self._hurt_at[u["id"]] = -1

    def _replay(self, i: int, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "removed" or kind == "lost":
            self._gone_at.setdefault(e["unit"], i)
        elif kind == "unable_to_act" and e.get("reason") == "sunk":
            self._sunk_at.setdefault(e["unit"], i)
            self._gone_at.setdefault(e["unit"], i)
        elif kind == "damage" and (e.get("after") or 0) > (e.get("before") or 0):
            self._hurt_at.setdefault(e["unit"], i)
            self._blows.setdefault(e["unit"], []).append((i, e.get("state") == "小破"))
        elif kind == "accident":  # an accident may cost a ship damage steps (its effects), with no damage event
            for hurt in (e.get("effects") or {}).get("steps") or []:
                if isinstance(hurt, dict) and hurt.get("n"):
                    self._hurt_at.setdefault(str(hurt.get("unit")), i)
        elif kind in _STRIKES:
            self._acted.add(e["attacker"])
        elif kind == "salvage" and e.get("salvager"):
            self._acted.add(e["salvager"])
        elif kind in ("scene", "supply", "dock", "discovery", "recon") or (
            kind == "check" and e.get("kind") != "evasion"
        ):
            self._acted.add(e["unit"])

    def holds(self, claim: Claim, uid: str | None, at: int) -> bool:
        """As `Facts.holds`, but a ship never hurt is unhurt at the round's end too (the pool facts count every
        unit as hurt at that moment)."""
        if claim.name in ("hurt", "unhurt") and uid is not None:
            hurt = self._hurt_at.get(uid, len(self.events) + 1) <= at
            return hurt if claim.name == "hurt" else not hurt
        return super().holds(claim, uid, at)


class KancolleNarrator(Narrator):
    """Writes one kancolle round's story (a battle deadline, a base cycle, free checks, the after-battle deadline or
    the end phase) with the pool narrator's picking, joining, memory and weaving."""

    def __init__(self, bundle: dict[str, Any], **kwargs: Any):
        super().__init__(bundle, **kwargs)
        self.facts = KancolleFacts(bundle, entered=self.prose)
        self.mode = str(bundle.get("encounter", {}).get("mode") or "battle")
        kinds = {e.get("type") for e in self.events}
        #: The after-battle deadline (spoils, salvage, losses): told as the battle's aftermath, not as a battle.
        self.aftermath = self.mode == "battle" and not kinds & {"round_start", "battle_start", "phase"}
        self._moment_told: set[str] = set()  # the PCs whose first moment (their words) has been told
        self._moment_open: set[str] = set()  # opened before a deed's lead-up: the rest of her lines follow the deed
        self._starts: dict[int, str] | None = None  # `_beat_starts`, worked out once

    # --- what the narrator needs to know of the fleet ----------------------------------------------------------
    def name(self, uid: str | None) -> str:
        """A unit's name; in English an abyssal ship named by its class ("I-class destroyer") is "the I-class
        destroyer", as a common noun is (a ship girl's name is a name)."""
        if uid not in self._name_cache:
            name = super().name(uid)
            words = name.split()
            if not self.ja and not self._is_pc(str(uid)) and len(words) > 1 and words[-1].islower():
                name = f"the {name}"
            self._name_cache[uid] = name
        return self._name_cache[uid]

    def _present_at_start(self, side: str) -> list[str]:
        return [
            uid
            for uid, u in self.before.items()
            if (u.get("side") == "pc") == (side == "pc") and not u.get("removed") and not u.get("lost")
        ]

    def order_target(self, uid: str) -> str | None:
        """The first target the PC's orders name (shelling, night, torpedo or air), if any."""
        orders = self.bundle.get("orders") or {}
        listed = orders.get("orders", []) if isinstance(orders, dict) else []
        for order in listed:
            if not isinstance(order, dict) or order.get("unit") != uid:
                continue
            for key in ("shelling", "night", "opening_torpedo", "torpedo", "air"):
                value = order.get(key)
                for attack in value if isinstance(value, list) else [value]:
                    targets = attack.get("targets") if isinstance(attack, dict) else None
                    found = next((t for t in targets or [] if t in self.names.units), None)
                    if found:
                        return str(found)
        return None

    def _word(self, table: str, key: Any) -> str:
        """A lexicon word (a resource, a battlefield, an event's name in English), inert; '' when it has none."""
        return str(md_text(self.lex.get(table, {}).get(str(key), "")))

    def _event_name(self, name: Any) -> str:
        """A base-phase event's name: the table's own in Japanese; in English the pack row's `en`, else the
        lexicon's word for it, else '' (then a phrasing without the name is chosen)."""
        if not isinstance(name, str):
            return ""
        if self.ja:
            return str(md_text(name))
        for table in (self.names.pack.get("event_tables") or {}).values():
            for row in table.values() if isinstance(table, dict) else ():
                if isinstance(row, dict) and row.get("name") == name and row.get("en"):
                    return str(md_text(str(row["en"])[:1].lower() + str(row["en"])[1:]))
        return self._word("events", name)

    def _trait(self, trait: Any) -> str:
        """A personality trait's name: as the grid names it, in English by the pack's `grid_en` ('' if none)."""
        if not isinstance(trait, str):
            return ""
        if self.ja:
            return str(md_text(trait))
        english = (self.names.pack.get("grid_en") or {}).get(trait)
        return str(md_text(str(english).lower())) if english else ""

    # --- the story ------------------------------------------------------------------------------------------------
    def write(self) -> str:
        self.at = -1
        pcs = self.pcs_ever()
        self.cast = self._present_at_start("pc")
        battle = self.mode == "battle" and not self.aftermath
        title = self._battle_title() if battle else self._base_title()
        blocks = [self._battle_opening() if battle else self._base_opening()]
        blocks += self._idle_moments()
        for segment in self._segments():
            blocks.append(self._paragraph(segment))
        self.at = len(self.events)
        blocks.append(self._close(battle))
        return self._story(title, [b for b in blocks if b], pcs)

    def _segments(self) -> list[list[int]]:
        """The events in paragraphs: a new one at each phase or pass, round, scene, cycle, the night and the end;
        within a pass, a new one where the fire turns from one side to the other (a beat's lead-up goes with it)."""
        out: list[list[int]] = []
        side = None
        starts = self._beat_starts()
        for i, e in enumerate(self.events):
            turn = None
            if i in starts:
                turn = self.before.get(starts[i], {}).get("side")
            if not out or e.get("type") in _BREAKS:
                out.append([])
                side = None
            elif turn is not None and side is not None and turn != side:
                out.append([])
            side = turn if turn is not None else side
            out[-1].append(i)
        return out

    def _doer(self, e: dict[str, Any]) -> str | None:
        """Whose deed event `e` is, if it is one: a strike's attacker; the ship girl of a scene, a recon, a retreat,
        or of a check taken for its own sake (a free check; a check folded into a strike or a scene is not)."""
        kind = e.get("type")
        if kind in _STRIKES:
            return str(e.get("attacker"))
        if kind in _DEEDS or (kind == "check" and not self._folded(e)):
            return str(e.get("unit"))
        return None

    def _folded(self, check: dict[str, Any]) -> bool:
        """Whether a check is told by what it decided (a strike, a scene, a recon ...): never in free checks, where
        the GM called each check for its own sake."""
        return self.mode != "checks" and check.get("kind") in _FOLDED_CHECKS

    def _beat_starts(self) -> dict[int, str]:
        """Where each deed's beat starts (its lead-up: the AP, the checks, the target pick before a strike), and
        whose deed it is."""
        if self._starts is not None:
            return self._starts
        starts: dict[int, str] = {}
        for j, e in enumerate(self.events):
            doer = self._doer(e)
            if doer is None:
                continue
            k = j
            strike = e.get("type") in _STRIKES  # a strike's lead-up (the AP, its checks, the target pick) is its beat
            while strike and k > 0 and self.events[k - 1].get("type") in _LEAD_UP and k - 1 not in starts:
                k -= 1
            starts.setdefault(k, doer)
        self._starts = starts
        return starts

    def _paragraph(self, segment: list[int]) -> str:
        head = self.events[segment[0]]
        parts: list[str] = []
        for i in segment:
            e = self.events[i]
            if e.get("type") == "phase":
                continue
            parts += self._told_with_moment(i, e)
        struck = any(self.events[i].get("type") in _STRIKES for i in segment)
        if head.get("type") == "phase" and struck:
            self.at = segment[0]
            parts.insert(0, self._tell_phase(segment[0], head))
        return self._join(parts)

    def _told_with_moment(self, i: int, e: dict[str, Any]) -> list[str]:
        """An event told; a PC's first deed (an attack, a recon, a scene, a retreat) opens on her words, before its
        lead-up: inner voice, intent, first line; the rest of her lines follow the deed."""
        told = self._event(i, e)
        uid = self._beat_starts().get(i)
        rest = ""
        deed = self._doer(e)
        if deed is not None and deed in self._moment_open:
            self._moment_open.discard(deed)
            rest = self._words_of(deed).speech(self, None)
        guests: list[str] = []
        if e.get("type") == "scene":  # who shares the scene and has none of her own speaks in it, after its owner
            own = {x.get("unit") for x in self.events if x.get("type") == "scene"}
            guests = [self._guest_words(u) for u in self._sharing(e) if u not in own]
            rest = self._join([rest, *guests])
        if uid is None or uid not in self.prose or uid in self._moment_told or not self._is_pc(uid):
            return [told, rest]
        self._moment_told.add(uid)
        self._moment_open.add(uid)
        self.at = i - 1
        words = self._words_of(uid)
        inner, intent = words.inner(self), words.intent(self)
        known = bool(intent) or self.name(uid) in inner  # just said of her: her first line needs no "she said"
        moment = self._opening_moment([inner, intent, words.speech(self, 1, known=known)])
        self.at = i
        if deed is not None:  # the beat is the deed itself: its other lines follow it
            self._moment_open.discard(uid)
            rest = self._join([words.speech(self, None), *guests])
        return [*moment, told, rest]

    def _guest_words(self, uid: str) -> str:
        """A PC's words in the scene she shares, once in the story (her inner voice and her lines)."""
        if uid not in self.prose or uid in self._moment_told:
            return ""
        self._moment_told.add(uid)
        words = self._words_of(uid)
        return self._join(self._opening_moment([words.inner(self), words.speech(self, None)]))

    def _is_pc(self, uid: str) -> bool:
        return self.before.get(uid, {}).get("side") == "pc"

    def _deeds(self) -> set[str]:
        """The units with a deed of their own this round (an attack, a recon, a scene, a retreat), and those who
        share another's scene."""
        doers = {d for e in self.events if (d := self._doer(e)) is not None}
        return doers | {str(u) for e in self.events if e.get("type") == "scene" for u in self._sharing(e)}

    def _sharing(self, e: dict[str, Any]) -> list[str]:
        """The PCs who share a scene with its owner (its partner, those appearing), in that order."""
        others = [e.get("partner"), *(e.get("appearing") or [])]
        return [str(u) for u in dict.fromkeys(others) if u and u != e.get("unit") and self._is_pc(str(u))]

    def _idle_moments(self) -> list[str]:
        """A PC who takes no deed of their own this round gets a neutral moment, their words still theirs."""
        out = []
        deeds = self._deeds()
        for uid in self.cast:
            if uid in deeds:
                continue
            n, words = self.name(uid), self._words_of(uid)
            self._moment_told.add(uid)
            slot = "idle.no_entry" if uid not in self.prose else "idle.waited"
            if self.mode != "battle" or self.aftermath:
                slot = "idle.after" if self.aftermath else "idle.base"
            # her words follow a sentence about her (the moment, or her intent): the first needs no tag
            parts = [words.inner(self), self.say(slot, n=n), words.intent(self), words.speech(self, None, known=True)]
            out.append(self._join(self._opening_moment(parts)))
        if len(out) > 2 and not any(self.prose.get(uid) for uid in self.cast if uid not in deeds):
            return [self._join(out)]  # several quiet moments without a word of their own: one paragraph
        return out

    # --- openings, titles, closings ---------------------------------------------------------------------------
    def _setting_line(self) -> str:
        setting = scenario_setting(self.names.pack, self.names.scenario, self.locale)
        where = {"place": setting.place, "time": setting.time, "weather": setting.weather}
        where = {k: str(md_text(v)) for k, v in where.items()}
        return self.say("opening.setting", **where) if any(where.values()) else ""

    def _battle_opening(self) -> str:
        pcs, foes = self._present_at_start("pc"), self._present_at_start("enemy")
        first = self.round.get("number", 1) == 1 or any(e.get("type") == "battle_start" for e in self.events)
        parts = [self._setting_line() if first else ""]
        if not pcs:
            parts.append(self.say("opening.lost"))
        elif not foes:
            parts.append(self.say("opening.clear", pcs=self.listing(pcs)))
        else:
            slot = "opening.first" if first else "opening.again"
            parts.append(self.say(slot, pcs=self.listing(pcs), foes=self.listing(foes)))
        return self._join(parts)

    def _base_opening(self) -> str:
        pcs = self._present_at_start("pc")
        slot = {"base": "base.open", "checks": "base.checks", "end": "base.end"}.get(self.mode, "base.open")
        if self.aftermath:
            slot = "base.after"
        return self._join([self._setting_line(), self.say(slot, pcs=self.listing(pcs)) if pcs else ""])

    def _battle_title(self) -> str:
        sunk = [e["unit"] for e in self.events if e.get("type") == "unable_to_act" and e.get("reason") == "sunk"]
        sunk_pc = [u for u in sunk if self.before.get(u, {}).get("side") == "pc"]
        end = next((e for e in self.events if e.get("type") == "battle_end"), None)
        blows = [e for e in self.events if e.get("type") == "damage" and e.get("after", 0) > e.get("before", 0)]
        if sunk_pc:
            title = self.say("title.sunk_pc", t=self.name(sunk_pc[0]))
        elif end is not None and end.get("outcome") == "victory":
            title = self.say("title.victory")
        elif sunk:
            title = self.say("title.sunk_foe", t=self.name(sunk[0]))
        elif any(e.get("type") == "phase" and e.get("phase") == "night" for e in self.events):
            title = self.say("title.night")
        elif blows:
            heaviest = max(blows, key=lambda e: e["after"] - e["before"])
            title = self.say("title.blow", t=self.name(heaviest["unit"]))
        else:
            title = self.say("title.standoff")
        return f"### {title}" if title else ""

    def _base_title(self) -> str:
        scene = next((e for e in self.events if e.get("type") == "scene"), None)
        if self.aftermath:
            title = self.say("title.after")
        elif scene is not None:
            title = self.say("title.scene", event=self._event_name(scene.get("event")), a=self.name(scene["unit"]))
        else:
            title = self.say("title.base")
        return f"### {title}" if title else ""

    def _close(self, battle: bool) -> str:
        """One closing image on the ship girl the round looked at most, and the hook for the next deadline."""
        living = [u for u in self.cast if self.facts.alive(u, self.at)]
        deeds = self._deeds()
        focal = max(living, key=lambda u: (self._steps(u), u in deeds), default=None)
        image = ""
        if focal is not None:
            steps = self._steps(focal)
            slot = "closing.grave" if steps >= 3 else "closing.hurt" if steps >= 1 else "closing.fine"
            image = self.say(slot, n=self.name(focal))
        if not battle:
            slot = "hook.after" if self.aftermath else "hook.base"
            hook = self.say(slot, pcs=self.listing(living)) if living else ""
            return self._join([image, hook])
        end = next((e for e in self.events if e.get("type") == "battle_end"), None)
        foes = [u for u in self._present_at_start("enemy") if self.facts.alive(u, self.at)]
        night = any(e.get("type") == "night_check" and e.get("success") for e in self.events)
        if not living:
            afloat = [u for u in self.cast if not self.facts.holds(Claim("sunk", "n"), u, self.at)]
            hook = self.say("hook.spent", pcs=self.listing(afloat)) if afloat else self.say("hook.lost")
        elif end is not None:
            hook = self.say(f"hook.{end.get('outcome')}" if f"hook.{end.get('outcome')}" in self.book else "hook.end")
        elif night:
            hook = self.say("hook.night", who=self.listing(foes))
        else:
            hook = self.say("hook.foes", who=self.listing(foes)) if foes else self.say("hook.end")
        return "\n\n".join(p for p in (image, hook) if p)

    def _steps(self, uid: str) -> int:
        unit = self.after.get(uid) or self.before.get(uid) or {}
        return int(unit.get("steps") or 0)

    # --- event tellers (`_event` calls `_tell_<type>`) ------------------------------------------------------------
    def _tell_battle_start(self, i: int, e: dict[str, Any]) -> str:
        field = self._word("battlefields", e.get("battlefield")) or "default"
        slot = f"start.{field}" if f"start.{field}" in self.book else "start.default"
        return self.say(slot)

    def _tell_recon(self, i: int, e: dict[str, Any]) -> str:
        found = self._check_ok(e.get("check")) and not e.get("void")
        return self.say("recon.found" if found else "recon.missed", a=self.name(e["unit"]))

    def _tell_positions(self, i: int, e: dict[str, Any]) -> str:
        return self.say("positions.final" if e.get("final") else "positions.first")

    def _tell_round_start(self, i: int, e: dict[str, Any]) -> str:
        return ""  # a new round is a new paragraph, not a sentence

    def _tell_round_end(self, i: int, e: dict[str, Any]) -> str:
        return ""

    def _tell_cycle_end(self, i: int, e: dict[str, Any]) -> str:
        return ""

    def _tell_phase(self, i: int, e: dict[str, Any]) -> str:
        phase = str(e.get("phase") or "")
        if phase == "shelling":
            phase = f"shelling_{_PASS_SLUG.get(str(e.get('pass')), 'mid')}"
        slot = f"phase.{phase}"
        return self.say(slot) if slot in self.book else ""

    def _tell_target_roll(self, i: int, e: dict[str, Any]) -> str:
        """An enemy's pick of its target: told by its attack when one follows, else as the guns turning."""
        follows = any(x.get("type") in _STRIKES and x.get("attacker") == e["unit"] for x in self.events[i + 1 : i + 8])
        return "" if follows else self.say("target.any", a=self.name(e["unit"]), t=self.name(e.get("target")))

    def _tell_check(self, i: int, e: dict[str, Any]) -> str:
        """A check taken for its own sake. A ship girl's checks one after another (a free check played again) are
        one effort: the first opens it, the last tells how it ended."""
        if self._folded(e):
            return ""  # told by what it decided
        a = self.name(e["unit"])
        run = self._check_run(i)
        outcome = "ok" if e.get("success") else "fail"
        outcome = "special" if e.get("special") else "fumble" if e.get("fumble") else outcome
        first, last = run[0] == i, run[-1] == i
        opening = self.say("check.open", a=a) if first else ""
        if not last:
            return opening
        return self._join([opening or self.say("check.again", a=a), self.say(f"check.{outcome}", a=a)])

    def _check_run(self, i: int) -> list[int]:
        """The indexes of the run of checks by one unit that check `i` belongs to (nothing but AP, support and
        accidents between them)."""
        unit = self.events[i].get("unit")

        def step(k: int, by: int) -> int | None:
            k += by
            while 0 <= k < len(self.events):
                x = self.events[k]
                if x.get("type") == "check" and not self._folded(x):
                    return k if x.get("unit") == unit else None
                if x.get("type") not in ("ap", "support", "accident"):
                    return None
                k += by
            return None

        run = [i]
        while (k := step(run[0], -1)) is not None:
            run.insert(0, k)
        while (k := step(run[-1], 1)) is not None:
            run.append(k)
        return run

    def _check_ok(self, check_id: Any) -> bool:
        return any(x.get("type") == "check" and x.get("id") == check_id and x.get("success") for x in self.events)

    def _tell_accident(self, i: int, e: dict[str, Any]) -> str:
        return self.say("accident.any", a=self.name(e["unit"]))

    def _tell_ap(self, i: int, e: dict[str, Any]) -> str:
        """AP is a number: only a special roll's surge of spirit and an event that lifts someone are told."""
        if e.get("reason") == "special":
            return self.say("spirit.special", a=self.name(e["unit"]))
        if e.get("reason") == "event" and e.get("after", 0) > e.get("before", 0):
            return self.say("spirit.event", a=self.name(e["unit"]))
        return ""

    def _tell_support(self, i: int, e: dict[str, Any]) -> str:
        slot = "support.damage" if e.get("kind") == "damage" else "support.check"
        return self.say(slot, a=self.name(e.get("from")), t=self.name(e.get("to")))

    def _tell_anti_air(self, i: int, e: dict[str, Any]) -> str:
        return self.say(f"aa.{'reduce' if e.get('role') == 'reduce' else 'defend'}", a=self.name(e["unit"]))

    def _tell_attack(self, i: int, e: dict[str, Any]) -> str:  # type: ignore[override]
        kind = "night" if e.get("phase") == "night" else "shell"
        return self._strike(kind, e)

    def _tell_torpedo(self, i: int, e: dict[str, Any]) -> str:
        return self._strike("torpedo", e)

    def _tell_air_attack(self, i: int, e: dict[str, Any]) -> str:
        return self._strike("air", e)

    def _strike(self, kind: str, e: dict[str, Any]) -> str:
        a, t = self.name(e["attacker"]), self.name(e.get("target"))
        shot = str(self.book.get(f"shot.{kind}", [""])[0])
        opening = self.say(f"open.{kind}", a=a, t=t)
        outcome = "strike.special" if e.get("hit") and e.get("special") else "strike.hit" if e.get("hit") else ""
        outcome = outcome or ("strike.void" if e.get("void") else "strike.miss")
        return self._join([opening, self.say(outcome, a=a, t=t, shot=shot)])

    def _tell_damage(self, i: int, e: dict[str, Any]) -> str:  # type: ignore[override]
        t = self.name(e["unit"])
        if e.get("state") == "轟沈":
            return ""  # the sinking is told once, where the ship goes down (unable_to_act)
        if (e.get("after") or 0) <= (e.get("before") or 0):
            return self.say("damage.held", t=t)
        return self.say(f"damage.{_STATE_SLUG.get(str(e.get('state')), 'light')}", t=t)

    def _tell_unable_to_act(self, i: int, e: dict[str, Any]) -> str:
        uid = e["unit"]
        pc = self.before.get(uid, {}).get("side") == "pc"
        if e.get("reason") != "sunk":
            return self.say("spent.pc" if pc else "spent.foe", t=self.name(uid))
        if not pc:
            return self.say("sink.foe", t=self.name(uid))
        living = [p for p in self.cast if p != uid and self.facts.alive(p, i)]
        mourn = self.say("sink.mourn", t=self.name(uid), who=self.listing(living)) if living else ""
        return self._join([self.say("sink.pc", t=self.name(uid)), mourn])

    def _tell_removed(self, i: int, e: dict[str, Any]) -> str:  # type: ignore[override]
        uid = e["unit"]
        earlier = [x for x in self.events[:i] if x.get("unit") == uid]
        if earlier and earlier[-1].get("type") in ("unable_to_act", "retreat"):
            return ""  # told as the sinking, the exhaustion or the retreat
        return self.say("removed.any", t=self.name(uid))

    def _tell_retreat(self, i: int, e: dict[str, Any]) -> str:
        side = "pc" if e.get("side") == "pc" else "foe"
        return self.say(f"retreat.{side}_{'ok' if e.get('success') else 'fail'}", a=self.name(e["unit"]))

    def _tell_night_check(self, i: int, e: dict[str, Any]) -> str:
        if not e.get("success"):
            return self.say("night.off")
        return self.say("night.on", a=self.name(e.get("unit")))

    def _tell_battle_end(self, i: int, e: dict[str, Any]) -> str:
        slots = (f"end.{e.get('outcome')}_{e.get('cause')}", f"end.{e.get('outcome')}", "end.draw")
        return self.say(next(s for s in slots if s in self.book))  # how it was won, where that has its own words

    def _tell_refused(self, i: int, e: dict[str, Any]) -> str:  # type: ignore[override]
        if e.get("reason") == "removed" or not self.facts.alive(e["unit"], i):
            return ""  # a ship no longer in the battle: its sinking or leaving was told
        if e.get("action") == "supply":
            return ""  # the supply told is what she took on; a stock that did not suit her is no story
        why = self._word("reasons", e.get("reason")) or self._word("reasons", "default")
        return self.say("refused.any" if self.mode == "battle" else "refused.base", a=self.name(e["unit"]), why=why)

    # --- the base phase -----------------------------------------------------------------------------------------
    def _tell_cycle_start(self, i: int, e: dict[str, Any]) -> str:
        first = not any(x.get("type") == "cycle_start" for x in self.events[:i])
        return self.say("cycle.first" if first else "cycle.next")

    def _tell_supply(self, i: int, e: dict[str, Any]) -> str:
        """A cycle's supplies in one sentence, told at the first: who took on stores (one alone, by what)."""
        run = [x for x in self._cycle_of(i) if x.get("type") == "supply"]
        if run and run[0] is not e:
            return ""
        who = list(dict.fromkeys(str(x["unit"]) for x in run)) or [str(e["unit"])]
        if len(who) > 1:
            return self.say("supply.group", who=self.listing(who))
        return self.say("supply.any", a=self.name(e["unit"]), r=self._word("resources", e.get("resource")))

    def _cycle_of(self, i: int) -> list[dict[str, Any]]:
        """The events of the base cycle event `i` belongs to (from its cycle_start to its cycle_end)."""
        kinds = [e.get("type") for e in self.events]
        start = next((k for k in range(i, -1, -1) if kinds[k] == "cycle_start"), 0)
        end = next((k for k in range(i, len(kinds)) if kinds[k] == "cycle_end"), len(kinds))
        return self.events[start : end + 1]

    def _tell_scene(self, i: int, e: dict[str, Any]) -> str:
        a, event = self.name(e["unit"]), self._event_name(e.get("event"))
        others = [u for u in e.get("appearing") or [] if u != e["unit"] and u in self.names.units]
        parts = [self.say("scene.open" if event else "scene.open_plain", a=a, event=event)]
        if e.get("partner") and e["partner"] in self.names.units:
            parts.append(self.say("scene.partner", a=a, t=self.name(e["partner"])))
        elif others:
            parts.append(self.say("scene.with", a=a, who=self.listing(others)))
        outcome = self._scene_outcome(i, e["unit"])
        if outcome:
            parts.append(self.say(f"event.{outcome}", a=a))
        return self._join(parts)

    def _scene_outcome(self, i: int, uid: str) -> str:
        """How the scene's event check went (the first event check of `uid` after the scene, before the next)."""
        for x in self.events[i + 1 :]:
            if x.get("type") in ("scene", "cycle_end"):
                break
            if x.get("type") == "check" and x.get("kind") == "event" and x.get("unit") == uid:
                if x.get("special"):
                    return "special"
                if x.get("fumble"):
                    return "fumble"
                return "ok" if x.get("success") else "fail"
        return ""

    def _tell_emotion(self, i: int, e: dict[str, Any]) -> str:
        up = (e.get("after") or 0) >= (e.get("before") or 0)
        return self.say("emotion.up" if up else "emotion.down", a=self.name(e.get("from")), t=self.name(e.get("to")))

    def _tell_resource(self, i: int, e: dict[str, Any]) -> str:
        up = (e.get("after") or 0) >= (e.get("before") or 0)
        return self.say("resource.gain" if up else "resource.spend", r=self._word("resources", e.get("resource")))

    def _tell_discovery(self, i: int, e: dict[str, Any]) -> str:
        a = self.name(e["unit"])
        if e.get("failed"):
            return self.say("discovery.failed", a=a)
        slot = "discovery.weakness" if e.get("kind") == "weakness" else "discovery.found"
        return self.say(slot, a=a, trait=self._trait(e.get("trait")))

    def _tell_dock(self, i: int, e: dict[str, Any]) -> str:
        whole = (e.get("steps_after") or 0) == 0
        return self.say("dock.whole" if whole else "dock.part", a=self.name(e["unit"]))

    def _tell_spoils(self, i: int, e: dict[str, Any]) -> str:
        if not e.get("resource"):
            found = any(x.get("type") == "spoils" and x.get("resource") for x in self.events[:i])
            return self.say("spoils.nothing_more" if found else "spoils.none")
        return self.say("spoils.found", r=self._word("resources", e["resource"]))

    def _tell_salvage(self, i: int, e: dict[str, Any]) -> str:
        t = self.name(e.get("target"))
        if e.get("success") and e.get("salvager"):
            return self.say("salvage.ok", a=self.name(e["salvager"]), t=t)
        return self.say("salvage.fail", t=t)

    def _tell_lost(self, i: int, e: dict[str, Any]) -> str:
        return self.say("lost.any", t=self.name(e["unit"]))

    def _tell_end_phase(self, i: int, e: dict[str, Any]) -> str:
        return self.say("endphase.any")

    # --- the state list -------------------------------------------------------------------------------------------
    def _state(self, plan: Any) -> str:
        """Each ship girl's damage state, AP and whether she left the battle, under a rule; the base's resources
        in a base-phase round. The numbers live here, never in the prose."""
        pcs = []
        for uid in plan:
            unit = self.after.get(uid) or self.before.get(uid) or {}
            steps = min(int(unit.get("steps") or 0), len(self.lex["states"]) - 1)
            pcs.append(
                {
                    "id": uid,
                    "name": self.names.unit(uid),
                    "state": self.lex["states"][steps],
                    "ap": unit.get("ap"),
                    "ap_max": unit.get("ap_max"),
                    "removed": bool(unit.get("removed")) and steps < len(self.lex["states"]) - 1,
                    "lost": bool(unit.get("lost")),
                }
            )
        base = (self.bundle.get("state") or {}).get("base") if self.mode != "battle" or self.aftermath else None
        resources = [(self.lex["resources"].get(k, k), v) for k, v in ((base or {}).get("resources") or {}).items()]
        template = environment().get_template(story_template_name(self.ruleset, self.locale, "state"))
        return template.render(pcs=pcs, growth=self.growth, lex=self.lex, resources=resources).strip()
