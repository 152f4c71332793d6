"""Fixtures for campaign-pack tests: the demo pack, parsed, and a writable copy of its folder."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbp.packs import demo_pack
from pbp.paths import DEMO_PACK_DIR


@pytest.fixture(scope="session")
def _demo_data() -> dict[str, Any]:
    return demo_pack().data


@pytest.fixture
def demo(_demo_data: dict[str, Any]) -> dict[str, Any]:
    """The demo pack's data, a private copy each test may change."""
    return copy.deepcopy(_demo_data)


@pytest.fixture
def demo_dir(tmp_path: Path) -> Path:
    """A copy of campaigns/demo/ to plant errors in."""
    return Path(shutil.copytree(DEMO_PACK_DIR, tmp_path / "demo"))
