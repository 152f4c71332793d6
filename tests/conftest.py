"""Fixtures shared by several suites: the app served by gunicorn (`tests.served`), one for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.served import Site, serve


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The demo under gunicorn (2 workers, as `pbp run`) on a free loopback port, for the whole session."""
    with serve(tmp_path_factory.mktemp("site-instance")) as served:
        yield served
