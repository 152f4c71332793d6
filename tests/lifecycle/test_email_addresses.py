"""E-mail addresses are checked by a maintained library (`email-validator`, with no DNS look-up) where one is set
(issue 33: the old check took `a@b.c@d`-like strings). What is decided here:

- `a@b` is refused: a domain of one label delivers nowhere on the Internet;
- `a@@b.jp`, `a b@c.jp`, `@b.jp`, `a@b..jp`, `a@-b.jp` are refused: not addresses;
- `user@例え.jp` is taken and stored with its domain in ASCII (`user@xn--r8jz45g.jp`), which every mail server
  delivers to; a local part outside ASCII (`ユーザー@例え.jp`) is refused, since it needs SMTPUTF8 from every server
  on the way;
- the domain is stored in lower case (it is case-blind); the local part is kept as typed.
"""

from __future__ import annotations

import pytest

from pbp.errors import UserError
from pbp.models import User
from pbp.services import accounts, notifications


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("p1@example.org", "p1@example.org"),
        (" p2@example.org ", "p2@example.org"),
        ("P1@Example.ORG", "P1@example.org"),
        ("first.last+pbp@mail.example.co.jp", "first.last+pbp@mail.example.co.jp"),
        ("user@例え.jp", "user@" + "例え.jp".encode("idna").decode("ascii")),
        ("", None),
        (None, None),
    ],
)
def test_an_address_is_stored_normalised(typed, stored):
    assert notifications.checked_email(typed) == stored


BAD = [
    "a@b",
    "a@@b.jp",
    "a b@c.jp",
    "@b.jp",
    "a@",
    "a@b..jp",
    "a@-b.jp",
    "ユーザー@例え.jp",
    "a@b.jp\u202e",
    "<a@b.jp>",
]


@pytest.mark.parametrize("typed", BAD)
def test_a_bad_address_is_refused_with_the_field_named(typed):
    with pytest.raises(UserError, match="not an e-mail address") as refused:
        notifications.checked_email(typed)
    assert refused.value.field == "email"


def test_an_overlong_address_is_refused_not_cut():
    with pytest.raises(UserError, match="not an e-mail address"):
        notifications.checked_email("a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 63 + ".jp")


@pytest.mark.parametrize("typed", ["a@b", "a@@b.jp"])
def test_set_email_and_registration_refuse_a_bad_address_and_store_nothing(db, clock, typed):
    user = accounts.create_user("someone", "a-long-password", email="ok@example.org", clock=clock)
    with pytest.raises(UserError):
        notifications.set_email(user.id, typed)
    assert User.get_by_id(user.id).email == "ok@example.org"
    with pytest.raises(UserError):
        accounts.create_user("another", "a-long-password", email=typed, clock=clock)
    assert not User.select().where(User.name == "another").exists()
