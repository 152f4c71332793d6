"""The scheduler process: one APScheduler tick that asks the database what is due and resolves it.

It runs as its own process (`python -m scheduler`, or `pbp scheduler`), never inside the web workers: every process
that starts an APScheduler runs every job, so gunicorn workers or the Flask reloader would duplicate ticks
(notes/stack.md). It keeps no truth of its own: each tick asks the database (`pbp.services.schedule.tick`), so a
deadline missed while nothing ran is caught up at the first tick, and several schedulers by mistake still resolve
each round once (the claim in `pbp.services.rounds`).
"""
