"""Campaign GMs: a campaign's owner and co-GMs. Every campaign's existing GM becomes its owner."""

# ruff: noqa: F403, F405
from peewee import *


def up(migrator, db):
    class User(Model):
        class Meta:
            database = db
            table_name = "user"

    class Campaign(Model):
        created_at = DateTimeField()
        gm = ForeignKeyField(User, null=True)

        class Meta:
            database = db
            table_name = "campaign"

    class CampaignGM(Model):
        campaign = ForeignKeyField(Campaign, on_delete="CASCADE")
        user = ForeignKeyField(User)
        role = CharField(max_length=16)
        added_at = DateTimeField()

        class Meta:
            database = db
            table_name = "campaign_gm"
            indexes = ((("campaign", "user"), True),)

    db.create_tables([CampaignGM])
    owners = Campaign.select(Campaign.id, Campaign.gm, Campaign.created_at).where(Campaign.gm.is_null(False))
    for campaign in owners:
        CampaignGM.create(campaign=campaign.id, user=campaign.gm_id, role="owner", added_at=campaign.created_at)


def down(migrator, db):
    migrator.migrate(migrator.drop_table("campaign_gm"))
