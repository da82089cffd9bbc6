"""The loop's default thread pool runs below the loop's own priority (vtt/web/background_threads.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import pytest

from vtt.web import background_threads


def _priority() -> tuple[str, int]:
    return threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a priority per thread is Linux's")
def test_work_sent_to_a_thread_runs_at_a_lower_priority_than_the_loop() -> None:
    async def main() -> tuple[int, tuple[str, int]]:
        background_threads.install()
        loop_priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return loop_priority, await asyncio.to_thread(_priority)

    loop_priority, (name, thread_priority) = asyncio.run(main())
    assert name.startswith("vtt-background")
    assert thread_priority == min(19, loop_priority + background_threads.NICENESS)
