"""Who may do what: every rule of the app's URL map, with each of its methods, for an anonymous visitor, a player,
another player and the GM, answers the expected status. A route missing from the matrix fails the test, so every
new route states its access rules here. And every POST route refuses a request without its CSRF token (400) and
changes nothing."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.models import (
    AdhocCheck,
    AuditLog,
    Campaign,
    Character,
    Entry,
    EntryDraft,
    EntryWish,
    GmAction,
    GmOrder,
    GrowthRequest,
    MasterComment,
    Outbox,
    Override,
    Participation,
    ReportCorrection,
    Round,
    Scenario,
    ScenarioNote,
    ScenarioSecret,
    User,
)
from pbp.services import accounts, gms, secret_terms
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import database
from pbp.web.auth import reset_link
from tests.web.conftest import csrf_token, log_in, make_app
from tests.web.world import World, add_rival_campaign, build_world

ROLES = {"anonymous": None, "player": "player1", "another player": "player2", "GM": "gm", "another GM": "gm2"}
ALL = dict.fromkeys(ROLES)


def everyone(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


def signed_in(anonymous: int, others: int) -> dict[str, int]:
    return {role: anonymous if role == "anonymous" else others for role in ROLES}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """The demo world with a second campaign run by `gm2` (the role "another GM")."""
    built = build_world(f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbp.sqlite3'}")
    add_rival_campaign(built, tmp_path_factory.mktemp("packs"))
    return built


REPORT = "/blog/demo/tama_river/round-1/"
ENTRY = "/rounds/3/entry/1"  # the world's open round, player1's character
NEW_CHARACTER = "/campaigns/demo/characters/new"
EDIT = "/characters/1/edit"  # player1's character
GROWTH = "/characters/1/growth"
OWNER_ONLY = {"anonymous": 302, "player": 200, "another player": 403, "GM": 403, "another GM": 403}
#: A GM page of the demo campaign: its GM only (the GM of another campaign is refused like a player).
GM_ONLY = {"anonymous": 302, "player": 403, "another player": 403, "GM": 200, "another GM": 403}
SCENARIO = "/campaigns/demo/scenarios/tama_river/"
SIGNUP = {"anonymous": 302, "player": 409, "another player": 403, "GM": 403, "another GM": 403}
NOTES_OF_PLAYER1 = "/gm/demo/scenarios/tama_river/notes/2"  # player1's user id
#: (rule, method) -> (the URL asked, the form sent (its CSRF token is added), the status per role).
MATRIX: dict[tuple[str, str], tuple[str, dict[str, str] | None, dict[str, int]]] = {
    ("/", "GET"): ("/", None, everyone(200)),
    ("/static/<path:filename>", "GET"): ("/static/site.css", None, everyone(200)),
    ("/healthz", "GET"): ("/healthz", None, everyone(200)),
    ("/favicon.ico", "GET"): ("/favicon.ico", None, everyone(200)),
    ("/language/<locale>", "GET"): ("/language/en?next=/blog/", None, everyone(303)),
    ("/blog/", "GET"): ("/blog/", None, everyone(200)),
    ("/blog/page/<int:page>/", "GET"): ("/blog/page/2/", None, everyone(200)),
    ("/blog/<slug:campaign>/", "GET"): ("/blog/demo/", None, everyone(200)),
    ("/blog/<slug:campaign>/page/<int:page>/", "GET"): ("/blog/demo/page/2/", None, everyone(200)),
    ("/blog/<slug:campaign>/<slug:scenario>/", "GET"): ("/blog/demo/tama_river/", None, everyone(200)),
    ("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/", "GET"): (REPORT, None, everyone(200)),
    ("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/en/", "GET"): (REPORT + "en/", None, everyone(200)),
    ("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/ja/", "GET"): (REPORT + "ja/", None, everyone(200)),
    ("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/bundle.json", "GET"): (
        REPORT + "bundle.json",
        None,
        everyone(200),
    ),
    ("/blog/<slug:campaign>/characters/<row:character_id>/", "GET"): ("/blog/demo/characters/1/", None, everyone(200)),
    ("/feed.atom", "GET"): ("/feed.atom", None, everyone(200)),
    ("/campaigns/<slug:campaign>/data/", "GET"): ("/campaigns/demo/data/", None, everyone(200)),
    ("/campaigns/<slug:campaign>/data/<section>/", "GET"): ("/campaigns/demo/data/weapons/", None, everyone(200)),
    ("/campaigns/<slug:campaign>/data/search", "GET"): ("/campaigns/demo/data/search?q=beam", None, everyone(200)),
    ("/rules/<ruleset>/", "GET"): ("/rules/pool/", None, everyone(200)),
    ("/blog/<slug:campaign>/feed.atom", "GET"): ("/blog/demo/feed.atom", None, everyone(200)),
    ("/register", "GET"): ("/register", None, signed_in(200, 302)),  # signed in: sent home
    ("/register", "POST"): ("/register", {"name": ""}, signed_in(422, 302)),
    ("/login", "GET"): ("/login", None, everyone(200)),
    ("/login", "POST"): ("/login", {"name": "player1", "password": "wrong-password"}, everyone(422)),
    ("/logout", "POST"): ("/logout", {}, everyone(303)),
    ("/me", "GET"): ("/me", None, signed_in(302, 200)),
    ("/me/locale", "POST"): ("/me/locale", {"locale": ""}, signed_in(302, 303)),
    ("/me/timezone", "POST"): ("/me/timezone", {"timezone": ""}, signed_in(302, 303)),
    ("/me/password", "GET"): ("/me/password", None, signed_in(302, 200)),
    ("/me/password", "POST"): ("/me/password", {"current_password": ""}, signed_in(302, 422)),
    # a forgotten password: anyone may ask for the link (the same answer whoever asks); a forged link is refused
    ("/password/forgot", "GET"): ("/password/forgot", None, everyone(200)),
    ("/password/forgot", "POST"): ("/password/forgot", {"who": "player1"}, everyone(200)),
    ("/password/reset/<token>", "GET"): ("/password/reset/forged.token", None, everyone(410)),
    ("/password/reset/<token>", "POST"): ("/password/reset/forged.token", {"new_password": "x" * 12}, everyone(410)),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/", "GET"): (SCENARIO, None, everyone(200)),
    # player1's character is signed up already and the scenario under way; the others' characters are not theirs
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/join", "POST"): (
        SCENARIO + "join",
        {"character": "1"},
        SIGNUP,
    ),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/leave", "POST"): (
        SCENARIO + "leave",
        {"character": "1"},
        SIGNUP,
    ),
    # the entry form of player1's character: its player only (the GM reads entries in the GM's console)
    ("/rounds/<row:round_id>/entry/<row:character_id>", "GET"): (ENTRY, None, OWNER_ONLY),
    ("/rounds/<row:round_id>/entry/<row:character_id>", "POST"): (ENTRY, {"preview": "1", "prose": "x"}, OWNER_ONLY),
    # its autosaved draft: the writer's only (the GM too is refused: a draft is no entry); an ended session is 401
    ("/rounds/<row:round_id>/entry/<row:character_id>/draft", "POST"): (
        ENTRY + "/draft",
        {"prose": "x"},
        {**OWNER_ONLY, "anonymous": 401},
    ),
    # the notice list: each user's own (another's notice, or none, is 404)
    ("/me/notices", "GET"): ("/me/notices", None, signed_in(302, 200)),
    ("/me/notices/read", "POST"): ("/me/notices/read", {}, signed_in(302, 303)),
    ("/me/notices/<row:notice_id>/open", "POST"): ("/me/notices/999999/open", {}, signed_in(302, 404)),
    # characters: anyone signed in creates one; its sheet and growth requests are its player's (the GM decides
    # growth in the GM's console); an empty form is refused
    ("/campaigns/<slug:campaign>/characters/new", "GET"): (NEW_CHARACTER, None, signed_in(302, 200)),
    ("/campaigns/<slug:campaign>/characters/new", "POST"): (NEW_CHARACTER, {}, signed_in(302, 422)),
    ("/characters/<row:character_id>/edit", "GET"): (EDIT, None, OWNER_ONLY),
    ("/characters/<row:character_id>/edit", "POST"): (EDIT, {}, {**OWNER_ONLY, "player": 422}),
    ("/characters/<row:character_id>/growth", "GET"): (GROWTH, None, OWNER_ONLY),
    ("/characters/<row:character_id>/growth", "POST"): (GROWTH, {}, {**OWNER_ONLY, "player": 422}),
    ("/me/notifications", "GET"): ("/me/notifications", None, signed_in(302, 200)),
    ("/me/notifications", "POST"): ("/me/notifications", {"email": "not an address"}, signed_in(302, 422)),
    # the GM's console: the list of one's own campaigns (nobody else's), then the demo campaign's pages
    ("/gm/", "GET"): ("/gm/", None, {**GM_ONLY, "another GM": 200}),
    ("/gm/<slug:campaign>/", "GET"): ("/gm/demo/", None, GM_ONLY),
    ("/gm/<slug:campaign>/gms", "POST"): ("/gm/demo/gms", {"user_name": ""}, {**GM_ONLY, "GM": 422}),
    ("/gm/<slug:campaign>/gms/<row:user_id>/remove", "POST"): ("/gm/demo/gms/2/remove", {}, {**GM_ONLY, "GM": 404}),
    # gm-publish: a round's report (round 1 is published, round 3 open: publishing it is refused, nothing changes)
    ("/gm/<slug:campaign>/rounds/<row:round_id>/report", "GET"): ("/gm/demo/rounds/1/report", None, GM_ONLY),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/report", "POST"): (
        "/gm/demo/rounds/3/report",
        {"action": "publish", "story": "x"},
        {**GM_ONLY, "GM": 409},
    ),
    # the GM's comments on the characters (round 3 is open: nothing to comment on yet)
    ("/gm/<slug:campaign>/rounds/<row:round_id>/comments", "POST"): (
        "/gm/demo/rounds/3/comments",
        {},
        {**GM_ONLY, "GM": 409},
    ),
    # the private notes between a scenario's GMs and each of its players (both players play tama_river)
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes", "GET"): (
        SCENARIO + "notes",
        None,
        {**OWNER_ONLY, "another player": 200},
    ),
    ("/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes", "POST"): (
        SCENARIO + "notes",
        {"body": ""},
        {**OWNER_ONLY, "player": 422, "another player": 422},
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/notes", "GET"): (
        "/gm/demo/scenarios/tama_river/notes",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>", "GET"): (
        NOTES_OF_PLAYER1,
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>", "POST"): (
        NOTES_OF_PLAYER1,
        {"body": ""},
        {**GM_ONLY, "GM": 422},
    ),
    # a character's icon: its owner's page; the picture is public (none in the world: 404)
    ("/characters/<row:character_id>/icon", "GET"): ("/characters/1/icon", None, OWNER_ONLY),
    ("/characters/<row:character_id>/icon", "POST"): ("/characters/1/icon", {}, {**OWNER_ONLY, "player": 422}),
    ("/characters/<row:character_id>/icon.webp", "GET"): ("/characters/1/icon.webp", None, everyone(404)),
    ("/gm/<slug:campaign>/growth", "GET"): ("/gm/demo/growth", None, GM_ONLY),
    ("/gm/<slug:campaign>/growth/<row:request_id>", "POST"): (
        "/gm/demo/growth/999",
        {"decision": "approve"},
        {**GM_ONLY, "GM": 404},
    ),
    ("/gm/<slug:campaign>/growth/award", "POST"): ("/gm/demo/growth/award", {"points": "-1"}, {**GM_ONLY, "GM": 422}),
    # a scenario's texts, editable at any time (an unknown scenario: 404)
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/texts", "GET"): (
        "/gm/demo/scenarios/tama_river/texts",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/texts", "POST"): (
        "/gm/demo/scenarios/no_such/texts",
        {"gm_notes": "x"},
        {**GM_ONLY, "GM": 404},
    ),
    # the campaign's settings: each sent so that it is refused (a bad time zone, a switch to nowhere, no webhook)
    ("/gm/<slug:campaign>/settings", "GET"): ("/gm/demo/settings", None, GM_ONLY),
    ("/gm/<slug:campaign>/settings", "POST"): (
        "/gm/demo/settings",
        {"timezone": "Mars/Olympus"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/settings/publishing", "POST"): (
        "/gm/demo/settings/publishing",
        {"publish_automatically": "maybe"},
        {**GM_ONLY, "GM": 400},
    ),
    ("/gm/<slug:campaign>/settings/webhook-test", "POST"): (
        "/gm/demo/settings/webhook-test",
        {},
        {**GM_ONLY, "GM": 409},
    ),
    # gm-scen: scenarios written in the console, the pack (its owner only), the audit log
    ("/gm/<slug:campaign>/scenarios/new", "GET"): ("/gm/demo/scenarios/new", None, GM_ONLY),
    ("/gm/<slug:campaign>/scenarios/new", "POST"): (
        "/gm/demo/scenarios/new",
        {"slug": "bad slug", "kind": "scene"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/scenarios/import", "GET"): ("/gm/demo/scenarios/import", None, GM_ONLY),
    ("/gm/<slug:campaign>/scenarios/import", "POST"): (
        "/gm/demo/scenarios/import",
        {"toml": "not = [toml"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/edit", "GET"): (
        "/gm/demo/scenarios/tama_river/edit",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/edit", "POST"): (
        "/gm/demo/scenarios/tama_river/edit",
        {"ja": "x", "en": "x", "kind": "scene"},
        {**GM_ONLY, "GM": 409},
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/close-signup", "POST"): (
        "/gm/demo/scenarios/no_such/close-signup",
        {},
        {**GM_ONLY, "GM": 404},
    ),
    # a scenario's secret terms: a term with nothing to look for is refused, nothing changes
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/secrets", "GET"): (
        "/gm/demo/scenarios/tama_river/secrets",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/secrets", "POST"): (
        "/gm/demo/scenarios/tama_river/secrets",
        {"secret_terms": "・・・"},
        {**GM_ONLY, "GM": 422},
    ),
    # a scenario's roster: the battle's round 3 runs, so a change is refused and nothing changes
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/roster", "GET"): (
        "/gm/demo/scenarios/tama_river/roster",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/roster", "POST"): (
        "/gm/demo/scenarios/tama_river/roster",
        {"character": "1", "action": "remove"},
        {**GM_ONLY, "GM": 409},
    ),
    ("/gm/<slug:campaign>/pack", "GET"): ("/gm/demo/pack", None, GM_ONLY),
    ("/gm/<slug:campaign>/pack", "POST"): ("/gm/demo/pack", {"action": "check"}, GM_ONLY),
    ("/gm/<slug:campaign>/audit", "GET"): ("/gm/demo/audit", None, GM_ONLY),
    # gm-rounds: a round's dashboard, its actions, its review (round 3 is open: a preview) and overrides, a new round
    ("/gm/<slug:campaign>/rounds/<row:round_id>/", "GET"): ("/gm/demo/rounds/3/", None, GM_ONLY),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/", "POST"): (
        "/gm/demo/rounds/3/",
        {"action": "open"},  # the open round opens no more: refused, nothing changes
        {**GM_ONLY, "GM": 409},
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/review", "GET"): ("/gm/demo/rounds/1/review", None, GM_ONLY),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/override", "POST"): (
        "/gm/demo/rounds/1/override",
        {"check": "r1-c1", "successes": "1", "reason": "x"},  # published: refused, nothing changes
        {**GM_ONLY, "GM": 409},
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/rounds/new", "GET"): (
        "/gm/demo/scenarios/tama_river/rounds/new",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/scenarios/<slug:scenario>/rounds/new", "POST"): (
        "/gm/demo/scenarios/tama_river/rounds/new",
        {"deadline": "2000-01-01T00:00"},
        {**GM_ONLY, "GM": 422},
    ),
    # gm-shape: the open round 3's GM actions and an enemy's order (a bad action or order is refused, 422)
    ("/gm/<slug:campaign>/rounds/<row:round_id>/actions", "GET"): ("/gm/demo/rounds/3/actions", None, GM_ONLY),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/actions", "POST"): (
        "/gm/demo/rounds/3/actions",
        {"kind": "retreat", "unit": "nobody", "reason": "x"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/actions/<row:action_id>/delete", "POST"): (
        "/gm/demo/rounds/3/actions/999/delete",
        {},
        {**GM_ONLY, "GM": 404},
    ),
    # gm-judge: the open round 3's play bonus and ad-hoc checks (a form missing its choice is refused, 422)
    ("/gm/<slug:campaign>/rounds/<row:round_id>/bonus", "POST"): (
        "/gm/demo/rounds/3/bonus",
        {"character": "", "dice": "1", "successes": "0", "reason": "x"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/adhoc", "POST"): (
        "/gm/demo/rounds/3/adhoc",
        {"roll": "", "need": "1", "reason": "x"},
        {**GM_ONLY, "GM": 422},
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/adhoc/<row:check_id>/remove", "POST"): (
        "/gm/demo/rounds/3/adhoc/999/remove",
        {},
        {**GM_ONLY, "GM": 404},
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/orders/<unit>", "GET"): (
        "/gm/demo/rounds/3/orders/kagachi1",
        None,
        GM_ONLY,
    ),
    ("/gm/<slug:campaign>/rounds/<row:round_id>/orders/<unit>", "POST"): (
        "/gm/demo/rounds/3/orders/kagachi1",
        {"minor": "nonsense"},
        {**GM_ONLY, "GM": 422},
    ),
    # the text before a correction: public once there is one (the matrix's world has none)
    ("/blog/<slug:campaign>/<slug:scenario>/round-<row:number>/corrections/<row:correction>/", "GET"): (
        REPORT + "corrections/1/",
        None,
        everyone(404),
    ),
}


def _app(world) -> Flask:
    return make_app(world.url, BLOG_PAGE_SIZE=1, LOGIN_RATE_LIMIT="1000 per minute", MAIL=True)


def _client(app: Flask, role: str) -> FlaskClient:
    client = app.test_client()
    if ROLES[role]:
        assert log_in(client, ROLES[role]).status_code == 303
    return client


def test_the_matrix_covers_every_route_and_method(world):
    routes = {
        (rule.rule, method)
        for rule in _app(world).url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert set(MATRIX) == routes, "add the new route to MATRIX with its status for every role"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", MATRIX, ids=[f"{method} {rule}" for rule, method in MATRIX])
def test_access(world, case, role):
    url, form, expected = MATRIX[case]
    client = _client(_app(world), role)
    if case[1] == "GET":
        response = client.get(url)
    else:
        response = client.post(url, data={**form, "csrf_token": csrf_token(client)})
    assert response.status_code == expected[role]
    if expected[role] == 302 and role == "anonymous":
        assert response.headers["Location"].startswith("/login?next=")


def test_my_page_shows_my_characters_only(world):
    app = _app(world)
    with pbp_db.using(database.of(app)):
        names = {u.name: [c.name for c in Character.select().join(User).where(User.name == u.name)] for u in User}
    for user in ("player1", "player2"):
        page = _client(app, "player" if user == "player1" else "another player").get("/me").get_data(as_text=True)
        other = "player2" if user == "player1" else "player1"
        assert all(n in page for n in names[user]) and not any(n in page for n in names[other])


def _session_version(app: Flask, name: str) -> int:
    with pbp_db.using(database.of(app)):
        return User.get(User.name == name).session_version


def _user(app: Flask, name: str) -> User | None:
    with pbp_db.using(database.of(app)):
        return User.get_or_none(User.name == name)


#: POST rule -> (who posts, the form without its token, what must still hold afterwards; None: only what holds for
#: every case, player1's session version and the outbox, where a refused POST queues no notification).
CSRF_CASES = {
    "/register": (
        "anonymous",
        {"name": "csrf-victim", "password": "a-long-password"},
        lambda app, client: _user(app, "csrf-victim") is None,
    ),
    "/login": (
        "anonymous",
        {"name": "player1", "password": DEMO_PASSWORD},
        lambda app, client: client.get("/me").status_code == 302,
    ),
    "/logout": (
        "player",
        {},
        lambda app, client: client.get("/me").status_code == 200,
    ),
    "/me/locale": (
        "player",
        {"locale": "en"},
        lambda app, client: _user(app, "player1").locale is None,
    ),
    "/me/timezone": (
        "player",
        {"timezone": "Europe/London"},
        lambda app, client: _user(app, "player1").timezone is None,
    ),
    "/me/password": (
        "player",
        {"current_password": DEMO_PASSWORD, "new_password": "stolen-password"},
        lambda app, client: log_in(app.test_client(), "player1").status_code == 303,
    ),
    "/password/forgot": (
        "anonymous",
        {"who": "player1"},  # asked, it writes a row whoever is named: the outbox check below is the one
        None,
    ),
    "/password/reset/<token>": (  # player1's own valid link, sent from another site's page
        "anonymous",
        {"new_password": "stolen-password"},
        lambda app, client: log_in(app.test_client(), "player1").status_code == 303,
    ),
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/join": (
        "player",
        {"character": "1"},
        lambda app, client: _signed_up(app),
    ),
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/leave": (
        "player",
        {"character": "1"},
        lambda app, client: _signed_up(app),
    ),
    "/rounds/<row:round_id>/entry/<row:character_id>": (
        "player",
        {"prose": "forged", "major": "", "gm_note": "forged"},
        lambda app, client: _entry_prose(app) != "forged" and _gm_note(app) is None,
    ),
    "/rounds/<row:round_id>/entry/<row:character_id>/draft": (
        "player",
        {"prose": "forged"},
        lambda app, client: _draft_prose(app) != "forged",
    ),
    "/me/notices/read": ("player", {}, None),  # tests/web/test_notices.py: nothing is marked read
    "/me/notices/<row:notice_id>/open": ("player", {}, None),
    "/campaigns/<slug:campaign>/characters/new": (
        "player",
        {"ja": "偽", "stats.肉体": "3", "stats.感覚": "3", "stats.理知": "3", "stats.文化": "3"},
        lambda app, client: _character_named(app, "偽") is None,
    ),
    "/characters/<row:character_id>/edit": (
        "player",
        {"ja": "偽", "version": ""},
        lambda app, client: _character_named(app, "偽") is None,
    ),
    "/characters/<row:character_id>/growth": (
        "player",
        {"skills.射撃": "4"},
        lambda app, client: _growth_requests(app) == 0,
    ),
    "/me/notifications": (
        "player",
        {"email": "stolen@example.org"},
        lambda app, client: _user(app, "player1").email is None,
    ),
    "/gm/<slug:campaign>/gms": (
        "GM",
        {"user_name": "player1"},
        lambda app, client: not _is_gm(app, "player1"),
    ),
    "/gm/<slug:campaign>/gms/<row:user_id>/remove": (
        "GM",
        {},
        lambda app, client: _is_gm(app, "cogm"),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/report": (
        "GM",
        {"action": "correct", "note": "forged", "story": "forged"},
        lambda app, client: _corrections(app) == 0,
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/": (
        "GM",
        {"action": "cancel", "reason": "forged"},
        lambda app, client: _round_state(app, 3) == "open",
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/override": (
        "GM",
        {"check": "r1-c1", "successes": "5", "reason": "forged"},
        lambda app, client: _overrides(app) == 0,
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/bonus": (
        "GM",
        {"character": "1", "dice": "1", "successes": "0", "reason": "forged"},
        lambda app, client: _judged(app) == (0, 0),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/adhoc": (
        "GM",
        {"roll": "1|情報処理", "need": "1", "reason": "forged"},
        lambda app, client: _judged(app) == (0, 0),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/adhoc/<row:check_id>/remove": ("GM", {}, None),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/rounds/new": (
        "GM",
        {"deadline": "2099-01-01T00:00"},
        lambda app, client: _rounds(app) == 3,
    ),
    "/gm/<slug:campaign>/growth/<row:request_id>": (
        "GM",
        {"decision": "approve", "r1-reason": "forged"},
        lambda app, client: _decided_growth(app) == 0,
    ),
    "/gm/<slug:campaign>/growth/award": (
        "GM",
        {"points": "5"},
        lambda app, client: _growth_award(app) == 0,
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/texts": (
        "GM",
        {"gm_notes": "forged"},
        lambda app, client: "forged" not in _gm_notes(app),
    ),
    "/gm/<slug:campaign>/settings": (
        "GM",
        {"publishing": "auto", "hold_percent": "10", "growth_award": "5", "timezone": "UTC", "entry_char_limit": "900"},
        lambda app, client: _settings_unchanged(app),
    ),
    "/gm/<slug:campaign>/settings/publishing": (
        "GM",
        {"publish_automatically": "on"},
        lambda app, client: _settings_unchanged(app),
    ),
    "/gm/<slug:campaign>/settings/webhook-test": ("GM", {}, None),  # the outbox check below is the one
    "/gm/<slug:campaign>/scenarios/new": (
        "GM",
        {
            "slug": "forged",
            "ja": "偽",
            "en": "Forged",
            "kind": "scene",
            "checks-0-id": "c",
            "checks-0-ja": "c",
            "checks-0-en": "c",
            "checks-0-skill": "知覚",
            "checks-0-need": "1",
            "checks-0-success_ja": "s",
            "checks-0-success_en": "s",
            "checks-0-failure_ja": "f",
            "checks-0-failure_en": "f",
        },
        lambda app, client: _scenario_named(app, "forged") is None,
    ),  # fmt: skip
    "/gm/<slug:campaign>/scenarios/import": (
        "GM",
        {"toml": '[scenarios.forged]\nja = "偽"\nen = "Forged"\nkind = "scene"\n'},
        lambda app, client: _scenario_named(app, "forged") is None,
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/edit": (
        "GM",
        {"ja": "偽", "en": "Forged", "kind": "scene"},
        lambda app, client: _scenario_named(app, "hangar_eve").title != "偽",
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/close-signup": (
        "GM",
        {},
        lambda app, client: _scenario_named(app, "hangar_eve").signup_closed_at is None,
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/secrets": (
        "GM",
        {"secret_terms": "forged"},
        lambda app, client: _secret_terms(app) == "",
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/roster": (
        "GM",
        {"character": "1", "action": "remove"},
        lambda app, client: _signed_up(app),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/comments": (
        "GM",
        {"comment-1": "forged"},
        lambda app, client: _comments(app) == 0,
    ),
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes": (
        "player",
        {"body": "forged"},
        lambda app, client: _notes(app) == 0,
    ),
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>": (
        "GM",
        {"body": "forged"},
        lambda app, client: _notes(app) == 0,
    ),
    "/characters/<row:character_id>/icon": (
        "player",
        {"action": "remove"},
        None,  # nothing to take away in the world; the audit log stays empty of it
    ),
    "/gm/<slug:campaign>/pack": (
        "GM",
        {"action": "upgrade"},
        lambda app, client: not _upgraded(app),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/actions": (
        "GM",
        {"kind": "retreat", "unit": "kagachi1", "reason": "forged"},
        lambda app, client: _shaping(app) == (0, 0),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/actions/<row:action_id>/delete": (
        "GM",
        {},
        lambda app, client: _shaping(app) == (0, 0),
    ),
    "/gm/<slug:campaign>/rounds/<row:round_id>/orders/<unit>": (
        "GM",
        {"minor": "", "major": ""},
        lambda app, client: _shaping(app) == (0, 0),
    ),
}


#: The URL a POST rule with parameters is tried at.
CSRF_URLS = {
    "/rounds/<row:round_id>/entry/<row:character_id>": ENTRY,
    "/rounds/<row:round_id>/entry/<row:character_id>/draft": ENTRY + "/draft",
    "/me/notices/<row:notice_id>/open": "/me/notices/1/open",
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/join": SCENARIO + "join",
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/leave": SCENARIO + "leave",
    "/campaigns/<slug:campaign>/characters/new": NEW_CHARACTER,
    "/characters/<row:character_id>/edit": EDIT,
    "/characters/<row:character_id>/growth": GROWTH,
    "/gm/<slug:campaign>/gms": "/gm/demo/gms",
    "/gm/<slug:campaign>/gms/<row:user_id>/remove": "/gm/demo/gms/{cogm}/remove",
    "/password/reset/<token>": "{reset}",
    "/gm/<slug:campaign>/rounds/<row:round_id>/report": "/gm/demo/rounds/1/report",
    "/gm/<slug:campaign>/growth/<row:request_id>": "/gm/demo/growth/1",
    "/gm/<slug:campaign>/rounds/<row:round_id>/": "/gm/demo/rounds/3/",
    "/gm/<slug:campaign>/rounds/<row:round_id>/override": "/gm/demo/rounds/2/override",
    "/gm/<slug:campaign>/rounds/<row:round_id>/bonus": "/gm/demo/rounds/3/bonus",
    "/gm/<slug:campaign>/rounds/<row:round_id>/adhoc": "/gm/demo/rounds/3/adhoc",
    "/gm/<slug:campaign>/rounds/<row:round_id>/adhoc/<row:check_id>/remove": "/gm/demo/rounds/3/adhoc/1/remove",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/rounds/new": "/gm/demo/scenarios/tama_river/rounds/new",
    "/gm/<slug:campaign>/growth/award": "/gm/demo/growth/award",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/texts": "/gm/demo/scenarios/tama_river/texts",
    "/gm/<slug:campaign>/settings": "/gm/demo/settings",
    "/gm/<slug:campaign>/settings/publishing": "/gm/demo/settings/publishing",
    "/gm/<slug:campaign>/settings/webhook-test": "/gm/demo/settings/webhook-test",
    "/gm/<slug:campaign>/scenarios/new": "/gm/demo/scenarios/new",
    "/gm/<slug:campaign>/scenarios/import": "/gm/demo/scenarios/import",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/edit": "/gm/demo/scenarios/hangar_eve/edit",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/close-signup": "/gm/demo/scenarios/hangar_eve/close-signup",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/secrets": "/gm/demo/scenarios/tama_river/secrets",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/roster": "/gm/demo/scenarios/tama_river/roster",
    "/gm/<slug:campaign>/rounds/<row:round_id>/comments": "/gm/demo/rounds/2/comments",
    "/campaigns/<slug:campaign>/scenarios/<slug:scenario>/notes": SCENARIO + "notes",
    "/gm/<slug:campaign>/scenarios/<slug:scenario>/notes/<row:user_id>": NOTES_OF_PLAYER1,
    "/characters/<row:character_id>/icon": "/characters/1/icon",
    "/gm/<slug:campaign>/pack": "/gm/demo/pack",
    "/gm/<slug:campaign>/rounds/<row:round_id>/actions": "/gm/demo/rounds/3/actions",
    "/gm/<slug:campaign>/rounds/<row:round_id>/actions/<row:action_id>/delete": "/gm/demo/rounds/3/actions/1/delete",
    "/gm/<slug:campaign>/rounds/<row:round_id>/orders/<unit>": "/gm/demo/rounds/3/orders/kagachi1",
}


def _scenario_named(app: Flask, slug: str) -> Scenario | None:
    with pbp_db.using(database.of(app)):
        return Scenario.get_or_none(Scenario.slug == slug)


def _secret_terms(app: Flask) -> str:
    with pbp_db.using(database.of(app)):
        return secret_terms.listed(Scenario.get(Scenario.slug == "tama_river").id)


def _upgraded(app: Flask) -> bool:
    with pbp_db.using(database.of(app)):
        return AuditLog.select().where(AuditLog.action == "campaign.upgrade").exists()


def _shaping(app: Flask) -> tuple[int, int]:
    """How many GM actions and enemy orders there are."""
    with pbp_db.using(database.of(app)):
        return GmAction.select().count(), GmOrder.select().count()


def _corrections(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return ReportCorrection.select().count()


def _round_state(app: Flask, round_id: int) -> str:
    with pbp_db.using(database.of(app)):
        return Round.get_by_id(round_id).state


def _overrides(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return Override.select().count()


def _judged(app: Flask) -> tuple[int, int]:
    """The play bonuses and ad-hoc checks stored."""
    with pbp_db.using(database.of(app)):
        return GmAction.select().where(GmAction.kind == "bonus").count(), AdhocCheck.select().count()


def _rounds(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return Round.select().count()


def _comments(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return MasterComment.select().count()


def _notes(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return ScenarioNote.select().count()


def _decided_growth(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return GrowthRequest.select().where(GrowthRequest.status != "pending").count()


def _growth_award(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return Campaign.get(Campaign.slug == "demo").growth_on_publish


def _gm_notes(app: Flask) -> str:
    with pbp_db.using(database.of(app)):
        return ScenarioSecret.get(ScenarioSecret.scenario == Scenario.get(Scenario.slug == "tama_river").id).gm_notes


def _settings_unchanged(app: Flask) -> bool:
    with pbp_db.using(database.of(app)):
        campaign = Campaign.get(Campaign.slug == "demo")
        return campaign.timezone == "Asia/Tokyo" and not campaign.policies.get("publish_automatically")


def _signed_up(app: Flask) -> bool:
    with pbp_db.using(database.of(app)):
        return Participation.select().where(Participation.character == 1).exists()


def _character_named(app: Flask, name: str) -> Character | None:
    with pbp_db.using(database.of(app)):
        return Character.get_or_none(Character.name == name)


def _growth_requests(app: Flask) -> int:
    with pbp_db.using(database.of(app)):
        return GrowthRequest.select().count()


def _is_gm(app: Flask, name: str) -> bool:
    with pbp_db.using(database.of(app)):
        user = User.get(User.name == name)
        return gms.is_gm(Campaign.get(Campaign.slug == "demo").id, user.id)


def _entry_prose(app: Flask) -> str:
    with pbp_db.using(database.of(app)):
        return Entry.get(Entry.round == 3, Entry.character == 1).prose


def _gm_note(app: Flask) -> str | None:
    """player1's note to the GM beside its entry in the open round (None: no wish saved)."""
    with pbp_db.using(database.of(app)):
        wish = EntryWish.get_or_none(EntryWish.round == 3, EntryWish.character == 1)
        return None if wish is None else wish.gm_note


def _draft_prose(app: Flask) -> str | None:
    with pbp_db.using(database.of(app)):
        draft = EntryDraft.get_or_none(EntryDraft.round == 3, EntryDraft.character == 1)
        return None if draft is None else draft.prose


def _outbox(app: Flask) -> list[int]:
    with pbp_db.using(database.of(app)):
        return [row.id for row in Outbox.select(Outbox.id)]


def _reset_path(app: Flask, name: str) -> str:
    """The path of a valid link to set `name`'s password, as the site mails it."""
    user = _user(app, name)
    with app.test_request_context():
        return urlsplit(reset_link(user.id, accounts.password_fingerprint(user.password_hash))).path


def test_every_post_route_has_a_csrf_case(world):
    posts = {rule.rule for rule in _app(world).url_map.iter_rules() if "POST" in rule.methods}
    assert set(CSRF_CASES) == posts


@pytest.mark.parametrize("rule", CSRF_CASES)
def test_a_post_without_its_csrf_token_is_refused_and_changes_nothing(world, rule):
    role, form, unchanged = CSRF_CASES[rule]
    app = _app(world)
    client = _client(app, role)
    before = _session_version(app, "player1")
    queued = _outbox(app)
    url = CSRF_URLS.get(rule, rule).format(cogm=_user(app, "cogm").id, reset=_reset_path(app, "player1"))
    response = client.post(url, data=form)
    assert response.status_code == 400 and '<header class="site">' in response.get_data(as_text=True)
    assert unchanged is None or unchanged(app, client)
    assert _session_version(app, "player1") == before
    forged = client.post(url, data={**form, "csrf_token": "not-the-token"})
    assert forged.status_code == 400 and (unchanged is None or unchanged(app, client))
    assert _outbox(app) == queued
