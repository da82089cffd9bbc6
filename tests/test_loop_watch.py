"""The loop watch (`VTT_LOOP_WATCH`) names what held the event loop and for how long; the import workers run at a
lower priority than the server."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from vtt.table.offload import WORKER_NICENESS, Offloader
from vtt.web.loop_watch import LoopWatch, threshold_from_env


def _hold_the_loop(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def test_a_held_loop_is_reported_with_what_held_it(capsys: pytest.CaptureFixture[str]) -> None:
    watch = LoopWatch(asyncio.get_running_loop(), threshold=0.05).start()
    try:
        await asyncio.sleep(0.1)
        _hold_the_loop(0.3)
        await asyncio.sleep(0.1)
    finally:
        watch.stop()
    # on a busy machine the loop may also wait for a processor now and then: those stalls name no function of ours
    ours = [(held, samples) for held, samples in watch.stalls if "_hold_the_loop" in str(samples)]
    assert len(ours) == 1
    held, samples = ours[0]
    # held counts from the heartbeat the watch sent, which a busy machine may delay well into the hold: only that it
    # passed the threshold is certain
    assert held > 0.05
    assert samples.most_common(1)[0][0].endswith("test_loop_watch.py:_hold_the_loop")
    report = capsys.readouterr().err
    assert report.startswith("loop held ") and "ms of it computing" in report and "_hold_the_loop" in report


def test_the_watch_is_off_unless_asked_for_in_milliseconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("VTT_LOOP_WATCH", raising=False)
    assert threshold_from_env() is None
    monkeypatch.setenv("VTT_LOOP_WATCH", "25")
    assert threshold_from_env() == 0.025
    monkeypatch.setenv("VTT_LOOP_WATCH", "soon")
    assert threshold_from_env() is None
    assert "not a number of milliseconds" in capsys.readouterr().err


def test_an_import_worker_yields_the_processor_to_the_server() -> None:
    pool = Offloader(workers=1)
    try:
        worker_niceness = pool.run(os.nice, 0, seconds=30)
    finally:
        pool.close()
    assert worker_niceness == min(19, os.nice(0) + WORKER_NICENESS)
