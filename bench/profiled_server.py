"""`python -m vtt.cli` under cProfile, for `bench/scale.py --profile DIR`: the event loop's thread is profiled
from start to stop, and the figures are written to `$VTT_PROFILE_OUT` (a `pstats` file) when the server stops.

Read them with::

    .venv/bin/python -c "import pstats; pstats.Stats('DIR/server-1.prof').sort_stats('tottime').print_stats(40)"
"""

from __future__ import annotations

import atexit
import cProfile
import os
import runpy
import signal
import time
from types import FrameType


def main() -> None:
    out = os.environ["VTT_PROFILE_OUT"]
    profile = cProfile.Profile(time.thread_time)  # processor time: a busy machine preempting it adds nothing

    def dump() -> None:
        profile.disable()
        profile.dump_stats(out)

    def stopped(signum: int, _frame: FrameType | None) -> None:
        """SIGTERM (also re-raised by uvicorn after its own shutdown): write the figures, then end as SIGTERM
        does."""
        atexit.unregister(dump)
        dump()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    atexit.register(dump)
    signal.signal(signal.SIGTERM, stopped)
    profile.enable()
    runpy.run_module("vtt.cli", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
