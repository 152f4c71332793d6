"""Every public service that opens a write transaction is `@retried`: a busy database is retried as a whole and
then a clear `Busy`, never a `database is locked` traceback (a new service cannot forget it)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "pbp" / "services"


def _writers_without_retry() -> list[str]:
    missing = []
    for path in sorted(SERVICES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            writes = any(
                isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) == "write_transaction"
                for n in ast.walk(node)
            )
            retried = any(getattr(d, "id", getattr(d, "attr", "")) == "retried" for d in node.decorator_list)
            if writes and not retried:
                missing.append(f"{path.stem}.{node.name}")
    return missing


def test_every_public_write_path_is_retried() -> None:
    assert _writers_without_retry() == []
