"""pbp.lru: what the workers keep between requests is bounded, least recently used dropped first."""

from __future__ import annotations

from pbp.lru import Lru


def test_a_value_is_made_once_and_the_least_recently_used_goes_first():
    made: list[str] = []

    def make(key: str):
        return lambda: made.append(key) or key.upper()

    lru: Lru[str] = Lru(2)
    assert lru.get_or_make("a", make("a")) == "A"
    assert lru.get_or_make("b", make("b")) == "B"
    assert lru.get_or_make("a", make("a")) == "A"  # kept: a is now the most recent
    lru.get_or_make("c", make("c"))  # b goes
    assert lru.get_or_make("a", make("a")) == "A"
    assert lru.get_or_make("b", make("b")) == "B"
    assert made == ["a", "b", "c", "b"]
