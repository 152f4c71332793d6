"""Real receivers on 127.0.0.1 for the notification tests: an SMTP server (aiosmtpd) and a webhook (an HTTP server)
that keep what arrived; the webhook answers what the test tells it (200, 500, or nothing for a while)."""

from __future__ import annotations

import email
import email.policy
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Inbox:
    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's hook
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[Inbox]:
    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@dataclass
class Hook:
    url: str = ""
    received: list[dict] = field(default_factory=list)
    #: What the next requests get: a status code, or a number of seconds to hang (a float) before answering 200.
    answers: list[int | float] = field(default_factory=list)


@pytest.fixture
def webhook() -> Iterator[Hook]:
    hook = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            answer = hook.answers.pop(0) if hook.answers else 200
            if isinstance(answer, float):
                time.sleep(answer)
                answer = 200
            if answer == 200:
                hook.received.append(json.loads(body))
            self.send_response(answer)
            self.end_headers()

        def log_message(self, *args) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hook.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hook
    finally:
        server.shutdown()
        server.server_close()
