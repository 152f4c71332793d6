"""Exact odds of success-count checks, computed with fractions (never sampled).

A die succeeds with probability level/6, so a pool of n dice is binomial(n, level/6). Success modifiers shift
the whole distribution.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def distribution(dice: int, level: int, success_bonus: int = 0) -> dict[int, Fraction]:
    """P(successes = k) for every reachable k, after adding `success_bonus`."""
    if dice < 0:
        raise ValueError("a pool cannot have fewer than 0 dice")
    p = Fraction(max(0, min(level, 6)), 6)
    q = 1 - p
    return {k + success_bonus: comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1)}


def p_at_least(dice: int, level: int, need: int, success_bonus: int = 0) -> Fraction:
    """P(successes >= need): the chance a check needing `need` successes succeeds (R-CHECK-2)."""
    return sum((pr for k, pr in distribution(dice, level, success_bonus).items() if k >= need), Fraction(0))


def opposed(
    att_dice: int, att_level: int, ev_dice: int, ev_level: int, att_bonus: int = 0, ev_bonus: int = 0
) -> tuple[Fraction, Fraction]:
    """P(hit) under R-HIT-2 (more attacker successes; a tie favours the evader) and E[margin | hit]."""
    att = distribution(att_dice, att_level, att_bonus)
    ev = distribution(ev_dice, ev_level, ev_bonus)
    p_hit = Fraction(0)
    margin = Fraction(0)
    for a, pa in att.items():
        for e, pe in ev.items():
            if a > e:
                p_hit += pa * pe
                margin += (a - e) * pa * pe
    return p_hit, (margin / p_hit if p_hit else Fraction(0))
