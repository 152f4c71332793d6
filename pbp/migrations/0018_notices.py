"""The on-site notice list: every event the outbox tells a user, kept per user with read/unread, mail or no mail."""

# ruff: noqa: F403, F405
from peewee import *

from pbp.models.base import JSONField


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Notice(Model):
        user = ForeignKeyField(User)
        kind = CharField(max_length=32)
        payload = JSONField()
        created_at = DateTimeField()
        read_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "notice"
            indexes = ((("user", "read_at"), False),)

    db.create_tables([Notice])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("notice"))
