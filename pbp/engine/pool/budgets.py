"""What a character costs under a pack: growth points (成長点) for skill levels, the creation budget, R-GEAR-2's
limits on weapons and items. `pack_checks.validate_character` reports a sheet over a limit; these only count."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate
from typing import Any

from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.pool.pack_data import LEVEL_MAX, LEVEL_MIN, PackData, ids_in, is_whole, tables

#: What a sheet spends against one limit, and the limit: (spent, limit).
Spent = tuple[int, int]


def growth_cost(data: PackData, skill: str, from_level: int, to_level: int) -> int:
    """Growth points (成長点) to raise `skill` from one level to a higher one (R-CHECK-3: at most 5)."""
    problems = []
    if skill not in tables(data, "skills"):
        problems.append(Problem.said("skill", N_("unknown skill %(value)r"), value=skill))
    if not (is_whole(from_level) and is_whole(to_level) and LEVEL_MIN <= from_level <= to_level <= LEVEL_MAX):
        problems.append(
            Problem.said(
                "level",
                N_("cannot raise from %(before)r to %(after)r: levels go %(min)s..%(max)s and only up (R-CHECK-3)"),
                before=from_level,
                after=to_level,
                min=LEVEL_MIN,
                max=LEVEL_MAX,
            )
        )
    if problems:
        raise BadInput(problems)
    costs: list[int] = data["growth"]["raise_costs"]
    return sum(costs[level - LEVEL_MIN - 1] for level in range(from_level + 1, to_level + 1))


def raise_cost(data: PackData, sheet: PackData, skills: dict[str, int]) -> int:
    """Growth points to raise a sheet's skills to the levels `skills` names (a growth request, 成長申請)."""
    levels: dict[str, Any] = sheet["skills"] if isinstance(sheet.get("skills"), dict) else {}
    return sum(growth_cost(data, skill, levels.get(skill, LEVEL_MIN), to) for skill, to in skills.items())


def raise_cost_table(data: PackData, sheet: PackData) -> dict[str, dict[int, int]]:
    """For every skill of the pack, level -> `raise_cost(data, sheet, {skill: level})` for each level it may be
    raised to (the sheet's level up to 5, R-CHECK-3; none when the sheet's level is not one). One pass over
    `growth.raise_costs` instead of a call per skill and level: a form shows every choice's price."""
    given: dict[str, Any] = sheet["skills"] if isinstance(sheet.get("skills"), dict) else {}
    table: dict[str, dict[int, int]] = {}
    for skill in tables(data, "skills"):
        start = given.get(skill, LEVEL_MIN)
        if not (is_whole(start) and LEVEL_MIN <= start <= LEVEL_MAX):
            table[skill] = {}
            continue
        table[skill] = dict(zip(range(start, LEVEL_MAX + 1), _running_costs(data, start), strict=False))
    return table


def _running_costs(data: PackData, start: int) -> list[int]:
    """Growth points from level `start` to each level `start`..5, summed in `growth_cost`'s order (the same
    numbers, without its checks and a pass per level)."""
    steps: list[int] = data["growth"]["raise_costs"]
    return list(accumulate(steps[start - LEVEL_MIN : LEVEL_MAX - LEVEL_MIN], initial=0))


def budget(data: PackData, sheet: PackData) -> dict[str, Spent]:
    """What a sheet spends against each limit, as (spent, limit): stat points, skill points (creation points plus
    growth points), weapon cost (R-GEAR-2: 陳情 x 2), item cost (R-GEAR-2: 調達), abilities. Entries the sheet
    gets wrong count as nothing here; `validate_character` reports them."""
    creation: dict[str, Any] = data.get("creation") or {}
    stats: dict[str, Any] = sheet["stats"] if isinstance(sheet.get("stats"), dict) else {}
    levels = skill_levels(data, sheet)
    from_one = _running_costs(data, LEVEL_MIN) if levels else []  # a pack without skills needs no growth table
    skill_cost = sum(from_one[level - LEVEL_MIN] for level in levels.values())
    return {
        "stats": (sum(v for v in stats.values() if is_whole(v)), creation.get("stat_points", 0)),
        "skills": (skill_cost, creation.get("skill_points", 0) + growth_points(sheet)),
        "weapons": (
            cost_of(data, "weapons", ids_in(sheet, "weapons") + ids_in(sheet, "vehicle_weapons")),
            2 * levels.get("陳情", LEVEL_MIN),
        ),
        "items": (cost_of(data, "items", ids_in(sheet, "items")), levels.get("調達", LEVEL_MIN)),
        "abilities": (len(ids_in(sheet, "abilities")), creation.get("abilities", 0)),
    }


def skill_levels(data: PackData, sheet: PackData) -> dict[str, int]:
    """Every skill's level, 1 where the sheet says nothing (R-CHECK-3); levels out of range count as 1."""
    given: dict[str, Any] = sheet["skills"] if isinstance(sheet.get("skills"), dict) else {}
    return {
        skill: level if is_whole(level) and LEVEL_MIN <= level <= LEVEL_MAX else LEVEL_MIN
        for skill in tables(data, "skills")
        for level in [given.get(skill, LEVEL_MIN)]
    }


def growth_points(sheet: PackData) -> int:
    """The sheet's unspent growth points (0 when it gives none, or nonsense)."""
    gp = sheet.get("growth_points", 0)
    return gp if is_whole(gp) and gp >= 0 else 0


def cost_of(data: PackData, section: str, ids: Iterable[str]) -> int:
    """The summed `cost` of the section's entries `ids` names (unknown entries and costs count as nothing)."""
    entries = tables(data, section)
    return sum(c for i in ids for c in [entries.get(i, {}).get("cost", 0)] if is_whole(c))
