"""Finished notifications are deleted after a while (`pbp.services.notifications.prune`): the outbox's creation time
indexed, so that finding the old ones reads only them."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    migrator.migrate(migrator.add_index("outbox", ("created_at",), False))


def down(migrator, db):
    migrator.migrate(migrator.drop_index("outbox", "outbox_created_at"))
