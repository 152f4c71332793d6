"""A kancolle round's dice log, under its published story: every behaviour check with the trait it used, its DC, each
roll's dice and total (a re-challenge is one more roll, support is added to the total) and its result; each damage
roll against the armour and the state it left; the night check, each retreat, each refused order and the battle's
end. Each line names the rule that decided its outcome (`rule`: a K-id or a refusal's rule), which the page links
to on /rules/kancolle/ as pool's log links its rules. Pool's log (`pbp.reports.dicelog`) reads pool's events: a
kancolle check has tries and a DC, not a pool of successes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbp.reports.narrative import Names

#: The events the log shows.
LOGGED = frozenset({"check", "damage", "night_check", "retreat", "refused", "battle_end"})


@dataclass(frozen=True)
class Roll:
    """One 2d6 of a check: its faces, its total (support included), the support added and what it cost to roll
    again after it (a re-challenge's AP die, None when no re-challenge followed)."""

    dice: list[int]
    total: int
    support: int
    cost_die: int | None


@dataclass(frozen=True)
class KancolleLine:
    """One line of the log: the event's type, the rule its outcome follows, the unit it is about (by name), the
    trait designated and the one used (by name in the page's language), and for a check its DC, rolls and result
    (special, fumble, success, failure); the event itself for the rest."""

    type: str
    rule: str
    unit: str
    event: dict[str, Any]
    designated: str | None = None
    used: str | None = None
    dc: int | None = None
    rolls: list[Roll] = field(default_factory=list)
    result: str | None = None


def result_of(check: dict[str, Any]) -> str:
    """A check event's result as the log and the GM's review name it."""
    if check.get("special"):
        return "special"
    if check.get("fumble"):
        return "fumble"
    return "success" if check.get("success") else "failure"


#: The rule each result follows (K-CHECK-1: the check; K-CHECK-7/8: special and fumble; K-CHECK-11: unable to act).
RESULT_RULES = {"special": "K-CHECK-7", "fumble": "K-CHECK-8", "success": "K-CHECK-1", "failure": "K-CHECK-1"}
#: The rule each other line follows.
EVENT_RULES = {"damage": "K-DMG-2", "night_check": "K-NIGHT-1", "retreat": "K-RETREAT-1", "battle_end": "K-BEND-1"}


def _support(roll: dict[str, Any]) -> int:
    return sum(int(s.get("value") or 0) for s in roll.get("support") or [])


def kancolle_log(events: list[dict[str, Any]], names: Names, reason_rule: Any) -> list[KancolleLine]:
    """The log of a round's events, names in `names`' locale; `reason_rule(reason)` is the rule a refusal follows."""
    english = (names.pack.get("grid_en") or {}) if names.locale != "ja" else {}

    def trait(name: str | None) -> str | None:
        return str(english.get(name, name)) if name else None

    lines = []
    for e in events:
        kind = e.get("type")
        if kind not in LOGGED or (kind == "check" and not e.get("id") and not e.get("auto_fail")):
            continue
        unit = names.unit(e["unit"]) if e.get("unit") else ""
        if kind == "check":
            rolls = [Roll(list(t["dice"]), int(t.get("total") or 0), _support(t), t.get("cost_die"))
                     for t in e.get("tries") or [] if "dice" in t]  # fmt: skip
            result = result_of(e)
            rule = "K-CHECK-11" if e.get("auto_fail") else RESULT_RULES[result]
            used = (e.get("used") or {}).get("trait")
            lines.append(KancolleLine(kind, rule, unit, e, trait(e.get("designated")), trait(used), e.get("dc"),
                                      rolls, result))  # fmt: skip
        elif kind == "refused":
            lines.append(KancolleLine(kind, reason_rule(str(e.get("reason"))), unit, e))
        else:
            lines.append(KancolleLine(str(kind), EVENT_RULES[str(kind)], unit, e))
    return lines
