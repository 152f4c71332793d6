"""The GM judges the プレイング (issue 31, item 7): the ad-hoc checks a GM adds for a PC's creative action (watched:
they are inputs of a round's resolution, like the GM's actions) and the resolution's copy of them as rolled (what
verify rolls again). A プレイングボーナス is a GM action of kind `bonus` (`gm_action`): no table of its own."""

# ruff: noqa: F403, F405
from peewee import *

from pbp.models.base import JSONField

KINDS = ("INSERT", "UPDATE", "DELETE")


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Character(Model):
        class Meta:
            database = db
            table_name = "character"

    class Round(Model):
        class Meta:
            database = db
            table_name = "round"

    class AdhocCheck(Model):
        round = ForeignKeyField(Round)
        seq = IntegerField()
        character = ForeignKeyField(Character)
        skill = CharField(max_length=64)
        need = IntegerField()
        reason = CharField(max_length=500)
        success_text = CharField(max_length=500, null=True)
        failure_text = CharField(max_length=500, null=True)
        actor = ForeignKeyField(User, null=True)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "adhoc_check"
            indexes = ((("round", "seq"), True),)

    db.create_tables([AdhocCheck])
    migrator.migrate(migrator.add_column("resolution", "adhoc_checks", JSONField(null=True)))
    if isinstance(db, SqliteDatabase):  # the site-version triggers of 0012 on the new watched table
        for kind in KINDS:
            db.execute_sql(
                f'CREATE TRIGGER IF NOT EXISTS site_changed_adhoc_check_{kind.lower()} AFTER {kind} ON "adhoc_check" '
                "BEGIN UPDATE site_version SET n = n + 1 WHERE id = 1; END"
            )
    else:
        db.execute_sql(
            'CREATE CONSTRAINT TRIGGER site_changed AFTER INSERT OR UPDATE OR DELETE ON "adhoc_check" '
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pbp_site_changed()"
        )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("resolution", "adhoc_checks"), migrator.drop_table("adhoc_check"))
