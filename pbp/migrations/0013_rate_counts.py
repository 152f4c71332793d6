"""Rate limits counted in the database (pbp.web.ratelimit): every web worker counts the same login attempts."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class RateCount(Model):
        key = CharField(max_length=255, primary_key=True)
        count = IntegerField()
        expires_at = DoubleField(index=True)

        class Meta:
            database = db
            table_name = "rate_count"

    db.create_tables([RateCount])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("rate_count"))
