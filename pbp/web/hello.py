"""`/hello`: a bare "hello" answered by the same app, only when `LOADTEST_HELLO` is set (off by default).

`make loadtest` turns it on to measure, in the same run and on the same server (its middleware, its hooks, its
workers), how many requests per second a route that does nothing serves: the entry saves' and the blog pages'
throughput are reported as a ratio of that (docs/loadtest.md)."""

from __future__ import annotations

from flask import Flask


def hello() -> tuple[str, int, dict[str, str]]:
    return "hello", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


def init_app(app: Flask) -> None:
    if app.config["LOADTEST_HELLO"]:
        app.add_url_rule("/hello", "hello", hello, methods=["GET"])
