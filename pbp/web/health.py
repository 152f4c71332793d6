"""`/healthz`: whether the database answers (200, else 503) and how long ago the scheduler last ticked.

`status` is `degraded` when the last tick is older than `SCHEDULER_STALE_AFTER` seconds, when there never was
one while something is due (a round past its deadline, a sign-up to close), or when a round is still open or closed
more than `ROUND_OVERDUE_AFTER` seconds past its deadline (`overdue_rounds` lists them): the database works but
deadlines are not being acted on. A monitor can alert on the status code for the database and on `status` for the
scheduler.
"""

from __future__ import annotations

from datetime import UTC, datetime

import peewee
from flask import Blueprint, current_app, jsonify
from werkzeug.wrappers import Response

from pbp import db as pbp_db
from pbp.services import rounds, schedule

bp = Blueprint("health", __name__)


def _first_line(e: Exception) -> str:
    return (str(e) or type(e).__name__).splitlines()[0]


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    try:
        pbp_db.database.execute_sql("SELECT 1")
        last = schedule.last_tick()
        due = last is None and schedule.work_is_due()
        overdue = rounds.overdue(float(current_app.config["ROUND_OVERDUE_AFTER"]))
    except peewee.PeeweeException as e:
        body = {"status": "degraded", "db": f"error: {_first_line(e)}", "scheduler": {"last_tick": None, "age_s": None}}
        return _no_store(jsonify(body)), 503
    age = None if last is None else int((datetime.now(UTC) - last).total_seconds())
    stale = age is not None and age > float(current_app.config["SCHEDULER_STALE_AFTER"])
    scheduler = {"last_tick": last.strftime("%Y-%m-%dT%H:%M:%SZ") if last else None, "age_s": age}
    status = "degraded" if stale or due or overdue else "ok"
    body = {"status": status, "db": "ok", "scheduler": scheduler, "overdue_rounds": overdue}
    return _no_store(jsonify(body)), 200


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response
