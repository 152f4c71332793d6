"""What passes between the GM and the players beside the story: a character's icon, the GM's comment on each
character under a round's story (マスターコメント), and the private note thread between the GM and one player of a
scenario."""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel
from pbp.models.campaigns import Character
from pbp.models.rounds import Round
from pbp.models.scenarios import Scenario


class CharacterIcon(BaseModel):
    """A character's icon as the site made it from the upload (`pbp.services.icons`: re-encoded, metadata gone), in
    the database beside the sheet: a backup, a second web worker and a move to another host all have it."""

    character = peewee.ForeignKeyField(Character, backref="icon", unique=True, on_delete="CASCADE")
    image = peewee.BlobField()
    #: A digest of `image`: its address's version (cached for good by browsers) and its ETag.
    digest = peewee.CharField(max_length=32)
    updated_at = peewee.DateTimeField()


class MasterComment(BaseModel):
    """The GM's comment on one character of a round (Markdown), published under the story with the report;
    `text_en` the GM's English (None: the English page shows the Japanese as the GM's original)."""

    round = peewee.ForeignKeyField(Round, backref="master_comments")
    character = peewee.ForeignKeyField(Character, backref="master_comments")
    text = peewee.TextField(default="")
    text_en = peewee.TextField(null=True)
    updated_at = peewee.DateTimeField()
    updated_by = peewee.ForeignKeyField(User, null=True)

    class Meta:
        indexes = ((("round", "character"), True),)


class ScenarioNote(BaseModel):
    """One message of the private thread between a scenario's GMs and one of its players (`player`): read by that
    player and the campaign's GMs only, never published."""

    scenario = peewee.ForeignKeyField(Scenario, backref="notes")
    player = peewee.ForeignKeyField(User, backref="scenario_notes")
    author = peewee.ForeignKeyField(User)
    body = peewee.TextField()
    created_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("scenario", "player"), False),)
