"""The engine's one validation idiom: `check_*` functions report every problem they find to a `Checker`, each under
the field path where it stands (`units[2].skills.射撃`), and never stop at the first.

- `check_*` validates and records what is wrong; it returns whether the value was sound, so a caller can skip the
  checks that read inside a broken value.
- `is_*` is a pure predicate: it records nothing.
- Each rule is stated once. Validation runs on every resolve (a 200-unit encounter included), so a check tests its
  value inline and builds a field path only when the value is wrong.

Encounters, orders and overrides (`pool.schema`, `overrides`) and packs and character sheets (`pool.pack_checks`)
are all checked this way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeGuard

from pbp.engine.errors import N_, Problem


def is_whole(value: Any) -> TypeGuard[int]:
    """A whole number: an int that is not a bool (Python counts True as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


class Checker:
    """Collects problems under field paths."""

    __slots__ = ("problems",)

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        """Record one problem."""
        self.problems.append(Problem(path, message))

    def said(self, path: str, template: str, **params: object) -> None:
        """Record one problem worded by a marked template (`errors.N_`): a page can say it in its own language."""
        self.problems.append(Problem.said(path, template, **params))

    def check_int(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> bool:
        """A whole number within lo..hi (either bound may be open)."""
        if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
            return True
        if not isinstance(value, int) or isinstance(value, bool):
            self.said(path, N_("must be a whole number, got %(value)r"), value=value)
            return False
        rng = f"{lo if lo is not None else '-∞'}..{hi if hi is not None else '∞'}"
        self.said(path, N_("%(value)s is outside %(range)s"), value=value, range=rng)
        return False

    def check_ints(
        self, values: dict[Any, Any] | list[Any], path: str, lo: int | None = None, hi: int | None = None
    ) -> bool:
        """Every value of a dict (or list) is a whole number within lo..hi; paths are built only for the bad ones."""
        items: Iterable[tuple[Any, Any]] = values.items() if isinstance(values, dict) else enumerate(values)
        lo_, hi_ = -(2**63) if lo is None else lo, 2**63 if hi is None else hi
        if all(type(v) is int and lo_ <= v <= hi_ for _, v in items):
            return True
        ok = True
        for k, v in values.items() if isinstance(values, dict) else enumerate(values):
            ok = self.check_int(v, f"{path}.{k}" if isinstance(values, dict) else f"{path}[{k}]", lo, hi) and ok
        return ok

    def check_key_int(
        self, obj: dict[str, Any], key: str, path: str, lo: int | None = None, hi: int | None = None
    ) -> bool:
        """`obj[key]` is a whole number in range; the field path is formatted only when it is not."""
        v = obj.get(key)
        if type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi):
            return True
        return self.check_int(v, f"{path}.{key}", lo, hi)

    def check_key_str(self, obj: dict[str, Any], key: str, path: str) -> bool:
        """`obj[key]` is a non-empty string."""
        v = obj.get(key)
        return (type(v) is str and v != "") or self.check_str(v, f"{path}.{key}")

    def check_key_one_of(
        self, obj: dict[str, Any], key: str, choices: tuple[Any, ...], path: str, default: Any = None
    ) -> bool:
        """`obj[key]` (or `default` when absent) is one of `choices`."""
        v = obj.get(key, default)
        return v in choices or self.check_one_of(v, choices, f"{path}.{key}")

    def check_dict(self, value: Any, path: str) -> bool:
        if not isinstance(value, dict):
            self.said(path, N_("must be an object, got %(type)s"), type=type(value).__name__)
            return False
        return True

    def check_list(self, value: Any, path: str) -> bool:
        if not isinstance(value, list):
            self.said(path, N_("must be a list, got %(type)s"), type=type(value).__name__)
            return False
        return True

    def check_str(self, value: Any, path: str) -> bool:
        """A non-empty string."""
        if not isinstance(value, str) or not value:
            self.said(path, N_("must be a non-empty string, got %(value)r"), value=value)
            return False
        return True

    def check_one_of(self, value: Any, choices: tuple[Any, ...], path: str) -> bool:
        if value not in choices:
            self.said(
                path, N_("%(value)r is not one of %(choices)s"), value=value, choices=", ".join(map(str, choices))
            )
            return False
        return True

    def check_bool(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            self.said(path, N_("must be true or false, got %(value)r"), value=value)
            return False
        return True
