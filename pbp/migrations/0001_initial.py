"""The first schema: every table of pbp 0.1 (frozen copies of the models as they were, on purpose independent of
pbp.models, so later model changes never rewrite history)."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class User(Model):
        name = CharField(unique=True, max_length=40)
        display_name = CharField(max_length=80)
        password_hash = CharField(max_length=200)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "user"

    db.create_tables([User])

    class AuditLog(Model):
        actor = ForeignKeyField(User, null=True)
        action = CharField(max_length=32)
        target = CharField(max_length=64)
        detail = JSONField(default=dict)
        at = DateTimeField(index=True)

        class Meta:
            database = db
            table_name = "audit_log"

    db.create_tables([AuditLog])

    class Campaign(Model):
        slug = CharField(unique=True, max_length=64)
        name = CharField(max_length=120)
        ruleset = CharField(max_length=32)
        pack_name = CharField(max_length=64)
        pack = JSONField()
        gm = ForeignKeyField(User, null=True)
        timezone = CharField(max_length=64, default="Asia/Tokyo")
        entry_char_limit = IntegerField(default=800)
        policies = JSONField(default=dict)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "campaign"

    db.create_tables([Campaign])

    class Character(Model):
        campaign = ForeignKeyField(Campaign)
        owner = ForeignKeyField(User)
        name = CharField(max_length=80)
        sheet = JSONField()
        alive = BooleanField(default=True)
        created_at = DateTimeField()
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "character"

    db.create_tables([Character])

    class Scenario(Model):
        campaign = ForeignKeyField(Campaign)
        slug = CharField(max_length=64)
        pack_scenario = CharField(max_length=64)
        title = CharField(max_length=200)
        kind = CharField(max_length=16, default="battle")
        public_text = TextField(default="")
        slots = IntegerField()
        signup_deadline = DateTimeField(null=True)
        signup_closed_at = DateTimeField(null=True)
        lottery_seed = CharField(null=True, max_length=64)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "scenario"
            indexes = ((("campaign", "slug"), True),)

    db.create_tables([Scenario])

    class Round(Model):
        scenario = ForeignKeyField(Scenario)
        number = IntegerField()
        state = CharField(index=True, max_length=16, default="draft")
        deadline = DateTimeField(index=True)
        seed = CharField(null=True, max_length=64)
        seed_hash = CharField(null=True, max_length=64)
        held_from = CharField(null=True, max_length=16)
        failures = IntegerField(default=0)
        last_error = CharField(null=True, max_length=500)
        opened_at = DateTimeField(null=True)
        closed_at = DateTimeField(null=True)
        resolved_at = DateTimeField(null=True)
        published_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "round"
            indexes = ((("scenario", "number"), True),)

    db.create_tables([Round])

    class Entry(Model):
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        order = JSONField()
        prose = TextField(default="")
        receipt = CharField(max_length=64)
        saved_at = DateTimeField()

        class Meta:
            database = db
            table_name = "entry"
            indexes = ((("round", "character"), True),)

    db.create_tables([Entry])

    class EntryRevision(Model):
        round = ForeignKeyField(Round)
        character = ForeignKeyField(Character)
        action = CharField(max_length=16)
        order = JSONField(null=True)
        prose = TextField(null=True)
        receipt = CharField(max_length=64)
        saved_at = DateTimeField()

        class Meta:
            database = db
            table_name = "entry_revision"

    db.create_tables([EntryRevision])

    class GrowthRequest(Model):
        character = ForeignKeyField(Character)
        before = JSONField()
        after = JSONField()
        cost = IntegerField()
        note = CharField(max_length=400, default="")
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "growth_request"

    db.create_tables([GrowthRequest])

    class Outbox(Model):
        recipient = ForeignKeyField(User)
        kind = CharField(max_length=32)
        payload = JSONField()
        created_at = DateTimeField()
        sent_at = DateTimeField(index=True, null=True)

        class Meta:
            database = db
            table_name = "outbox"

    db.create_tables([Outbox])

    class Override(Model):
        round = ForeignKeyField(Round)
        check = CharField(max_length=32)
        successes = IntegerField()
        reason = CharField(max_length=500)
        gm = ForeignKeyField(User, null=True)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "override"
            indexes = ((("round", "check"), True),)

    db.create_tables([Override])

    class Participation(Model):
        scenario = ForeignKeyField(Scenario)
        character = ForeignKeyField(Character)
        status = CharField(max_length=16)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "participation"
            indexes = ((("scenario", "character"), True),)

    db.create_tables([Participation])

    class Report(Model):
        round = ForeignKeyField(Round, unique=True)
        draft_md = TextField()
        published_md = TextField(null=True)
        html = TextField(null=True)
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "report"

    db.create_tables([Report])

    class Resolution(Model):
        round = ForeignKeyField(Round, unique=True)
        version = IntegerField(default=1)
        ruleset = CharField(max_length=32)
        encounter = JSONField()
        orders = JSONField()
        overrides = JSONField()
        events = JSONField()
        state = JSONField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "resolution"

    db.create_tables([Resolution])

    class ResolutionVersion(Model):
        round = ForeignKeyField(Round)
        version = IntegerField()
        overrides = JSONField()
        events = JSONField()
        state = JSONField()
        created_at = DateTimeField()
        replaced_at = DateTimeField()

        class Meta:
            database = db
            table_name = "resolution_version"
            indexes = ((("round", "version"), True),)

    db.create_tables([ResolutionVersion])

    class ScenarioSecret(Model):
        scenario = ForeignKeyField(Scenario, unique=True)
        gm_notes = TextField(default="")
        setup = JSONField()
        encounter_state = JSONField(null=True)

        class Meta:
            database = db
            table_name = "scenario_secret"

    db.create_tables([ScenarioSecret])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("scenario_secret"))
    migrator.migrate(migrator.drop_table("resolution_version"))
    migrator.migrate(migrator.drop_table("resolution"))
    migrator.migrate(migrator.drop_table("report"))
    migrator.migrate(migrator.drop_table("participation"))
    migrator.migrate(migrator.drop_table("override"))
    migrator.migrate(migrator.drop_table("outbox"))
    migrator.migrate(migrator.drop_table("growth_request"))
    migrator.migrate(migrator.drop_table("entry_revision"))
    migrator.migrate(migrator.drop_table("entry"))
    migrator.migrate(migrator.drop_table("round"))
    migrator.migrate(migrator.drop_table("scenario"))
    migrator.migrate(migrator.drop_table("character"))
    migrator.migrate(migrator.drop_table("campaign"))
    migrator.migrate(migrator.drop_table("audit_log"))
    migrator.migrate(migrator.drop_table("user"))
