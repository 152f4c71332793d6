"""Accounts: players and GMs are both users; the password hash is argon2 (argon2-cffi)."""

from __future__ import annotations

import peewee

from pbp.models.base import BaseModel


class User(BaseModel):
    name = peewee.CharField(max_length=40, unique=True)
    display_name = peewee.CharField(max_length=80)
    password_hash = peewee.CharField(max_length=200)
    created_at = peewee.DateTimeField()
    #: Carried by every session cookie of this user; logging out or changing the password bumps it, which ends every
    #: copy of the old cookie.
    session_version = peewee.IntegerField(default=1)
    #: The pages' language the user chose (ja, en), None: the browser's.
    locale = peewee.CharField(max_length=8, null=True)
    #: The time zone the pages show every time in (an IANA name, `Europe/London`), None: each campaign's own.
    timezone = peewee.CharField(max_length=64, null=True)
    #: Where notifications go by e-mail (None: nowhere).
    email = peewee.CharField(max_length=254, null=True)
