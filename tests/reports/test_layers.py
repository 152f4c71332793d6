"""pbp.reports sits below the web and the models (design.md): importing and using it loads neither Flask nor peewee."""

from __future__ import annotations

import json
import subprocess
import sys

from pbp.paths import PROJECT_ROOT

_PROBE = """
import json, sys
import pbp.reports, pbp.reports.dicelog
from tests.reports.demo import demo_bundles
pbp.reports.render_markdown(pbp.reports.draft_report(demo_bundles()[0], prose={}))
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("flask", "werkzeug", "peewee", "apscheduler"))))
"""


def test_reports_load_no_web_or_orm():
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT)
    assert json.loads(out.stdout) == []
