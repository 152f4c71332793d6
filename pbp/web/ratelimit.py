"""A rate-limit storage in the app's database (`RATELIMIT_STORAGE_URI = "pbp-database://"`, the default).

Flask-Limiter's in-memory storage counts per process: under gunicorn's workers a limit of 10 login attempts a
minute let an address try 10 times per worker. Here every worker counts in one table (`rate_count`), one atomic
upsert per attempt, so the limit is the site's. Fixed windows (Flask-Limiter's default strategy) need only a
counter and the end of its window per key.
"""

from __future__ import annotations

import hashlib
import time

from limits.storage import Storage

from pbp.db import database

#: Keys longer than this are stored as their sha256 (an account name comes from the login form as typed).
KEY_LIMIT = 200


def _stored(key: str) -> str:
    return key if len(key) <= KEY_LIMIT else "sha256:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


class DatabaseStorage(Storage):
    """The counters in the `rate_count` table of the database the request uses (pbp.db.database)."""

    STORAGE_SCHEME = ["pbp-database"]

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return Exception

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """The key's count after adding `amount`; a window that ended starts again at `amount`."""
        db = database.obj
        now = time.time()
        p = db.param
        with db.atomic():
            db.execute_sql(f'DELETE FROM rate_count WHERE expires_at <= {p} AND "key" <> {p}', (now, _stored(key)))
            row = db.execute_sql(
                f'INSERT INTO rate_count ("key", "count", expires_at) VALUES ({p}, {p}, {p}) '
                'ON CONFLICT ("key") DO UPDATE SET '
                f'"count" = CASE WHEN rate_count.expires_at <= {p} THEN excluded."count" '
                'ELSE rate_count."count" + excluded."count" END, '
                f"expires_at = CASE WHEN rate_count.expires_at <= {p} THEN excluded.expires_at "
                "ELSE rate_count.expires_at END "
                'RETURNING "count"',
                (_stored(key), amount, now + expiry, now, now),
            ).fetchone()
        return int(row[0])

    def get(self, key: str) -> int:
        p = database.obj.param
        row = database.obj.execute_sql(
            f'SELECT "count" FROM rate_count WHERE "key" = {p} AND expires_at > {p}', (_stored(key), time.time())
        ).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        p = database.obj.param
        row = database.obj.execute_sql(
            f'SELECT expires_at FROM rate_count WHERE "key" = {p} AND expires_at > {p}', (_stored(key), time.time())
        ).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        cursor = database.obj.execute_sql("DELETE FROM rate_count")
        return int(cursor.rowcount)

    def clear(self, key: str) -> None:
        database.obj.execute_sql(f'DELETE FROM rate_count WHERE "key" = {database.obj.param}', (_stored(key),))
