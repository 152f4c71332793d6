"""The layers of the README's diagram, held by the import graph (read with ast, so a lazy import counts too):
engine imports nothing of pbp above it; models nothing from services or the web; services nothing from the web,
the CLI or the scheduler; reports nothing from the web; the web and the scheduler never import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: layer (a package path) -> the pbp packages it must never import
FORBIDDEN = {
    "pbp/engine": (
        "pbp.models",
        "pbp.services",
        "pbp.web",
        "pbp.reports",
        "pbp.cli",
        "pbp.db",
        "pbp.packs",
        "scheduler",
    ),
    "pbp/models": ("pbp.services", "pbp.web", "pbp.cli", "scheduler"),
    "pbp/services": ("pbp.web", "pbp.cli", "scheduler"),
    "pbp/reports": ("pbp.web", "pbp.cli", "pbp.services", "scheduler"),
    "pbp/web": ("scheduler", "pbp.cli"),
    "scheduler": ("pbp.web",),
}


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("layer", FORBIDDEN)
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert bad == []
