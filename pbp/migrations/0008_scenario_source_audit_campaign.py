"""Where a scenario came from (`pack`: its campaign pack's folder; `console`: created or imported in the GM's console,
kept in the campaign's stored pack across upgrades), and the campaign of each audit row (its GMs read the log): rows
from before are given the campaign their target names."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class Campaign(Model):
        class Meta:
            database = db
            table_name = "campaign"

    migrator.migrate(
        migrator.add_column("scenario", "source", CharField(max_length=16, default="pack")),
        migrator.add_column("audit_log", "campaign_id", ForeignKeyField(Campaign, null=True, field=Campaign.id)),
    )
    targets = {
        "campaign": "SELECT id FROM campaign WHERE id = {id}",
        "scenario": "SELECT campaign_id FROM scenario WHERE id = {id}",
        "round": "SELECT s.campaign_id FROM round r JOIN scenario s ON s.id = r.scenario_id WHERE r.id = {id}",
        "character": 'SELECT campaign_id FROM "character" WHERE id = {id}',
    }
    for kind, query in targets.items():
        prefix = len(kind) + 2  # SQL strings count from 1: the id starts after "kind:"
        number = f"CAST(SUBSTR(audit_log.target, {prefix}) AS INTEGER)"
        db.execute_sql(
            f"UPDATE audit_log SET campaign_id = ({query.format(id=number)})"  # noqa: S608 (no user input)
            f" WHERE audit_log.target LIKE {db.param}",  # a parameter: psycopg reads a literal % as a placeholder
            (f"{kind}:%",),
        )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_index("audit_log", "audit_log_campaign_id"),
        migrator.drop_column("audit_log", "campaign_id"),
        migrator.drop_column("scenario", "source"),
    )
