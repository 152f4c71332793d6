"""Names cannot pose as other names: a user's display name and a character's names that hold a control, an
invisible character or a bidi override (U+202E shows "txt.exe" as "exe.txt") are refused with a clear message
beside the field; what was typed stays in the form and nothing is stored."""

from __future__ import annotations

import pytest

from pbp import db as pbp_db
from pbp.errors import UserError
from pbp.models import Character, User
from pbp.services._common import checked_name
from pbp.web import database
from tests.security.conftest import security_app
from tests.security.forms import _version
from tests.security.test_hostile_input import client_as
from tests.web.conftest import csrf_token

DECEPTIVE = ["\u202etxt.exe", "a\u202db", "x\u2066y\u2069", "x\u200fy", "gm\u200b", "a\tb", "a\nb", "\u061cx"]
FINE = ["葵", "Aoi Kisaragi", "👨‍👩‍👧 family", "नमस्ते", "کتاب\u200cها", "Zoë"]  # joiners stay: scripts need them


@pytest.mark.parametrize("name", DECEPTIVE)
def test_a_name_with_a_hiding_or_reordering_character_is_refused(name):
    with pytest.raises(UserError, match=r"U\+[0-9A-F]{4}, a control, invisible or direction-changing") as refused:
        checked_name(name, "display name")
    assert refused.value.field == "display name"


@pytest.mark.parametrize("name", FINE)
def test_names_in_any_script_are_kept(name):
    assert checked_name(name, "name") == name


def test_the_register_form_refuses_it_beside_the_field_and_keeps_the_text(world):
    app = security_app(world)
    client = app.test_client()
    form = {"name": "mallory", "display_name": "\u202etxt.exe", "password": "a-long-password"}
    response = client.post("/register", data={**form, "csrf_token": csrf_token(client, "/register")})
    assert response.status_code == 422
    assert "U+202E" in response.text and 'value="\u202etxt.exe"' in response.text
    with pbp_db.using(database.of(app)):
        assert User.get_or_none(User.name == "mallory") is None


@pytest.mark.parametrize("field", ["ja", "en"])
def test_the_character_form_refuses_it_beside_the_field_and_changes_nothing(world, field):
    app = security_app(world)
    client = client_as(app, "player")
    with pbp_db.using(database.of(app)):
        before = Character.get_by_id(1).sheet
    form = {"ja": "葵", field: "葵\u202e", "version": _version(client), "csrf_token": csrf_token(client, "/")}
    response = client.post("/characters/1/edit", data=form)
    assert response.status_code == 422 and "U+202E" in response.text
    assert 'value="葵\u202e"' in response.text
    with pbp_db.using(database.of(app)):
        assert Character.get_by_id(1).sheet == before
