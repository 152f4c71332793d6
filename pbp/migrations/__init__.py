"""Schema migrations: numbered scripts in this folder, applied in order by peewee's runner and recorded in the
`schema_migration` table. `pbp db upgrade` applies the pending ones in place; a test applies them all to an empty
database and compares the result with the models.

A new migration: change the models, then write `NNNN_what.py` with `up(migrator, db)` (playhouse.migrate
operations; `playhouse.migrations.template(diff_models(db, ALL_MODELS))` drafts one from a database at the previous
version).
"""

from __future__ import annotations

from pathlib import Path

import peewee
from playhouse.migrations import Runner

MIGRATIONS_DIR = Path(__file__).resolve().parent


def runner(db: peewee.Database) -> Runner:
    return Runner(db, str(MIGRATIONS_DIR))


def upgrade(db: peewee.Database) -> list[str]:
    """Apply every pending migration; returns the names applied (empty when already up to date)."""
    return runner(db).up()


def pending(db: peewee.Database) -> list[str]:
    """The migrations not yet applied to `db`."""
    return [m.name for m in runner(db).status() if m.applied is None and m.path is not None]
