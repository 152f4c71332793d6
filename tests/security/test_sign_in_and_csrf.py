"""The probe's findings in sign-in and CSRF (issue 33), on SQLite and PostgreSQL:

- a POST with a bad CSRF token to a page the user may not see answers the access check's status (403, 404), never
  the 500 the form's redraw used to turn it into;
- a login name that no account can have (a NUL in it, 5,000 characters) is never written anywhere before the form
  judges it, and the form answers 422 with its message;
- behind a trusted proxy (`PBP_TRUSTED_PROXIES`) each client has its own address, and the login limit counts per
  address and user name: one client's failures lock no one else out;
- a login does the same hashing work whether or not the name exists (a dummy hash for an unknown one).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from flask.testing import FlaskClient

from pbp import db as pbp_db
from pbp.services import accounts
from pbp.services.demo import DEMO_PASSWORD
from pbp.web import create_app
from tests.lifecycle.conftest import BACKENDS, empty_database
from tests.web.conftest import log_in, make_app
from tests.web.world import World, build_world

WRONG = "not-the-password"
NOT_RIGHT = "ユーザー名またはパスワードが違います。"  # the login form's message (ja, the site's default)
TOO_LONG = "40 文字を超えることはできません"  # the name field's length, in WTForms' ja
PROXY = {"REMOTE_ADDR": "127.0.0.1"}  # the proxy on the same host: every request comes from it


@pytest.fixture(scope="module", params=BACKENDS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The demo world (one published round, one open) on each database."""
    with empty_database(request.param, tmp_path_factory.mktemp("db")) as url:
        yield build_world(url, published=1)


def _client(world: World, name: str | None = None, **config: object) -> FlaskClient:
    client = make_app(world.url, LOGIN_RATE_LIMIT="1000 per minute", **config).test_client()
    if name is not None:
        assert log_in(client, name).status_code == 303
    return client


# ---- a bad CSRF token on a page the user may not see --------------------------------------------------------------

#: (who posts, the URL with {campaign}, {open}, {published}, {mine}, {theirs}, the access check's status). Each is a
#: form that draws itself again after a CSRF failure (pbp.web.player.expired, pbp.web.gm.EXPIRED_PAGES and the
#: report's own), so its redraw runs the page's access check.
REFUSED = {
    "a GM's scenario form, as a player": ("player1", "/gm/{campaign}/scenarios/new", 403),
    "a GM's import form, as a player": ("player1", "/gm/{campaign}/scenarios/import", 403),
    "a GM's report, as a player": ("player1", "/gm/{campaign}/rounds/{published}/report", 403),
    "a GM's scenario edit, as a player": ("player2", "/gm/{campaign}/scenarios/tama_river/edit", 403),
    "another player's entry": ("player1", "/rounds/{open}/entry/{theirs}", 403),
    "another player's sheet": ("player1", "/characters/{theirs}/edit", 403),
    "another player's growth": ("player1", "/characters/{theirs}/growth", 403),
    "a campaign that does not exist (GM)": ("gm", "/gm/no-such/scenarios/new", 404),
    "a report of a round that does not exist": ("gm", "/gm/{campaign}/rounds/999999/report", 404),
    "a campaign that does not exist (player)": ("player1", "/campaigns/no-such/characters/new", 404),
    "a character that does not exist": ("player1", "/characters/999999/edit", 404),
    "an entry in a round that does not exist": ("player1", "/rounds/999999/entry/{mine}", 404),
}


def _url(world: World, template: str) -> str:
    return template.format(
        campaign=world.campaign,
        open=world.open_round,
        published=world.published[0],
        mine=world.characters["aoi"],
        theirs=world.characters["makoto"],
    )


@pytest.mark.parametrize("case", REFUSED.values(), ids=REFUSED.keys())
def test_a_bad_csrf_token_keeps_the_access_checks_status(site: World, case: tuple[str, str, int]) -> None:
    who, template, status = case
    client = _client(site, who)
    url = _url(site, template)
    assert client.get(url).status_code == status  # the access check, as a GET meets it
    for token in ("forged", None):  # a wrong token, and none at all
        form = {"prose": "書きかけ", "ja": "x", "csrf_token": token} if token else {"prose": "書きかけ"}
        response = client.post(url, data=form)
        assert response.status_code == status, (url, token)
        assert "Traceback" not in response.get_data(as_text=True)


def test_a_bad_csrf_token_on_ones_own_entry_still_keeps_the_text(site: World) -> None:
    client = _client(site, "player1")
    url = _url(site, "/rounds/{open}/entry/{mine}")
    response = client.post(url, data={"prose": "書きかけの一文", "csrf_token": "forged"})
    assert response.status_code == 400
    assert "書きかけの一文" in response.get_data(as_text=True)


# ---- no write before validation -----------------------------------------------------------------------------------


def _stored_keys(world: World) -> list[str]:
    database = pbp_db.bind(world.url)
    with database.connection_context():
        return [row[0] for row in database.execute_sql('SELECT "key" FROM rate_count').fetchall()]


@pytest.fixture(autouse=True)
def _no_counts_yet(site: World) -> None:
    """Every test starts with no login counted (the world is the module's; its limits are each test's own)."""
    database = pbp_db.bind(site.url)
    with database.connection_context():
        database.execute_sql("DELETE FROM rate_count")


#: A name no account can have, and what the form says of it: a short one is judged as a login that failed, a long one
#: is refused by the field's length (WTForms' message).
NOT_NAMES = {
    "NUL": ("gm\x00", NOT_RIGHT),
    "only NUL": ("\x00", NOT_RIGHT),
    "not ASCII": ("ゲームマスター", NOT_RIGHT),
    "5000 characters": ("名" * 5000, TOO_LONG),
    "long, with a NUL": ("gm\x00" + "x" * 300, TOO_LONG),
}


@pytest.mark.parametrize(("name", "message"), NOT_NAMES.values(), ids=NOT_NAMES.keys())
def test_a_login_name_no_account_can_have_is_refused_and_never_stored(site: World, name: str, message: str) -> None:
    client = make_app(site.url, LOGIN_RATE_LIMIT="1000 per minute").test_client()
    response = log_in(client, name, DEMO_PASSWORD)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    keys = _stored_keys(site)
    assert keys and all("/address:127.0.0.1/" in key for key in keys), keys  # the address's count only


def test_a_login_name_is_counted_as_the_form_reads_it(site: World) -> None:
    """Spaces around the name are the form's (the login strips them): the same account, one count."""
    client = make_app(site.url, LOGIN_RATE_LIMIT="2 per minute").test_client()
    address = {"REMOTE_ADDR": "192.0.2.40"}
    statuses = [log_in(client, name, WRONG, environ_base=address).status_code for name in ("gm", " gm", "gm ")]
    assert statuses == [422, 422, 429]


# ---- PBP_TRUSTED_PROXIES, and the limit per address and user name --------------------------------------------------


def _via_proxy(client_address: str) -> dict[str, str]:
    """What the proxy sends: its own address as the peer, the client's in X-Forwarded-For, and the scheme the client
    used (HTTPS: Flask-WTF then wants the page's own origin as the Referer, which a browser sends)."""
    return {
        **PROXY,
        "HTTP_X_FORWARDED_FOR": client_address,
        "HTTP_X_FORWARDED_PROTO": "https",
        "HTTP_REFERER": "https://localhost/login",
    }


@pytest.mark.parametrize("setting", ["config", "environment"])
def test_behind_a_trusted_proxy_one_clients_failures_lock_no_one_else_out(
    site: World, setting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    config: dict[str, object] = {"LOGIN_RATE_LIMIT": "10 per minute"}
    if setting == "config":
        config["TRUSTED_PROXIES"] = 1
    else:
        monkeypatch.setenv("PBP_TRUSTED_PROXIES", "1")
    app = make_app(site.url, **config)
    attacker = {"environ_base": _via_proxy("203.0.113.7")}
    statuses = [log_in(app.test_client(), "gm", WRONG, **attacker).status_code for _ in range(11)]
    assert statuses == [422] * 10 + [429]
    player = app.test_client()
    assert log_in(player, "player2", environ_base=_via_proxy("198.51.100.23")).status_code == 303
    assert player.get("/me", environ_base=_via_proxy("198.51.100.23")).status_code == 200
    no_referer = {**_via_proxy("198.51.100.24"), "HTTP_REFERER": ""}
    assert log_in(app.test_client(), "player2", environ_base=no_referer).status_code == 400  # HTTPS, as forwarded


def test_a_forwarded_address_is_not_believed_without_a_trusted_proxy(site: World) -> None:
    """With no trusted proxy (the default) X-Forwarded-For is anyone's to write: changing it escapes no limit."""
    app = make_app(site.url, LOGIN_RATE_LIMIT="3 per minute")
    statuses = [
        log_in(app.test_client(), "gm", WRONG, environ_base=_via_proxy(f"203.0.113.{n}")).status_code for n in range(4)
    ]
    assert statuses == [422, 422, 422, 429]


def test_failures_for_one_name_leave_the_same_clients_other_names_alone(site: World) -> None:
    """The limit is per address and user name; the address alone has a wider one (a name after name)."""
    app = make_app(site.url, LOGIN_RATE_LIMIT="2 per minute", LOGIN_ADDRESS_RATE_LIMIT="5 per minute")
    address = {"environ_base": {"REMOTE_ADDR": "192.0.2.41"}}
    assert [log_in(app.test_client(), "gm", WRONG, **address).status_code for _ in range(3)] == [422, 422, 429]
    assert log_in(app.test_client(), "player2", **address).status_code == 303
    names = ["player1", "nobody-1", "nobody-2"]  # the address's 4th, 5th and 6th attempts
    assert [log_in(app.test_client(), name, WRONG, **address).status_code for name in names] == [422, 422, 429]


def test_an_address_may_try_five_times_what_one_name_may_by_default(site: World) -> None:
    app = make_app(site.url, LOGIN_RATE_LIMIT="2 per minute")
    address = {"environ_base": {"REMOTE_ADDR": "192.0.2.42"}}
    statuses = [log_in(app.test_client(), f"nobody-{n}", WRONG, **address).status_code for n in range(11)]
    assert statuses == [422] * 10 + [429]


@pytest.mark.parametrize("value", ["-1", "two", "1.5"])
def test_a_trusted_proxies_setting_that_is_no_count_is_refused_at_start(
    value: str, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setenv("PBP_TRUSTED_PROXIES", value)
    with pytest.raises(ValueError, match="PBP_TRUSTED_PROXIES"):
        create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": "k"})


# ---- the same work for a known and an unknown name -----------------------------------------------------------------


class CountingHasher(PasswordHasher):
    """The tests' cheap argon2, keeping every hash it was asked to verify."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:  # noqa: A002 - argon2's own name
        self.verified.append(hash if isinstance(hash, str) else hash.decode())
        return super().verify(hash, password)


@pytest.mark.parametrize(
    ("name", "password", "signs_in"),
    [
        ("player1", DEMO_PASSWORD, True),
        ("player1", WRONG, False),
        ("nobody-at-all", WRONG, False),
        ("gm\x00", WRONG, False),
        ("player1", "pass\x00word", False),
    ],
    ids=["known, right", "known, wrong", "unknown", "not a name", "not a password"],
)
def test_every_login_verifies_one_hash_of_the_sites_parameters(
    site: World, monkeypatch: pytest.MonkeyPatch, name: str, password: str, signs_in: bool
) -> None:
    hasher = CountingHasher()
    monkeypatch.setattr(accounts, "_HASHER", hasher)
    client = make_app(site.url, LOGIN_RATE_LIMIT="1000 per minute").test_client()
    assert log_in(client, name, password).status_code == (303 if signs_in else 422)
    assert len(hasher.verified) == 1
    assert not hasher.check_needs_rehash(hasher.verified[0])  # argon2 with the hasher's own parameters
