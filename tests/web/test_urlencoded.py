"""Form bodies read by pbp.web.urlencoded: the standard library's pairs, pair for pair, for any body; and the app's
requests read their forms through it."""

from __future__ import annotations

import urllib.parse
from unittest import mock

import werkzeug.urls  # noqa: F401 - registers the error handler the stock parse is given
from flask import Flask, request
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from pbp.web import urlencoded

#: What a body may hold, weighted toward what parsing turns on: escapes (valid, cut short, not hex, bytes that are
#: no UTF-8), `+`, the separators, non-ASCII characters sent raw.
PIECES = st.one_of(
    st.sampled_from(
        [
            "%",
            "%E3%81%82",
            "%E3%81",
            "%FF",
            "%zz",
            "%4",
            "%41",
            "%2B",
            "%26",
            "%3D",
            "+",
            "&",
            "=",
            "あ",
            "é",
            "\x00",
            "\x7f",
            "a",
            "Z",
            "9",
            "f",
            " ",
        ]
    ),  # fmt: skip
    st.text(max_size=4),
)
NO_SURROGATES = st.characters(exclude_categories=("Cs",))


def stock(body: str) -> list[tuple[str, str]]:
    return urllib.parse.parse_qsl(body, keep_blank_values=True, errors=urlencoded.ERRORS)


@given(st.lists(PIECES, max_size=30).map("".join))
def test_any_body_gives_the_standard_librarys_pairs(body: str) -> None:
    assert urlencoded.parse_qsl(body) == stock(body)


@given(st.lists(st.tuples(st.text(NO_SURROGATES), st.text(NO_SURROGATES)), max_size=6))
def test_what_a_browser_encodes_comes_back_as_it_was(pairs: list[tuple[str, str]]) -> None:
    assert urlencoded.parse_qsl(urllib.parse.urlencode(pairs)) == pairs


def test_a_request_reads_its_form_through_the_fast_parser(app: Flask) -> None:
    prose = "川霧の向こう、先頭の敵に照準を合わせる。「……外さない」" * 70
    form = {"prose": prose, "major-type": "attack"}
    with (
        mock.patch.object(urlencoded, "parse_qsl", wraps=urlencoded.parse_qsl) as parse,
        app.test_request_context("/", method="POST", data=form),
    ):
        assert request.form.to_dict() == form
    parse.assert_called_once()


def test_a_body_that_is_not_utf8_is_an_empty_form_refused_by_its_token(client: FlaskClient) -> None:
    response = client.post("/login", data=b"name=\xff\xfe&password=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
