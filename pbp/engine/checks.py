"""Success-count checks (R-CHECK-1/2): roll a pool of d6, count the dice showing at most the skill level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbp.engine.dice import DiceSource

MIN_LEVEL, MAX_LEVEL = 1, 5  # R-CHECK-3
#: Not the seed's: a bound far beyond any game's pool, so that a mistyped number (a stat of 10**9) is bad input at
#: once instead of a roll that takes minutes.
MAX_POOL = 200


def count_successes(dice: list[int], level: int) -> int:
    """R-CHECK-1: the number of dice whose face is <= the skill level."""
    return sum(map(level.__ge__, dice))  # a C loop: every attack counts two pools


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One rolled check: its dice, the raw count and the total after success modifiers."""

    dice: list[int]
    raw: int
    successes: int
    need: int | None

    @property
    def success(self) -> bool | None:
        """R-CHECK-2: succeeds when successes >= need; None when nothing was needed."""
        return None if self.need is None else self.successes >= self.need

    def to_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "successes": self.successes, "need": self.need, "success": self.success}


def roll_check(
    source: DiceSource,
    pool: int,
    level: int,
    *,
    success_bonus: int = 0,
    need: int | None = None,
    clamp: bool = False,
) -> CheckResult:
    """Roll `pool` dice against `level`; success modifiers are added after counting (R-CHECK-8)."""
    dice = source.roll(pool) if pool > 0 else []
    raw = count_successes(dice, level)
    total = raw + success_bonus
    if clamp and total < 0:
        total = 0
    return CheckResult(dice, raw, total, need)
