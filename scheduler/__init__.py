"""The scheduler process: one APScheduler tick that asks the database which rounds are due.

It runs as its own process (`python -m scheduler`), never inside the web workers; see docs and design.md.
"""
