"""What a player asks of the GM beside an entry (issue 30, item 6): the PCs to act with (連携), whether the GM may add
to what is written (アドリブ) or have the character meet others (絡み), and a note to the GM that is never published.
No public page shows it: the site's version does not watch it."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class Character(Model):
        class Meta:
            database = db
            table_name = "character"

    class EntryWish(Model):
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        partners = JSONField()
        adlib = CharField(max_length=16, default="")
        contact = CharField(max_length=16, default="")
        gm_note = TextField(default="")
        saved_at = DateTimeField()

        class Meta:
            database = db
            table_name = "entry_wish"
            indexes = ((("round", "character"), True),)

    db.create_tables([EntryWish])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("entry_wish"))
