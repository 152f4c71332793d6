"""Security headers on every response and the session cookie's flags.

The pages carry no inline script or style (every style is in `static/site.css`, and there is no script at all), so
the Content-Security-Policy allows only the site's own files; images may also come over HTTPS, for a GM's
pictures in a report. Framing is refused twice (CSP `frame-ancestors` and the older `X-Frame-Options`).
"""

from __future__ import annotations

from flask import Flask
from werkzeug.wrappers import Response

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' https: data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
#: With HTTPS: browsers keep to HTTPS for a year.
HSTS = "max-age=31536000"


def init_app(app: Flask) -> None:
    """Cookie flags from the settings (Secure when `HTTPS`), and the headers on every response, error pages too."""
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=bool(app.config["HTTPS"]),
    )

    @app.after_request
    def _headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if app.config["HTTPS"]:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response
