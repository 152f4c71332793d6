"""The signed-in shell: the home page (campaigns, scenarios open for sign-up, rounds open for entries) and マイページ
(`/me`: the user's characters and scenarios, their language)."""

from flask import Blueprint

bp = Blueprint("player", __name__)

from pbp.web.player import characters, drafts, entries, expired, icons, notes, scenarios, views  # noqa: E402,F401  (routes register on import)
