"""The dice log under a report: every roll with its dice, successes and the modifiers behind them, every GM override
with its reason. The story tells what happened; this is the evidence, and the revealed seed lets anyone re-run it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbp.reports.narrative import Names, lexicon

#: Events the log lists: those that roll dice or change a gauge (the numbers the story leaves out).
LOGGED = frozenset({"attack", "check", "damage"})


@dataclass(frozen=True)
class Modifier:
    """One modifier of a roll: where it came from and what it did (`add` +1 die, `mult` x0.75, `bonus` +5
    successes); the page words it in its language."""

    source: str
    value: str
    kind: str


@dataclass(frozen=True)
class Roll:
    """One rolled check: whose, which skill, the pool and how it was built, the dice and the successes."""

    check: str | None
    unit: str
    skill: str
    dice: list[int]
    successes: int
    level: int | None
    pool: int | None
    stat: str | None
    base: int | None
    modifiers: list[Modifier] = field(default_factory=list)
    need: int | None = None


@dataclass(frozen=True)
class LogLine:
    """One line of the log: an attack (with its two rolls), a scene/recover check, or damage to a gauge (its name
    and the names of the stages it checked)."""

    index: int
    round: int
    type: str
    rolls: list[Roll]
    event: dict[str, Any]
    overrides: list[dict[str, Any]]
    weapon: str | None = None
    gauge: str | None = None
    checked: list[str] = field(default_factory=list)


def _signed(value: float) -> str:
    return f"{value:+g}"


class _Namer:
    """Display names in the log's locale: units and gear from `Names`, skills and stats from the pack, modifier
    sources and rule terms (stages, gauges) from the lexicon."""

    def __init__(self, names: Names, ruleset: str) -> None:
        self.names = names
        self.terms = lexicon(ruleset, names.locale)
        self.source = source_namer(names, ruleset)

    def roll(self, check: str | None, unit: str, skill: str, dice: list[int], successes: int,
             detail: dict | None, need: int | None = None) -> Roll:  # fmt: skip
        detail = detail or {}
        mods = [Modifier(self.source(str(src)), _signed(v), "add") for src, v in detail.get("mods", [])]
        mods += [Modifier(self.source(str(src)), f"x{v:g}", "mult") for src, v in detail.get("mult", [])]
        mods += [Modifier(self.source(str(src)), _signed(v), "bonus") for src, v in detail.get("bonus", [])]
        stat = detail.get("stat")
        return Roll(
            check=check,
            unit=self.names.unit(unit),
            skill=self.names.of("skills", skill),
            dice=list(dice or []),
            successes=successes,
            level=detail.get("level"),
            pool=detail.get("dice"),
            stat=self.names.of("stats", stat) if stat else stat,
            base=detail.get("base"),
            modifiers=mods,
            need=need,
        )


#: The skill every evasion roll uses (R-HIT-1): the evade half of an attack names it, the event does not.
EVADE_SKILL = "回避"


def dice_log(events: list[dict[str, Any]], names: Names, ruleset: str = "pool") -> list[LogLine]:
    """The log of a round's events, every name in `names`' locale (units from its encounter, gear, skills and stats
    from its pack)."""
    say = _Namer(names, ruleset)
    lines = []
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind not in LOGGED:
            continue
        rolls: list[Roll] = []
        if kind == "attack" and not e.get("skipped"):
            rolls.append(say.roll(e.get("attack_check"), e["attacker"], e.get("skill", ""), e.get("attack_dice", []),
                                  e.get("attack_successes", 0), e.get("attack_detail")))  # fmt: skip
            rolls.append(say.roll(e.get("evade_check"), e["target"], EVADE_SKILL, e.get("evade_dice", []),
                                  e.get("evade_successes", 0), e.get("evade_detail")))  # fmt: skip
        elif kind == "check":
            rolls.append(say.roll(e.get("check"), e["unit"], e.get("skill", ""), e.get("dice", []),
                                  e.get("successes", 0), e.get("detail"), e.get("need")))  # fmt: skip
        gauge = e.get("gauge") if kind == "damage" else None
        lines.append(
            LogLine(
                i,
                e.get("round", 0),
                kind,
                rolls,
                e,
                list(e.get("overrides", [])),
                weapon=names.of("weapons", e["weapon"]) if e.get("weapon") else None,
                gauge=str(say.terms["gauges"].get(gauge, gauge)) if gauge else None,
                checked=[str(say.terms["stages"][gauge][s]) for s in e.get("checked", [])] if gauge else [],
            )
        )
    return lines


def source_namer(names: Names, ruleset: str = "pool") -> Callable[[str], str]:
    """Display names for modifier sources: items, abilities and gimmicks from the pack, rule terms from the lexicon
    (a gauge stage such as 中破, which the engine names by the seed's word, in the locale's word for it)."""
    terms = lexicon(ruleset, names.locale)
    seed_terms = lexicon(ruleset, "ja")
    stages = {
        seed: str(word)
        for gauge in ("injury", "damage")
        for seed, word in zip(seed_terms["stages"][gauge], terms["stages"][gauge], strict=True)
    }
    words = {**stages, **terms["statuses"], **terms["sources"]}

    def name(source: str) -> str:
        if source.startswith("item:"):
            return names.of("items", source.removeprefix("item:"))
        if source in words:
            return str(words[source])
        for section in ("abilities", "statuses"):
            if source in names.pack.get(section, {}):
                return names.of(section, source)
        return names.gimmick(source)

    return name


@dataclass(frozen=True)
class GmLine:
    """One GM action taken before the round (a reinforcement, a retreat, a revive, a プレイングボーナス...), as the log
    words it: whose, what it set (a point, a gauge's stages, a status and its rounds, a bonus's dice and successes)
    and the GM's published reason."""

    kind: str
    unit: str
    reason: str
    position: list[float] | None = None
    gauge: str | None = None
    taken: list[int] = field(default_factory=list)
    status: str | None = None
    rounds: int | None = None
    dice: int = 0
    successes: int = 0


def gm_lines(actions: list[dict[str, Any]], names: Names, ruleset: str = "pool") -> list[GmLine]:
    """The GM's actions of a round (the bundle's `gm_actions`), every name in `names`' locale."""
    terms = lexicon(ruleset, names.locale)
    lines = []
    for a in actions:
        added = a.get("unit") if a["kind"] == "add_unit" else None
        unit = added["id"] if isinstance(added, dict) else str(a.get("unit"))
        gauge = a.get("gauge")
        lines.append(
            GmLine(
                a["kind"],
                names.unit(unit),
                str(a.get("reason") or ""),
                position=added["position"] if isinstance(added, dict) else a.get("position"),
                gauge=str(terms["gauges"].get(gauge, gauge)) if gauge else None,
                taken=list(a.get("taken") or []),
                status=names.of("statuses", a["status"]) if a.get("status") else None,
                rounds=a.get("rounds"),
                dice=int(a.get("dice") or 0),
                successes=int(a.get("successes") or 0),
            )
        )
    return lines
