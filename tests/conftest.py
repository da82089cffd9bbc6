"""Fixtures shared by the storage tests: a fresh database on SQLite and, where PostgreSQL is available, on
PostgreSQL too (see `e2e/pg_server.py`); the Hypothesis profiles; and, at the end of the session, a check that no
process the tests started (the throw-away PostgreSQL server) is left running.

Hypothesis: `make test` runs each property with the default profile's examples (100, fewer for the heaviest);
`make fuzz` runs the same properties with the `thorough` profile, ten times as many. A property that needs a
different count states it relative to `settings().max_examples` (the loaded profile's), so that both profiles scale it.
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

# Each pytest-xdist worker keeps NiceGUI's storage in a folder of its own (read as `nicegui.storage` is imported):
# `user_simulation` empties and removes the folder at the end of each test, and with one `.nicegui` for both workers
# a test failed when the other worker wrote into it between the emptying and the removal ("Directory not empty").
os.environ.setdefault("NICEGUI_STORAGE_PATH", f".nicegui/{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import settings
from sqlalchemy.engine import Engine

from e2e.child_processes import no_processes_left
from e2e.pg_server import PostgresDatabases, database_url, postgres, postgres_databases
from vtt.rules.abilities import LIBRARY, Ability, AbilityEffect
from vtt.rules.dice import RandomDice
from vtt.store import db
from vtt.table import offload
from vtt.table.registry import Games
from vtt.web.api import make_router

# No time limit per example (Hypothesis's default is 200 ms): a busy machine made examples of quick tests take longer
# and fail with DeadlineExceeded; how fast the code is, the benchmarks measure.
settings.register_profile("suite", deadline=None)
settings.register_profile("thorough", settings.get_profile("suite"), max_examples=1000)
settings.load_profile("suite")  # `--hypothesis-profile=thorough` (make fuzz) loads its own after this


@pytest.fixture(scope="session", autouse=True)
def workers_stopped(no_processes_left: None) -> Iterator[None]:
    """The import workers (`vtt.table.offload`) are stopped at the session's end, before the check that no process
    the tests started is left."""
    yield
    offload.close()


@pytest.fixture
def stone_fist(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample damaging Talent in the abilities library: its Manifest roll (Endure) is its attack on Elude, 1
    damage die, range 1."""
    talent = Ability(
        id="stone_fist",
        name="Stone Fist",
        kind="talent",
        element="earth",
        words=0,
        effect=AbilityEffect(kind="damage", amount=1, range=1, defense="Elude"),
    )
    monkeypatch.setitem(LIBRARY, "stone_fist", talent)


__all__ = ["database_url", "no_processes_left", "postgres", "postgres_databases"]


@pytest.fixture(scope="module")
def engines(postgres: str) -> Iterator[tuple[Engine, Engine]]:
    """One PostgreSQL database for the module's tests, and two engines on it: one for each process."""
    databases = PostgresDatabases(postgres)
    url = databases.new()
    one, two = db.open_engine(url), db.open_engine(url)
    try:
        yield one, two
    finally:
        one.dispose()
        two.dispose()
        databases.drop_all()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite game database with every migration run, copied for each test of `games` (running the
    migrations on a new file costs about 50 ms of CPU)."""
    path = tmp_path_factory.mktemp("migrated") / "games.sqlite"
    db.open_engine(f"sqlite:///{path}").dispose()
    return path


@pytest.fixture
def games(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Games]:
    """The server's games on a fresh SQLite file in the test's folder (its maps folder too), dice seeded with 3."""
    shutil.copyfile(migrated_sqlite, tmp_path / "games.sqlite")
    games = Games(db.open_engine(f"sqlite:///{tmp_path}/games.sqlite"), tmp_path, dice=lambda: RandomDice(3))
    yield games
    games.close()


@pytest.fixture
def api_client(games: Games) -> Iterator[TestClient]:
    """The seat API (`vtt.web.api.make_router`) of `games`, served to a test client."""
    app = FastAPI()
    app.include_router(make_router(games))
    with TestClient(app) as client:
        yield client
