"""One load client process (`python -m loadtest.client`): a share of the players and readers, as threads over plain
HTTP/1.1 on the loopback (the standard library's http.client: one connection per request, as gunicorn's sync
workers close each one).

It reads one JSON line (the server, its players, the reader pages), logs every player in (login form, then the
home page for its CSRF token), prints `ready`, reads a second JSON line (the phases'
times, epoch seconds) and runs them:

- saturation (`times["saturation"]`: `hello 1`, `entry`, `warm`, `hello 2`, `reader`, `hello 3`), `threads`
  threads each sending its next request as soon as the last one is answered (a bare `/hello`, an entry save of one
  player per thread, every distinct blog page in turn (unmeasured), a reader page): each measured phase lies between
  two of the baseline's, so a neighbour's load that comes and goes weighs on both sides of a ratio;
- `rush`: every player saves and re-saves its entry with a pause between saves that shortens toward the deadline
  (one in ten then views its form; a refused save shows the form again, with its token), while the readers browse
  with a pause between pages, until `rush_end`.

It prints one JSON line: every request (phase, route, start, seconds, status; status 0 when no answer came) and
every save each player sent, in order, with its prose and status: what the checks compare the database with.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import sys
import threading
import time
from typing import Any
from urllib.parse import urlencode

TIMEOUT = 120.0  # seconds: a slow answer is still an answer (its latency says how slow)
_CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
PROSE = "川霧の向こう、先頭の敵に照準を合わせる。「……外さない」" * 3


class Browser:
    """One user's cookies over fresh connections; every request is recorded."""

    def __init__(self, host: str, port: int, log: list[list[Any]], lock: threading.Lock):
        self.host, self.port, self.log, self.lock = host, port, log, lock
        self.cookies: dict[str, str] = {}
        self.phase = "setup"

    def request(self, route: str, method: str, path: str, form: dict[str, Any] | None = None) -> tuple[int, str]:
        headers = {"Host": f"{self.host}:{self.port}", "Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start, t0 = time.time(), time.perf_counter()
        status, text = 0, ""
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                text = response.read().decode("utf-8", "replace")
                status = response.status
                for cookie in response.headers.get_all("Set-Cookie") or []:
                    name, _, value = cookie.split(";", 1)[0].partition("=")
                    self.cookies[name.strip()] = value.strip()
            finally:
                conn.close()
        except (OSError, http.client.HTTPException) as e:
            text = f"{type(e).__name__}: {e}"
        elapsed = time.perf_counter() - t0
        with self.lock:
            self.log.append([self.phase, route, round(start, 4), round(elapsed, 5), status])
        return status, text


def _csrf(page: str) -> str:
    found = _CSRF.search(page)
    if not found:
        raise RuntimeError("no CSRF token in the page")
    return found.group(1) or found.group(2)


class Player:
    """A logged-in player: its entry form's address (its run's open round), CSRF token and order
    fields (an attack the rules allow), and every save it sent."""

    def __init__(self, browser: Browser, spec: dict[str, Any]):
        self.browser, self.spec = browser, spec
        self.path = f"/rounds/{spec['round_id']}/entry/{spec['character_id']}"
        self.token = ""
        self.fields: dict[str, list[str]] = spec["fields"]
        self.saves: list[list[Any]] = []  # [prose, start, status]
        self.lock = threading.Lock()  # the saturation thread and the rush never save at once, but be sure

    def log_in(self, password: str) -> None:
        b = self.browser
        status, page = b.request("login form", "GET", "/login")
        status, _ = b.request("login", "POST", "/login", {"csrf_token": _csrf(page), "name": self.spec["name"],
                                                          "password": password, "next": ""})  # fmt: skip
        if status != 303:
            raise RuntimeError(f"login of {self.spec['name']} answered {status}")
        self.refresh()
        if not self.token:
            raise RuntimeError(f"no CSRF token for {self.spec['name']}")

    def refresh(self) -> None:
        """A fresh CSRF token from the home page (its logout form), the session's own."""
        status, page = self.browser.request("home", "GET", "/")
        if status == 200:
            self.token = _csrf(page)

    def view_form(self) -> None:
        """The entry form, as the redirect after a save shows it."""
        status, page = self.browser.request("entry GET", "GET", self.path)
        if status == 200:
            self.token = _csrf(page)

    def save(self) -> int:
        with self.lock:
            prose = f"{self.spec['name']} #{len(self.saves) + 1}: {PROSE}"
            form: dict[str, Any] = {**self.fields, "csrf_token": self.token, "prose": prose}
            start = time.time()
            status, page = self.browser.request("entry POST", "POST", self.path, form)
            self.saves.append([prose, start, status])
            if status == 422:  # refused (late): the form came back with the text kept and its token, as in a browser
                self.token = _csrf(page)
            return status


def _until(moment: float) -> None:
    delay = moment - time.time()
    if delay > 0:
        time.sleep(delay)


def main() -> None:
    spec = json.loads(sys.stdin.readline())
    host, port = spec["host"], spec["port"]
    log: list[list[Any]] = []
    lock = threading.Lock()
    rng = random.Random(spec["seed"])
    players = [Player(Browser(host, port, log, lock), p) for p in spec["players"]]
    errors: list[str] = []

    def log_in(chunk: list[Player]) -> None:
        for p in chunk:
            try:
                p.log_in(spec["password"])
            except Exception as e:  # noqa: BLE001 - reported, the run then fails its checks
                errors.append(str(e))

    chunks = [players[i::8] for i in range(8)]
    threads = [threading.Thread(target=log_in, args=(c,)) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("ready", flush=True)
    times = json.loads(sys.stdin.readline())
    pages: list[tuple[str, str]] = [(route, path) for route, path in spec["reader_paths"]]
    distinct = list(dict.fromkeys(pages))  # the index and the campaign page come once per run in `pages`
    walkers = spec["threads"] * spec["clients"]

    def saturate(k: int) -> None:
        b = Browser(host, port, log, lock)
        player = players[k % len(players)]
        phases = times["saturation"] + [["rush", times["rush"]]]
        # Every saturating thread of every client starts at its own place, spread evenly over the pages: started
        # side by side, they read the same few pages at once and the warm-up made half the blog (2026-12-06: 47
        # of 102 pages per worker), so the measured phase met the other half cold.
        i = (spec["client"] * spec["threads"] + k) * len(pages) // walkers
        warm = (spec["client"] * spec["threads"] + k) * len(distinct) // walkers
        for (phase, start), (_next, end) in zip(phases, phases[1:], strict=False):
            _until(start)
            if phase == "entry":
                player.browser.phase = "entry"
                while time.time() < end:
                    player.save()
                player.browser.phase = "setup"
                continue
            b.phase = phase
            while time.time() < end:
                if phase.startswith("hello"):
                    b.request("hello", "GET", "/hello")
                elif phase == "warm":  # every page, each many times, so each worker has made each of them
                    route, path = distinct[warm % len(distinct)]
                    b.request(route, "GET", path)
                    warm += 1
                else:
                    route, path = pages[i % len(pages)]
                    b.request(route, "GET", path)
                    i += 1

    def rush(player: Player, seed: int) -> None:
        r = random.Random(seed)
        _until(times["rush"] + r.uniform(0, 20))  # the players come in over the first third of the minute
        player.browser.phase = "rush"
        while time.time() < times["rush_end"]:
            status = player.save()
            if status not in (303, 422):
                player.refresh()  # no form came back (an expired token, no answer): a fresh token from the home page
            elif r.random() < 0.1:
                player.view_form()  # some look at the form the save redirected to
            close = times["deadline"] - time.time() < 10
            time.sleep(r.uniform(1, 4) if close else r.uniform(6, 20))

    def read(seed: int) -> None:
        r = random.Random(seed)
        b = Browser(host, port, log, lock)
        b.phase = "rush"
        _until(times["rush"] + r.uniform(0, 2))
        while time.time() < times["rush_end"]:
            route, path = r.choice(pages)
            b.request(route, "GET", path)
            time.sleep(r.uniform(2, 6))  # reading the page

    work = [threading.Thread(target=saturate, args=(k,)) for k in range(spec["threads"])]
    work += [threading.Thread(target=rush, args=(p, rng.random())) for p in players]
    work += [threading.Thread(target=read, args=(rng.random(),)) for _ in range(spec["readers"])]
    for t in work:
        t.start()
    for t in work:
        t.join()
    saves = {p.spec["character_id"]: p.saves for p in players}
    json.dump({"requests": log, "saves": saves, "errors": errors}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
