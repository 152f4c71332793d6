"""Exact single-roll odds of a behaviour check (C-6): the 36 ordered faces enumerated, never sampled."""

from __future__ import annotations

from fractions import Fraction
from itertools import product


def outcome(
    faces: tuple[int, int], dc: int, *, kind: str = "other", rating: int = 0, modifier: int = 0,
    interfere: int | None = None, night: bool = False,
) -> tuple[bool, bool, bool]:  # fmt: skip
    """(success, special, fumble) of one roll: K-CHECK-6..9, K-SHELL-7/8. Depends on nothing else."""
    natural = faces[0] + faces[1]
    total = sum(0 if f == interfere else f for f in faces) + rating + modifier
    special = natural == 12 or (night and kind == "hit" and natural >= 10)
    fumble = not special and (natural == 2 or (night and kind == "evasion" and natural <= 4))
    return special or (not fumble and total >= dc), special, fumble


def check_odds(dc: int, **flags: object) -> dict[str, Fraction]:
    """P(success), P(special), P(fumble) over the 36 equally likely ordered faces."""
    counts = [0, 0, 0]
    for faces in product(range(1, 7), repeat=2):
        for i, hit in enumerate(outcome(faces, dc, **flags)):  # type: ignore[arg-type]
            counts[i] += hit
    return {k: Fraction(n, 36) for k, n in zip(("p_success", "p_special", "p_fumble"), counts, strict=True)}
