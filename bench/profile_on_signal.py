"""`python -m vtt.cli` with its event loop's thread profiled between two signals, for `bench/web.py --profile FILE`:
SIGUSR1 starts cProfile (processor time of the thread: a busy machine preempting it adds nothing), SIGUSR2 stops it
and writes the figures to `$VTT_PROFILE_OUT` (a `pstats` file). Only what happens between the two is counted (the
measured drops, not the pages' first loads).

Read them with::

    .venv/bin/python -c "import pstats; pstats.Stats('FILE').sort_stats('tottime').print_stats(40)"
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import time
from types import FrameType


def main() -> None:
    out = os.environ["VTT_PROFILE_OUT"]
    profile = cProfile.Profile(time.thread_time)

    def start(_signum: int, _frame: FrameType | None) -> None:
        profile.enable()

    def stop(_signum: int, _frame: FrameType | None) -> None:
        profile.disable()
        profile.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    runpy.run_module("vtt.cli", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
