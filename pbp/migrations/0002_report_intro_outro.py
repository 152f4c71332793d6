"""The GM's intro and outro around a round's story (issue 4: a report is intro, story, outro)."""

from peewee import TextField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("report", "intro_md", TextField(default="")),
        migrator.add_column("report", "outro_md", TextField(default="")),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("report", "intro_md"), migrator.drop_column("report", "outro_md"))
