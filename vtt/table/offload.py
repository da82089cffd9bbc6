"""Heavy work off the event loop, with a time budget: parsing an import, tracing a map's walls, checking a big map.

Every game on a server shares one event loop, so a request that computes for seconds on it stops every other game
for as long. `off_loop(fn, *args, seconds=...)` runs `fn(*args)` in a **worker process** and waits for it without
blocking the loop; past its time budget the worker is killed and `TooSlow` says so in plain words.

Why a process and not a thread: a Python thread cannot be stopped from outside, so a parse that runs away (a file
built to take minutes) would keep computing until it ends, holding the interpreter lock that the event loop needs,
and two or three of them would starve the server. A process runs on its own interpreter (no shared lock), can be
killed at its deadline, and runs under a memory ceiling (`WORKER_MEMORY`) so that a file claiming gigabytes makes
its worker fail with `MemoryError`, not the server. The price: arguments and results travel pickled, and a new
worker takes a moment to start (`spawn`: the server's threads are not forked), so a few workers are kept warm
and reused.

`fn` must be a module-level function (it is pickled by name), its arguments and result picklable; an exception it
raises is raised again here (exceptions with extra fields need a `__reduce__`, as `MapError` and `UvttError` have).
The pool is this module's: any caller (imports, archives) may use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")

WORKERS = 2
"""Worker processes kept at most: two imports at once; a third waits its turn (off the loop)."""
DEFAULT_SECONDS = 20.0
"""A job's time budget unless the caller gives one."""
START_SECONDS = 60.0
"""How long a new worker may take to start, and to take in a job (unpickling its function imports the function's
module: the rules core, at the worker's low priority), before it counts as failed. A job's own time budget starts
after that: on a busy machine a niced import took longer than the budget of the work itself."""
WORKER_MEMORY = 2 * 1024 * 1024 * 1024
"""A worker's address space ceiling (bytes)."""


class TooSlow(Exception):
    """A job ran past its time budget and was stopped."""


class WorkerFailed(Exception):
    """The worker process died (killed by the system, out of memory...) before it answered."""


WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the server's: on a busy machine an import's minutes of
computing give way to the server, which answers every game's moves."""


def _serve(conn: Connection, memory: int) -> None:
    """A worker's life: take a job, send back ("ok", result) or ("error", exception), until the pipe closes."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # not on every system: the time budget still holds
        pass
    with contextlib.suppress(AttributeError, OSError):  # not on every system
        os.nice(WORKER_NICENESS)
    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(("started", None))
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except BaseException as exc:  # every failure goes back to the caller
            reply = ("error", exc)
        try:
            conn.send(reply)
        except Exception as exc:  # a result or exception that cannot be pickled
            conn.send(("error", WorkerFailed(f"the answer could not be sent back: {exc}")))


class _Worker:
    def __init__(self, memory: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, memory), daemon=True, name="vtt-offload")
        self.process.start()
        child.close()
        if not self.conn.poll(START_SECONDS):
            self.kill()
            raise WorkerFailed("a worker process did not start")
        self.conn.recv()

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        self.conn.send((fn, args))
        if not self.conn.poll(START_SECONDS):
            self.kill()
            raise WorkerFailed("a worker process did not take its job")
        self._receive()  # ("started", None): the job's budget starts now
        if not self.conn.poll(seconds):
            self.kill()
            raise TooSlow(f"this took longer than {seconds:g} seconds and was stopped")
        kind, value = self._receive()
        if kind == "error":
            raise value
        return value

    def _receive(self) -> tuple[str, Any]:
        try:
            message: tuple[str, Any] = self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise WorkerFailed("the work stopped before it finished (too big for the server's memory?)") from None
        return message

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class Offloader:
    """A small pool of worker processes, started when first needed, each killed at its job's deadline."""

    def __init__(self, workers: int = WORKERS, memory: int = WORKER_MEMORY) -> None:
        self._memory = memory
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(workers)
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    def run(self, fn: Callable[..., T], *args: Any, seconds: float = DEFAULT_SECONDS) -> T:
        """`fn(*args)` in a worker process; blocks the calling thread (use `off_loop` from the event loop)."""
        with self._slots:
            worker = self._take()
            try:
                result: T = worker.run(fn, args, seconds)
            finally:
                self._give_back(worker)
            return result

    def _take(self) -> _Worker:
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = None
        if worker is not None and worker.alive:
            return worker
        if worker is not None:
            self._forget(worker)
        if self._closed:
            raise WorkerFailed("the server is shutting down")
        worker = _Worker(self._memory)
        with self._lock:
            self._all.add(worker)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        if worker.alive and not self._closed:
            self._idle.put(worker)
        else:
            self._forget(worker)

    def _forget(self, worker: _Worker) -> None:
        with self._lock:
            self._all.discard(worker)
        if worker.alive:
            worker.kill()

    def close(self) -> None:
        """Stop every worker (the server is shutting down)."""
        self._closed = True
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            if worker.alive:
                worker.kill()

    @property
    def processes(self) -> list[int]:
        """The process ids of the live workers (for the benchmark's memory figures)."""
        with self._lock:
            return [w.process.pid for w in self._all if w.alive and w.process.pid is not None]


_POOL = Offloader()


def pool() -> Offloader:
    """The server's pool of workers."""
    return _POOL


async def off_loop(fn: Callable[..., T], *args: Any, seconds: float = DEFAULT_SECONDS) -> T:
    """`fn(*args)` in a worker process, awaited without blocking the event loop; `TooSlow` past `seconds`."""
    return await asyncio.to_thread(_POOL.run, fn, *args, seconds=seconds)


def close() -> None:
    _POOL.close()
