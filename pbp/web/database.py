"""The app's own database: made from its `DATABASE_URL` when the app is built, used by its requests only.

Each request points the models at this app's database for its own thread or task (`pbp.db.using`) and lets go at
teardown, so two apps in one process (tests, an admin beside a public site) never read each other's data; the
process-wide binding (`pbp.db.bind`) stays the CLI's and the scheduler's. The connection opens at the first query
(peewee's autoconnect), so a page that needs no database, and `/healthz` reporting a broken one, still answer.

The connection then stays open for the thread's next requests (a gunicorn sync worker's whole life): opening one
per request (SQLite's PRAGMAs, a PostgreSQL backend's start-up) and starting each request with SQLite's page cache
empty cost more than most blog pages' own queries. A request that ends with an exception closes it, so a broken
connection (a restarted PostgreSQL) is not used again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import ExitStack
from typing import ParamSpec, TypeVar

import peewee
from flask import Flask, after_this_request, current_app, g, request
from werkzeug.wrappers import Response

from pbp import db as pbp_db
from pbp.models import site

EXTENSION = "pbp.database"
P = ParamSpec("P")
T = TypeVar("T")


def init_app(app: Flask) -> peewee.Database:
    """Make the app's database and register the request hooks: call it before any extension whose hooks or error
    pages read the database (the signed-in user, the CSRF error page), so they run inside its scope."""
    database = pbp_db.make_database(app.config["DATABASE_URL"] or pbp_db.database_url())
    app.extensions[EXTENSION] = database

    @app.before_request
    def _use() -> None:
        scope = ExitStack()
        scope.enter_context(pbp_db.using(database))
        scope.enter_context(site.reading())  # the signed-in user and a save share one reading of the site's version
        g.pbp_database_scope = scope

    @app.teardown_request  # registered first, so it runs last: every other teardown still sees the database
    def _release(exc: BaseException | None) -> None:
        if exc is not None and not database.is_closed():
            database.close()
        scope = g.pop("pbp_database_scope", None)
        if scope is not None:
            scope.close()

    return database


def of(app: Flask) -> peewee.Database:
    """The database an app was built with."""
    return app.extensions[EXTENSION]


def confirm_reading() -> None:
    """Before a view decorated with `assumes_reading` makes a page (a refusal, a preview): when its assumed reading
    proves wrong, it runs again now with a fresh one (`site.Moved`), instead of making a page only to throw it away.
    A request that assumed nothing passes at no cost."""
    if not site.confirm(pbp_db.database.obj):
        raise site.Moved


def assumes_reading(view: Callable[P, T]) -> Callable[P, T]:
    """A POST whose work is one write that checks the site's version in its own statement (an entry's re-save):
    the request takes the version its worker last read (`site.assume`) instead of reading it, so the signed-in user
    and the save cost one round trip to the database, not two.

    Nothing is answered on the strength of the assumption: the write proves it (`site.proven`), else it is read
    before the answer leaves (`site.confirm`); when it was wrong (a logout, a new password, a sheet edited since),
    whatever the view made is thrown away and the view runs again, the user loaded afresh, as any request would."""

    @functools.wraps(view)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        db = pbp_db.database.obj
        if request.method != "POST" or not site.assume(db):
            return view(*args, **kwargs)
        try:
            answer = view(*args, **kwargs)
        except site.Moved:
            pass
        except Exception:
            if site.confirm(db):
                raise
        else:
            if site.confirm(db):
                return answer
        site.restart(db)
        g.pop("_login_user", None)  # Flask-Login's user of this request: loaded again under a reading made now
        return view(*args, **kwargs)

    return run


def after_answer(work: Callable[[], None]) -> None:
    """Run `work` once this request's answer has gone out, with the app's database: a write the answer does not
    wait for (a late save's draft and notice) never holds the player behind the write lock a deadline's
    resolution may hold (issue 33). A failure is logged; the answer has been given."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    database = of(app)

    @after_this_request
    def attach(response: Response) -> Response:
        def run() -> None:
            with app.app_context(), pbp_db.using(database):
                try:
                    work()
                except Exception:
                    app.logger.exception("work after the answer failed")

        response.call_on_close(run)
        return response
