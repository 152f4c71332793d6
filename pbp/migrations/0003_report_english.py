"""The GM's own English story beside the Japanese report, and its HTML as published (none: generated)."""

from peewee import TextField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("report", "story_en_md", TextField(null=True)),
        migrator.add_column("report", "html_en", TextField(null=True)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("report", "story_en_md"), migrator.drop_column("report", "html_en"))
