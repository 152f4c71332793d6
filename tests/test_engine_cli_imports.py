"""`pbp engine ...` imports nothing of the database, the web or the scheduler (issue 12: half its start-up went to
importing peewee and psycopg it never used)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbp.paths import PROJECT_ROOT

_PROBE = """
import contextlib, io, json, sys
from pbp.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit as stop:
        assert not stop.code, stop.code
heavy = ("peewee", "psycopg", "flask", "werkzeug", "apscheduler", "jinja2", "markdown", "nh3")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in heavy)))
"""

_ENCOUNTER = {
    "ruleset": "pool",
    "units": [
        {"id": "a", "side": "pc", "stats": {"肉体": 3}, "skills": {"白兵": 2}, "skill_stats": {"白兵": "肉体"},
         "injury": {"capacity": [3] * 5, "taken": [0] * 5}, "position": [0, 0]},
        {"id": "b", "side": "enemy", "stats": {"肉体": 3}, "skills": {"白兵": 2}, "skill_stats": {"白兵": "肉体"},
         "injury": {"capacity": [3] * 5, "taken": [0] * 5}, "position": [100, 0]},
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        ["engine", "check", "--stat", "4", "--skill-level", "3", "--seed", "imports"],
        ["engine", "odds", "--stat", "4", "--skill-level", "3", "--need", "2"],
        ["engine", "resolve", "{encounter}", "--seed", "imports"],
        ["engine", "demo"],
    ],
    ids=["check", "odds", "resolve", "demo"],
)
def test_engine_commands_load_no_database_web_or_scheduler(command: list[str], tmp_path: Path) -> None:
    encounter = tmp_path / "encounter.json"
    encounter.write_text(json.dumps(_ENCOUNTER), encoding="utf-8")
    argv = [arg.format(encounter=encounter) for arg in command]
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(argv)], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
