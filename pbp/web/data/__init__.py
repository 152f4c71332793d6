"""The campaigns' game-data pages (the rules wiki players read while writing) and the rulesets' rules pages, built
from the loaded pack and the project's rules reference; plus the template helpers that link names and rule ids to
them from any page."""

from flask import Blueprint

bp = Blueprint("data", __name__)

from pbp.web.data import views, words  # noqa: E402,F401  (routes and helpers register on import)
