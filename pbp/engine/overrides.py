"""GM overrides (R-GM-1) are inputs like orders: checked here, applied by the ruleset by stable check id."""

from __future__ import annotations

import re
from typing import Any

from pbp.engine.checker import Checker
from pbp.engine.errors import N_, Problem

CHECK_ID = re.compile(r"r([0-9]+)-c([0-9]+)")


def check_order(check_id: str) -> tuple[int, int, str]:
    """Sort key of a (valid) check id: by round, then by n, as numbers (r1-c9 before r1-c10 before r2-c1)."""
    m = CHECK_ID.fullmatch(check_id)
    return (int(m[1]), int(m[2]), check_id) if m else (0, 0, check_id)


def validate_overrides(overrides: Any) -> list[Problem]:
    """Each override names a check id `r{round}-c{n}`, the new successes and a non-empty reason (it is published)."""
    c = Checker()
    if not c.check_list(overrides, "overrides"):
        return c.problems
    seen: set[str] = set()
    for i, override in enumerate(overrides):
        path = f"overrides[{i}]"
        if not isinstance(override, dict):
            c.said(path, N_("must be an object with check, successes and reason"))
            continue
        check_id = override.get("check")
        if not (isinstance(check_id, str) and CHECK_ID.fullmatch(check_id)):
            c.said(f"{path}.check", N_("must be a check id like 'r1-c2', got %(check)r"), check=check_id)
        elif check_id in seen:
            c.said(f"{path}.check", N_("check %(check)r is overridden twice"), check=check_id)
        else:
            seen.add(check_id)
        c.check_int(override.get("successes"), f"{path}.successes")
        reason = override.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            c.said(f"{path}.reason", N_("an override needs a non-empty reason (R-GM-1: it is published)"))
    return c.problems
