"""The app's clock: the system's, or the one a test or a demo sets in the `CLOCK` setting (services take it)."""

from __future__ import annotations

from flask import current_app

from pbp.services.clock import SYSTEM, Clock


def app_clock() -> Clock:
    return current_app.config["CLOCK"] or SYSTEM
