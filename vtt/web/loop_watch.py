"""A watch on the event loop, for finding what holds it (a hidden option: `VTT_LOOP_WATCH=<ms>`).

Every game on a server shares one event loop, so whatever runs on it for long delays every other game's moves. A
thread asks the loop to answer a heartbeat every few milliseconds; while an answer is late by more than the
threshold, it samples the loop thread's stack, and once the loop answers it writes one line a stall to standard
error: how long the loop was held and the stacks it was sampled in (most often first). The samples name the code
that held the loop, not merely the callback that happened to run last, as asyncio's own slow-callback log does.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
import traceback
from collections import Counter
from types import FrameType

ENV = "VTT_LOOP_WATCH"
SAMPLE_EVERY = 0.002
"""Seconds between two samples of a held loop's stack."""
FRAMES_SHOWN = 30
"""The innermost frames of the project (`vtt`) and its libraries named for each sampled stack."""


def _stack(frame: FrameType | None) -> str:
    """The sampled stack, innermost last, as `file:function` names (the interpreter's own frames left out)."""
    names: list[str] = []
    for summary in traceback.extract_stack(frame):
        path = summary.filename
        if "/asyncio/" in path or path.endswith(("threading.py", "runners.py")):
            continue
        short = path.rsplit("site-packages/", 1)[-1].rsplit("/wt/", 1)[-1]
        names.append(f"{short}:{summary.name}")
    return " > ".join(names[-FRAMES_SHOWN:])


class LoopWatch:
    """Started on the running loop by `start`; stopped with `stop` (or with the process: it is a daemon thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, threshold: float) -> None:
        self.loop = loop
        self.threshold = threshold
        self.stalls: list[tuple[float, Counter[str]]] = []
        """Each stall seen: its seconds and its sampled stacks (kept for tests and summaries)."""
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vtt-loop-watch", daemon=True)

    def start(self) -> LoopWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1)

    def _run(self) -> None:
        while not self._stop.is_set():
            answered = threading.Event()
            sent = time.perf_counter()
            try:
                self.loop.call_soon_threadsafe(answered.set)
            except RuntimeError:  # the loop closed
                return
            if answered.wait(self.threshold):
                self._stop.wait(SAMPLE_EVERY)
                continue
            cpu_before = _cpu_times()
            samples: Counter[str] = Counter()
            others: Counter[str] = Counter()
            while not answered.wait(SAMPLE_EVERY) and not self._stop.is_set():
                frames = sys._current_frames()
                samples[_stack(frames.get(self._loop_thread))] += 1
                for ident, frame in frames.items():
                    if ident not in (self._loop_thread, threading.get_ident()) and _busy(frame):
                        others[_stack(frame)] += 1
            held = time.perf_counter() - sent
            cpu_after = _cpu_times()
            cpu = {ident: cpu_after.get(ident, t) - t for ident, t in cpu_before.items()}
            self.stalls.append((held, samples))
            self._report(held, cpu.pop(self._loop_thread, 0.0), samples, others, cpu)

    @staticmethod
    def _report(
        held: float, loop_cpu: float, samples: Counter[str], others: Counter[str], cpu: dict[int, float]
    ) -> None:
        names = {t.ident: t.name for t in threading.enumerate()}
        busy = ", ".join(
            f"{names.get(ident, ident)} {seconds * 1000:.0f}"
            for ident, seconds in sorted(cpu.items(), key=lambda kv: -kv[1])
            if seconds > 0.001
        )
        lines = [
            f"loop held {held * 1000:.0f} ms, {loop_cpu * 1000:.0f} ms of it computing; other threads' CPU ms: "
            f"{busy or 'none'}"
        ]
        total = sum(samples.values()) or 1
        lines += [f"    {100 * n // total:3d}% {stack}" for stack, n in samples.most_common(4)]
        lines += [f"    other thread ({n} samples) {stack}" for stack, n in others.most_common(2)]
        print("\n".join(lines), file=sys.stderr, flush=True)


def _cpu_times() -> dict[int, float]:
    """The CPU seconds each of this process's Python threads has used so far, by thread ident."""
    out: dict[int, float] = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            out[thread.ident] = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (OSError, AttributeError):  # the thread ended, or no per-thread clocks here
            continue
    return out


def _busy(frame: FrameType) -> bool:
    """Whether a thread's innermost frame is doing work, not waiting (a lock, a queue, a select)."""
    return frame.f_code.co_name not in ("wait", "_wait_for_tstate_lock", "select", "poll", "get", "accept", "_worker")


def threshold_from_env() -> float | None:
    """The watch's threshold in seconds from `VTT_LOOP_WATCH` (milliseconds), or None when it is not set."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return None
    try:
        ms = float(text)
    except ValueError:
        print(f"{ENV} is not a number of milliseconds: {text!r}; the loop is not watched", file=sys.stderr)
        return None
    return max(ms, 1.0) / 1000


def start_from_env() -> LoopWatch | None:
    """Watch the running loop when `VTT_LOOP_WATCH` asks for it (called at the server's start-up)."""
    threshold = threshold_from_env()
    if threshold is None:
        return None
    return LoopWatch(asyncio.get_running_loop(), threshold).start()
