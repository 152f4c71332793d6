"""The shared golden vectors (../shared/vectors/<ruleset>/) hold against `pbp engine resolve`.

Runs the shared checker as is (nothing copied), once per vector folder.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT.parent / "shared" / "vectors"
CHECKER = VECTORS / "check_vectors.py"


def _folders() -> list[Path]:
    if not VECTORS.is_dir():
        return []
    return sorted(p for p in VECTORS.iterdir() if p.is_dir() and any(p.glob("*.json")))


def _pbp_command() -> str:
    script = Path(sys.executable).with_name("pbp")
    if script.is_file():
        return str(script)
    return f'"{sys.executable}" -m pbp'


@pytest.mark.parametrize("folder", _folders() or [None], ids=lambda p: p.name if p else "none")
def test_shared_vectors(folder: Path | None) -> None:
    if folder is None or not CHECKER.is_file():
        pytest.skip(f"no shared vectors at {VECTORS} (../shared is absent)")
    p = subprocess.run(
        [sys.executable, str(CHECKER), "--pbp", _pbp_command(), str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert p.returncode == 0, f"vectors in {folder} failed:\n{p.stdout}\n{p.stderr}"
