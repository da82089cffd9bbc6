"""One process per browser-test worker that imports the app servers' modules once and forks each server from them.

A table server's start is mostly its imports (NiceGUI, FastAPI, SQLAlchemy, the rules' pydantic models): about 3
CPU-s on a busy machine, paid by every one of the suite's ~25 server starts. The zygote pays it once per worker;
each server is then a fork of it that runs ``python -m vtt.cli ARGS`` (or ``python SCRIPT ARGS``) from there on:
the same `runpy` entry as the interpreter's own, with the server's arguments, environment, working folder and
output file, its dice seeded by ``--seed`` as before. It is a child of the zygote, which reaps it and tells the
worker its exit code (`ZygoteProcess`, the part of `subprocess.Popen` that `e2e.conftest.AppServer` uses).

Only modules that read no per-server setting when imported are imported ahead (`PRELOAD`): a server whose
environment differs from the zygote's in any variable but `PER_SERVER` is started as a plain subprocess instead,
and `vtt.web.start` (which reads `VTT_MAPS` when imported) is left to each server to import
(``tests/test_e2e_zygote.py`` checks both).

Protocol: a ``SOCK_SEQPACKET`` socket pair, one JSON message per datagram. The zygote says ``{"ready": modules}``
once it has imported them; the worker sends ``{"module", "script", "argv", "env", "cwd"}`` with the server's output
file descriptor attached; the zygote answers ``{"started": pid}``, and ``{"exited": pid, "code": code}`` when it
has reaped that server. When the worker closes its end (it does once its servers have stopped), the zygote exits,
killing any server still running (the worker died).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

PRELOAD = ("nicegui", "vtt.web.app", "vtt.web.test_games", "vtt.web.map_view", "vtt.store.db", "psycopg")
"""What every server imports and none reads a per-server setting in: imported once, in the zygote."""
PER_SERVER = frozenset({"VTT_PORT", "VTT_CREATORS", "VTT_MAPS", "VTT_STORAGE_SECRET"})
"""The environment variables a forked server may have apart from the zygote's: read when the server runs (by
`vtt.cli`, `vtt.web.start` and `e2e/map_harness.py`), never while a `PRELOAD` module is imported."""
MESSAGE_BYTES = 1 << 20


@dataclass(frozen=True)
class Launch:
    """One server to run in a fork: ``python -m module`` (or ``python script``) with `argv` after it."""

    module: str | None
    script: str | None
    argv: list[str]
    env: dict[str, str]
    cwd: str
    output: int


def _serve(channel: socket.socket) -> Launch | None:
    """The zygote's loop: fork a server per request, report each one's exit. Returns in a forked child (what it is
    to run), or None in the zygote when the worker has closed its end."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so that the wakeup descriptor hears SIGCHLD
    signal.set_wakeup_fd(wake_write)
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    running: set[int] = set()
    while True:
        for key, _ in selector.select():
            if key.fileobj == wake_read:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 4096)
                _reap(channel, running)
                continue
            message, fds, _, _ = socket.recv_fds(channel, MESSAGE_BYTES, 1)
            if not message:
                for pid in running:
                    os.kill(pid, signal.SIGKILL)
                return None
            request = json.loads(message)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                selector.close()
                for fd in (wake_read, wake_write):
                    os.close(fd)
                channel.close()
                return Launch(
                    request["module"], request["script"], request["argv"], request["env"], request["cwd"], fds[0]
                )
            os.close(fds[0])
            running.add(pid)
            channel.send(json.dumps({"started": pid}).encode())


def _reap(channel: socket.socket, running: set[int]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        running.discard(pid)
        channel.send(json.dumps({"exited": pid, "code": os.waitstatus_to_exitcode(status)}).encode())


def _run(launch: Launch) -> None:
    """In the forked child: become the server process, as the interpreter would start it."""
    os.dup2(launch.output, 1)
    os.dup2(launch.output, 2)
    os.close(launch.output)
    os.chdir(launch.cwd)
    os.environ.clear()
    os.environ.update(launch.env)
    if launch.module is not None:
        sys.argv = [launch.module, *launch.argv]
        sys.path[0] = launch.cwd
        runpy.run_module(launch.module, run_name="__main__", alter_sys=True)
    else:
        assert launch.script is not None
        sys.argv = [launch.script, *launch.argv]
        sys.path[0] = str(Path(launch.script).resolve().parent)
        runpy.run_path(launch.script, run_name="__main__")


def main() -> None:
    """Entry of the zygote process: ``python -m e2e.zygote FD [MODULE...]``, its socket end and what to import
    (`PRELOAD` when none is named)."""
    channel = socket.socket(fileno=int(sys.argv[1]))
    for name in sys.argv[2:] or PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1:
        raise SystemExit(f"the zygote may not fork with threads running: {threading.enumerate()}")
    channel.send(json.dumps({"ready": sorted(sys.modules)}).encode())
    launch = _serve(channel)
    if launch is None:
        os._exit(0)  # nothing to flush or finish: the interpreter's clean-up of every imported module is seconds
    _run(launch)


class ZygoteProcess:
    """A server forked by the zygote, with the part of `subprocess.Popen` the tests use."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.zygote.read_messages(0)
            self.returncode = self.zygote.exits.get(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(["forked server", str(self.pid)], timeout or 0.0)
            self.zygote.read_messages(left)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # a reaped server's id may already be another process's
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The worker's side: starts the zygote process, asks it for servers, hears their exits."""

    def __init__(
        self, env: Mapping[str, str], cwd: Path, ready_timeout: float, preload: Sequence[str] = PRELOAD
    ) -> None:
        self.env = dict(env)
        self.cwd = cwd
        self.ready_timeout = ready_timeout
        self.exits: dict[int, int] = {}
        self.live: set[int] = set()
        self._started: list[int] = []
        self._lock = threading.Lock()
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "e2e.zygote", str(theirs.fileno()), *preload],
            cwd=cwd,
            env=self.env,
            pass_fds=[theirs.fileno()],
        )
        theirs.close()
        self.preloaded: list[str] = []

    def wait_ready(self) -> None:
        """Wait until the zygote has imported `PRELOAD` (its list of modules imported in `preloaded`)."""
        if self.preloaded:
            return
        self.channel.settimeout(self.ready_timeout)
        try:
            message = self.channel.recv(MESSAGE_BYTES)
        finally:
            self.channel.settimeout(None)
        if not message:
            raise RuntimeError(f"the server zygote exited at start with code {self.process.wait()}")
        self.preloaded = json.loads(message)["ready"]

    def accepts(self, env: Mapping[str, str]) -> bool:
        """Whether a server with environment `env` may be forked: it differs from the zygote's only in `PER_SERVER`
        variables."""
        names = set(env) | set(self.env)
        return all(env.get(name) == self.env.get(name) for name in names - PER_SERVER)

    def fork(
        self,
        module: str | None,
        script: str | None,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        output: IO[bytes],
    ) -> ZygoteProcess:
        self.wait_ready()
        request = {"module": module, "script": script, "argv": list(argv), "env": dict(env), "cwd": str(cwd)}
        with self._lock:
            socket.send_fds(self.channel, [json.dumps(request).encode()], [output.fileno()])
            while not self._started:
                self.read_messages(None)
            pid = self._started.pop()
        self.live.add(pid)
        return ZygoteProcess(self, pid)

    def read_messages(self, timeout: float | None) -> None:
        """Read what the zygote has said within `timeout` seconds (None: until it says something)."""
        self.channel.settimeout(timeout)
        try:
            while True:
                try:
                    message = self.channel.recv(MESSAGE_BYTES)
                except (TimeoutError, BlockingIOError):
                    return
                if not message:
                    raise RuntimeError(f"the server zygote exited with code {self.process.wait()}")
                got: dict[str, Any] = json.loads(message)
                if "started" in got:
                    self._started.append(int(got["started"]))
                else:
                    self.exits[int(got["exited"])] = int(got["code"])
                    self.live.discard(int(got["exited"]))
                self.channel.settimeout(0)
        finally:
            self.channel.settimeout(None)

    def close(self, timeout: float = 10.0) -> bool:
        """End the zygote, if none of its servers is still running (then the session's check of processes left
        running finds them, and it); whether it ended."""
        with contextlib.suppress(RuntimeError):
            self.read_messages(0)
        if self.live:
            return False
        self.channel.close()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()  # it runs no server: nothing is lost
            self.process.wait(timeout=timeout)
        return True


if __name__ == "__main__":
    main()
