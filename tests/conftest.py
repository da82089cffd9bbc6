"""Fixtures shared by the storage tests: a fresh database on SQLite and, where PostgreSQL is available, on
PostgreSQL too (see `e2e/pg_server.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from e2e.pg_server import available, fresh_database, postgres_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    why = available()
    if why is not None:
        pytest.skip(why)
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database, once on each kind of server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/game.sqlite"
    server: str = request.getfixturevalue("postgres")
    return fresh_database(server)
