"""A scheduler doing one tick for the kill test: `python tick_worker.py MODE`.

MODE `after-store` pauses once the resolution and its report are written, before the commit (it prints `paused`
first, so the test can kill it there); MODE `none` ticks without pausing (the restart).
"""

from __future__ import annotations

import sys
import time

from pbp.services import rounds
from scheduler.process import tick_once


def _pausing(original):
    def wrapper(*args, **kwargs):
        result = original(*args, **kwargs)
        print("paused", flush=True)
        time.sleep(60)
        return result

    return wrapper


if __name__ == "__main__":
    if sys.argv[1] == "after-store":
        rounds._store = _pausing(rounds._store)
    report = tick_once()
    print(" ".join(f"{o.round_id}:{o.status}" for o in report.rounds), flush=True)
