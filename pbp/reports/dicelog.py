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
    modifiers: list[tuple[str, str]] = field(default_factory=list)  # (source, "+1" | "x0.75" | "+5 successes")
    need: int | None = None


@dataclass(frozen=True)
class LogLine:
    """One line of the log: an attack (with its two rolls), a scene/recover check, or damage to a gauge."""

    index: int
    round: int
    type: str
    rolls: list[Roll]
    event: dict[str, Any]
    overrides: list[dict[str, Any]]
    weapon: str | None = None


def _signed(value: float) -> str:
    return f"{value:+g}"


def _roll(check: str | None, unit: str, skill: str, dice: list[int], successes: int, detail: dict | None,
          name: Callable[[str], str], need: int | None = None) -> Roll:  # fmt: skip
    detail = detail or {}
    mods = [(name(str(src)), _signed(v)) for src, v in detail.get("mods", [])]
    mods += [(name(str(src)), f"x{v:g}") for src, v in detail.get("mult", [])]
    mods += [(name(str(src)), f"{_signed(v)} successes") for src, v in detail.get("bonus", [])]
    return Roll(
        check=check,
        unit=unit,
        skill=skill,
        dice=list(dice or []),
        successes=successes,
        level=detail.get("level"),
        pool=detail.get("dice"),
        stat=detail.get("stat"),
        base=detail.get("base"),
        modifiers=mods,
        need=need,
    )


def dice_log(events: list[dict[str, Any]], unit_name: Callable[[str], str], source_name: Callable[[str], str] = str,
             weapon_name: Callable[[str], str] = str) -> list[LogLine]:  # fmt: skip
    """The log of a round's events; the callables give display names for units, modifier sources (gimmicks, items,
    abilities, `vehicle`, `rough` ...) and weapons."""
    lines = []
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind not in LOGGED:
            continue
        rolls: list[Roll] = []
        if kind == "attack" and not e.get("skipped"):
            rolls.append(_roll(e.get("attack_check"), unit_name(e["attacker"]), e.get("skill", ""),
                               e.get("attack_dice", []), e.get("attack_successes", 0), e.get("attack_detail"),
                               source_name))  # fmt: skip
            rolls.append(_roll(e.get("evade_check"), unit_name(e["target"]), "回避", e.get("evade_dice", []),
                               e.get("evade_successes", 0), e.get("evade_detail"), source_name))  # fmt: skip
        elif kind == "check":
            rolls.append(_roll(e.get("check"), unit_name(e["unit"]), e.get("skill", ""), e.get("dice", []),
                               e.get("successes", 0), e.get("detail"), source_name, e.get("need")))  # fmt: skip
        weapon = weapon_name(e["weapon"]) if e.get("weapon") else None
        lines.append(LogLine(i, e.get("round", 0), kind, rolls, e, list(e.get("overrides", [])), weapon))
    return lines


def source_namer(names: Names, locale: str, ruleset: str = "pool") -> Callable[[str], str]:
    """Display names for modifier sources: items, abilities and gimmicks from the pack, rule terms from the lexicon
    (stage names such as 中破 pass through as they are)."""
    terms = lexicon(ruleset, locale)
    words = {**terms["statuses"], **terms["sources"]}

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
