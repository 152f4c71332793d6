"""Where the project's own folders are, whatever the current directory.

The project is installed editable (`make` does it), so the package sits inside the checkout and the
campaign packs and templates are found beside it.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CAMPAIGNS_DIR = PROJECT_ROOT / "campaigns"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
DEMO_PACK_DIR = CAMPAIGNS_DIR / "demo"


def instance_dir() -> Path:
    """The folder for the database and other run-time data: `PBP_INSTANCE`, else `<project>/instance`."""
    return Path(os.environ.get("PBP_INSTANCE") or PROJECT_ROOT / "instance").resolve()
