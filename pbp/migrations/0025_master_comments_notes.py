"""The GM's comment on each character under a round's story (マスターコメント, shown on the public page: its table
moves the site's version like the report's) and the private note threads between a scenario's GMs and each of its
players (never shown publicly: not watched)."""

# ruff: noqa: F403, F405
from peewee import *

KINDS = ("INSERT", "UPDATE", "DELETE")


def watch(db, table):
    """The site-version triggers of 0012 on a new watched table."""
    if isinstance(db, SqliteDatabase):
        for kind in KINDS:
            db.execute_sql(
                f'CREATE TRIGGER IF NOT EXISTS site_changed_{table}_{kind.lower()} AFTER {kind} ON "{table}" '
                "BEGIN UPDATE site_version SET n = n + 1 WHERE id = 1; END"
            )
    else:
        db.execute_sql(
            f'CREATE CONSTRAINT TRIGGER site_changed AFTER INSERT OR UPDATE OR DELETE ON "{table}" '
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pbp_site_changed()"
        )


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Character(Model):
        class Meta:
            database = db
            table_name = "character"

    class Scenario(Model):
        class Meta:
            database = db
            table_name = "scenario"

    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class MasterComment(Model):
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        text = TextField(default="")
        text_en = TextField(null=True)
        updated_at = DateTimeField()
        updated_by = ForeignKeyField(User, null=True)

        class Meta:
            database = db
            table_name = "master_comment"
            indexes = ((("round", "character"), True),)

    class ScenarioNote(Model):
        scenario = ForeignKeyField(Scenario)
        player = ForeignKeyField(User)
        author = ForeignKeyField(User)
        body = TextField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "scenario_note"
            indexes = ((("scenario", "player"), False),)

    db.create_tables([MasterComment, ScenarioNote])
    watch(db, "master_comment")


def down(migrator, db):
    migrator.migrate(migrator.drop_table("scenario_note"), migrator.drop_table("master_comment"))
