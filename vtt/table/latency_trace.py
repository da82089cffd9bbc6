"""Where a change's time goes in the server, for `bench/web.py` (a hidden option: `VTT_LATENCY_TRACE=<file>`).

With the variable set, the server appends one JSON line a moment of a change's way to the file: the drop received,
the command applied by the rules, the command in the database writer's hands and committed, the table back on the
event loop, the listeners told, each page's patch queued and each message handed to the socket. Each line holds
`t` (seconds since the epoch, as the browsers' `performance.timeOrigin + performance.now()` counts them, in ms),
`what`, and `client` for a page's moments. Without the variable `mark` costs one comparison.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from typing import IO, Any

ENV = "VTT_LATENCY_TRACE"

_path = os.environ.get(ENV)
_file: IO[str] | None = open(_path, "a", buffering=1, encoding="utf-8") if _path else None  # noqa: SIM115
_lock = threading.Lock()  # the database writer thread marks too


_gc_started = 0.0
GC_SHOWN_MS = 0.5
"""A collection of the garbage is noted when it held the interpreter this long or longer."""


def _gc(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
        return
    took = (time.perf_counter() - _gc_started) * 1000
    if took >= GC_SHOWN_MS:
        mark("gc", ms=round(took, 2), generation=info.get("generation"))


def on() -> bool:
    return _file is not None


def mark(what: str, **data: Any) -> None:
    """Note that a change reached `what` now."""
    if _file is None:
        return
    line = json.dumps({"t": time.time(), "what": what, **data})
    with _lock:
        _file.write(line + "\n")


if _file is not None:
    gc.callbacks.append(_gc)  # a collection's pause holds up whatever runs
