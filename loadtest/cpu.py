"""Where the machine's CPU went during each saturation phase, per request: the web workers, the database's
processes, the load clients and the scheduler (each read from /proc), and the whole machine's busy time
(/proc/stat). It says what a ratio to `/hello` is made of, e.g. which part of a save's cost is PostgreSQL's.

Linux only (elsewhere nothing is printed). The processes are named once, before the phases: a process that dies
keeps the time it had used when last sampled, and one started after (a worker replacing a killed one) is not
counted, so a run with faults prints no table.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

INTERVAL = 0.25  # seconds between samples
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu(pid: int) -> float:
    """CPU seconds (user and system) a process has used, 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


def _machine() -> float:
    """CPU seconds the machine has been busy (all but idle and iowait), over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / _TICKS


class Sampler:
    """Each kind's processes' CPU time, sampled every INTERVAL seconds from `start` until `until`."""

    def __init__(self, kinds: dict[str, list[int]]):
        self.kinds = kinds
        self.samples: list[tuple[float, dict[str, float]]] = []
        self._last: dict[int, float] = {}

    @staticmethod
    def available() -> bool:
        return Path("/proc/stat").exists()

    def _sample(self) -> None:
        for pids in self.kinds.values():
            for pid in pids:  # a process that ended (a client at the rush's end) keeps what it used
                self._last[pid] = max(self._last.get(pid, 0.0), _cpu(pid))
        seen = {kind: sum(self._last[pid] for pid in pids) for kind, pids in self.kinds.items()}
        seen["machine"] = _machine()
        self.samples.append((time.time(), seen))

    def start(self, until: float) -> None:
        def run() -> None:
            while time.time() < until:
                self._sample()
                time.sleep(INTERVAL)

        threading.Thread(target=run, daemon=True).start()

    def per_request(self, start: float, end: float, requests: int) -> dict[str, float] | None:
        """Milliseconds of CPU per request of each kind (and the machine's) between the samples nearest `start` and
        `end`, None without two samples apart or without requests."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2 or not requests:
            return None
        (t0, first), (t1, last) = inside[0], inside[-1]
        share = requests * (t1 - t0) / (end - start)  # the requests of the span sampled
        return {kind: (last[kind] - first[kind]) * 1000 / share for kind in last}

    def cores(self, start: float, end: float) -> dict[str, float] | None:
        """How many cores each kind kept busy on average between `start` and `end`, None without two samples."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        (t0, first), (t1, last) = inside[0], inside[-1]
        return {kind: (last[kind] - first[kind]) / (t1 - t0) for kind in last}
