"""Scenarios, their GM-secret part (its own table, so a public query can never select it) and participations."""

from __future__ import annotations

import peewee

from pbp.models.base import BaseModel, JSONField
from pbp.models.campaigns import Campaign, Character


class Scenario(BaseModel):
    campaign = peewee.ForeignKeyField(Campaign, backref="scenarios")
    #: Unique in the campaign (URLs); the same pack scenario may run more than once (for another group).
    slug = peewee.CharField(max_length=64)
    #: The scenario's id inside the campaign pack.
    pack_scenario = peewee.CharField(max_length=64)
    title = peewee.CharField(max_length=200)
    kind = peewee.CharField(max_length=16, default="battle")  # battle | scene
    public_text = peewee.TextField(default="")
    slots = peewee.IntegerField()
    signup_deadline = peewee.DateTimeField(null=True)
    #: Set when the sign-up closed; with more sign-ups than slots, the lottery's seed (public once drawn).
    signup_closed_at = peewee.DateTimeField(null=True)
    lottery_seed = peewee.CharField(max_length=64, null=True)
    created_at = peewee.DateTimeField()
    #: pack: from the campaign pack's folder; console: created or imported in the GM's console (its entry is kept in
    #: the campaign's stored pack under `scenarios.<slug>` and carried over when the pack is upgraded).
    source = peewee.CharField(max_length=16, default="pack")

    class Meta:
        indexes = ((("campaign", "slug"), True),)


class ScenarioSecret(BaseModel):
    """What only the GM sees: notes, the pack's enemies and gimmicks, and a starting encounter if the GM set one."""

    scenario = peewee.ForeignKeyField(Scenario, backref="secret", unique=True)
    gm_notes = peewee.TextField(default="")
    #: Terms the leak check watches for whatever their length, one a line as the GM typed them
    #: (`pbp.services.secret_terms`; terms marked 【秘】…【/秘】 in the notes are watched too).
    secret_terms = peewee.TextField(default="")
    #: The pack's scenario entry (enemies, gimmicks, checks on offer).
    setup = JSONField()
    #: The encounter round 1 starts from, when the GM sets one (None: built from the pack and the joined
    #: characters). Later rounds start from the previous round's resolution, the one copy of the state.
    encounter_state = JSONField(null=True)


class Participation(BaseModel):
    scenario = peewee.ForeignKeyField(Scenario, backref="participations")
    character = peewee.ForeignKeyField(Character, backref="participations")
    status = peewee.CharField(max_length=16)  # applied | joined | waitlisted
    created_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("scenario", "character"), True),)
