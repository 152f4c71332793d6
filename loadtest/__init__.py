"""`make loadtest`: the deadline rush against the real server (gunicorn with 2 workers and the scheduler), on
SQLite (WAL) and on PostgreSQL, with and without faults. See docs/loadtest.md.

- `world`: the campaign the run plays (200 players in one battle), made through the services.
- `servers`: gunicorn and the scheduler as child processes, and the faults (SIGKILL and restart).
- `client`: the simulated players and readers, one process per share of them, over plain HTTP on the loopback.
- `__main__`: the phases, the checks afterwards and the printed figures.
"""
