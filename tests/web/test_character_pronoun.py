"""The character form's English pronoun (issue 29): a select of she / he / they, `they` unless the sheet (or the
ready-made character it was copied from) says otherwise, saved on the sheet, shown again on a refused save and on
the character's public page."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp.models import Character
from tests.web.conftest import make_app
from tests.web.test_characters import HARU, NEW, error_at, in_app, page, post, signed_in
from tests.web.world import World, build_world

LABEL = {"ja": "英語の代名詞（英語版の報告書で使います）", "en": "Pronoun in English stories"}
SHOWN = {"ja": {"she": "she（彼女）", "he": "he（彼）", "they": "they（性別を限定しない）"},
         "en": {"she": "she (her)", "he": "he (him)", "they": "they (them)"}}  # fmt: skip


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """One published round (so the characters have a public page); each test creates characters of its own."""
    url = f"sqlite:///{tmp_path_factory.mktemp('pronoun') / 'pbp.sqlite3'}"
    return build_world(url, published=1, open_after=False)


@pytest.fixture(scope="module")
def app(world: World) -> Flask:
    return make_app(world.url, LOGIN_RATE_LIMIT="1000 per minute")


def choices(html: str) -> tuple[list[tuple[str, str]], str | None]:
    """The pronoun select's options (value, text) and the selected value."""
    select = re.search(r'<select id="pronoun" name="pronoun"[^>]*>(.*?)</select>', html, re.S)
    assert select, "no pronoun select"
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select[1])
    picked = [value for value, on, _text in options if on]
    assert len(picked) <= 1
    return [(value, unescape(text)) for value, _on, text in options], (picked or [None])[0]


def create(app: Flask, client: FlaskClient, name: str, **changes: str) -> Character:
    status, html, _ = post(client, NEW, {**HARU, "ja": name, "en": "", **changes})
    assert status == 303, error_at(html, "form") if 'id="err-form"' in html else html[:200]
    return in_app(app, lambda: Character.get(Character.name == name))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_new_characters_form_offers_she_he_they_with_they_chosen(app, lang) -> None:
    html = page(signed_in(app, lang=lang), NEW)
    assert f'<label for="pronoun">{LABEL[lang]}</label>' in html
    options, picked = choices(html)
    assert options == [(p, SHOWN[lang][p]) for p in ("she", "he", "they")]
    assert picked == "they"


@pytest.mark.parametrize("pronoun", ["she", "he", "they"])
def test_the_chosen_pronoun_is_saved_on_the_sheet_and_shown_again(app, pronoun) -> None:
    client = signed_in(app)
    created = create(app, client, f"春{pronoun}", pronoun=pronoun)
    assert created.sheet["pronoun"] == pronoun  # `they` too: a choice, not a blank
    assert choices(page(client, f"/characters/{created.id}/edit"))[1] == pronoun


def test_a_save_refused_for_another_field_keeps_the_chosen_pronoun(app) -> None:
    before = in_app(app, Character.select().count)
    status, html, _ = post(signed_in(app), NEW, {**HARU, "ja": "夏", "skills.射撃": "6", "pronoun": "he"})
    assert status == 422 and in_app(app, Character.select().count) == before
    assert choices(html)[1] == "he"


@pytest.mark.parametrize(
    ("lang", "said"),
    [("ja", "'it'は選べる値（she, he, they）のいずれでもありません"), ("en", "'it' is not one of she, he, they")],
)
def test_a_value_not_offered_is_refused_beside_the_select(app, lang, said) -> None:
    status, html, _ = post(signed_in(app, lang=lang), NEW, {**HARU, "ja": "秋", "pronoun": "it"})
    assert status == 422
    assert said in error_at(html, "pronoun")
    assert 'aria-describedby="err-pronoun"' in html
    assert choices(html)[1] == "they"  # never an option that is not one


def test_an_edit_changes_it_and_a_form_without_the_select_keeps_it(app) -> None:
    client = signed_in(app)
    created = create(app, client, "冬", pronoun="she")
    edit = f"/characters/{created.id}/edit"
    texts = {"ja": "冬", "vehicle": "savior", "weapons": "pistol", "vehicle_weapons": "autocannon",
             "items": ["charm", "tablet"], "abilities": "focus"}  # fmt: skip
    assert post(client, edit, {**texts, "pronoun": "he", "version": _version(client, edit)})[0] == 303
    assert in_app(app, lambda: Character.get_by_id(created.id).sheet["pronoun"]) == "he"
    assert post(client, edit, {**texts, "version": _version(client, edit)})[0] == 303  # a page from before
    assert in_app(app, lambda: Character.get_by_id(created.id).sheet["pronoun"]) == "he"


def test_a_ready_made_characters_copy_shows_the_packs(app, world) -> None:
    html = page(signed_in(app, "player2"), f"/characters/{world.characters['makoto']}/edit")
    assert choices(html)[1] == "he"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_characters_public_page_says_it_beside_the_sheet(app, world, lang) -> None:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    html = unescape(page(client, f"/blog/demo/characters/{world.characters['aoi']}/"))
    sheet = html.split('<section class="sheet">')[1].split("</section>")[0]
    assert f"<dt>{LABEL[lang]}</dt><dd>{SHOWN[lang]['she']}</dd>" in sheet


def _version(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="version" type="hidden" value="([^"]*)"|type="hidden" name="version" value="([^"]*)"',
                      page(client, path))  # fmt: skip
    assert found
    return found[1] or found[2]
