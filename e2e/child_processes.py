"""The processes a test session started, and a check that none of them is left running at its end.

Two kinds are watched: every process descending from the pytest process (browsers, Playwright's driver, app
servers, `runuser`...), found through /proc, and the processes the fixtures start that leave the pytest process's
tree (PostgreSQL's `pg_ctl start` daemonizes the server), which they name with `started`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PROC = Path("/proc")
GRACE_SECONDS = 10.0
"""How long a closed browser or a stopped server may take to exit before it counts as left running."""

_started: dict[int, str] = {}


@dataclass(frozen=True)
class Leftover:
    pid: int
    what: str

    def __str__(self) -> str:
        return f"{self.pid} ({self.what})"


def started(pid: int, what: str) -> None:
    """Name a process a fixture started outside the pytest process's tree, so the session end checks it is gone."""
    _started[pid] = what


def forget(pid: int) -> None:
    """The process named with `started` was stopped by its fixture."""
    _started.pop(pid, None)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a live process; None when it is gone or a zombie (exited, not yet reaped)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the command name in parentheses may hold spaces
    state, ppid = fields[0], int(fields[1])
    return None if state in ("Z", "X") else (state, ppid)


def _command(pid: int) -> str:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:160] or "?"


def descendants(root: int | None = None) -> list[int]:
    """The live processes below `root` (default: this process)."""
    root = os.getpid() if root is None else root
    parents: dict[int, int] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = stat[1]
    below: list[int] = []
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        below.extend(children)
        frontier.extend(children)
    return below


RESOURCE_TRACKER = "multiprocessing.resource_tracker"
"""Python's own bookkeeping process for a `multiprocessing` parent: it lives as long as the interpreter that started
it and ends with it, so it is not counted as left running."""


def leftovers() -> list[Leftover]:
    """What the session started and is still running: descendants of this process and the named processes."""
    found = {pid: what for pid in descendants() if RESOURCE_TRACKER not in (what := _command(pid))}
    for pid, what in _started.items():
        if _stat(pid) is not None:
            found.setdefault(pid, what)
    return [Leftover(pid, what) for pid, what in sorted(found.items())]


def wait_for_none_left(grace: float = GRACE_SECONDS) -> list[Leftover]:
    """The leftovers once they have had `grace` seconds to exit (each check polls /proc; it returns as soon as
    nothing is left)."""
    deadline = time.monotonic() + grace
    while (left := leftovers()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def end(left: list[Leftover]) -> None:
    """Kill the given leftovers, by their ids (they are this session's own processes)."""
    for item in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(item.pid, signal.SIGKILL)


@pytest.fixture(scope="session", autouse=True)
def no_processes_left() -> Iterator[None]:
    """After the session's last test, once the browser and every server have stopped: fails the run if a
    process the tests started (a browser, a server, PostgreSQL) is still running, and ends it."""
    yield
    left = wait_for_none_left()
    if left:
        end(left)
        pytest.fail("still running after the tests, now ended: " + "; ".join(map(str, left)), pytrace=False)
