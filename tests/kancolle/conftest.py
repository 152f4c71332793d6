"""Tests of the `kancolle` ruleset, written from ../shared/rules/kancolle.md and spec/engine-cli-kancolle.md.

The builders live in `kc_builders.py` beside this file (put on sys.path here, since pytest runs with
--import-mode=importlib).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
