"""Whatever a form receives, the answer is never a 5xx: hypothesis fills every field of every form of the index
(tests.security.forms: text, choices, numbers and boxes alike, some left out, some sent twice) with generated text,
sends it as its role with a valid CSRF token, and checks the answer (no 5xx, no redirect off the site, no active
content)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import security_app
from tests.security.forms import FORMS
from tests.security.test_hostile_input import Sender

#: A concrete name for each `prefix*` field of the index (the demo pack's).
CONCRETE = {"stats.*": "stats.肉体", "skills.*": "skills.射撃", "kind_*": "kind_round_opened"}
VALUES = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    st.sampled_from(["", "0", "-1", "1e9", "approve", "deny", "preview", "attack", "beam_rifle", "kagachi1", "ja"]),
    st.integers(-(2**70), 2**70).map(str),
)


def _fields(form) -> list[str]:
    return [CONCRETE.get(name, name) for name in (*form.text, *form.other)]


KEYS = [key for key, form in FORMS.items() if _fields(form)]


@pytest.mark.parametrize("key", KEYS, ids=[f"{m} {rule}" for rule, m in KEYS])
def test_generated_form_input_never_gets_a_5xx(world, key):
    form = FORMS[key]
    sender = Sender(security_app(world), form)
    names = _fields(form)

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.dictionaries(st.sampled_from(names), VALUES, min_size=1))
    def check(values: dict[str, str]) -> None:
        field, *_ = values
        found = sender.send({k: v for k, v in values.items() if k != field}, (field,), values[field])
        assert not found, found

    check()


@pytest.mark.parametrize("action", ["join", "leave"])
def test_a_character_id_beyond_any_row_is_no_character_not_a_crash(world, action):
    """Found by the test above: 2**63 overflowed the query's integer (a 500)."""
    sender = Sender(
        security_app(world), FORMS[(f"/campaigns/<slug:campaign>/scenarios/<slug:scenario>/{action}", "POST")]
    )
    response = sender.client.post(sender.form.url, data={"character": str(2**63), "csrf_token": sender.token})
    assert response.status_code == 404 and "キャラクター 9223372036854775808 は見つかりません" in response.text
