"""Corrections of published reports (the GM's dated note and the text as it was before), the report's last
correction time and its draft as generated, and the campaign's growth points awarded on publication."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class ReportCorrection(Model):
        round = ForeignKeyField(Round)
        number = IntegerField()
        note = CharField(max_length=500)
        corrected_at = DateTimeField()
        corrected_by = ForeignKeyField(User, null=True)
        old_md = TextField()
        old_html = TextField()
        old_html_en = TextField(null=True)

        class Meta:
            database = db
            table_name = "report_correction"
            indexes = ((("round", "number"), True),)

    db.create_tables([ReportCorrection])
    migrator.migrate(
        migrator.add_column("report", "corrected_at", DateTimeField(null=True)),
        migrator.add_column("report", "generated_md", TextField(null=True)),
        migrator.add_column("campaign", "growth_on_publish", IntegerField(default=0)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("campaign", "growth_on_publish"),
        migrator.drop_column("report", "corrected_at"),
        migrator.drop_column("report", "generated_md"),
        migrator.drop_table("report_correction"),
    )
