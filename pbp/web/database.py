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

from contextlib import ExitStack

import peewee
from flask import Flask, g

from pbp import db as pbp_db
from pbp.models import site

EXTENSION = "pbp.database"


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
