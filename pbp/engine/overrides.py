"""GM overrides (R-GM-1) are inputs like orders: checked here, applied by the ruleset by stable check id."""

from __future__ import annotations

import re
from typing import Any

from pbp.engine.errors import Problem

CHECK_ID = re.compile(r"r([0-9]+)-c([0-9]+)")


def check_order(check_id: str) -> tuple[int, int, str]:
    """Sort key of a (valid) check id: by round, then by n, as numbers (r1-c9 before r1-c10 before r2-c1)."""
    m = CHECK_ID.fullmatch(check_id)
    return (int(m[1]), int(m[2]), check_id) if m else (0, 0, check_id)


def validate_overrides(overrides: Any) -> list[Problem]:
    """Each override names a check id `r{round}-c{n}`, the new successes and a non-empty reason (it is published)."""
    if not isinstance(overrides, list):
        return [Problem("overrides", f"must be a list, got {type(overrides).__name__}")]
    problems = []
    seen: set[str] = set()
    for i, o in enumerate(overrides):
        p = f"overrides[{i}]"
        if not isinstance(o, dict):
            problems.append(Problem(p, "must be an object with check, successes and reason"))
            continue
        cid = o.get("check")
        if not (isinstance(cid, str) and CHECK_ID.fullmatch(cid)):
            problems.append(Problem(f"{p}.check", f"must be a check id like 'r1-c2', got {cid!r}"))
        elif cid in seen:
            problems.append(Problem(f"{p}.check", f"check {cid!r} is overridden twice"))
        else:
            seen.add(cid)
        n = o.get("successes")
        if not isinstance(n, int) or isinstance(n, bool):
            problems.append(Problem(f"{p}.successes", f"must be a whole number, got {n!r}"))
        reason = o.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            problems.append(Problem(f"{p}.reason", "an override needs a non-empty reason (R-GM-1: it is published)"))
    return problems
