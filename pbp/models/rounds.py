"""Rounds and what hangs off them: entries (with revisions), the one resolution (with its history), overrides, report.

The unique constraints here are the last guard of exactly-once resolution: one resolution per round, one entry per
character per round.
"""

from __future__ import annotations

import peewee

from pbp.models.accounts import User
from pbp.models.base import BaseModel, JSONField
from pbp.models.campaigns import Character
from pbp.models.scenarios import Scenario


class Round(BaseModel):
    scenario = peewee.ForeignKeyField(Scenario, backref="rounds")
    number = peewee.IntegerField()
    state = peewee.CharField(max_length=16, default="draft", index=True)
    #: UTC, naive (every datetime column holds UTC).
    deadline = peewee.DateTimeField(index=True)
    #: Secret until published; its sha256 is shown from the moment the round opens.
    seed = peewee.CharField(max_length=64, null=True)
    seed_hash = peewee.CharField(max_length=64, null=True)
    #: The state to go back to when a hold is released.
    held_from = peewee.CharField(max_length=16, null=True)
    failures = peewee.IntegerField(default=0)
    last_error = peewee.CharField(max_length=500, null=True)
    opened_at = peewee.DateTimeField(null=True)
    closed_at = peewee.DateTimeField(null=True)
    resolved_at = peewee.DateTimeField(null=True)
    published_at = peewee.DateTimeField(null=True)
    #: When the guard held the round for missing entries: it holds a round once (the GM's release resolves it).
    guard_held_at = peewee.DateTimeField(null=True)

    class Meta:
        indexes = ((("scenario", "number"), True),)


class Reminder(BaseModel):
    """A deadline reminder sent to a user for a round, `lead` seconds before its deadline: each is sent once."""

    round = peewee.ForeignKeyField(Round, backref="reminders")
    user = peewee.ForeignKeyField(User)
    lead = peewee.IntegerField()
    sent_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "user", "lead"), True),)


class Entry(BaseModel):
    """A character's current entry in a round: its structured order (the ruleset's) and its prose."""

    round = peewee.ForeignKeyField(Round, backref="entries")
    character = peewee.ForeignKeyField(Character, backref="entries")
    order = JSONField()
    prose = peewee.TextField(default="")
    #: A bilingual player's English version of the prose (None: not written): the English story tells it instead.
    prose_en = peewee.TextField(null=True)
    receipt = peewee.CharField(max_length=64)
    saved_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "character"), True),)


class EntryRevision(BaseModel):
    """Every save and withdrawal of an entry, append-only: the full edit history."""

    round = peewee.ForeignKeyField(Round, backref="entry_revisions")
    character = peewee.ForeignKeyField(Character, backref="entry_revisions")
    action = peewee.CharField(max_length=16)  # submit | edit | withdraw
    order = JSONField(null=True)
    prose = peewee.TextField(null=True)
    prose_en = peewee.TextField(null=True)
    receipt = peewee.CharField(max_length=64)
    saved_at = peewee.DateTimeField()


class Resolution(BaseModel):
    """The round's one current resolution: exactly the inputs the engine saw and what it produced."""

    round = peewee.ForeignKeyField(Round, backref="resolution", unique=True)
    version = peewee.IntegerField(default=1)
    ruleset = peewee.CharField(max_length=32)
    encounter = JSONField()
    orders = JSONField()
    overrides = JSONField()
    events = JSONField()
    state = JSONField()
    created_at = peewee.DateTimeField()
    #: The GM's actions between rounds as applied (with their reasons) and the state before them: `encounter` is
    #: `start` after the actions (None, None: the round had no GM action, `encounter` is where it started).
    start = JSONField(null=True)
    gm_actions = JSONField(null=True)
    #: The GM's ad-hoc checks as rolled after the round (None: none), `pbp.engine.pool.adhoc`.
    adhoc_checks = JSONField(null=True)


class ResolutionVersion(BaseModel):
    """Earlier resolutions that an override replaced (append-only)."""

    round = peewee.ForeignKeyField(Round, backref="resolution_versions")
    version = peewee.IntegerField()
    overrides = JSONField()
    events = JSONField()
    state = JSONField()
    created_at = peewee.DateTimeField()
    replaced_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "version"), True),)


class Override(BaseModel):
    """A GM override of one check (R-GM-1, K-GM-1), with the reason that gets published: its new successes (pool),
    or its `result` for a ruleset whose checks end in one (kancolle; `successes` is then 0)."""

    round = peewee.ForeignKeyField(Round, backref="overrides")
    check = peewee.CharField(max_length=32)
    successes = peewee.IntegerField()
    result = peewee.CharField(max_length=16, null=True)
    reason = peewee.CharField(max_length=500)
    gm = peewee.ForeignKeyField(User, null=True)
    created_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "check"), True),)


class Report(BaseModel):
    """The story of a round: the generated draft, the GM's intro and outro around it, the Markdown as published
    and its cached, sanitised HTML (intro, story and outro in their own sections). Beside it the English story:
    the GM's own (`story_en_md`, with its HTML cached at publishing) or, while there is none, one generated from
    the facts whenever it is read."""

    round = peewee.ForeignKeyField(Round, backref="report", unique=True)
    draft_md = peewee.TextField()
    #: The draft as the narrator wrote it at resolution (what the GM's edits are compared with; None: resolved
    #: before pbp kept it, written again when asked).
    generated_md = peewee.TextField(null=True)
    intro_md = peewee.TextField(default="")
    outro_md = peewee.TextField(default="")
    published_md = peewee.TextField(null=True)
    html = peewee.TextField(null=True)
    story_en_md = peewee.TextField(null=True)
    html_en = peewee.TextField(null=True)
    updated_at = peewee.DateTimeField()
    #: When the published report was last corrected (None: never); its corrections are `ReportCorrection` rows.
    corrected_at = peewee.DateTimeField(null=True)


class ReportCorrection(BaseModel):
    """A correction of a published report: the GM's dated note, shown on the public page, and the text as it was
    before (kept, and reachable from the page). `number` counts a round's corrections from 1."""

    round = peewee.ForeignKeyField(Round, backref="corrections")
    number = peewee.IntegerField()
    note = peewee.CharField(max_length=500)
    corrected_at = peewee.DateTimeField()
    corrected_by = peewee.ForeignKeyField(User, null=True)
    #: The report as published before this correction: its Markdown, its page's HTML, its English story's HTML.
    old_md = peewee.TextField()
    old_html = peewee.TextField()
    old_html_en = peewee.TextField(null=True)

    class Meta:
        indexes = ((("round", "number"), True),)


class GmAction(BaseModel):
    """A GM action between rounds (a reinforcement, a retreat, a gauge set, a revive...), recorded for the round it
    shapes and applied, in `seq` order, to the state that round starts from; its reason is published."""

    round = peewee.ForeignKeyField(Round, backref="gm_actions")
    seq = peewee.IntegerField()
    kind = peewee.CharField(max_length=32)
    #: The engine's action without `kind` and `reason` (pbp.engine.pool.gm_actions).
    payload = JSONField()
    reason = peewee.CharField(max_length=500)
    actor = peewee.ForeignKeyField(User, null=True)
    created_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "seq"), True),)


class AdhocCheck(BaseModel):
    """A check the GM adds for a PC's creative action (issue 31, item 7), rolled after the round from its seed in
    `seq` order; its reason is published, and the story tells the success or failure text."""

    round = peewee.ForeignKeyField(Round, backref="adhoc_checks")
    seq = peewee.IntegerField()
    character = peewee.ForeignKeyField(Character)
    skill = peewee.CharField(max_length=64)
    need = peewee.IntegerField()
    reason = peewee.CharField(max_length=500)
    success_text = peewee.CharField(max_length=500, null=True)
    failure_text = peewee.CharField(max_length=500, null=True)
    actor = peewee.ForeignKeyField(User, null=True)
    created_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "seq"), True),)


class GmOrder(BaseModel):
    """The GM's order for an enemy unit in a round (without one, the default tactics act)."""

    round = peewee.ForeignKeyField(Round, backref="gm_orders")
    unit = peewee.CharField(max_length=64)
    order = JSONField()
    actor = peewee.ForeignKeyField(User, null=True)
    saved_at = peewee.DateTimeField()

    class Meta:
        indexes = ((("round", "unit"), True),)
