"""The benchmarks stay runnable (`make bench` is not part of `make test`): every module in bench/ has its `main`,
and what the blog bench builds (a published battle) is made and served at a small size."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from pbp.services import accounts
from tests.lifecycle.conftest import FAST_HASHER

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_every_benchmark_module_has_its_main():
    names = [m.name for m in pkgutil.iter_modules([str(BENCH)]) if not m.name.startswith("_")]
    assert names
    for name in names:
        assert callable(getattr(importlib.import_module(f"bench.{name}"), "main", None)), name


def test_the_blog_bench_builds_and_serves_a_published_battle(tmp_path, monkeypatch):
    from bench import blog

    monkeypatch.setattr(accounts, "_HASHER", FAST_HASHER)
    client, paths = blog._site(tmp_path, 3, 4)
    assert [client.get(path).status_code for path in paths] == [200, 200]
