"""The index of every form of the site and its fields: which are text (each hostile input goes through each of
them) and which are choices, numbers and boxes (hypothesis sends them anything). `test_every_rendered_form_field_is
_indexed` renders the pages with every form and fails on a field missing here, so a new field is covered the day it
is added."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import Character, User
from pbp.services import accounts, characters
from pbp.web import database
from pbp.web.auth import reset_link
from tests.security.conftest import CONSOLE_SCENE, FORGETFUL, RESOLVED_ROUND, SHAPED_ROUND

ENTRY = "/rounds/3/entry/1"  # the world's open round, player1's character


def reset_url(client: FlaskClient) -> str:
    """A usable link to set the password of `forgetful` (the account only this form changes), made afresh for each
    send: a send that sets the password uses up the link it came by."""
    with pbp_db.using(database.of(client.application)):
        user = User.get(User.name == FORGETFUL)
    with client.application.test_request_context():
        return urlsplit(reset_link(user.id, accounts.password_fingerprint(user.password_hash))).path


GROWTH_REQUEST = 1  # player2's request, waiting for the GM


def _version(client: FlaskClient) -> str:
    """The sheet version the edit form carries (a save from a stale form is refused), read from the database."""
    with pbp_db.using(database.of(client.application)):
        return characters.sheet_version(Character.get_by_id(1).sheet)


Value = str | Callable[[FlaskClient], str]


@dataclass(frozen=True)
class Form:
    """A form: who sends it where, its fields, the other fields' values for each way it is sent (a preview, a save),
    the text fields whose value is also sent alone (the others' limits would refuse it first) and the pages that
    then show what was stored. (Every stored text is also written straight into its row and shown on every page
    that shows it: test_stored_text.)"""

    role: str
    url: Value
    text: tuple[str, ...] = ()
    other: tuple[str, ...] = ()
    bases: tuple[dict[str, Value], ...] = ({},)
    stored: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()
    method: str = "POST"


#: The order fields the player's entry form and the GM's enemy order form share (templates/player/_order_fields.html).
ORDER_FIELDS = (
    "minor", "minor_toward", "minor_x", "minor_y", "minor_weapon", "minor_swap", "major", "weapon", "targets",
    "full_move_toward", "full_move_x", "full_move_y", "major_weapon", "damage_to",
)  # fmt: skip

#: POSTs a page's script sends, not a form it renders: indexed (the hostile input reaches them too), never rendered.
SCRIPT_POSTS = frozenset({("/rounds/<row:round_id>/entry/<row:character_id>/draft", "POST")})

#: (rule, method) -> the form. `stats.*`-style names stand for every field with that prefix.
FORMS: dict[tuple[str, str], Form] = {
    ("/register", "POST"): Form(
        "anonymous",
        "/register",
        text=("name", "display_name", "password", "email"),
        bases=({"name": "fuzzer", "display_name": "Fuzzer", "password": "a-long-password"},),
        stored=("display_name",),
        shown=("/me",),
    ),
    ("/login", "POST"): Form(
        "anonymous",
        "/login",
        text=("name", "password", "next"),
        other=("remember",),
        bases=({"name": "player1", "password": "wrong-password"}, {"name": "player1", "password": "demo-password"}),
    ),
    ("/logout", "POST"): Form("player", "/logout"),
    ("/password/forgot", "POST"): Form("anonymous", "/password/forgot", text=("who",)),
    ("/password/reset/<token>", "POST"): Form("anonymous", reset_url, text=("new_password",)),
    ("/me/locale", "POST"): Form("player", "/me/locale", other=("locale",)),
    ("/me/notices/<row:notice_id>/open", "POST"): Form("player", "/me/notices/999/open"),
    ("/me/notices/read", "POST"): Form("player", "/me/notices/read"),
    ("/me/timezone", "POST"): Form("player", "/me/timezone", other=("timezone",)),
    ("/me/password", "POST"): Form(
        "player",
        "/me/password",
        text=("current_password", "new_password"),
        bases=({"current_password": "wrong-password", "new_password": "another-long-password"},),
    ),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/join", "POST"): Form(
        "player", "/campaigns/demo/scenarios/tama-open/join", other=("character",)
    ),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/leave", "POST"): Form(
        "player", "/campaigns/demo/scenarios/tama-open/leave", other=("character",)
    ),
    ("/rounds/<row:round_id>/entry/<row:character_id>/draft", "POST"): Form(
        "player", f"{ENTRY}/draft", text=("prose", "prose_en")
    ),  # posted by entry.js as the player types (SCRIPT_POSTS: no page renders it as a form)
    ("/rounds/<row:round_id>/entry/<row:character_id>", "POST"): Form(
        "player",
        ENTRY,
        text=("prose", "prose_en", "gm_note"),
        other=(
            *ORDER_FIELDS,
            "minor_ability",
            "check",
            "major_ability",
            "ability_target",
            "evade_item",
            "setup",
            "preview",
            "partners",
            "adlib",
            "contact",
            "wish_shown",
        ),
        bases=({"preview": "1"}, {"major": ""}),
        shown=(ENTRY,),
    ),
    ("/campaigns/<slug:campaign>/characters/new", "POST"): Form(
        "player",
        "/campaigns/demo/characters/new",
        text=("ja", "en", "description", "version"),
        other=("stats.*", "skills.*", "vehicle", "weapons", "vehicle_weapons", "items", "abilities", "pronoun"),
    ),
    ("/characters/<row:character_id>/edit", "POST"): Form(
        "player",
        "/characters/1/edit",
        text=("ja", "en", "description", "version"),
        other=("vehicle", "weapons", "vehicle_weapons", "items", "abilities", "pronoun"),
        bases=({"ja": "葵", "version": _version},),
    ),
    ("/characters/<row:character_id>/growth", "POST"): Form(
        "player", "/characters/1/growth", text=("note",), other=("skills.*",), bases=({"skills.射撃": "4"},)
    ),
    ("/me/notifications", "POST"): Form(
        "player", "/me/notifications", text=("email",), other=("kind_*",), shown=("/me/notifications",)
    ),
    ("/gm/<slug:campaign>/gms", "POST"): Form("GM", "/gm/demo/gms", text=("user_name",)),
    ("/gm/<slug:campaign>/gms/<row:user_id>/remove", "POST"): Form("GM", "/gm/demo/gms/999/remove"),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/report", "POST"): Form(
        "GM",
        "/gm/demo/rounds/1/report",
        text=("note", "intro", "story", "outro", "story_en"),
        other=("action",),
        bases=({"action": "preview", "story": "x"},),
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/comments", "POST"): Form(
        "GM",
        f"/gm/demo/rounds/{RESOLVED_ROUND}/comments",
        text=("note", "comment-1", "comment_en-1", "comment-2", "comment_en-2"),
        stored=("comment-1",),  # alone past the note's shorter limit (the English comment is the same field's kind)
        shown=(f"/gm/demo/rounds/{RESOLVED_ROUND}/report",),
    ),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes", "POST"): Form(
        "player", "/campaigns/demo/scenarios/tama_river/notes", text=("body",)
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>", "POST"): Form(
        "GM", "/gm/demo/scenarios/tama_river/notes/2", text=("body",)
    ),
    ("/characters/<row:character_id>/icon", "POST"): Form("player", "/characters/1/icon", other=("icon", "action")),
    ("/gm/<slug:campaign>/growth/<row:request_id>", "POST"): Form(
        "GM",
        f"/gm/demo/growth/{GROWTH_REQUEST}",
        text=(f"r{GROWTH_REQUEST}-reason",),
        other=("decision",),
        bases=({"decision": "approve"},),  # refused (the character has no points left): the request stays
    ),
    ("/gm/<slug:campaign>/growth/award", "POST"): Form("GM", "/gm/demo/growth/award", other=("points",)),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/texts", "POST"): Form(
        "GM",
        f"/gm/demo/scenarios/{CONSOLE_SCENE}/texts",
        text=("description", "description_en", "gm_notes"),
        other=("ja", "en"),
        bases=({"ja": "", "en": ""},),  # no title at all: refused, every text shown again
    ),
    ("/gm/<slug:campaign>/settings", "POST"): Form(
        "GM",
        "/gm/demo/settings",
        text=("webhook", "timezone"),
        other=(
            "publishing",
            "hold_percent",
            "growth_award",
            "entry_char_limit",
            "bonus_dice_max",
            "bonus_successes_max",
        ),
        bases=({"publishing": "review", "hold_percent": "50", "growth_award": "0", "entry_char_limit": "5"},),
    ),  # the prose limit is out of range: refused, every field shown again
    ("/gm/<slug:campaign>/settings/publishing", "POST"): Form(
        "GM",
        "/gm/demo/settings/publishing",
        other=("publish_automatically", "back"),
        bases=({"publish_automatically": "maybe"},),
    ),
    ("/gm/<slug:campaign>/settings/webhook-test", "POST"): Form("GM", "/gm/demo/settings/webhook-test"),
    # The GM's console beyond the report: each sent so that it is refused (nothing changes in the shared world)
    # and the page comes back with what was typed.
    ("/gm/<slug:campaign>/pack", "POST"): Form("GM", "/gm/demo/pack", other=("action",), bases=({"action": "check"},)),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/", "POST"): Form(
        "GM",
        "/gm/demo/rounds/3/",
        text=("reason",),
        other=("action", "deadline"),
        bases=({"action": "open"},),  # the open round opens no more: refused, the reason kept
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/actions", "POST"): Form(
        "GM",
        "/gm/demo/rounds/3/actions",
        text=("reason",),
        other=("kind", "unit", "enemy", "id", "x", "y", "gauge", "taken_*", "status", "rounds"),
        bases=({"kind": "retreat", "unit": "nobody"},),  # no such unit: refused beside the field
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/orders/<unit>", "POST"): Form(
        "GM",
        "/gm/demo/rounds/3/orders/kagachi1",
        other=(*ORDER_FIELDS, "clear"),
        bases=({"minor": "nonsense"},),
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/close-signup", "POST"): Form(
        "GM", "/gm/demo/scenarios/no_such/close-signup"
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/roster", "POST"): Form(
        "GM",
        "/gm/demo/scenarios/tama_river/roster",
        other=("character", "action"),
        bases=({"character": "1", "action": "remove"},),  # the battle's round runs: refused, nothing changes
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/secrets", "POST"): Form(
        "GM",
        "/gm/demo/scenarios/tama_river/secrets",
        text=("secret_terms",),
        stored=("secret_terms",),
        shown=("/gm/demo/scenarios/tama_river/secrets",),
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/rounds/new", "POST"): Form(
        "GM", "/gm/demo/scenarios/tama_river/rounds/new", other=("deadline",), bases=({"deadline": "2000-01-01T00:00"},)
    ),
    ("/gm/<slug:campaign>/scenarios/import", "POST"): Form(
        "GM", "/gm/demo/scenarios/import", text=("toml",), other=("file",)
    ),
    ("/gm/<slug:campaign>/scenarios/new", "POST"): Form(
        "GM",
        "/gm/demo/scenarios/new",
        text=(
            "ja",
            "en",
            "description",
            "description_en",
            "gm_notes",
            "secret_terms",
            "pc_starts",
            "enemies-0-name",
            "enemies-0-en",
        ),
        other=(
            "slug",
            "kind",
            "slots",
            "signup_deadline",
            "enemies-*",
            "terrain-*",
            "gimmicks-*",
            "effects-*",
            "checks-*",
        ),
        bases=({"slug": "bad slug", "kind": "scene"},),  # a slug with a space: refused, every field kept
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/edit", "POST"): Form(
        "GM",
        f"/gm/demo/scenarios/{CONSOLE_SCENE}/edit",
        text=(
            "ja",
            "en",
            "description",
            "description_en",
            "gm_notes",
            "secret_terms",
            "pc_starts",
            "enemies-0-name",
            "enemies-0-en",
        ),
        other=("kind", "slots", "signup_deadline", "enemies-*", "terrain-*", "gimmicks-*", "effects-*", "checks-*"),
        bases=({"kind": "scene", "slots": "-1"},),  # no place at all: refused, every field kept
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/override", "POST"): Form(
        "GM",
        f"/gm/demo/rounds/{RESOLVED_ROUND}/override",
        text=("reason",),
        other=("check", "successes"),
        bases=({"check": "r1-c999", "successes": "0"},),  # no such check: refused beside the field
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/bonus", "POST"): Form(
        "GM",
        f"/gm/demo/rounds/{RESOLVED_ROUND}/bonus",
        text=("reason",),
        other=("character", "dice", "successes"),
        bases=({"character": "1", "dice": "1", "successes": "0"},),  # no entry in the round: refused beside it
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/adhoc", "POST"): Form(
        "GM",
        f"/gm/demo/rounds/{RESOLVED_ROUND}/adhoc",
        text=("reason", "success_text", "failure_text"),
        other=("roll", "need"),
        bases=({"roll": "1|情報処理", "need": "1"},),
        shown=(f"/gm/demo/rounds/{RESOLVED_ROUND}/review",),  # its three fields share one limit: sent together only
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/adhoc/<row:check_id>/remove", "POST"): Form(
        "GM", f"/gm/demo/rounds/{RESOLVED_ROUND}/adhoc/999/remove"
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/actions/<row:action_id>/delete", "POST"): Form(
        "GM", f"/gm/demo/rounds/{SHAPED_ROUND}/actions/999/delete"
    ),
    ("/campaigns/<slug:campaign>/data/search", "GET"): Form(
        "anonymous", "/campaigns/demo/data/search", text=("q",), method="GET"
    ),
}


def indexed(form: Form, name: str) -> bool:
    """Whether the field `name` is one of the form's (a `prefix*` entry covers every name with the prefix)."""
    for known in (*form.text, *form.other):
        if name == known or (known.endswith("*") and name.startswith(known[:-1])):
            return True
    return False


@dataclass
class RenderedForm:
    method: str
    action: str
    fields: set[str] = field(default_factory=set)


class FormReader(HTMLParser):
    """The forms of a page: method, action and the names of their controls (the CSRF token left out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[RenderedForm] = []
        self._open: RenderedForm | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._open = RenderedForm(values.get("method", "get").upper(), values.get("action", ""))
            self.forms.append(self._open)
        elif tag in ("input", "textarea", "select", "button") and self._open is not None:
            name = values.get("name")
            if name and not name.endswith("csrf_token"):
                self._open.fields.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def forms_of(html: str) -> list[RenderedForm]:
    reader = FormReader()
    reader.feed(html)
    return reader.forms
