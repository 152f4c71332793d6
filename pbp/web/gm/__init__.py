"""The GM's console (`/gm/`): the campaigns a user runs and, for each, what its GMs do. Every view goes through
`access.gm_campaign`, which refuses anyone but the campaign's GMs; the services check again."""

from flask import Blueprint

bp = Blueprint("gm", __name__, url_prefix="/gm")

from pbp.web.gm import access, growth, labels, publish, shaping, views  # noqa: E402,F401  (routes register on import)
