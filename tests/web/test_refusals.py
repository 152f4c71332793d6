"""A service's refusal on a page speaks the reader's language, its numbers and names put in (`pbp.errors.N_`,
`pbp.web.i18n.localized`), while the CLI keeps the English line (tests/lifecycle/test_cli.py); every refusal the
code marks has its Japanese in the compiled catalog, and none is raised as bare English a page could not translate."""

from __future__ import annotations

import ast
import gettext
from datetime import timedelta
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from flask import Flask

from pbp import db as pbp_db
from pbp.engine import Problem
from pbp.errors import N_, Text
from pbp.paths import PROJECT_ROOT
from pbp.services import rounds
from pbp.services._common import order_refusal
from pbp.services.clock import FixedClock
from pbp.web import database
from pbp.web.i18n import TRANSLATIONS_DIR, localized
from tests.web.conftest import csrf_token, signed_in
from tests.web.world import START, World, build_world

JA_MO = TRANSLATIONS_DIR / "ja" / "LC_MESSAGES" / "messages.mo"
#: build_world's open round opens at START + 2 days and closes 12 hours later.
WRITING = START + timedelta(days=2, hours=1)


@pytest.fixture
def fresh(tmp_path: Path) -> World:
    """A world of its own: a test here closes a round."""
    return build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")


def _client(app: Flask, lang: str):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "表示名に制御文字・不可視文字・文字の向きを変える文字（U+202E）が含まれています。"),
        ("en", "display name holds U+202E, a control, invisible or direction-changing character: type the name"),
    ],
    ids=["ja", "en"],
)
def test_a_display_name_the_service_refuses_is_explained_in_the_pages_language(app, lang, said) -> None:
    """The field's label is a parameter translated with the sentence; the character's code stays as it is."""
    client = _client(app, lang)
    data = {"name": f"mallory-{lang}", "display_name": "txt\u202eexe", "password": "a-long-password"}
    response = client.post("/register", data={**data, "csrf_token": csrf_token(client, "/register")})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and said in page and 'value="mallory-' in page


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "このラウンドは現在プレイングを受け付けていません。"),
        ("en", "This round is not taking entries."),
    ],
    ids=["ja", "en"],
)
def test_a_save_to_a_closed_round_is_refused_in_the_pages_language(fresh: World, lang, said) -> None:
    """The late page says so in the page's language, never by the round's database id (issue 30: 「ラウンド3は判定済み
    です」 named a row); the text typed is kept."""
    client = signed_in(fresh.url, "player1", lang=lang, CLOCK=FixedClock(WRITING))
    with pbp_db.using(database.of(client.application)):
        rounds.close_round(fresh.open_round, clock=FixedClock(WRITING))
    path = f"/rounds/{fresh.open_round}/entry/{fresh.characters['aoi']}"
    data = {"csrf_token": csrf_token(client, path), "prose": "閉じた後の一文", "minor": "", "major": ""}
    response = client.post(path, data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "閉じた後の一文" in page
    notice = page.split('<p class="notice closed" role="alert">', 1)[1].split("</p>", 1)[0]
    assert said in notice and str(fresh.open_round) not in notice


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "ラウンド1は公開済みです。受付を開始できるのは下書きのラウンドだけです（シードは一度だけ引きます）。"),
        ("en", "round 1 is published: only a draft round opens (its seed is drawn once)"),
    ],
    ids=["ja", "en"],
)
def test_a_gm_refused_by_the_round_lifecycle_reads_it_in_the_pages_language(world: World, lang, said) -> None:
    client = signed_in(world.url, "gm", lang=lang)
    path = "/gm/demo/rounds/1/"
    response = client.post(path, data={"csrf_token": csrf_token(client, path), "action": "open"})
    assert response.status_code == 409 and said in response.get_data(as_text=True)


def test_a_text_is_its_english_and_keeps_what_a_page_translates(app: Flask) -> None:
    """`str` of a refusal is what the CLI prints; a page translates the template and the `Text` parameters only."""
    said = N_("%(field)s must not be empty", field=N_("reason"))
    assert said == "reason must not be empty" and isinstance(said, Text)
    named = N_("%(name)s is dead", name="reason")  # a name that happens to be a catalog word stays as written
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert localized(said) == "理由を入力してください。"
        assert localized(named) == "reasonは死亡しています。"
        assert localized("an engine's problem, as it is") == "an engine's problem, as it is"


def test_joined_problems_are_their_english_line_and_a_page_says_each_part(app: Flask) -> None:
    """An order's problems (`order_refusal`): the CLI's one English line; a page translates the parts the engine
    worded by a marked template and keeps the field paths and any other problem as they are. Each problem is also
    kept with its path inside the order (without the `orders[0].` of a validated order list), for a form to place."""
    problems = [
        Problem.said("major.targets[0]", "%(target)r is out of the battle", target="kagachi1"),
        Problem("orders[0].setup", "an engine's problem without a template"),
    ]
    refusal = order_refusal(problems)
    said = refusal.message
    assert said == "; ".join(str(p) for p in problems) and refusal.field == "order"
    assert [path for path, _ in refusal.problems] == ["major.targets[0]", "setup"]
    assert refusal.problems[1][1] == "an engine's problem without a template"
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert localized(said) == (
            "major.targets[0]: 'kagachi1'はすでに戦闘から離脱しています; "
            "orders[0].setup: an engine's problem without a template"
        )


def _marked() -> set[str]:
    """Every template the code marks `N_`, as `make messages` finds them (babel.cfg)."""
    method_map, options_map = parse_mapping_cfg((PROJECT_ROOT / "babel.cfg").open())
    found = extract_from_dir(str(PROJECT_ROOT), method_map, options_map, keywords={"N_": None})
    return {msgid for _file, _line, msgid, _comments, _context in found}


def test_every_marked_refusal_has_its_japanese_in_the_compiled_catalog() -> None:
    marked = _marked()
    assert "the current password is not right" in marked and len(marked) > 100
    with JA_MO.open("rb") as f:
        ja = gettext.GNUTranslations(f)
    missing = sorted(m for m in marked if ja.gettext(m) == m or not ja.gettext(m).strip())
    assert missing == [], "refusals without Japanese: run `make messages` and translate them"


#: The refusals' classes: their message is what a page shows.
REFUSALS = {"UserError", "NotFound", "Forbidden", "Conflict", "InvalidState", "StaleSheet", "ExportError", "Busy"}


def _is_joined_text(node: ast.expr) -> bool:
    """`"; ".join(...)`: English parts made one plain string (the engine's problems: `said_problems` keeps them)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
    )


def _bare_refusals(path: Path) -> list[str]:
    """Refusals raised with an f-string, a literal or a string joined from parts: English a page could not
    translate (mark it `N_`; the engine's problems go through `said_problems`)."""
    bare = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS and node.args:
            message = node.args[0]
            if (
                isinstance(message, ast.JoinedStr)
                or (isinstance(message, ast.Constant) and isinstance(message.value, str))
                or _is_joined_text(message)
            ):
                bare.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}")
    return bare


def test_no_refusal_a_page_shows_is_bare_english() -> None:
    """A sentence of the services or the web app is a template; a list of the engine's problems is a `Joined`
    (`said_problems`), each problem said in the page's language where the engine worded it by a template."""
    files = [
        *sorted((PROJECT_ROOT / "pbp" / "services").glob("*.py")),
        *sorted((PROJECT_ROOT / "pbp" / "web").rglob("*.py")),
    ]
    assert [where for path in files for where in _bare_refusals(path)] == []
