"""The table's clock: what time it is and a callback later, for the time limits on reactions and defenses.

`LoopClock` is the real one (the wall clock and the running event loop's timers); a test gives the table a clock
it moves by hand, so a time limit runs out without waiting for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """Call `callback` after `seconds` (from within the event loop)."""
        ...


class LoopClock:
    """The wall clock and the running event loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback)
