"""What the site keeps for one player alone: the text of an entry being written (its draft, and text posted after
the session ended, parked until its writer logs in again) and the notices the site shows them."""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel, JSONField
from pbp.models.campaigns import Character
from pbp.models.rounds import Round


class EntryDraft(BaseModel):
    """An entry's text as last typed, autosaved while the player writes: the writer's alone and never an entry (a
    round takes only what is saved). One per character and round."""

    round = peewee.ForeignKeyField(Round, backref="drafts")
    character = peewee.ForeignKeyField(Character, backref="drafts")
    prose = peewee.TextField(default="")
    prose_en = peewee.TextField(null=True)
    saved_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "character"), True),)


class EntryWish(BaseModel):
    """What a player asks of the GM beside a round's entry (PBW habits): the PCs to act with (連携, shown to them and
    the GM), whether the GM may add to what is written (アドリブ) or have the character meet others (絡み), and a
    note to the GM. The writer's and the campaign's GMs' alone (the partners see only that they were named); never
    published, never part of the entry's receipt. One per character and round."""

    round = peewee.ForeignKeyField(Round, backref="wishes")
    character = peewee.ForeignKeyField(Character, backref="wishes")
    partners = JSONField()  # character ids
    adlib = peewee.CharField(max_length=16, default="")
    contact = peewee.CharField(max_length=16, default="")
    gm_note = peewee.TextField(default="")
    saved_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "character"), True),)


class ParkedText(BaseModel):
    """An entry's text posted when its writer's session had ended (a logout on another device): kept under a random
    token that only that browser's session holds, until the same user logs in there and it becomes the draft."""

    token = peewee.CharField(max_length=64, unique=True)
    user = peewee.ForeignKeyField(User, backref="parked_texts")
    round = peewee.ForeignKeyField(Round)
    character = peewee.ForeignKeyField(Character)
    prose = peewee.TextField(default="")
    prose_en = peewee.TextField(null=True)
    parked_at = peewee.DateTimeField(index=True)


class Notice(BaseModel):
    """One event told to one user on the site (the notice list and the header's badge): the same kinds and payload
    as the outbox's e-mail, kept whether or not any mail goes out. Unread until the user reads the list."""

    user = peewee.ForeignKeyField(User, backref="notices")
    kind = peewee.CharField(max_length=32)
    payload = JSONField()
    created_at = peewee.DateTimeField()
    read_at = peewee.DateTimeField(null=True)

    class Meta:
        indexes = ((("user", "read_at"), False),)
