"""Wrong types where a form takes text (issue 33): a 40-digit number, a file upload and a JSON body, sent to every
field of every POST form of the index (tests.security.forms) as its role with a valid CSRF token. None is a 5xx; a
file or a JSON value is refused (400/422), and on the GM's forms the refusal stands beside the field it was sent
for. (Before the fix WTForms' validators met a `FileStorage` or an `int` and answered 500.)"""

from __future__ import annotations

import io
import json

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from pbp.web.forms import SiteForm
from tests.security.conftest import security_app
from tests.security.forms import FORMS
from tests.security.test_hostile_input import Sender

#: A concrete name for each `prefix*` field of the index (the demo pack's, and a row of each scenario form list).
CONCRETE = {
    "stats.*": "stats.肉体",
    "skills.*": "skills.射撃",
    "kind_*": "kind_round_opened",
    "taken_*": "taken_0",
    "enemies-*": "enemies-0-x",
    "terrain-*": "terrain-0-x1",
    "gimmicks-*": "gimmicks-0-x1",
    "effects-*": "effects-0-value",
    "checks-*": "checks-0-need",
}
POSTS = [key for key, form in FORMS.items() if form.method == "POST" and (form.text or form.other)]
GM_POSTS = [key for key in POSTS if FORMS[key].role == "GM"]
NOT_TEXT_JA = "ここには文字を入力してください（ファイルやJSONの値は受け付けません）。"
FORTY_DIGITS = "9" * 40


def _names(key: tuple[str, str]) -> list[str]:
    form = FORMS[key]
    return [CONCRETE.get(name, name) for name in (*form.text, *form.other)]


def _base(sender: Sender) -> dict[str, str]:
    return {name: sender.value(v) for name, v in sender.form.bases[0].items()}


def _file_to(sender: Sender, name: str) -> TestResponse:
    data: dict[str, object] = {**_base(sender), name: (io.BytesIO(b"x = 1\n"), "a.txt"), "csrf_token": sender.token}
    return sender.client.post(sender.value(sender.form.url), data=data, content_type="multipart/form-data")


def _json(client: FlaskClient, url: str, token: str, body: object) -> TestResponse:
    return client.post(url, data=json.dumps(body), content_type="application/json", headers={"X-CSRFToken": token})


@pytest.mark.parametrize("key", POSTS, ids=[rule for rule, _m in POSTS])
def test_a_forty_digit_number_in_any_field_is_never_a_5xx(world, key):
    sender = Sender(security_app(world), FORMS[key])
    found = []
    for name in _names(key):
        response = sender.client.post(
            sender.value(sender.form.url), data={**_base(sender), name: FORTY_DIGITS, "csrf_token": sender.token}
        )
        if response.status_code >= 500:
            found.append(f"{name}: {response.status_code}")
    assert not found


@pytest.mark.parametrize("key", POSTS, ids=[rule for rule, _m in POSTS])
def test_a_file_where_a_field_takes_text_is_never_a_5xx_and_refused_by_the_gm_forms(world, key):
    """The player's forms read by hand (the entry, the sheet) take a file as no value at all: not refused, no 5xx."""
    sender = Sender(security_app(world), FORMS[key])
    refused = (400, 422) if key in GM_POSTS else range(200, 500)
    found = []
    for name in _names(key):
        if name == "file":  # the import form's upload: a file is what it takes
            continue
        status = _file_to(sender, name).status_code
        if status not in refused:
            found.append(f"{name}: {status}")
    assert not found


@pytest.mark.parametrize("key", POSTS, ids=[rule for rule, _m in POSTS])
def test_a_json_body_is_refused_not_a_5xx(world, key):
    """A JSON object naming the form's fields, a JSON list and a JSON string: none is a form."""
    sender = Sender(security_app(world), FORMS[key])
    url = sender.value(sender.form.url)
    fields = dict.fromkeys(_names(key), 12)
    for body in ({**_base(sender), **fields}, [1, 2], "text"):
        status = _json(sender.client, url, sender.token, body).status_code
        assert status in (400, 422), (body, status)


#: The round dashboard shows the reason's field with the button that needs it.
BUTTON = {"/gm/<slug:campaign>/rounds/<row:round_id>/": {"action": "hold"}}


@pytest.mark.parametrize("key", GM_POSTS, ids=[rule for rule, _m in GM_POSTS])
def test_on_the_gm_forms_the_refusal_stands_beside_the_text_field(world, key):
    sender = Sender(security_app(world), FORMS[key])
    for name in FORMS[key].text:
        data: dict[str, object] = {**_base(sender), **BUTTON.get(key[0], {}), "csrf_token": sender.token}
        data[name] = (io.BytesIO(b"x"), "a.txt")
        response = sender.client.post(sender.value(sender.form.url), data=data, content_type="multipart/form-data")
        assert response.status_code == 422, name
        page = response.get_data(as_text=True)
        assert NOT_TEXT_JA in page, name
        before = page[: page.rindex(NOT_TEXT_JA)]
        assert f'name="{name}"' in before[-3000:], f"{name}: the message is not beside its field"


@pytest.mark.parametrize("name", ["enemies", "enemies-0", "checks-1"])
def test_a_file_named_as_a_list_or_a_row_of_the_scenario_form_is_refused_above_it(world, name):
    """Found by the fuzz suite: a list or a row has no value of its own to put the message beside."""
    sender = Sender(security_app(world), FORMS[("/gm/<slug:campaign>/scenarios/new", "POST")])
    response = _file_to(sender, name)
    assert response.status_code == 422 and NOT_TEXT_JA in response.get_data(as_text=True)


def test_a_file_for_the_import_forms_upload_is_still_read(world):
    sender = Sender(security_app(world), FORMS[("/gm/<slug:campaign>/scenarios/import", "POST")])
    page = _file_to(sender, "file").get_data(as_text=True)
    assert NOT_TEXT_JA not in page and "x" in page  # the upload reached the TOML checks (a table, not a scenario)


def test_every_form_of_the_site_reads_text_only():
    """Every Flask-WTF form of the app derives from `SiteForm`, so a new form cannot forget the check."""
    from flask_wtf import FlaskForm

    import pbp.web
    from pbp.web import blog, data, gm, notify, player  # noqa: F401 - the forms are defined on import

    def subclasses(cls: type) -> list[type]:
        return [cls, *(s for sub in cls.__subclasses__() for s in subclasses(sub))]

    ours = [c for c in subclasses(FlaskForm) if c.__module__.startswith(pbp.web.__name__)]
    assert ours and all(issubclass(c, SiteForm) for c in ours), [c for c in ours if not issubclass(c, SiteForm)]
