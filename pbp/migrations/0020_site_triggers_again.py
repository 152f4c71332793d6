"""SQLite's site-version triggers on every watched table, made again where a table was rebuilt since 0012.

peewee's SQLite migrator adds a NOT NULL column by rebuilding the table (0016 did so to `scenario_secret`), and a
rebuilt table loses its triggers: the site's version then stood still when a GM changed a scenario's secret part,
so a cached page could outlive it. `IF NOT EXISTS` makes this safe on any database; PostgreSQL keeps its triggers
through ALTER TABLE and needs nothing. A later migration that rebuilds a watched table must do the same
(tests/lifecycle/test_site_version.py checks every table has its three)."""

# ruff: noqa: F403, F405
from peewee import *

WATCHED = (
    "user", "campaign", "campaign_gm", "character", "scenario", "scenario_secret", "participation", "round",
    "resolution", "resolution_version", "override", "gm_action", "report", "report_correction",
)  # fmt: skip
KINDS = ("INSERT", "UPDATE", "DELETE")


def up(migrator, db):
    if not isinstance(db, SqliteDatabase):
        return
    for table in WATCHED:
        for kind in KINDS:
            db.execute_sql(
                f'CREATE TRIGGER IF NOT EXISTS site_changed_{table}_{kind.lower()} AFTER {kind} ON "{table}" '
                "BEGIN UPDATE site_version SET n = n + 1 WHERE id = 1; END"
            )


def down(migrator, db):
    pass  # the triggers belong to 0012
