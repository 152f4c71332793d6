"""A GM override of a ruleset whose checks end in a result, not a count (kancolle: `success` or `failure`, K-GM-1):
the override's `result` (None for pool's, which set `successes`; a result's row keeps `successes` 0). A nullable
column is added in place: no table is rebuilt, so SQLite keeps the table's site-version triggers."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(migrator.add_column("override", "result", CharField(max_length=16, null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("override", "result"))
