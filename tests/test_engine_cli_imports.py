"""`pbp engine ...` imports nothing of the database, the web or the scheduler (issue 12: half its start-up went to
importing peewee and psycopg it never used)."""

from __future__ import annotations

import json
import subprocess
import sys

from pbp.paths import PROJECT_ROOT

_PROBE = """
import contextlib, io, json, sys
from pbp.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["engine", "odds", "--stat", "4", "--skill-level", "3", "--need", "2"])
heavy = ("peewee", "psycopg", "flask", "werkzeug", "apscheduler", "jinja2", "markdown", "nh3")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in heavy)))
"""


def test_engine_commands_load_no_database_web_or_scheduler() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
