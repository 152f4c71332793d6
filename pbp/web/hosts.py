"""Which `Host` a request may name: the app builds absolute URLs (OpenGraph's `og:url`, the feeds' links, the
trailing-slash redirect) from SITE_URL, else from the request's own root, so a Host it does not trust would be
echoed into pages and feeds (`Host: evil.example`, cache poisoning). Flask 3.1's TRUSTED_HOSTS refuses such a
request with 400 before any view runs, and the refusal does not name the Host either."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from werkzeug.exceptions import SecurityError

#: The names a development server on this machine is reached by (`make run`: http://127.0.0.1:5000/).
LOCAL_HOSTS = ("localhost", "127.0.0.1")


def trusted_hosts(config: Mapping[str, Any]) -> list[str]:
    """TRUSTED_HOSTS as configured; unset (None), the local names and SITE_URL's host name."""
    if config.get("TRUSTED_HOSTS") is not None:
        return list(config["TRUSTED_HOSTS"])
    site = urlsplit(config.get("SITE_URL") or "").hostname
    return [*LOCAL_HOSTS, *([site] if site and site not in LOCAL_HOSTS else [])]


def absolute(path: str) -> str:
    """`path` on this site as an absolute URL (feeds, OpenGraph, a mailed link): on SITE_URL when configured, else
    on the request's own root, whose host is a trusted one."""
    return (current_app.config["SITE_URL"] or request.url_root).rstrip("/") + "/" + path.lstrip("/")


def init_app(app: Flask) -> None:
    """Answer only trusted hosts (call once the config is loaded)."""
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config)
    app.register_error_handler(SecurityError, _refused)


def _refused(_error: SecurityError) -> tuple[str, int, dict[str, str]]:
    """Werkzeug's own page repeats the Host it refuses; this one does not."""
    return "400 Bad Request: this site does not answer to that host name\n", 400, {"Content-Type": "text/plain"}
