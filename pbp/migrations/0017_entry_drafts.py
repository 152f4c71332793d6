"""Never lose a プレイング: an entry's text autosaved as a draft while it is written (its writer's alone, never an
entry), and text posted after its session ended, parked until its writer logs in again in that browser."""

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

    class Character(Model):
        class Meta:
            database = db
            table_name = "character"

    class EntryDraft(Model):
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        prose = TextField(default="")
        prose_en = TextField(null=True)
        saved_at = DateTimeField()

        class Meta:
            database = db
            table_name = "entry_draft"
            indexes = ((("round", "character"), True),)

    class ParkedText(Model):
        token = CharField(max_length=64, unique=True)
        user = ForeignKeyField(User)
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        prose = TextField(default="")
        prose_en = TextField(null=True)
        parked_at = DateTimeField(index=True)

        class Meta:
            database = db
            table_name = "parked_text"

    db.create_tables([EntryDraft, ParkedText])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("parked_text"), migrator.drop_table("entry_draft"))
