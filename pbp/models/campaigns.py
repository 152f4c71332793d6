"""Campaigns (a ruleset and a loaded pack), characters and their growth requests."""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel, JSONField


class Campaign(BaseModel):
    slug = peewee.CharField(max_length=64, unique=True)
    name = peewee.CharField(max_length=120)
    ruleset = peewee.CharField(max_length=32)
    #: The parsed pack as loaded from campaigns/<pack_name>/ (frozen: a later pack edit needs a reload).
    pack_name = peewee.CharField(max_length=64)
    pack = JSONField()
    gm = peewee.ForeignKeyField(User, backref="campaigns_run", null=True)
    timezone = peewee.CharField(max_length=64, default="Asia/Tokyo")
    #: The most characters an entry's prose may have (the プレイング limit).
    entry_char_limit = peewee.IntegerField(default=800)
    #: Campaign policies (`pbp.services.rounds.POLICIES`), e.g. {"several_pcs_per_player": true}.
    policies = JSONField(default=dict)
    created_at = peewee.DateTimeField()
    #: The guard: a round with more than this share of its joined characters without an entry at its deadline is
    #: held for the GM instead of resolved.
    hold_share = peewee.FloatField(default=0.5)
    #: Where the campaign's notifications are also POSTed as JSON (a chat channel's incoming hook), None: nowhere.
    webhook_url = peewee.CharField(max_length=500, null=True)
    #: Growth points (成長点) every character with an entry in a round gets when the round is published (0: none).
    growth_on_publish = peewee.IntegerField(default=0)


class Character(BaseModel):
    campaign = peewee.ForeignKeyField(Campaign, backref="characters")
    owner = peewee.ForeignKeyField(User, backref="characters")
    name = peewee.CharField(max_length=80)
    #: The sheet the ruleset validates (stats, skills, gear, vehicle, growth points earned...); `name` is its `ja`.
    sheet = JSONField()
    alive = peewee.BooleanField(default=True)
    created_at = peewee.DateTimeField()
    updated_at = peewee.DateTimeField()


class GrowthRequest(BaseModel):
    """A 成長申請: skill raises the player asks for, pending until the campaign's GM approves or denies them.
    `before` and `after` are the sheet and the sheet asked for (on approval: the sheet it was applied to and the
    result), `cost` the growth points it spends."""

    character = peewee.ForeignKeyField(Character, backref="growth_requests")
    before = JSONField()
    after = JSONField()
    cost = peewee.IntegerField()
    note = peewee.CharField(max_length=400, default="")
    created_at = peewee.DateTimeField()
    #: pending | approved | denied (`pbp.services.characters.GROWTH_STATUSES`).
    status = peewee.CharField(max_length=16, index=True)
    decided_at = peewee.DateTimeField(null=True)
    decided_by = peewee.ForeignKeyField(User, null=True)
    #: The GM's reason, shown to the player.
    reason = peewee.CharField(max_length=400, default="")


class CampaignGM(BaseModel):
    """Who runs a campaign: its owner (the pack loader, `Campaign.gm`) and the co-GMs the owner added. Only they reach
    the campaign's GM pages and actions (`pbp.services.gms`)."""

    campaign = peewee.ForeignKeyField(Campaign, backref="gms", on_delete="CASCADE")
    user = peewee.ForeignKeyField(User, backref="campaigns_gmed")
    role = peewee.CharField(max_length=16)  # owner | co_gm
    added_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("campaign", "user"), True),)
