"""Reading a parsed campaign pack (`pbp.packs.Pack.data`: plain dicts from TOML) without trusting it.

Pack validation (`pack_checks`), character budgets (`budgets`) and encounter building (`encounters`) share these
readers. Each tolerates a pack with problems: a section that is not a table reads as empty, a value of the wrong
type as nothing, since validation reports those where they stand.
"""

from __future__ import annotations

from typing import Any

from pbp.engine.checker import is_whole
from pbp.engine.checks import MAX_LEVEL, MIN_LEVEL

#: A parsed pack or character sheet: TOML (or a player's JSON) as plain data, checked by `pack_checks`.
PackData = dict[str, Any]

LEVEL_MIN, LEVEL_MAX = MIN_LEVEL, MAX_LEVEL  # R-CHECK-3

__all__ = [
    "LEVEL_MAX",
    "LEVEL_MIN",
    "PackData",
    "ids_in",
    "is_whole",
    "join_path",
    "list_in",
    "skill_stats",
    "tables",
    "value_in",
]


def tables(pack: PackData, section: str) -> dict[str, dict[str, Any]]:
    """The entries of a section that are tables (others were reported where they stand)."""
    entries = pack.get(section)
    return {k: v for k, v in entries.items() if isinstance(v, dict)} if isinstance(entries, dict) else {}


def value_in(pack: PackData, section: str, key: str, default: Any = None) -> Any:
    """`pack[section][key]`, or `default` when the section is not a table or lacks the key."""
    table = pack.get(section)
    return table.get(key, default) if isinstance(table, dict) else default


def list_in(table: dict[str, Any], key: str) -> list[Any]:
    """`table[key]` when it is a list, else nothing (a wrong type is reported by the key's field check)."""
    v = table.get(key)
    return v if isinstance(v, list) else []


def ids_in(sheet: PackData, key: str) -> list[str]:
    """The string ids a sheet lists under `key` (anything else is reported by the key's field check)."""
    v = sheet.get(key)
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def join_path(prefix: str, path: str) -> str:
    """`prefix.path`, either part possibly empty."""
    return f"{prefix}.{path}" if prefix and path else prefix or path


def skill_stats(data: PackData) -> dict[str, str]:
    """R-CHECK-4: skill -> parent stat, for every skill of the pack (the engine's default `skill_stats`)."""
    return {skill: entry["stat"] for skill, entry in tables(data, "skills").items() if "stat" in entry}
