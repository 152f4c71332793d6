"""The app's clock: the system's, or the one a test or a demo sets in the `CLOCK` setting (services take it); and
the time zone a page shows times in."""

from __future__ import annotations

from flask import current_app, has_request_context
from flask_login import current_user

from pbp.services.clock import SYSTEM, Clock


def app_clock() -> Clock:
    return current_app.config["CLOCK"] or SYSTEM


def shown_zone(campaign_zone: str) -> str:
    """The time zone this page shows a campaign's times in: the signed-in user's chosen one, else the campaign's (a
    visitor, a kept public page and a command always get the campaign's)."""
    chosen = getattr(current_user, "timezone", None) if has_request_context() else None
    return str(chosen or campaign_zone)
