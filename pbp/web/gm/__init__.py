"""The GM's console (`/gm/`): the campaigns a user runs and, for each, what its GMs do. Every view goes through
`access.gm_campaign`, which refuses anyone but the campaign's GMs; the services check again."""

from collections.abc import Callable

from flask import Blueprint

bp = Blueprint("gm", __name__, url_prefix="/gm")
#: Endpoint -> the page a form written at length comes back as when its CSRF token expired (everything typed kept,
#: a fresh token, status 400); other GM forms get the 400 page (`publish._expired`).
EXPIRED_PAGES: dict[str, Callable[[], tuple[str, int]]] = {}

from pbp.web.gm import (  # noqa: E402,F401  (routes register on import)
    access,
    comments,
    growth,
    judging,
    labels,
    notes,
    publish,
    roster,
    rounds,
    scenarios,
    secrets,
    settings,
    shaping,
    texts,
    views,
)
