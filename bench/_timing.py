"""Timing helpers shared by the benchmarks.

These machines are noisy (the same loop can run at half speed a minute later), so a ratio is measured by
interleaving: each repeat times every contender once, and each keeps its fastest time. A slow spell then hits
baseline and subject alike instead of skewing their ratio.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of `repeat` runs of `fn`, in seconds."""
    return interleaved([fn], repeat)[0]


def interleaved(fns: list[Callable[[], object]], repeat: int = 7) -> list[float]:
    """The fastest time of each function, the functions run in turn `repeat` times."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best
