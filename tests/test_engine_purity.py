"""pbp.engine is pure (design.md): no framework, ORM, scheduler, template, socket or sqlite import; no file,
clock or `random` use. Checked in a fresh interpreter and by scanning the sources."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "pbp" / "engine"
FORBIDDEN_MODULES = ["flask", "peewee", "apscheduler", "jinja2", "werkzeug", "markdown", "nh3", "sqlite3", "socket"]

_PROBE = """
import importlib, json, pkgutil, sys
import pbp.engine
names = ["pbp.engine"]
for info in pkgutil.walk_packages(pbp.engine.__path__, "pbp.engine."):
    importlib.import_module(info.name)
    names.append(info.name)
forbidden = %r
loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
print(json.dumps({"imported": names, "loaded": loaded}))
"""


def test_engine_imports_nothing_impure() -> None:
    p = subprocess.run(
        [sys.executable, "-c", _PROBE % (FORBIDDEN_MODULES,)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert "pbp.engine.dice" in out["imported"]
    assert out["loaded"] == [], f"importing pbp.engine loaded {out['loaded']}"


def _calls(tree: ast.AST) -> list[tuple[int, str]]:
    """Dotted names of every call in a module (`open`, `datetime.now`, `time.time`, ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            parts = []
            f = node.func
            while isinstance(f, ast.Attribute):
                parts.append(f.attr)
                f = f.value
            if isinstance(f, ast.Name):
                parts.append(f.id)
            found.append((node.lineno, ".".join(reversed(parts))))
    return found


FORBIDDEN_CALLS = {
    "open",
    "io.open",
    "os.open",
    "input",
    "datetime.now",
    "datetime.utcnow",
    "datetime.datetime.now",
    "datetime.datetime.utcnow",
    "date.today",
    "datetime.date.today",
    "datetime.today",
}
FORBIDDEN_CALL_SUFFIXES = (".read_text", ".read_bytes", ".write_text", ".write_bytes", ".open")
FORBIDDEN_IMPORTS = {
    "random",
    "time",
    "secrets",
    "os",
    "pathlib",
    "io",
    "shutil",
    "tempfile",
    "subprocess",
    "socket",
    "sqlite3",
    "urllib",
    "http",
}


def test_engine_sources_do_no_io_clock_or_random() -> None:
    problems = []
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        rel = path.relative_to(ROOT)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                continue
            for m in mods:
                if m.split(".")[0] in FORBIDDEN_IMPORTS:
                    problems.append(f"{rel}:{node.lineno}: imports {m}")
        for line, name in _calls(tree):
            clock_or_random = name.startswith(("time.", "random."))
            if name in FORBIDDEN_CALLS or name.endswith(FORBIDDEN_CALL_SUFFIXES) or clock_or_random:
                problems.append(f"{rel}:{line}: calls {name}()")
    assert not problems, "the engine must stay pure:\n" + "\n".join(problems)
