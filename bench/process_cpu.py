"""CPU time of every process a browser benchmark runs, each thread by kind, from /proc (Linux).

A page's renderer does much of a change's work off its main thread: its raster threads draw the pixels a change
dirtied, its compositor thread composes the layers, and Chromium's GPU process (software compositing here) draws
every page's frame. On a machine whose cores all the pages share, that work delays the other pages as much as the
main thread's does, though no main-thread measure shows it. `snapshot` reads it all at once; two snapshots' `spent`
is what each part did in between.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

THREAD_KINDS: tuple[tuple[str, str], ...] = (
    ("Compositor", "compositor"),
    ("VizCompositorTh", "compositor"),
    ("ThreadPoolForeg", "raster and thread pool"),
    ("CompositorTileW", "raster and thread pool"),
    ("Chrome_ChildIOT", "IO"),
    ("Chrome_IOThread", "IO"),
)
"""Thread names (as /proc shows them, cut to 15 characters) by the kind of work they do; the process's first thread
is "main", any other "other"."""
KINDS: tuple[str, ...] = ("main", "raster and thread pool", "compositor", "IO", "other")


def thread_kind(pid: int, tid: int, name: str) -> str:
    if tid == pid:
        return "main"
    return next((kind for prefix, kind in THREAD_KINDS if name.startswith(prefix)), "other")


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:  # gone meanwhile, or not ours to read
        return None


def thread_cpu_ms(pid: int, tid: int) -> float:
    """CPU time of one thread so far (/proc/<pid>/task/<tid>/schedstat, ns); 0 where it is gone or unknown."""
    try:
        return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]) / 1e6
    except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
        return 0.0


def process_cpu_ms(pid: int) -> float:
    """CPU time of a process (all its threads alive now) so far: the nanoseconds of /proc/<pid>/task/*/schedstat
    (/proc/<pid>/stat counts in ticks of 10 ms, too coarse for a few seconds of an idle server); /proc/<pid>/stat
    where schedstat is missing."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a thread that ended meanwhile
        return total / 1e6
    except (FileNotFoundError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def threads_ms(pid: int) -> dict[str, float]:
    """CPU ms of each kind of thread of process `pid` so far (threads alive now; schedstat's nanoseconds)."""
    out: dict[str, float] = defaultdict(float)
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return {}
    for tid in tids:
        name = _read(f"/proc/{pid}/task/{tid}/comm")
        if name is not None:
            out[thread_kind(pid, int(tid), name.strip())] += thread_cpu_ms(pid, int(tid))
    return dict(out)


def chromium_processes(executable: str) -> dict[str, list[int]]:
    """The processes running `executable`, by Chromium's process type ("browser" for the one without --type)."""
    found: dict[str, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        raw = _read(f"/proc/{entry}/cmdline")
        if not raw:
            continue
        args = raw.split("\0")
        if len([a for a in args if a]) == 1:  # a child that set its process title: one string, spaced
            args = args[0].split(" ")
        if not args[0].endswith(os.path.basename(executable)):
            continue
        kind = next((a.removeprefix("--type=") for a in args if a.startswith("--type=")), "browser")
        found[kind].append(int(entry))
    return dict(found)


def children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (the Playwright driver of this Python process, say)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read(f"/proc/{entry}/stat")
            if stat is not None and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


@dataclass
class Snapshot:
    """CPU ms so far of each named part: a part is a set of processes, each read thread by thread."""

    parts: dict[str, dict[str, float]] = field(default_factory=dict)


def snapshot(parts: Mapping[str, Iterable[int]]) -> Snapshot:
    """Each part's CPU ms so far by kind of thread, over its processes."""
    out = Snapshot()
    for name, pids in parts.items():
        total: dict[str, float] = defaultdict(float)
        for pid in pids:
            for kind, ms in threads_ms(pid).items():
                total[kind] += ms
        out.parts[name] = dict(total)
    return out


def spent(before: Snapshot, after: Snapshot, per: int) -> dict[str, dict[str, float]]:
    """Each part's CPU ms by kind of thread between two snapshots, divided by `per` (changes). A thread that ended
    in between is not counted (nor its time before)."""
    out: dict[str, dict[str, float]] = {}
    for name, kinds in after.parts.items():
        was = before.parts.get(name, {})
        out[name] = {kind: max(0.0, ms - was.get(kind, 0.0)) / per for kind, ms in kinds.items()}
    return out


def describe(kinds: Mapping[str, float]) -> str:
    """ "12.9 ms: main 7.8, raster and thread pool 1.9, ...", the kinds in `KINDS` order."""
    total = sum(kinds.values())
    parts = ", ".join(f"{kind} {kinds[kind]:.1f}" for kind in KINDS if kinds.get(kind, 0.0) >= 0.05)
    return f"{total:.1f} ms ({parts})" if parts else f"{total:.1f} ms"
