"""The public blog: published reports only (index, campaign, scenario, report, character chronicle, Atom feeds)."""

from flask import Blueprint

bp = Blueprint("blog", __name__)

from pbp.web.blog import views  # noqa: E402,F401  (routes register on import)
