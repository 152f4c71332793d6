"""The shared golden vectors hold against `pbp engine resolve`: ../shared/vectors/<ruleset>/ and the second
ruleset's ../shared/kancolle-vectors/.

Runs the shared checker as is (nothing copied), once per vector folder.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbp.engine import ruleset_ids

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
VECTORS = SHARED / "vectors"
CHECKER = VECTORS / "check_vectors.py"
#: Outside vectors/ until the ruleset existed (issue 32): its folder, and the ruleset it needs.
KANCOLLE_VECTORS = SHARED / "kancolle-vectors"


def _folders() -> list[Path]:
    found = sorted(p for p in VECTORS.iterdir() if p.is_dir() and any(p.glob("*.json"))) if VECTORS.is_dir() else []
    return found + ([KANCOLLE_VECTORS] if any(KANCOLLE_VECTORS.glob("*.json")) else [])


def _pbp_command() -> str:
    script = Path(sys.executable).with_name("pbp")
    if script.is_file():
        return str(script)
    return f'"{sys.executable}" -m pbp'


@pytest.mark.parametrize("folder", _folders() or [None], ids=lambda p: p.name if p else "none")
def test_shared_vectors(folder: Path | None) -> None:
    if folder is None or not CHECKER.is_file():
        pytest.skip(f"no shared vectors at {VECTORS} (../shared is absent)")
    if folder == KANCOLLE_VECTORS and "kancolle" not in ruleset_ids():
        pytest.skip(f"the kancolle ruleset is not registered: {folder} waits for it")
    p = subprocess.run(
        [sys.executable, str(CHECKER), "--pbp", _pbp_command(), str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert p.returncode == 0, f"vectors in {folder} failed:\n{p.stdout}\n{p.stderr}"
