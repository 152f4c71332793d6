"""Accounts in the browser and the health check: a user's session version (bumped to end every copy of a session
cookie) and chosen language, and the heartbeat table where the scheduler records its last tick."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("user", "session_version", IntegerField(default=1)),
        migrator.add_column("user", "locale", CharField(max_length=8, null=True)),
    )

    class Heartbeat(Model):
        name = CharField(unique=True, max_length=32)
        at = DateTimeField()

        class Meta:
            database = db
            table_name = "heartbeat"

    db.create_tables([Heartbeat])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("heartbeat"))
    migrator.migrate(migrator.drop_column("user", "session_version"), migrator.drop_column("user", "locale"))
