"""gunicorn's settings for pbp (`gunicorn --config python:pbp.serving ...`; `pbp run` passes it): workers that one
slow client cannot starve.

gunicorn's default `sync` worker serves one connection at a time and reads a request's body with no time limit: two
clients that send their headers and then part of a body held both of `pbp run`'s workers until the arbiter killed them
(`timeout`, 30 s; issue 33 measured /healthz answered after 31 s). Here each worker runs `THREADS` threads (`gthread`)
and takes no more connections than that; a connection that sends nothing for 5 s is closed (gunicorn's wait for a
first byte, and no keep-alive); and a thread reading a body gives up when no byte has come for `BODY_TIMEOUT` seconds
(the app answers 400, Werkzeug's ClientDisconnected). A client trickling one byte every few seconds still holds one
thread, and so does one that sends part of its headers (gunicorn sets no timeout before the headers are in): in front
of the site a buffering proxy (docs/deploy.md) takes the whole request before gunicorn sees it. Figures:
docs/loadtest.md, "Slow bodies"; the measurement: `python -m loadtest.slow_bodies`."""

from __future__ import annotations

import contextlib
import socket
from typing import Any

worker_class = "gthread"
THREADS = 8  # per worker: `pbp run`'s 2 workers serve 16 requests at once
threads = THREADS
#: A worker takes no more connections than it has threads: a worker whose threads are all held stops accepting and
#: the next connection goes to a worker with a free thread (measured: with more, a held worker kept accepting and
#: /healthz waited behind its stalled bodies while the other worker sat idle). So no kept-alive connections either
#: (as with the sync workers before): each answer closes its connection.
worker_connections = THREADS
keepalive = 0
timeout = 30  # the arbiter restarts a worker whose main loop is silent this long (a hung worker, not a request)
BODY_TIMEOUT = 10.0  # seconds a thread waits for the next byte of a request's body (or for the client to read)


def pre_request(worker: Any, req: Any) -> None:
    """Bound the reads of this request's body (and the writes of its answer): gunicorn sets no timeout on the socket
    it hands to a thread, so without this a stalled client holds the thread for as long as it keeps the connection.
    A read that times out marks the request stalled (see post_request)."""
    worker.log.debug("%s %s", req.method, req.path)  # what gunicorn's own hook does
    unreader = getattr(req, "unreader", None)
    sock = getattr(unreader, "sock", None)  # an HTTP/2 stream has no socket of its own
    if sock is None:
        return
    sock.settimeout(BODY_TIMEOUT)
    # gthread writes the headers and the body in two sends: with Nagle's algorithm the body waits for the client's
    # delayed ACK of the headers (40 ms on Linux) whenever it does not fit the first segment. Measured on an 18 KB
    # report page: 124 pages/s at 2.5 ms of CPU each without this, as many as the sync worker with it.
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    read = unreader.chunk

    def chunk(*args: Any, **kwargs: Any) -> bytes:
        try:
            return read(*args, **kwargs)
        except TimeoutError:
            req.pbp_stalled = True
            raise

    unreader.chunk = chunk


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """A stalled client's connection is closed without gunicorn's graceful close, which waits up to 2 s for the
    client to finish sending, on the worker's main thread: 8 stalled clients froze a worker for 16 s (measured)."""
    if getattr(req, "pbp_stalled", False):
        with contextlib.suppress(OSError):
            req.unreader.sock.shutdown(socket.SHUT_RD)  # the graceful close's read then ends at once
