"""A PostgreSQL server for the storage and durability tests, where PostgreSQL is available.

`VTT_TEST_POSTGRES_URL` names a server to use (`.ci/run` starts Debian's cluster and sets it). Without it, when
Debian's PostgreSQL binaries are installed, a throw-away cluster is made in a temporary folder, listening on a
Unix socket only, and removed afterwards. Without either, the PostgreSQL variants of the tests are skipped, with
that reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

ENV = "VTT_TEST_POSTGRES_URL"


def _bin_dir() -> Path | None:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists():
            return candidate
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def available() -> str | None:
    """None when PostgreSQL can be used here, else why not."""
    if os.environ.get(ENV) or _bin_dir() is not None:
        return None
    return f"PostgreSQL is not installed here (no initdb) and {ENV} is not set"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yields a server URL (no database in it): the one in `VTT_TEST_POSTGRES_URL`, or a throw-away cluster."""
    if os.environ.get(ENV):
        yield os.environ[ENV]
        return
    bin_dir = _bin_dir()
    if bin_dir is None:
        raise RuntimeError(available() or "no PostgreSQL")
    folder = Path(tempfile.mkdtemp(prefix="vtt-pg-"))
    data, sockets = folder / "data", folder / "sock"
    sockets.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: use Debian's postgres user
        shutil.chown(folder, "postgres")
        shutil.chown(sockets, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust")
    options = f"-p {port} -k {sockets} -c listen_addresses='' -c fsync=on"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start")
    try:
        yield f"postgresql://postgres@/postgres?host={sockets}&port={port}"
    finally:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """A new, empty database on the server; returns its URL."""
    name = "vtt_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, query = server_url.partition("?")
    base = base.rsplit("/", 1)[0] + "/" + name
    return base + ("?" + query if query else "")


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A PostgreSQL server for the session (see the module docstring); the test is skipped where there is none."""
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
