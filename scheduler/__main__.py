"""`python -m scheduler [--interval SECONDS] [--once]`: run the scheduler process in the foreground."""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from pbp.errors import UserError
from scheduler.process import DEFAULT_INTERVAL, ensure_ready, interval_problem, once, run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scheduler", description=__doc__)
    parser.add_argument("--interval", type=float, default=DEFAULT_INTERVAL, help="seconds between ticks")
    parser.add_argument("--once", action="store_true", help="run one tick and exit")
    args = parser.parse_args(argv)
    problem = interval_problem(args.interval)
    if problem:
        parser.error(problem)
    try:
        ensure_ready()
    except UserError as e:
        parser.exit(2, f"{parser.prog}: {e}\n")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.once:
        sys.exit(once())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    run(args.interval)


if __name__ == "__main__":
    main()
