"""Users: players and GMs. Passwords are stored as argon2 hashes only."""

from __future__ import annotations

import re

import peewee
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pbp.db import retried, write_transaction
from pbp.errors import UserError
from pbp.models import User
from pbp.services._common import NAME_LIMIT, checked_text, is_text
from pbp.services.clock import SYSTEM, Clock, to_db

_HASHER = PasswordHasher()
_NAME = re.compile(r"[A-Za-z0-9_.-]{2,40}")
PASSWORD_MIN, PASSWORD_MAX = 8, 200


@retried
def create_user(name: str, password: str, *, display_name: str | None = None, clock: Clock = SYSTEM) -> User:
    """A new account; the login name is ASCII (2-40 of letters, digits, `_.-`), the display name anything."""
    if not _NAME.fullmatch(name):  # fullmatch: `$` would let a trailing newline through ("gm\n")
        raise UserError("a user name is 2-40 letters, digits, '_', '.' or '-'", "name")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX or not is_text(password):
        raise UserError(f"a password has {PASSWORD_MIN}-{PASSWORD_MAX} characters of text", "password")
    shown = checked_text(display_name or name, "display name", NAME_LIMIT)
    taken = UserError(f"the user name {name!r} is taken", "name")
    if name_taken(name):  # early, before the slow hash; asked again inside the transaction
        raise taken
    hashed = _HASHER.hash(password)
    with write_transaction():
        if name_taken(name):  # taken while the password was hashed
            raise taken
        try:
            return User.create(name=name, display_name=shown, password_hash=hashed, created_at=to_db(clock.now()))
        except peewee.IntegrityError:  # the unique user.name: on PostgreSQL a sign-up racing this one commits first
            raise taken from None


def name_taken(name: str) -> bool:
    """Whether an account has this login name (compared as the unique index does: exactly)."""
    return User.select().where(User.name == name).exists()


def authenticate(name: str, password: str) -> User | None:
    """The user when the password matches, else None (the same answer for an unknown name)."""
    user = User.get_or_none(User.name == name)
    if user is None or not is_text(password):
        return None
    try:
        _HASHER.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return None
    return user
