"""A PostgreSQL server for the storage and durability tests, where PostgreSQL is available.

`VTT_TEST_POSTGRES_URL` names a server to use (`.ci/run` starts Debian's cluster and sets it). Without it, when
Debian's PostgreSQL binaries are installed, a throw-away cluster is made in a temporary folder, listening on a
Unix socket only, and removed afterwards. Without either, the PostgreSQL variants of the tests are skipped, with
that reason. Every database a test makes here is dropped after the test (on a server named by the variable too).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from e2e import child_processes

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
    # No flush to disk: the cluster is thrown away and no test stops PostgreSQL itself uncleanly (an app server
    # killed with -9 loses nothing PostgreSQL committed either way), and every commit waiting on a busy disk slows
    # the storage tests.
    durability = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    options = f"-p {port} -k {sockets} -c listen_addresses='' {durability}"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start")
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    child_processes.started(postmaster, f"PostgreSQL server of {folder}")  # pg_ctl leaves it running on its own
    stop = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
    watchdog = _stop_if_killed(stop, folder)
    try:
        yield f"postgresql://postgres@/postgres?host={sockets}&port={port}"
    finally:
        subprocess.run(stop, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        watchdog.communicate(_DONE)
        child_processes.forget(postmaster)
        shutil.rmtree(folder, ignore_errors=True)


_DONE = b"done"
_WATCHDOG = """
import shutil, subprocess, sys
if sys.stdin.buffer.read() != b"done":
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(sys.argv[1], ignore_errors=True)
"""


def _stop_if_killed(stop: list[str], folder: Path) -> subprocess.Popen[bytes]:
    """A process that runs `stop` and removes `folder` if this one ends without its teardown (a test run killed by a
    signal: `timeout`'s TERM, a KILL). It reads a pipe whose other end only this process holds: the end closes when
    this process dies, however it dies; the teardown writes `_DONE` first. In a session of its own, so that a signal
    to the test run's process group does not reach it."""
    return subprocess.Popen(
        [sys.executable, "-c", _WATCHDOG, str(folder), *stop], stdin=subprocess.PIPE, start_new_session=True
    )


def fresh_database(server_url: str) -> str:
    """A new, empty database on the server; returns its URL. Drop it with `drop_database` (the
    `postgres_databases` fixture does both)."""
    name = "vtt_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    base, _, query = server_url.partition("?")
    base = base.rsplit("/", 1)[0] + "/" + name
    return base + ("?" + query if query else "")


def drop_database(server_url: str, database_url: str) -> None:
    """Drop the database `fresh_database` made (closing what is still connected to it: a killed server's
    sessions, a test's pooled connections)."""
    name = database_url.partition("?")[0].rsplit("/", 1)[1]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


class PostgresDatabases:
    """Makes empty databases on one server and drops every one of them at `drop_all`."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.made: list[str] = []

    def new(self) -> str:
        url = fresh_database(self.server_url)
        self.made.append(url)
        return url

    def drop_all(self) -> None:
        while self.made:
            drop_database(self.server_url, self.made.pop())


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A PostgreSQL server for the session (see the module docstring); the test is skipped where there is none."""
    why = available()
    if why is not None:
        pytest.skip(why)
    with postgres_server() as url:
        yield url


@pytest.fixture
def postgres_databases(postgres: str) -> Iterator[PostgresDatabases]:
    """`postgres_databases.new()` is the URL of a new, empty database; each is dropped after the test."""
    databases = PostgresDatabases(postgres)
    try:
        yield databases
    finally:
        databases.drop_all()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database, once on each kind of server (a PostgreSQL one is dropped after the test)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/game.sqlite"
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    return databases.new()
