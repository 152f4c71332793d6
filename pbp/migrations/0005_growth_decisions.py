"""Growth requests wait for the GM: each has a status (pending, approved, denied), who decided it, when and why.
Requests made before this migration were applied at once: they are approved."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    migrator.migrate(
        migrator.add_column("growth_request", "status", CharField(max_length=16, default="approved")),
        migrator.add_column("growth_request", "decided_at", DateTimeField(null=True)),
        migrator.add_column("growth_request", "decided_by_id", ForeignKeyField(User, null=True, field=User.id)),
        migrator.add_column("growth_request", "reason", CharField(max_length=400, default="")),
        migrator.add_index("growth_request", ("status",)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_index("growth_request", "growth_request_status"),
        migrator.drop_index("growth_request", "growth_request_decided_by_id"),
        *(migrator.drop_column("growth_request", c) for c in ("status", "decided_at", "decided_by_id", "reason")),
    )
