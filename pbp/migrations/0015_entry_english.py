"""A bilingual player's English version of their プレイング, beside the prose on the entry and in its history: the
English story tells it instead of the Japanese prose (None: not written, the prose is told)."""

from peewee import TextField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("entry", "prose_en", TextField(null=True)),
        migrator.add_column("entry_revision", "prose_en", TextField(null=True)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("entry", "prose_en"), migrator.drop_column("entry_revision", "prose_en"))
