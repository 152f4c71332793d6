"""Run every benchmark module in bench/ (or the ones named: `python -m bench engine`).

Each module exposes `main() -> None` and prints its own lines; absolute times on these machines are noisy, so
every benchmark reports a ratio to a baseline it measures in the same run.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(names: list[str]) -> None:
    here = Path(__file__).parent
    found = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    for name in names or found:
        if name not in found:
            sys.exit(f"no benchmark {name!r} (have: {', '.join(found)})")
        print(f"== bench/{name}.py")
        importlib.import_module(f"bench.{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
