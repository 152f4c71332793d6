"""Timing helpers shared by the benchmarks.

These machines are noisy (the same loop can run at half speed a minute later), so a ratio is measured by
interleaving: each repeat times every contender once, and each keeps its fastest time. A slow spell then hits
baseline and subject alike instead of skewing their ratio. `spread` says how far the repeats' own ratios strayed.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def interleaved_runs(fns: list[Callable[[], object]], repeat: int = 7) -> list[list[float]]:
    """Every run's time of each function (seconds), the functions run in turn `repeat` times."""
    runs: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for times, fn in zip(runs, fns, strict=True):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return runs


def interleaved(fns: list[Callable[[], object]], repeat: int = 7) -> list[float]:
    """The fastest time of each function, the functions run in turn `repeat` times."""
    return [min(times) for times in interleaved_runs(fns, repeat)]


def spread(subject: list[float], baseline: list[float]) -> str:
    """The range of the ratio subject/baseline over the repeats (each repeat's pair ran side by side)."""
    ratios = sorted(s / b for s, b in zip(subject, baseline, strict=True))
    return f"{ratios[0]:.2f}..{ratios[-1]:.2f} over {len(ratios)} repeats"
