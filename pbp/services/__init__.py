"""Use cases: the only code that changes the database. Each state change is one write transaction
(`pbp.db.write_transaction`); refusals are `pbp.errors.UserError` raised before anything is written.

The web layer, the scheduler and the CLI call these functions and nothing below them.
"""
