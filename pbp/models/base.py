"""The base model: every table binds to `pbp.db.database` (a proxy), so models import without Flask or a connection.

Models hold columns and constraints only; what may change and when is the services' business.
"""

from __future__ import annotations

import peewee

from pbp.db import database
from pbp.engine import canonical


class JSONField(peewee.JSONField):
    """JSON stored in the canonical form (sorted keys, UTF-8), so the same value is always the same text."""

    def __init__(self, **kwargs: object):
        super().__init__(dumps=canonical.dumps, **kwargs)


class BaseModel(peewee.Model):
    class Meta:
        database = database
        legacy_table_names = False
