"""The one canonical JSON form of engine data: sorted keys, UTF-8, no spaces, integers stay integers.

Receipts, bundles and `pbp verify` hash and compare this form, so it must never depend on dict order.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def digest(obj: Any) -> str:
    """sha256 hex of the canonical form."""
    return hashlib.sha256(dumps(obj).encode("utf-8")).hexdigest()
