"""A user's chosen time zone (issue 30, item 7): every time a page shows them is in it; None keeps each
campaign's own."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(migrator.add_column("user", "timezone", CharField(max_length=64, null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("user", "timezone"))
