"""The event loop's default thread pool (`asyncio.to_thread`: loading a game, building a first paint, storing an
import) at a lower scheduling priority than the loop's own thread.

On a small server the loop, which answers every game's moves, and a thread building a big game's page compete for
the same cores. At equal priority the kernel shares them evenly, so a move waits behind the build; lowered, the
build takes what the loop leaves. Each game's own database writer (`vtt-db-<game>`) keeps the normal priority: it
commits the moves themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

NICENESS = 10
"""How much lower than the loop the pool's threads run (Linux `nice` steps: 19 is the lowest priority)."""
WORKERS = min(32, (os.cpu_count() or 1) + 4)
"""As many threads as Python's default pool has."""


def _lower_priority() -> None:
    # Linux sets a priority per thread; elsewhere the threads keep the process's priority
    with contextlib.suppress(AttributeError, OSError):
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + NICENESS))


def install() -> None:
    """Give the running loop a default thread pool whose threads run at the lower priority."""
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="vtt-background", initializer=_lower_priority)
    asyncio.get_running_loop().set_default_executor(pool)
