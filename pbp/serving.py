"""gunicorn's settings for pbp (`gunicorn --config python:pbp.serving ...`; `pbp run` passes it): workers that one
slow client cannot starve.

gunicorn's default `sync` worker serves one connection at a time and reads a request's body with no time limit:
two clients that send their headers and then part of a body held both of `pbp run`'s workers until the arbiter
killed them (`timeout`, 30 s; issue 33 measured /healthz answered after 31 s). Here each worker runs `THREADS`
threads (`gthread`): a connection that has sent nothing yet waits in the worker's poller, not in a thread, and a
thread reading a body gives up when no byte has come for `BODY_TIMEOUT` seconds (the app answers 400, Werkzeug's
ClientDisconnected). A client trickling one byte every few seconds still holds one thread: in front of the site a
buffering proxy (docs/deploy.md) takes the whole request before gunicorn sees it. Figures: docs/loadtest.md,
"Slow bodies"; the measurement: `python -m loadtest.slow_bodies`."""

from __future__ import annotations

from typing import Any

worker_class = "gthread"
THREADS = 8  # per worker: `pbp run`'s 2 workers serve 16 requests at once
threads = THREADS
timeout = 30  # the arbiter restarts a worker whose main loop is silent this long (a hung worker, not a request)
keepalive = 2  # seconds an idle kept-alive connection stays in the poller (it holds no thread meanwhile)
BODY_TIMEOUT = 10.0  # seconds a thread waits for the next byte of a request's body (or for the client to read)


def pre_request(worker: Any, req: Any) -> None:
    """Bound the reads of this request's body (and the writes of its answer): gunicorn sets no timeout on the socket
    it hands to a thread, so without this a stalled client holds the thread for as long as it keeps the connection."""
    worker.log.debug("%s %s", req.method, req.path)  # what gunicorn's own hook does
    sock = getattr(getattr(req, "unreader", None), "sock", None)  # an HTTP/2 stream has no socket of its own
    if sock is not None:
        sock.settimeout(BODY_TIMEOUT)
