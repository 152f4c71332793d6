"""`python -m loadtest [--db sqlite|postgresql|all] [--faults no|yes|both] [--neighbour yes|no]`: the deadline rush,
checked.

One run: a fresh database (a SQLite file, or a PostgreSQL database created for the run and dropped after), the
campaign (`world`: the demo's battle run again and again at its slot count, the players spread over the runs),
gunicorn as `pbp run` serves (2 threaded workers) and the scheduler (`servers`), CLIENTS client processes (`client`),
and by default a neighbour process spinning on one core (`servers.Neighbour`: a shared host). Phases, in one run of the
same server: the players log in; 5 s each of saturation on `/hello`, on entry saves, on the blog's pages unmeasured (a
warm-up), on `/hello` again, on the blog's pages and on `/hello` once more (each measured phase against the mean of
the two baseline phases around it); then the
rush: every run's round due RUSH seconds ahead, every player saving and re-saving, READERS readers browsing, until a
few seconds past the deadline; then the scheduler closes, resolves and publishes every round.

Checks afterwards (any failure: exit status 1): every save the server acknowledged (303) is stored exactly once and
each entry is its player's last acknowledged save (with faults, or a later one whose answer was lost in a kill);
no save acknowledged or stored at or after the deadline; every run's round resolved exactly once; PRAGMA
integrity_check (SQLite); no 5xx. The goals are printed, met or MISSED, and a run without faults that misses one
fails too: during the rush, saves before the deadline, refusals after it and reader pages answered within
GOAL_P99 (p99), and at saturation the blog's pages at GOAL_READER_RATIO of `/hello` at least (the entry saves'
ratio is printed beside them). With faults the latencies include the killed workers' and only the guarantees count.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from loadtest.version import VersionWatch

os.environ["PBP_CHEAP_PASSWORD_HASHING"] = "1"  # before pbp.services.accounts is imported

PLAYERS, READERS, CLIENTS, THREADS = 200, 50, 2, 8  # THREADS: saturating threads per client process
RUSH = 60  # seconds from the rush's start to the deadline
AFTER = 4  # seconds the players keep trying past the deadline
LATE_SAMPLED = 6  # seconds past the rush's end the CPU is sampled: the resolution and publication
SATURATE = 5  # seconds of each saturation phase
#: The saturation phases in turn: each measured one between two of the baseline's (`hello`), whose mean it is
#: compared with, so a neighbour's load that comes and goes during the run weighs on both sides of the ratio.
#: `warm` (not measured) reads every blog page before `reader` does: the ratio is the blog's steady state, a page
#: served from its worker's cache (docs/loadtest.md). What a page costs made cold is bench/blog.py's figure, and the
#: rush's readers meet it whenever the site's version moves.
SATURATION = ("hello 1", "entry", "warm", "hello 2", "reader", "hello 3")
GOAL_P99 = 0.250
#: Rush routes that are not a reader's page: the players' own (their form, their saves) and the logins.
_NOT_READING = frozenset({"entry GET", "entry POST", "login form", "login", "home", "hello"})
GOAL_ENTRY_RATIO, GOAL_READER_RATIO = 0.40, 0.50
PG_ADMIN_URL = os.environ.get("PBP_LOADTEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def _pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Database:
    """The run's database: a SQLite file in the run's folder, or a PostgreSQL database made for it."""

    def __init__(self, kind: str, folder: Path):
        self.kind = kind
        if kind == "sqlite":
            self.path = folder / "pbp.sqlite3"
            self.url = f"sqlite:///{self.path}"
        else:
            self.name = f"pbp_loadtest_{os.getpid()}_{int(time.time())}"
            self._admin(f'CREATE DATABASE "{self.name}"')
            self.url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{self.name}"

    @staticmethod
    def _admin(sql: str) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(sql)

    def drop(self) -> None:
        if self.kind != "sqlite":
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def integrity(self) -> str:
        if self.kind != "sqlite":
            return "n/a (PostgreSQL)"
        with sqlite3.connect(self.path) as conn:
            return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def _clients(servers: Any, world: Any, round_ids: list[int]) -> list[subprocess.Popen[str]]:
    procs = []
    for i in range(CLIENTS):
        share = world.players[i::CLIENTS]
        spec = {
            "host": "127.0.0.1",
            "port": servers.port,
            "seed": i,
            "client": i,
            "clients": CLIENTS,
            "password": "loadtest-password",
            "players": [
                {"name": p.name, "character_id": p.character_id, "round_id": round_ids[p.run], "fields": p.fields}
                for p in share
            ],
            "readers": READERS // CLIENTS,
            "threads": THREADS,
            "reader_paths": world.reader_paths,
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "loadtest.client"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(spec) + "\n")
        proc.stdin.flush()
        procs.append(proc)
    return procs


def run_once(kind: str, faults: bool, neighbour: bool = True, keep: bool = False) -> bool:
    """One run; True when every check passed, and without faults every goal was met too."""
    from loadtest import world as worlds
    from loadtest.servers import Neighbour, Servers
    from pbp import db as pbp_db
    from pbp import migrations

    title = f"{'SQLite (WAL)' if kind == 'sqlite' else 'PostgreSQL'}{', with faults' if faults else ''}"
    beside = ", a CPU-hog neighbour" if neighbour else ""
    print(f"\n=== {title}: {PLAYERS} players, {READERS} readers, gunicorn 2 threaded workers + scheduler{beside}",
          flush=True)  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="pbp-loadtest-"))
    database = Database(kind, folder)
    servers = Servers(folder, database.url)
    hog = Neighbour()
    kept = False
    try:
        t0 = time.time()
        bound = pbp_db.bind(database.url)
        with bound.connection_context():
            migrations.upgrade(bound)
            world = worlds.prepare(PLAYERS)
        print(f"prepared the campaign in {time.time() - t0:.0f} s: {len(world.runs)} runs of {worlds.SCENARIO} at "
              f"{world.slots} slots, each with a published first round", flush=True)  # fmt: skip
        servers.start()
        with bound.connection_context():  # open now, their deadline an hour away until every player is logged in
            round_ids, world = worlds.open_rush_rounds(world, datetime.now(UTC) + timedelta(hours=1))
        procs = _clients(servers, world, round_ids)
        t0 = time.time()
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()
            if line != "ready\n":
                raise RuntimeError(f"a client failed to start: {line!r}")
        print(f"{PLAYERS} players logged in in {time.time() - t0:.0f} s", flush=True)
        quiet = _wait_quiet(bound, timeout=120)  # the rounds' opening notices and reminders, sent before measuring
        print(f"the scheduler's notifications were all delivered {quiet:.0f} s later" if quiet is not None
              else "the scheduler still had notifications to deliver after 120 s", flush=True)  # fmt: skip
        deadline = float(int(time.time()) + len(SATURATION) * SATURATE + 2 + RUSH)
        with bound.connection_context():  # the GM brings the deadline forward: the rush's minute
            worlds.set_deadline(world, round_ids, datetime.fromtimestamp(deadline, UTC))
        rush = deadline - RUSH
        start = rush - len(SATURATION) * SATURATE
        times = {
            "saturation": [[phase, start + k * SATURATE] for k, phase in enumerate(SATURATION)],
            "rush": rush,
            "deadline": deadline,
            "rush_end": deadline + AFTER,
        }
        if neighbour:
            hog.start()  # from the saturation phases to the rounds' publication
        sampler = None if faults else _sampler(bound, database, servers, procs)
        if sampler is not None:
            sampler.start(until=deadline + AFTER + LATE_SAMPLED)
        watch = VersionWatch(bound)
        watch.start()
        for p in procs:
            assert p.stdin is not None
            p.stdin.write(json.dumps(times) + "\n")
            p.stdin.flush()
        if faults:
            servers.faults(until=deadline + AFTER, deadline=deadline, seed=int(deadline))
        results = [json.loads(p.communicate(timeout=RUSH + 300)[0]) for p in procs]
        resolved_by = _wait_resolved(bound, round_ids, timeout=120)
        watch.stop()
        hog.stop()
        servers.stop()
        (folder / "requests.json").write_text(json.dumps({"times": times, "results": results}))
        ok = _report(bound, database, round_ids, deadline, times, results, servers.kills, faults, resolved_by,
                     sampler, watch)  # fmt: skip
        kept = keep or not ok
        return ok
    except BaseException:
        kept = True
        raise
    finally:
        hog.stop()
        servers.stop()
        database.drop()
        if kept:
            print(f"the run's folder (server logs, every request in requests.json) is kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _sampler(bound: Any, database: Database, servers: Any, procs: list[subprocess.Popen[str]]) -> Any:
    """A CPU sampler (loadtest.cpu) of the run's processes by kind, None where /proc is not there."""
    from loadtest.cpu import Sampler

    if not Sampler.available():
        return None
    kinds = {"web": [servers.web.pid, *servers.workers()], "scheduler": [servers.scheduler.pid],
             "clients": [p.pid for p in procs]}  # fmt: skip
    if database.kind != "sqlite":  # its backends (the workers', the scheduler's) and its own background processes
        sql = ("SELECT pid FROM pg_stat_activity WHERE (datname = current_database() OR datname IS NULL) "
               "AND pid <> pg_backend_pid()")  # fmt: skip
        with bound.connection_context():
            kinds["database"] = [row[0] for row in bound.execute_sql(sql).fetchall()]
    return Sampler(kinds)


def _print_cpu(sampler: Any, times: dict[str, Any], results: list[dict[str, Any]]) -> None:
    """Each saturation phase's CPU per request by kind of process (loadtest.cpu)."""
    counts = Counter(r[0] for res in results for r in res["requests"])
    rows = []
    for phase, start in times["saturation"]:
        cost = sampler.per_request(start + 0.25, start + SATURATE - 0.25, counts[phase])
        if cost is not None:
            rows.append((phase, cost))
    if not rows:
        return
    kinds = [k for k in ("web", "database", "clients", "scheduler", "machine") if k in rows[0][1]]
    print("CPU per request, ms (machine: all its cores' busy time):")
    print(f"{'phase':8}" + "".join(f"{k:>10}" for k in kinds))
    for phase, cost in rows:
        print(f"{phase:8}" + "".join(f"{cost[k]:10.2f}" for k in kinds))
    deadline, late_end = times["deadline"], times["rush_end"] + LATE_SAMPLED
    spans = (("the rush's last 10 s", deadline - 10, deadline), ("after the deadline", deadline, late_end))
    for name, start, end in spans:
        busy = sampler.cores(start, end)
        if busy is not None:
            print(f"cores busy {name} (the neighbour's among the machine's): "
                  + ", ".join(f"{k} {busy[k]:.2f}" for k in kinds))  # fmt: skip


def _print_moves(watch: VersionWatch, times: dict[str, Any]) -> None:
    """How far the site's version moved in each phase: each move makes every cached page cold (loadtest.version)."""
    phases = [*times["saturation"], ["rush", times["rush"]], ["late", times["deadline"]], ["", times["rush_end"]]]
    moved = [f"{name} {watch.moves(start, end)}" for (name, start), (_, end) in zip(phases, phases[1:], strict=False)]
    print("the site's version moved: " + ", ".join(moved) + " (late: from the deadline to the rush's end)")


def _wait_quiet(bound: Any, timeout: float) -> float | None:
    """Seconds until the scheduler has reminded every player it will and delivered every notification due (the
    rounds' opening notices, the reminders their deadline an hour ahead calls for), None if not within `timeout`.
    Sent while a saturation phase ran, they weighed on that phase alone: on `hello 1`, ~10% of its requests."""
    from pbp.models import Outbox
    from pbp.services import notifications
    from pbp.services.clock import to_db

    t0 = time.time()
    while time.time() - t0 < timeout:
        with bound.connection_context():
            due = Outbox.select().where(Outbox.status == "pending", Outbox.next_attempt_at <= to_db(datetime.now(UTC)))
            if not notifications.rounds_to_remind() and not due.exists():
                return time.time() - t0
        time.sleep(0.5)
    return None


def _wait_resolved(bound: Any, round_ids: list[int], timeout: float) -> float | None:
    """Seconds until the scheduler published every run's round, None if it did not in time."""
    from pbp.models import Round

    t0 = time.time()
    while time.time() - t0 < timeout:
        with bound.connection_context():
            waiting = Round.select().where(Round.id.in_(round_ids), Round.state != "published").count()
        if not waiting:
            return time.time() - t0
        time.sleep(0.5)
    return None


def _report(
    bound: Any,
    database: Database,
    round_ids: list[int],
    deadline: float,
    times: dict[str, float],
    results: list[dict[str, Any]],
    kills: list[tuple[float, str]],
    faults: bool,
    resolved_by: float | None,
    sampler: Any,
    watch: VersionWatch,
) -> bool:
    from pbp.models import AuditLog, Entry, EntryRevision, Resolution, ResolutionVersion, Round
    from pbp.services.clock import from_db

    requests = [r for res in results for r in res["requests"]]
    saves: dict[int, list[list[Any]]] = {int(k): v for res in results for k, v in res["saves"].items()}
    problems = [e for res in results for e in res["errors"]]

    # Figures: per phase and route.
    by: dict[tuple[str, str], list[list[Any]]] = defaultdict(list)
    for r in requests:
        by[(r[0], r[1])].append(r)
    spans = {**dict.fromkeys(SATURATION, SATURATE), "rush": times["rush_end"] - times["rush"]}
    print(f"{'phase':7} {'route':14} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7}  statuses")
    rate: dict[tuple[str, str], float] = {}
    for (phase, route), rows in sorted(by.items()):
        if phase == "setup":
            continue
        lat = sorted(r[3] for r in rows)
        rate[(phase, route)] = len(rows) / spans[phase]
        statuses = Counter(r[4] for r in rows)
        shown = " ".join(f"{s or 'none'}:{n}" for s, n in sorted(statuses.items()))
        print(f"{phase:7} {route:14} {len(rows):8} {rate[(phase, route)]:7.1f} {_pct(lat, 50) * 1000:7.1f} "
              f"{_pct(lat, 99) * 1000:7.1f}  {shown}")  # fmt: skip
    hellos = [rate.get((f"hello {n}", "hello"), 0.0) for n in (1, 2, 3)]
    entry, entry_base = rate.get(("entry", "entry POST"), 0.0), (hellos[0] + hellos[1]) / 2
    reader, reader_base = sum(v for (phase, _), v in rate.items() if phase == "reader"), (hellos[1] + hellos[2]) / 2
    before = sorted(r[3] for r in by[("rush", "entry POST")] if r[2] < deadline)
    late = sorted(r[3] for r in by[("rush", "entry POST")] if r[2] >= deadline)
    p99 = _pct(before, 99)
    print(f"rush entry POSTs sent before the deadline: {len(before)}, p50 {_pct(before, 50) * 1000:.1f} ms, p99 "
          f"{p99 * 1000:.1f} ms; sent after it (refused): {len(late)}, p50 {_pct(late, 50) * 1000:.1f} ms, "
          f"p99 {_pct(late, 99) * 1000:.1f} ms")  # fmt: skip
    e_ratio = entry / entry_base if entry_base else 0.0
    r_ratio = reader / reader_base if reader_base else 0.0
    print(f"saturation: hello {' / '.join(f'{h:.0f}' for h in hellos)}/s; entry saves {entry:.0f}/s ({e_ratio:.0%} "
          f"of the hello around them, {entry_base:.0f}/s), blog pages {reader:.0f}/s ({r_ratio:.0%} of "
          f"{reader_base:.0f}/s)")  # fmt: skip
    reading = sorted(r[3] for (phase, route), rows in by.items() if phase == "rush" and route not in _NOT_READING
                     for r in rows)  # fmt: skip
    form = sorted(r[3] for r in by[("rush", "entry GET")])
    print(
        f"rush reader pages: {len(reading)}, p50 {_pct(reading, 50) * 1000:.1f} ms, p99 "
        f"{_pct(reading, 99) * 1000:.1f} ms; the entry form: {len(form)}, p99 {_pct(form, 99) * 1000:.1f} ms"
    )
    ms = GOAL_P99 * 1000
    goals = [
        (f"rush saves before the deadline p99 {p99 * 1000:.0f} ms <= {ms:.0f} ms", p99 <= GOAL_P99),
        (f"rush refusals after the deadline p99 {_pct(late, 99) * 1000:.0f} ms <= {ms:.0f} ms",
         _pct(late, 99) <= GOAL_P99),
        (f"rush reader pages p99 {_pct(reading, 99) * 1000:.0f} ms <= {ms:.0f} ms", _pct(reading, 99) <= GOAL_P99),
        (f"saturated blog pages {r_ratio:.0%} of hello >= {GOAL_READER_RATIO:.0%}", r_ratio >= GOAL_READER_RATIO),
    ]  # fmt: skip
    for text, met in goals:
        print(f"goal: {text}: {'met' if met else 'MISSED'}")
    print(f"saturated entry saves {e_ratio:.0%} of hello (the figure issue 16 set at {GOAL_ENTRY_RATIO:.0%})")
    if sampler is not None:
        _print_cpu(sampler, times, results)
    _print_moves(watch, times)
    if kills:
        print(f"faults: {len(kills)} SIGKILLs: " + ", ".join(f"{what} at T{at - deadline:+.1f}s" for at, what in kills))

    # Checks.
    with bound.connection_context():
        stored = {
            e.character_id: e.prose
            for e in Entry.select(Entry.character, Entry.prose).where(Entry.round.in_(round_ids))
        }
        revisions = list(
            EntryRevision.select(EntryRevision.prose, EntryRevision.saved_at).where(EntryRevision.round.in_(round_ids))
        )
        states = Counter(r.state for r in Round.select(Round.state).where(Round.id.in_(round_ids)))
        resolutions = Counter(r.round_id for r in Resolution.select(Resolution.round).where(
            Resolution.round.in_(round_ids)))  # fmt: skip
        versions = ResolutionVersion.select().where(ResolutionVersion.round.in_(round_ids)).count()
        targets = [f"round:{i}" for i in round_ids]
        resolves = Counter(a.target for a in AuditLog.select(AuditLog.target).where(
            AuditLog.action == "round.resolve", AuditLog.target.in_(targets)))  # fmt: skip
    stored_times = Counter(r.prose for r in revisions)
    acked = 0
    for character_id, sent in saves.items():
        acks = [i for i, (_, _, status) in enumerate(sent) if status == 303]
        acked += len(acks)
        for i in acks:
            if stored_times[sent[i][0]] != 1:
                problems.append(
                    f"character {character_id}: acknowledged save #{i + 1} stored {stored_times[sent[i][0]]} times"
                )
        last = acks[-1] if acks else -1
        allowed = {sent[last][0]} if acks else {None}
        lost = {prose for prose, _, status in sent[last + 1 :] if status == 0}  # no answer: may have committed
        allowed |= lost  # a kill (or a client's timeout) lost the answer: never acknowledged, may be stored
        if stored.get(character_id) not in allowed:
            problems.append(f"character {character_id}: stored {str(stored.get(character_id))[:30]!r}, "
                            f"not its last acknowledged save")  # fmt: skip
        late = [i for i, (_, start, status) in enumerate(sent) if status == 303 and start >= deadline]
        if late:
            problems.append(f"character {character_id}: {len(late)} saves acknowledged after the deadline")
    late_rows = [r for r in revisions if from_db(r.saved_at).timestamp() >= deadline]
    if late_rows:
        problems.append(f"{len(late_rows)} entry revisions stored at or after the deadline")
    once = [i for i in round_ids if resolutions[i] == 1 and resolves[f"round:{i}"] == 1]
    if states != Counter({"published": len(round_ids)}) or len(once) != len(round_ids) or versions:
        problems.append(f"rounds {dict(states)}, {len(round_ids) - len(once)} not resolved exactly once, "
                        f"{versions} re-resolutions")  # fmt: skip
    integrity = database.integrity()
    if integrity not in ("ok", "n/a (PostgreSQL)"):
        problems.append(f"integrity_check: {integrity}")
    server_errors = [r for r in requests if r[4] >= 500]
    if server_errors:
        problems.append(f"{len(server_errors)} responses were 5xx: " + ", ".join(sorted({r[1] for r in server_errors})))
    no_answer = sum(1 for r in requests if r[4] == 0)
    if no_answer and not faults:
        problems.append(f"{no_answer} requests got no answer")
    after = sum(1 for sent in saves.values() for _, start, status in sent if start >= deadline)
    when = f"published {resolved_by:.1f} s after the rush" if resolved_by is not None else "NOT all published"
    print(
        f"checks: {acked} saves acknowledged, {len(revisions)} revisions stored, {len(stored)} entries; {after} saves "
        f"sent at or after the deadline, none stored; {no_answer} requests without an answer; the rounds {when}"
    )
    print(
        f"checks: {len(once)} of {len(round_ids)} rounds resolved exactly once; integrity_check {integrity}; "
        f"5xx {len(server_errors)}"
    )
    for p in problems[:20]:
        print(f"FAILED: {p}")
    print("guarantees: " + ("all held" if not problems else f"{len(problems)} FAILED"), flush=True)
    missed = [text for text, met in goals if not met]
    if missed and not faults:
        print(f"goals: {len(missed)} MISSED (a run without faults must meet them)", flush=True)
    return not problems and (faults or not missed)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m loadtest", description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "all"], default="all")
    parser.add_argument("--faults", choices=["no", "yes", "both"], default="both")
    parser.add_argument("--neighbour", choices=["yes", "no"], default="yes", help="a process spinning on one core")
    parser.add_argument("--keep", action="store_true", help="keep every run's folder (server logs, requests.json)")
    args = parser.parse_args()
    kinds = ["sqlite", "postgresql"] if args.db == "all" else [args.db]
    fault_modes = {"no": [False], "yes": [True], "both": [False, True]}[args.faults]
    random.seed()
    ok = [run_once(kind, faults, args.neighbour == "yes", args.keep) for faults in fault_modes for kind in kinds]
    print(f"\nmake loadtest: {sum(ok)} of {len(ok)} runs held every guarantee (and, without faults, every goal)")
    sys.exit(0 if all(ok) else 1)


if __name__ == "__main__":
    main()
