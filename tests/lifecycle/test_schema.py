"""The schema is versioned: every migration applied to an empty database gives exactly the models' schema, and
`pbp db upgrade` brings an earlier database up to date in place."""

from __future__ import annotations

import subprocess
import sys

import peewee
from playhouse.schema_diff import diff_models

from pbp import db as pbp_db
from pbp import migrations
from pbp.models import ALL_MODELS

HISTORY_TABLE = "schema_migration"


def schema_of(db: peewee.Database) -> dict[str, dict]:
    """Tables with their columns (name, type, nullable, primary key), indexes and foreign keys."""
    out = {}
    for table in sorted(t for t in db.get_tables() if t != HISTORY_TABLE):
        out[table] = {
            "columns": sorted((c.name, c.data_type.lower(), c.null, c.primary_key) for c in db.get_columns(table)),
            "indexes": sorted((tuple(i.columns), bool(i.unique)) for i in db.get_indexes(table)),
            "foreign_keys": sorted((f.column, f.dest_table, f.dest_column) for f in db.get_foreign_keys(table)),
        }
    return out


def test_every_migration_on_an_empty_database_gives_the_models(db_url: str) -> None:
    database = pbp_db.bind(db_url)
    with database.connection_context():
        assert migrations.upgrade(database) == [m.stem for m in sorted(migrations.MIGRATIONS_DIR.glob("[0-9]*.py"))]
        assert not diff_models(database, ALL_MODELS), str(diff_models(database, ALL_MODELS))
        migrated = schema_of(database)
        database.drop_tables(ALL_MODELS)
        database.execute_sql(f"DROP TABLE {HISTORY_TABLE}")
        database.create_tables(ALL_MODELS)
        assert schema_of(database) == migrated
        assert set(migrated) == {m._meta.table_name for m in ALL_MODELS}


def test_upgrade_from_every_earlier_version_in_place(db_url: str) -> None:
    names = [m.name for m in migrations.runner(pbp_db.bind(db_url)).migrations()]
    for stop_before in range(len(names)):
        database = pbp_db.bind(db_url)
        with database.connection_context():
            for table in database.get_tables():
                database.execute_sql(f'DROP TABLE "{table}"' + (" CASCADE" if db_url.startswith("postgres") else ""))
            runner = migrations.runner(database)
            if stop_before:
                runner.up(target=names[stop_before - 1])
            assert migrations.upgrade(database) == names[stop_before:]
            assert migrations.pending(database) == []
            assert not diff_models(database, ALL_MODELS)


def test_pbp_db_upgrade_is_idempotent(db_url: str, tmp_path) -> None:
    run = [sys.executable, "-m", "pbp", "db", "upgrade"]
    first = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, check=True)
    assert "applied 0001_initial" in first.stdout
    again = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, check=True)
    assert again.stdout.strip() == "the database is up to date"


def test_growth_requests_from_before_0005_are_approved_and_0005_rolls_back(db_url: str) -> None:
    """Before 0005 a request was applied at once: upgrading marks such rows approved; `down` leaves 0004's table."""
    database = pbp_db.bind(db_url)
    with database.connection_context():
        runner = migrations.runner(database)
        runner.up(target="0004_sessions_locale_heartbeat")
        database.execute_sql("INSERT INTO \"user\" (name, display_name, password_hash, created_at, session_version)"
                             " VALUES ('p', 'p', 'x', '2026-01-01 00:00:00', 1)")  # fmt: skip
        database.execute_sql(
            "INSERT INTO campaign (slug, name, ruleset, pack_name, pack, timezone, entry_char_limit, policies,"
            " created_at) VALUES ('c', 'c', 'pool', 'c', '{}', 'UTC', 800, '{}', '2026-01-01 00:00:00')"
        )
        database.execute_sql(
            'INSERT INTO "character" (campaign_id, owner_id, name, sheet, alive, created_at, updated_at)'
            " SELECT campaign.id, \"user\".id, 'a', '{}', TRUE, '2026-01-01', '2026-01-01' FROM campaign, \"user\""
        )
        database.execute_sql(
            "INSERT INTO growth_request (character_id, before, after, cost, note, created_at)"
            " SELECT id, '{}', '{}', 2, '', '2026-01-01 00:00:00' FROM \"character\""
        )
        assert runner.up(target="0005_growth_decisions") == ["0005_growth_decisions"]
        rows = database.execute_sql("SELECT status, reason, decided_by_id FROM growth_request").fetchall()
        assert [tuple(r) for r in rows] == [("approved", "", None)]
        assert runner.down() == ["0005_growth_decisions"]
        columns = [c.name for c in database.get_columns("growth_request")]
        assert columns == ["id", "character_id", "before", "after", "cost", "note", "created_at"]


def test_0007_makes_every_campaign_gm_its_owner(db_url: str) -> None:
    """Campaigns loaded before 0007 keep their GM, now as the owner in campaign_gm; `down` drops the table."""
    database = pbp_db.bind(db_url)
    with database.connection_context():
        runner = migrations.runner(database)
        runner.up(target="0006_notifications_scheduler")
        database.execute_sql("INSERT INTO \"user\" (name, display_name, password_hash, created_at, session_version)"
                             " VALUES ('g', 'g', 'x', '2026-01-01 00:00:00', 1)")  # fmt: skip
        database.execute_sql(
            "INSERT INTO campaign (slug, name, ruleset, pack_name, pack, timezone, entry_char_limit, policies,"
            " created_at, hold_share, gm_id) SELECT 'c', 'c', 'pool', 'c', '{}', 'UTC', 800, '{}',"
            " '2026-01-01 00:00:00', 0.5, id FROM \"user\""
        )
        assert runner.up(target="0007_campaign_gms") == ["0007_campaign_gms"]
        rows = database.execute_sql("SELECT role FROM campaign_gm").fetchall()
        assert [tuple(r) for r in rows] == [("owner",)]
        assert runner.down() == ["0007_campaign_gms"]
        assert "campaign_gm" not in database.get_tables()


def test_0011_keeps_published_reports_and_campaigns_and_rolls_back(db_url: str) -> None:
    """Reports and campaigns from before 0011: no correction, no generated draft kept (written again when asked),
    no growth award; `down` drops the corrections table and the columns."""
    database = pbp_db.bind(db_url)
    with database.connection_context():
        runner = migrations.runner(database)
        names = [m.name for m in runner.migrations()]
        before = names[names.index("0011_report_corrections_growth_award") - 1]
        runner.up(target=before)
        database.execute_sql(
            "INSERT INTO campaign (slug, name, ruleset, pack_name, pack, timezone, entry_char_limit, policies,"
            " created_at, hold_share) VALUES ('c', 'c', 'pool', 'c', '{}', 'UTC', 800, '{}',"
            " '2026-01-01 00:00:00', 0.5)"
        )
        assert runner.up(target="0011_report_corrections_growth_award") == ["0011_report_corrections_growth_award"]
        assert [tuple(r) for r in database.execute_sql("SELECT growth_on_publish FROM campaign").fetchall()] == [(0,)]
        assert "report_correction" in database.get_tables()
        assert {"corrected_at", "generated_md"} <= {c.name for c in database.get_columns("report")}
        assert runner.down() == ["0011_report_corrections_growth_award"]
        assert "report_correction" not in database.get_tables()
        assert not {"corrected_at", "generated_md"} & {c.name for c in database.get_columns("report")}
        assert "growth_on_publish" not in {c.name for c in database.get_columns("campaign")}


def test_0008_files_earlier_audit_rows_under_their_campaign_and_rolls_back(db_url: str) -> None:
    """Audit rows from before 0008 get the campaign their target names (a campaign, a scenario, a round, a
    character; none for anything else); every scenario is from its pack; `down` drops both columns."""
    database = pbp_db.bind(db_url)
    with database.connection_context():
        runner = migrations.runner(database)
        runner.up(target="0007_campaign_gms")
        sql = database.execute_sql
        sql("INSERT INTO \"user\" (name, display_name, password_hash, created_at, session_version)"
            " VALUES ('g', 'g', 'x', '2026-01-01 00:00:00', 1)")  # fmt: skip
        for slug in ("a", "b"):
            sql("INSERT INTO campaign (slug, name, ruleset, pack_name, pack, timezone, entry_char_limit, policies,"
                f" created_at, hold_share) VALUES ('{slug}', 'c', 'pool', 'c', '{{}}', 'UTC', 800, '{{}}',"
                " '2026-01-01 00:00:00', 0.5)")  # fmt: skip
        sql("INSERT INTO scenario (campaign_id, slug, pack_scenario, title, kind, public_text, slots, created_at)"
            " SELECT id, 's', 's', 's', 'battle', '', 4, '2026-01-01' FROM campaign WHERE slug = 'b'")  # fmt: skip
        sql("INSERT INTO round (scenario_id, number, state, deadline, failures)"
            " SELECT id, 1, 'draft', '2026-01-02 00:00:00', 0 FROM scenario")  # fmt: skip
        ids = {
            "a": sql("SELECT id FROM campaign WHERE slug = 'a'").fetchone()[0],
            "b": sql("SELECT id FROM campaign WHERE slug = 'b'").fetchone()[0],
            "s": sql("SELECT id FROM scenario").fetchone()[0],
            "r": sql("SELECT id FROM round").fetchone()[0],
        }
        targets = [f"campaign:{ids['a']}", f"scenario:{ids['s']}", f"round:{ids['r']}", "user:1", "round:999"]
        for target in targets:
            sql("INSERT INTO audit_log (action, target, detail, at) VALUES ('x', %s, '{}', '2026-01-01 00:00:00')"
                .replace("%s", f"'{target}'"))  # fmt: skip
        assert runner.up(target="0008_scenario_source_audit_campaign") == ["0008_scenario_source_audit_campaign"]
        rows = sql("SELECT target, campaign_id FROM audit_log ORDER BY id").fetchall()
        expected = [ids["a"], ids["b"], ids["b"], None, None]
        assert [tuple(r) for r in rows] == list(zip(targets, expected, strict=True))
        assert [tuple(r) for r in sql("SELECT source FROM scenario").fetchall()] == [("pack",)]
        assert runner.down() == ["0008_scenario_source_audit_campaign"]
        assert "campaign_id" not in {c.name for c in database.get_columns("audit_log")}
        assert "source" not in {c.name for c in database.get_columns("scenario")}
