"""The web app: `create_app()` builds a Flask app with one blueprint per area: the public blog, the campaigns' game
data and rules pages (`data`), the accounts (`auth`), the signed-in shell (`player`: home and マイページ) and
`/healthz`.

Views are thin: they query or call a service and render. Each app has its own database (`pbp.web.database`), used
by its requests only; models know nothing of Flask. Security headers, error pages and sessions are set up by their
own small modules (`security`, `errors`, `auth`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter, IntegerConverter, Map

from pbp.packs import SLUG
from pbp.paths import PROJECT_ROOT, TEMPLATES_DIR, instance_dir
from pbp.web import auth, database, errors, favicon, hello, hosts, i18n, language, security, urlencoded

STATIC_DIR = PROJECT_ROOT / "pbp" / "static"

DEFAULTS: dict[str, Any] = {
    "SECRET_KEY": None,  # None: a random key kept in the instance folder (instance/secret_key), made once
    "DATABASE_URL": None,  # None: DATABASE_URL from the environment, else SQLite under the instance folder
    "SITE_NAME": "pbp",
    "SITE_URL": None,  # absolute base for feeds and OpenGraph (e.g. https://pbp.example/); None: the request's
    "TRUSTED_HOSTS": None,  # the Host names answered (others: 400); None: localhost, 127.0.0.1, SITE_URL's host
    "BLOG_PAGE_SIZE": 10,
    "FEED_SIZE": 20,
    "LOCALE": "ja",
    "HTTPS": False,  # the site is served over HTTPS: Secure session cookie and Strict-Transport-Security
    "MAX_CONTENT_LENGTH": 1024 * 1024,  # bytes a request body may have (larger: the 413 page)
    "LOGIN_RATE_LIMIT": "10 per minute",  # login attempts per address and user name (Flask-Limiter's syntax)
    "LOGIN_ADDRESS_RATE_LIMIT": None,  # login attempts per address, whatever the names; None: 5 x LOGIN_RATE_LIMIT
    "TRUSTED_PROXIES": None,  # proxy hops whose X-Forwarded-For/-Proto/-Host are believed; None: PBP_TRUSTED_PROXIES
    "RATELIMIT_STORAGE_URI": "pbp-database://",  # where the limits count: the site's database (pbp.web.ratelimit)
    "SCHEDULER_STALE_AFTER": 300,  # seconds since the scheduler's last tick after which /healthz says degraded
    "CLOCK": None,  # None: the system's clock; tests set a pbp.services.clock.FixedClock (deadlines, entries)
    "ROUND_OVERDUE_AFTER": 900,  # seconds past its deadline after which an unresolved round makes /healthz degraded
    "PACKS_DIR": None,  # the folder of campaign packs the GM console upgrades from; None: the project's campaigns/
    "PAGE_CACHE_BYTES": 64 * 1024 * 1024,  # public pages kept per web worker for anonymous readers; 0: none
    "REMEMBER_DAYS": 30,  # how long 「ログイン状態を保持」 keeps a browser signed in (revoked by any logout)
    "MAIL": None,  # whether the site sends e-mail (a forgotten password's link); None: as PBP_SMTP_HOST says
    "LOADTEST_HELLO": False,  # serve a bare `/hello` (pbp.web.hello): `make loadtest`'s baseline, never on a real site
}
#: The environment's number of trusted proxy hops, when `TRUSTED_PROXIES` is not set (0 when neither is).
TRUSTED_PROXIES_ENV = "PBP_TRUSTED_PROXIES"
#: Set in a request's environ by the static export: pages leave out what only the live site has (accounts, home).
STATIC_EXPORT = "pbp.static_export"


class RowConverter(IntegerConverter):
    """`<row:...>`: a row id or a round number, 1..2**63-1 (what the database can hold): a larger one is a 404, not
    an integer overflow in the query."""

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=2**63 - 1)


class SlugConverter(BaseConverter):
    """`<slug:...>`: a campaign id or scenario slug (`pbp.packs.SLUG`, the only ones stored): anything else, a NUL
    (`%00`) included, is a 404 before a query, which PostgreSQL would refuse with an error."""

    regex = SLUG.pattern.removesuffix(r"\Z")  # the routing anchors it


def instance_secret_key(folder: Path) -> str:
    """The session-signing key: random, made on first use, kept readable by its owner only.

    Written whole under another name and linked into place, which fails if the key exists: gunicorn's workers
    starting together on a new instance all read the one key that won, never a half-written or second one."""
    path = folder / "secret_key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        draft = folder / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
        finally:
            draft.unlink()
    return path.read_text().strip()


def trusted_proxies(setting: object) -> int:
    """How many proxies in front of the app to believe about the client (`TRUSTED_PROXIES`, else the environment's
    PBP_TRUSTED_PROXIES, else 0). Anything but a count stops the start: a wrong value would silently make every
    client the proxy (one login limit for all) or let any client name its own address."""
    raw = os.environ.get(TRUSTED_PROXIES_ENV, "0") if setting is None else setting
    text = str(raw).strip()
    if isinstance(raw, bool) or not text.isascii() or not text.isdigit():
        raise ValueError(f"{TRUSTED_PROXIES_ENV} must be a number of proxy hops (0 or more), got {text[:40]!r}")
    return int(text)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app; `test_config` replaces `instance/config.py` (flaskr's pattern)."""
    app = Flask(
        __name__,
        instance_path=str(instance_dir()),
        instance_relative_config=True,
        template_folder=str(TEMPLATES_DIR),
        static_folder=str(STATIC_DIR),
    )
    app.request_class = urlencoded.Request  # percent-encoded Japanese read in one pass per run, not per byte
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)

    hops = trusted_proxies(app.config["TRUSTED_PROXIES"])
    if hops:  # the client's address, scheme and host as the proxies in front say (else each client is the proxy)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    hosts.init_app(app)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
    database.init_app(app)  # first: later hooks and error pages read the database inside its scope
    CSRFProtect(app)  # every POST of every blueprint carries a CSRF token (Flask-WTF)
    i18n.init_app(app)
    security.init_app(app)
    errors.init_app(app)

    from pbp.web import blog, data, gm, health, notify, page_cache, player

    app.url_map.converters.update(row=RowConverter, slug=SlugConverter)
    app.register_blueprint(blog.bp)
    app.register_blueprint(data.bp)
    auth.init_app(app)
    app.register_blueprint(player.bp)
    app.register_blueprint(notify.bp)
    app.register_blueprint(gm.bp)
    app.register_blueprint(health.bp)
    hello.init_app(app)
    favicon.init_app(app)
    language.init_app(app)
    page_cache.init_app(app)
    app.jinja_env.globals["site_name"] = app.config["SITE_NAME"]
    app.jinja_env.globals["runs_any_campaign"] = gm.access.runs_any_campaign
    app.jinja_env.globals["static_export"] = lambda: bool(request.environ.get(STATIC_EXPORT))
    return app
