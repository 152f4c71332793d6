"""Dice sources: a verifiable seeded stream and a scripted list for tests and vectors.

The seeded stream is the one `docs/dice.md` specifies: block k is HMAC-SHA256(key=seed, msg=k as 8-byte
big-endian); each byte b < 252 gives the die b % 6 + 1, bytes 252..255 are skipped (no modulo bias).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol

from pbp.engine.errors import DiceExhausted

_ACCEPT_BELOW = 252  # 252 = 6 * 42: the largest multiple of 6 that fits in a byte


class DiceSource(Protocol):
    """Anything that hands out d6 results in order."""

    used: int

    def roll(self, n: int) -> list[int]:
        """The next `n` d6 results, in order."""
        ...

    def left(self) -> int | None:
        """How many scripted dice remain (None for an endless source)."""
        ...


def seed_hash(seed: str) -> str:
    """The commitment published before the deadline: sha256 of the seed's UTF-8 bytes, hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class SeededDice:
    """The verifiable stream: HMAC-SHA256(seed, counter) blocks, rejection-sampled to unbiased d6."""

    __slots__ = ("_counter", "_key", "_pool", "seed", "used")

    def __init__(self, seed: str):
        self.seed = seed
        self._key = seed.encode("utf-8")
        self._counter = 0
        self._pool: list[int] = []
        self.used = 0

    def _refill(self) -> None:
        block = hmac.digest(self._key, self._counter.to_bytes(8, "big"), "sha256")
        self._counter += 1
        # Stored reversed so that pop() hands out the block's dice in order.
        self._pool[:0] = [b % 6 + 1 for b in reversed(block) if b < _ACCEPT_BELOW]

    def roll(self, n: int) -> list[int]:
        pool = self._pool
        while len(pool) < n:
            self._refill()
        if n <= 0:
            return []
        out = pool[: -n - 1 : -1]  # the last n, newest-last storage read back in order
        del pool[-n:]
        self.used += n
        return out

    def left(self) -> int | None:
        return None


class ScriptedDice:
    """A fixed list of results, consumed in order; running out is an error naming how many were used."""

    __slots__ = ("_dice", "used")

    def __init__(self, dice: list[int]):
        for d in dice:
            if not 1 <= d <= 6:
                raise ValueError(f"a d6 result must be 1..6, got {d}")
        self._dice = list(dice)
        self.used = 0

    def roll(self, n: int) -> list[int]:
        end = self.used + n
        if end > len(self._dice):
            raise DiceExhausted(len(self._dice))
        out = self._dice[self.used : end]
        self.used = end
        return out

    def left(self) -> int | None:
        return len(self._dice) - self.used
