"""`/favicon.ico`: the site's icon (a die's five, `pbp/static/favicon.ico`), where every browser asks for it
unprompted; without it each first visit logged a 404."""

from __future__ import annotations

from flask import Flask, send_from_directory
from werkzeug.wrappers import Response

#: A browser may keep the icon a week without asking again.
MAX_AGE = 7 * 24 * 3600


def init_app(app: Flask) -> None:
    def favicon() -> Response:
        return send_from_directory(
            str(app.static_folder), "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=MAX_AGE
        )

    app.add_url_rule("/favicon.ico", "favicon", favicon, methods=["GET"])
