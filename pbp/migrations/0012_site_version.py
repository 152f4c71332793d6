"""The site's version (pbp.models.site): a one-row table and the triggers that move it on every committed write
to a table public pages show. SQLite: a trigger per table and statement kind. PostgreSQL: a deferred constraint
trigger per table, fired at commit, once per transaction (a transaction-local setting remembers it fired), so the
row is locked only at the very end of a transaction and two writers cannot deadlock over it."""

# ruff: noqa: F403, F405
from peewee import *

WATCHED = (
    "user", "campaign", "campaign_gm", "character", "scenario", "scenario_secret", "participation", "round",
    "resolution", "resolution_version", "override", "gm_action", "report", "report_correction",
)  # fmt: skip
KINDS = ("INSERT", "UPDATE", "DELETE")

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION pbp_site_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('pbp.site_changed', true) IS DISTINCT FROM 'y' THEN
        PERFORM set_config('pbp.site_changed', 'y', true);
        UPDATE site_version SET n = n + 1 WHERE id = 1;
    END IF;
    RETURN NULL;
END
$$
"""


def up(migrator, db):
    class SiteVersion(Model):
        n = BigIntegerField(default=0)

        class Meta:
            database = db
            table_name = "site_version"

    db.create_tables([SiteVersion])
    db.execute_sql("INSERT INTO site_version (id, n) VALUES (1, 0)")
    if isinstance(db, SqliteDatabase):
        for table in WATCHED:
            for kind in KINDS:
                db.execute_sql(
                    f'CREATE TRIGGER site_changed_{table}_{kind.lower()} AFTER {kind} ON "{table}" '
                    "BEGIN UPDATE site_version SET n = n + 1 WHERE id = 1; END"
                )
    else:
        db.execute_sql(PG_FUNCTION)
        for table in WATCHED:
            db.execute_sql(
                f'CREATE CONSTRAINT TRIGGER site_changed AFTER INSERT OR UPDATE OR DELETE ON "{table}" '
                "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pbp_site_changed()"
            )


def down(migrator, db):
    if isinstance(db, SqliteDatabase):
        for table in WATCHED:
            for kind in KINDS:
                db.execute_sql(f"DROP TRIGGER IF EXISTS site_changed_{table}_{kind.lower()}")
    else:
        for table in WATCHED:
            db.execute_sql(f'DROP TRIGGER IF EXISTS site_changed ON "{table}"')
        db.execute_sql("DROP FUNCTION IF EXISTS pbp_site_changed()")
    migrator.migrate(migrator.drop_table("site_version"))
