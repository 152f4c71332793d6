"""The GM's hand between rounds: recorded GM actions and enemy orders, and the resolution's state before the
actions and the actions as applied (what verify re-applies)."""

# ruff: noqa: F403, F405
from peewee import *

from pbp.models.base import JSONField


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class GmAction(Model):
        round = ForeignKeyField(Round)
        seq = IntegerField()
        kind = CharField(max_length=32)
        payload = JSONField()
        reason = CharField(max_length=500)
        actor = ForeignKeyField(User, null=True)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "gm_action"
            indexes = ((("round", "seq"), True),)

    class GmOrder(Model):
        round = ForeignKeyField(Round)
        unit = CharField(max_length=64)
        order = JSONField()
        actor = ForeignKeyField(User, null=True)
        saved_at = DateTimeField()

        class Meta:
            database = db
            table_name = "gm_order"
            indexes = ((("round", "unit"), True),)

    db.create_tables([GmAction, GmOrder])
    migrator.migrate(
        migrator.add_column("resolution", "start", JSONField(null=True)),
        migrator.add_column("resolution", "gm_actions", JSONField(null=True)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("resolution", "gm_actions"),
        migrator.drop_column("resolution", "start"),
        migrator.drop_table("gm_order"),
        migrator.drop_table("gm_action"),
    )
