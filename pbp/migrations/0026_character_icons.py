"""A character's icon (issue 30, item 6): the image the site made from the upload, kept in the database beside the
sheet; the published story shows it, so its table moves the site's version."""

# ruff: noqa: F403, F405
import importlib

from peewee import *


def up(migrator, db):
    class Character(Model):
        class Meta:
            database = db
            table_name = "character"

    class CharacterIcon(Model):
        character = ForeignKeyField(Character, unique=True, on_delete="CASCADE")
        image = BlobField()
        digest = CharField(max_length=32)
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "character_icon"

    db.create_tables([CharacterIcon])
    importlib.import_module("pbp.migrations.0025_master_comments_notes").watch(db, "character_icon")


def down(migrator, db):
    migrator.migrate(migrator.drop_table("character_icon"))
