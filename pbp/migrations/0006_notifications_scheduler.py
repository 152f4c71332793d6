"""The complete scheduler and notifications: the outbox's delivery state (channel, address, attempts, claim), a
user's e-mail address and switched-off kinds, a campaign's guard share and webhook, the guard's mark on a round, and
the deadline reminders sent."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("user", "email", CharField(max_length=254, null=True)),
        migrator.add_column("campaign", "hold_share", FloatField(default=0.5)),
        migrator.add_column("campaign", "webhook_url", CharField(max_length=500, null=True)),
        migrator.add_column("round", "guard_held_at", DateTimeField(null=True)),
        migrator.drop_not_null("outbox", "recipient_id"),
        migrator.add_column("outbox", "channel", CharField(max_length=16, default="email")),
        migrator.add_column("outbox", "address", CharField(max_length=500, null=True)),
        migrator.add_column("outbox", "status", CharField(max_length=16, default="pending")),
        migrator.add_column("outbox", "attempts", IntegerField(default=0)),
        migrator.add_column("outbox", "next_attempt_at", DateTimeField(null=True)),
        migrator.add_column("outbox", "claimed_until", DateTimeField(null=True)),
        migrator.add_column("outbox", "last_error", CharField(max_length=500, null=True)),
        migrator.add_index("outbox", ("status",), False),
    )

    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class NotificationOptOut(Model):
        user = ForeignKeyField(User)
        kind = CharField(max_length=32)

        class Meta:
            database = db
            table_name = "notification_opt_out"
            indexes = ((("user", "kind"), True),)

    class Reminder(Model):
        round = ForeignKeyField(Round)
        user = ForeignKeyField(User)
        lead = IntegerField()
        sent_at = DateTimeField()

        class Meta:
            database = db
            table_name = "reminder"
            indexes = ((("round", "user", "lead"), True),)

    db.create_tables([NotificationOptOut, Reminder])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("reminder"), migrator.drop_table("notification_opt_out"))
    migrator.migrate(
        migrator.drop_index("outbox", "outbox_status"),
        *(
            migrator.drop_column("outbox", c)
            for c in ("channel", "address", "status", "attempts", "next_attempt_at", "claimed_until", "last_error")
        ),
        migrator.drop_column("round", "guard_held_at"),
        migrator.drop_column("campaign", "webhook_url"),
        migrator.drop_column("campaign", "hold_share"),
        migrator.drop_column("user", "email"),
    )
