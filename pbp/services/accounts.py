"""Users: players and GMs. Passwords are stored as argon2 hashes only.

A user's `session_version` is part of every session the web app issues: logging out or changing the password bumps
it, so every copy of an earlier session cookie is refused from then on.

A forgotten password is set again by a link mailed to the account's address (`request_password_reset`): the link
carries the account and a fingerprint of its password hash, signed by the web app, so it works once (the new hash
has another fingerprint) and the web app refuses it after an hour. The site's operator can set one from the command
line (`set_password`)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Callable
from datetime import timedelta

import peewee
from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError

from pbp.db import retried, write_transaction
from pbp.errors import N_, Conflict, NotFound, UserError
from pbp.models import Outbox, User
from pbp.reports.narrative import LOCALES
from pbp.services._common import NAME_LIMIT as NAME_LIMIT  # the forms show it
from pbp.services._common import checked_name, get_or_fail, is_text, locked
from pbp.services.clock import SYSTEM, Clock, time_zones, to_db
from pbp.services.notifications import (
    ADDRESS_LIMIT,
    PASSWORD_RESET,
    checked_email,
    forget_unanswered,
    queue,
    unanswered,
)

#: `PBP_CHEAP_PASSWORD_HASHING=1` hashes new passwords with argon2's cheapest parameters: `make loadtest` makes 200
#: accounts and logs them in at once, which the default cost (about 50 ms and 64 MiB each) would turn into a test
#: of argon2. Never on a real site. A hash keeps its parameters, so checking a password costs what hashing it did.
CHEAP_HASHING = "PBP_CHEAP_PASSWORD_HASHING"
_HASHER = (
    PasswordHasher.from_parameters(profiles.CHEAPEST) if os.environ.get(CHEAP_HASHING) == "1" else PasswordHasher()
)
_NAME = re.compile(r"[A-Za-z0-9_.-]{2,40}")
PASSWORD_MIN, PASSWORD_MAX = 8, 200


@retried
def create_user(
    name: str, password: str, *, display_name: str | None = None, email: str | None = None, clock: Clock = SYSTEM
) -> User:
    """A new account; the login name is ASCII (2-40 of letters, digits, `_.-`), the display name anything, the
    e-mail address (notices, a forgotten password's link) optional."""
    problems = registration_problems(name, password, display_name=display_name, email=email)
    if problems:
        raise problems[0]
    shown = checked_name(display_name or name, N_("display name"))
    address = checked_email(email)
    taken = Conflict(N_("the user name '%(name)s' is taken", name=name), "name")
    hashed = _HASHER.hash(password)
    with write_transaction():
        if name_taken(name):  # taken while the password was hashed
            raise taken
        try:
            return User.create(
                name=name, display_name=shown, email=address, password_hash=hashed, created_at=to_db(clock.now())
            )
        except peewee.IntegrityError:  # the unique user.name: on PostgreSQL a sign-up racing this one commits first
            raise taken from None


def registration_problems(
    name: str, password: str, *, display_name: str | None = None, email: str | None = None
) -> list[UserError]:
    """Every reason `create_user` would refuse these, one per field, each naming its field: a sign-up form says
    them all at once. The user name is checked for being taken once it is a name at all; the display name only when
    one is typed (else the user name is shown, checked already)."""
    checks: list[Callable[[], object]] = [
        lambda: _check_new_name(name),
        lambda: _check_password(password, "password"),
        lambda: checked_email(email),
    ]
    if display_name:
        checks.insert(2, lambda: checked_name(display_name, N_("display name")))
    problems = []
    for check in checks:
        try:
            check()
        except UserError as refusal:
            problems.append(refusal)
    return problems


def _check_new_name(name: str) -> None:
    if not is_text(name) or not _NAME.fullmatch(name):  # fullmatch: `$` would let a trailing newline through
        raise UserError(N_("a user name is 2-40 letters, digits, '_', '.' or '-'"), "name")
    if name_taken(name):  # early, before the slow hash; asked again inside the transaction
        raise Conflict(N_("the user name '%(name)s' is taken", name=name), "name")


def name_taken(name: str) -> bool:
    """Whether an account has this login name (compared as the unique index does: exactly). None has a name that is
    not text, which PostgreSQL would refuse to even compare."""
    return is_text(name) and User.select().where(User.name == name).exists()


def login_name(typed: str) -> str | None:
    """The login name as typed in a form (spaces around it dropped), or None when no account can have it (a NUL, a
    script other than ASCII, 5,000 characters): the form's limit keys on it, so nothing unchecked is ever stored."""
    name = typed.strip()
    return name if _NAME.fullmatch(name) else None


@functools.cache
def _dummy_hash(hasher: PasswordHasher) -> str:
    """A hash of a random password with `hasher`'s parameters, made once per hasher: an unknown name is checked
    against it, so a login costs the same whether or not the name exists (its time names no accounts)."""
    return hasher.hash(secrets.token_urlsafe(32))


def authenticate(name: str, password: str) -> User | None:
    """The user when the password matches, else None (the same answer, after the same work, for an unknown name)."""
    known = login_name(name)
    user = User.get_or_none(User.name == known) if known is not None else None
    typed = password if is_text(password) else ""  # no password is empty: "" matches none
    try:
        _HASHER.verify(user.password_hash if user is not None else _dummy_hash(_HASHER), typed)
    except (VerificationError, InvalidHashError):
        return None
    return user


def _check_password(password: str, field: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX or not is_text(password):
        raise UserError(
            N_("a password has %(min)d-%(max)d characters of text", min=PASSWORD_MIN, max=PASSWORD_MAX), field
        )


@retried
def end_sessions(user_id: int) -> None:
    """Log the user out everywhere: every session issued before this call is refused from now on."""
    with write_transaction():
        locked(User, user_id, N_("user"))
        User.update(session_version=User.session_version + 1).where(User.id == user_id).execute()


@retried
def change_password(user_id: int, current: str, new: str) -> User:
    """A new password when the current one matches; every earlier session ends with it."""
    user = get_or_fail(User, user_id, N_("user"))
    if authenticate(user.name, current) is None:
        raise UserError(N_("the current password is not right"), "current_password")
    return _set_password(user_id, new)


@retried
def set_password(name: str, new: str) -> User:
    """The site operator's reset (`pbp user password`): a new password for the account `name`, no questions asked;
    every earlier session ends with it."""
    user = User.get_or_none(User.name == name) if is_text(name) else None
    if user is None:
        raise NotFound(N_("no user named %(name)r", name=str(name)[:40]))
    return _set_password(user.id, new)


def _set_password(user_id: int, new: str, *, fingerprint: str | None = None) -> User:
    """Store `new` (hashed) and end every session; with `fingerprint`, only while the hash still has it."""
    _check_password(new, "new_password")
    hashed = _HASHER.hash(new)
    with write_transaction():
        user = locked(User, user_id, N_("user"))
        if fingerprint is not None and not _fingerprint_of(user, fingerprint):
            raise UserError(N_("this link has been used already: ask for a new one"), "link")
        User.update(password_hash=hashed, session_version=User.session_version + 1).where(User.id == user_id).execute()
    return User.get_by_id(user_id)


#: The kind of the reset mail in the outbox, and how long after one another is not queued (a form sent twice, a
#: stranger asking again and again for someone's account: one mail in the inbox, not twenty).
RESET_KIND = PASSWORD_RESET
RESET_QUIET = timedelta(minutes=5)


def password_fingerprint(password_hash: str) -> str:
    """What a reset link holds of the password it replaces: it no longer matches once the password has changed."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:32]


def _fingerprint_of(user: User, fingerprint: str) -> bool:
    """Whether `fingerprint` is the user's password's now, compared in constant time (any text: a non-ASCII one
    simply does not match)."""
    return is_text(fingerprint) and hmac.compare_digest(
        password_fingerprint(user.password_hash).encode(), fingerprint.encode()
    )


@retried
def request_password_reset(who: str, link: Callable[[int, str], str], *, clock: Clock = SYSTEM) -> int:
    """Queue the reset mail (`link(user id, fingerprint)`: the web app's signed address) for the account named `who`
    (its user name, or its e-mail address: every account with it) if it has an address and was not sent one in the
    last `RESET_QUIET`. Returns how many were queued, for the tests and the log. The page says the same whatever the
    answer, and writes the same to say it, so that neither the page nor a commit's flush tells whether an account
    exists: a request that queues nothing (an unknown name, an account without an address or mailed a moment ago)
    writes its one row all the same, an unanswered one that keeps nothing of what was typed
    (`notifications.unanswered`). The lookups of an account that is mailed still take a little longer."""
    who = who.strip() if is_text(who) else ""
    if not who or len(who) > ADDRESS_LIMIT:
        return 0
    named = peewee.fn.LOWER(User.email) == who.lower() if "@" in who else User.name == who
    now = to_db(clock.now())
    queued = 0
    with write_transaction():
        forget_unanswered(RESET_KIND, now)
        for user in User.select().where(named, User.email.is_null(False)):
            recent = Outbox.select().where(
                Outbox.kind == RESET_KIND, Outbox.recipient == user.id, Outbox.created_at > now - RESET_QUIET
            )
            if recent.exists():
                continue
            queue(
                RESET_KIND,
                now,
                users=[user.id],
                name=user.name,
                link=link(user.id, password_fingerprint(user.password_hash)),
            )
            queued += 1
        if not queued:
            unanswered(RESET_KIND, now)
    return queued


def reset_usable(user_id: int, fingerprint: str) -> bool:
    """Whether a reset link for `user_id` made with `fingerprint` would still set the password (a read: the page
    says a used link is used before anyone types a password into it)."""
    user = User.get_or_none(User.id == user_id)
    return user is not None and _fingerprint_of(user, fingerprint)


@retried
def reset_password(user_id: int, fingerprint: str, new: str) -> User:
    """A new password from a reset link (the web app checked its signature and age): refused once the password has
    changed since the link was made (so a link works once); every earlier session ends."""
    return _set_password(user_id, new, fingerprint=fingerprint)


@retried
def set_timezone(user_id: int, timezone: str | None) -> User:
    """The time zone every page shows the user's times in (an IANA name), or None for each campaign's own."""
    chosen = timezone.strip() if timezone else None
    if chosen is not None and chosen not in time_zones():
        raise UserError(N_("unknown time zone '%(value)s' (e.g. Asia/Tokyo, UTC)", value=chosen[:64]), "timezone")
    with write_transaction():
        locked(User, user_id, N_("user"))
        User.update(timezone=chosen).where(User.id == user_id).execute()
    return User.get_by_id(user_id)


@retried
def set_locale(user_id: int, locale: str | None) -> User:
    """The pages' language the user chose (ja, en), or None to follow the browser's."""
    if locale is not None and locale not in LOCALES:
        raise UserError(
            N_("a language is one of %(known)s (got '%(got)s')", known=", ".join(LOCALES), got=locale), "locale"
        )
    with write_transaction():
        locked(User, user_id, N_("user"))
        User.update(locale=locale).where(User.id == user_id).execute()
    return User.get_by_id(user_id)
