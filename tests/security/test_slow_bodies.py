"""Slow request bodies cannot starve the site (issue 33): under `pbp run`'s own gunicorn command (pbp.cli.run,
settings in pbp.serving), with two connections that sent a POST's headers and part of its body and then nothing,
/healthz still answers at once, and the stalled requests themselves are answered (and their threads freed) once
no byte has come for BODY_TIMEOUT. Before, gunicorn's sync workers were both held until the arbiter killed them:
/healthz answered after 31 s. The bounds are liveness, not speed: generous on a busy machine."""

from __future__ import annotations

import socket
import time

import pytest

from loadtest.slow_bodies import gunicorn, healthz_seconds, pbp_run_server, slow_bodies
from pbp.serving import BODY_TIMEOUT

pytestmark = pytest.mark.slow


def _answer(conn: socket.socket, within: float) -> bytes:
    """What the server sent on `conn` before closing it, waiting at most `within` seconds in all."""
    conn.settimeout(within)
    received = b""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        received += chunk
    return received


def test_two_slow_bodies_leave_the_site_answering(tmp_path):
    with gunicorn(tmp_path, pbp_run_server) as port, slow_bodies(port, 2) as held:
        took = healthz_seconds(port, limit=10)
        assert took is not None and took < 10, f"/healthz beside two stalled bodies: {took}"
        started = time.monotonic()
        answers = [_answer(conn, BODY_TIMEOUT + 10) for conn in held]
        waited = time.monotonic() - started
    assert all(answer.startswith(b"HTTP/1.1 400") for answer in answers), [a[:60] for a in answers]
    assert waited < BODY_TIMEOUT + 10
