"""The layers of the README's diagram ("How it is built"), held by the import graph (read with ast, so a lazy import
inside a function counts too, and so do `from pbp import web` and relative imports):

```
web (Flask blueprints)      scheduler/ (one process)      cli (pbp ...)
        services: the only code that writes, one transaction per change
         models (peewee)      reports (narrative, Markdown, feeds)
               engine (pure: dice, checks, rulesets)  +  packs (campaign data, TOML)
```

Each layer may import only what the diagram draws below it: the engine nothing of pbp but itself (pure: bundles and
`verify` live in it); packs the engine; models and reports, side by side, never each other, nothing from services,
the web, the CLI or the scheduler; services nothing from the web, the CLI or the scheduler; the web and the scheduler
never import each other, nor the CLI. The infrastructure modules (`pbp/db.py`, `pbp/errors.py`, `pbp/paths.py`,
`pbp/text.py`) sit under everything that uses them and import only one another. Every module of pbp belongs to a
layer: a new top-level module fails `test_every_module_belongs_to_a_layer` until its place in the diagram is chosen.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

INFRA = ("pbp.db", "pbp.errors", "pbp.lru", "pbp.paths", "pbp.text")
#: layer -> (its files, the pbp packages it may import: everything else of pbp and the scheduler is forbidden)
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (("pbp/engine",), ("pbp.engine",)),
    "packs": (("pbp/packs",), ("pbp.packs", "pbp.engine", "pbp.paths", "pbp.errors", "pbp.text")),
    "infrastructure": (
        ("pbp/db.py", "pbp/errors.py", "pbp/lru.py", "pbp/paths.py", "pbp/serving.py", "pbp/text.py"),
        INFRA,
    ),
    "models": (("pbp/models", "pbp/migrations"), ("pbp.models", "pbp.migrations", "pbp.engine", *INFRA)),
    "reports": (("pbp/reports",), ("pbp.reports", "pbp.engine", "pbp.packs", *INFRA)),
    "services": (
        ("pbp/services",),
        ("pbp.services", "pbp.models", "pbp.migrations", "pbp.reports", "pbp.engine", "pbp.packs", *INFRA),
    ),
    "web": (
        ("pbp/web",),
        ("pbp.web", "pbp.services", "pbp.models", "pbp.reports", "pbp.engine", "pbp.packs", *INFRA),
    ),
    "scheduler": (
        ("scheduler",),
        ("scheduler", "pbp.services", "pbp.models", "pbp.migrations", "pbp.reports", "pbp.engine", "pbp.packs", *INFRA),
    ),
    # the top: the CLI drives every layer, the scheduler too (`pbp scheduler`, `pbp run`)
    "cli": (("pbp/cli", "pbp/__main__.py"), ("pbp", "scheduler")),
}
#: Files that hold no code of a layer.
OUTSIDE = ("pbp/__init__.py",)


def _files(paths: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for p in paths:
        path = ROOT / p
        found += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return found


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, source: str | None = None) -> set[str]:
    """Every module `path` imports by name: `import a.b`, `from a.b import c` (as `a.b` and `a.b.c`, since c may be
    a module: `from pbp import web`), relative imports resolved against the file's package, and a constant string
    given to `importlib.import_module`. `source` stands for the file's text (the checker's own test)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    text = path.read_text(encoding="utf-8") if source is None else source
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names if alias.name != "*")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def _is_ours(name: str) -> bool:
    return _under(name, "pbp") or _under(name, "scheduler")


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _allowed(name: str, allowed: tuple[str, ...]) -> bool:
    # `from pbp import reports` also yields `pbp` itself: the package's own __init__ holds nothing of any layer.
    return name == "pbp" or any(_under(name, a) for a in allowed)


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    paths, allowed = LAYERS[layer]
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _files(paths)
        for name in sorted(imports_of(path))
        if _is_ours(name) and not _allowed(name, allowed)
    ]
    assert bad == []


def test_every_module_belongs_to_a_layer() -> None:
    """A module outside every layer would escape the rules above (pbp/verify.py did before it moved to the engine)."""
    placed = {p for paths, _ in LAYERS.values() for p in _files(paths)} | {ROOT / p for p in OUTSIDE}
    every = set((ROOT / "pbp").rglob("*.py")) | set((ROOT / "scheduler").rglob("*.py"))
    assert sorted(str(p.relative_to(ROOT)) for p in every - placed) == []


@pytest.mark.parametrize(
    ("source", "where", "expected"),
    [
        ("from pbp import web", "pbp/services/x.py", {"pbp", "pbp.web"}),
        ("from ..web import views", "pbp/services/x.py", {"pbp.web", "pbp.web.views"}),
        ("from . import plan", "pbp/reports/__init__.py", {"pbp.reports", "pbp.reports.plan"}),
        ("def f():\n    import scheduler.process", "pbp/web/x.py", {"scheduler.process"}),
        ("import importlib\nimportlib.import_module('pbp.web')", "pbp/engine/x.py", {"importlib", "pbp.web"}),
    ],
)
def test_the_reader_sees_every_form_of_import(source: str, where: str, expected: set[str]) -> None:
    """The checker itself: each way of naming a module is seen (a test that cannot see an import cannot fail)."""
    assert imports_of(ROOT / where, source) == expected
