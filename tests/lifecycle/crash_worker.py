"""A resolver process for the crash test: `python crash_worker.py ROUND_ID MODE`.

MODE `before-engine` pauses after the claim (inside the write transaction, before the engine runs), `after-store`
pauses after everything is written but before the commit; both print `paused` first so the test can kill it there.
MODE `none` resolves without pausing (the final, uninterrupted run).
"""

from __future__ import annotations

import sys
import time

from pbp import db
from pbp.services import rounds


def _pausing(original, label: str):
    def wrapper(*args, **kwargs):
        if label == "before-engine":
            print("paused", flush=True)
            time.sleep(60)
        result = original(*args, **kwargs)
        if label == "after-store":
            print("paused", flush=True)
            time.sleep(60)
        return result

    return wrapper


if __name__ == "__main__":
    round_id, mode = int(sys.argv[1]), sys.argv[2]
    if mode == "before-engine":
        rounds.run_engine = _pausing(rounds.run_engine, mode)
    elif mode == "after-store":
        rounds._store = _pausing(rounds._store, mode)
    with db.connected():
        outcome = rounds.resolve_round(round_id)
    print(outcome.status, flush=True)
