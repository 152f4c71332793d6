"""Ad-hoc checks (issue 31, item 7): a check the GM adds for a PC's creative action the entry form does not offer.

An ad-hoc check is an input like an override: `{"unit", "skill", "need", "reason"}` (and, for the story, optional
`success_text` / `failure_text`), in the order the GM recorded them. They are rolled after the round, from the same
seeded stream continuing where the round's last die left it, each in that order; each gets the check id after the
round's last one (`r{round}-c{n+1}`, ...), so a GM override applies to it like to any check. The pool is the PC's
as the round found it (the round's encounter: the GM's actions and プレイングボーナス applied, R-CHECK-8). The
events are ordinary `check` events of purpose `adhoc` (`label`: the reason; `text`: the GM's words for the outcome
rolled, when given), appended to the round's; the state does not change. Anyone
holding the bundle and the seed re-rolls them: same round, same checks, same dice.
"""

from __future__ import annotations

import marshal
from typing import Any, cast

from pbp.engine.checker import Checker
from pbp.engine.dice import DiceSource
from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.overrides import CHECK_ID
from pbp.engine.pool.battle import Battle
from pbp.engine.pool.types import CheckEvent, Encounter, Orders, Override
from pbp.engine.ruleset import Resolution

#: The most successes an ad-hoc check may need (R-CHECK-2's needs stay small).
NEED_MAX = 10
#: The most characters of each text an ad-hoc check carries (the reason and what the story says on each outcome).
TEXT_MAX = 500
FIELDS = frozenset({"unit", "skill", "need", "reason", "success_text", "failure_text"})


def validate_adhoc(encounter: dict[str, Any], checks: Any) -> list[Problem]:
    """Every problem of a list of ad-hoc checks against the round's encounter (paths `adhoc_checks[i]...`)."""
    c = Checker()
    if not c.check_list(checks, "adhoc_checks"):
        return c.problems
    units = {u["id"]: u for u in encounter.get("units", []) if isinstance(u, dict)}
    for i, check in enumerate(checks):
        path = f"adhoc_checks[{i}]"
        if not c.check_dict(check, path):
            continue
        for key in sorted(check.keys() - FIELDS, key=str):
            c.said(f"{path}.{key}", N_("unknown field of an ad-hoc check"))
        unit_ok = False
        if c.check_key_str(check, "unit", path):
            unit = units.get(check["unit"])
            if unit is None or unit.get("side") != "pc":
                c.said(f"{path}.unit", N_("no PC %(unit)r in the encounter"), unit=check["unit"])
            elif unit.get("removed"):
                c.said(f"{path}.unit", N_("%(unit)r is out of the battle"), unit=check["unit"])
            else:
                unit_ok = True
        skill_ok = c.check_key_str(check, "skill", path)
        if skill_ok and unit_ok and check["skill"] not in (units[check["unit"]].get("skill_stats") or {}):
            c.said(f"{path}.skill", N_("%(unit)r has no skill %(skill)r"), unit=check["unit"], skill=check["skill"])
        c.check_int(check.get("need"), f"{path}.need", 0, NEED_MAX)
        reason = check.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            c.said(f"{path}.reason", N_("an ad-hoc check needs a non-empty reason (it is published)"))
        for key in ("reason", "success_text", "failure_text"):
            text = check.get(key)
            if text is not None and not (isinstance(text, str) and len(text) <= TEXT_MAX):
                c.said(f"{path}.{key}", N_("must be a text of at most %(most)s characters"), most=TEXT_MAX)
    return c.problems


def last_check(events: list[dict[str, Any]], number: int) -> int:
    """The highest n of the check ids `r{number}-c{n}` the round's events carry (0 when none was rolled)."""
    last = 0
    for e in events:
        for key in ("check", "attack_check", "evade_check"):
            m = CHECK_ID.fullmatch(str(e.get(key)))
            if m and int(m[1]) == number:
                last = max(last, int(m[2]))
    return last


def roll_adhoc(
    encounter: dict[str, Any],
    resolved: Resolution,
    checks: list[dict[str, Any]],
    dice: DiceSource,
    overrides: list[dict[str, Any]],
) -> Resolution:
    """`resolved` (the round played from `encounter` with `dice`) with the ad-hoc checks rolled after it from the
    same `dice`; BadInput for malformed checks. Never mutates its arguments."""
    problems = [p.with_file("adhoc_checks") for p in validate_adhoc(encounter, checks)]
    if problems:
        raise BadInput(problems)
    state = cast(Encounter, marshal.loads(marshal.dumps(encounter)))  # JSON-shaped: an exact deep copy
    battle = Battle(state, cast(Orders, {"orders": []}), dice, cast(list[Override], overrides), None)
    battle.round = state.get("round", 1)
    battle.n_checks = last_check(resolved.events, battle.round)
    units = {u["id"]: u for u in battle.units}
    for check in checks:
        unit = units[check["unit"]]
        skill, need = check["skill"], check["need"]
        n, level, bonus, detail = battle.pool(unit, battle.parent_stat(unit, skill), skill)
        check_id, rolled, successes, noted = battle.roll(n, level, bonus)
        event: CheckEvent = {
            "type": "check", "round": battle.round, "unit": unit["id"], "skill": skill, "purpose": "adhoc",
            "check": check_id, "dice": rolled, "successes": successes, "need": need, "success": successes >= need,
            "detail": detail, "label": check["reason"],
        }  # fmt: skip
        if noted:
            event["overrides"] = noted
        told = check.get("success_text" if event["success"] else "failure_text")
        if told:
            event["text"] = told  # what the story says of this outcome (after any override)
        battle.emit(event)
    unused = [o for o in resolved.unused_overrides if o not in battle.used_overrides]
    events = [*resolved.events, *cast(list[dict[str, Any]], battle.events)]
    return Resolution(state=resolved.state, events=events, unused_overrides=unused)
