"""Benchmark of the web table (`vtt.cli` + NiceGUI 3 + `static/map_view.js`) in Debian's Chromium.

Run it from the repository root::

    .venv/bin/python bench/web.py            # full run (about two and a half minutes on a 2-core machine)
    .venv/bin/python bench/web.py --quick    # 4 clients, fewer repetitions, no profiled load (under a minute)
    .venv/bin/python bench/web.py --paint    # only the first paint (section 1 and 1a)
    .venv/bin/python bench/web.py --latency  # only the drops and the bare round trip (section 2); --drops N, --trace F
    .venv/bin/python bench/web.py --latency --observer-trace  # and an observer's main thread by trace event

It starts the app itself (`python -m vtt.cli --map FILE --database URL`, through `e2e.conftest.AppServer`) on
encounter files it generates into a temporary folder, drives `/usr/bin/chromium` with the sync Playwright API
(one browser context per user) and PRINTS figures; it never asserts on time (it is not a test). Timestamps are
taken inside the pages with `performance.timeOrigin + performance.now()`, as in `/work/shared/tech-notes.md`.

1. First paint of a 100×100 hex map with 500 tokens (sizes -1..3, no overlap) and 300 walls: from navigation start to
   the end of the rendering (style, layout, paint) of the first frame in which the 500th `[data-token-id]` exists
   (requestAnimationFrame polling from an init script; a message posted from that frame's callback is handled once
   the frame is rendered), cold cache (a new context) and warm cache (the same context, a second navigation). Each
   load also shows when the HTML arrived, DOMContentLoaded, the handshake and the renderer's main-thread time (CDP
   Performance metrics); one more cold load runs under the JS sampling profiler (time by script file), and the 10×10
   map's load is printed for reference (what NiceGUI costs without a big map), and the bare NiceGUI page's (a label;
   the summary gives the ratio to it). "settled": the end of the page's last long task after the paint (over 50 ms of
   main thread; it is then idle). Targets: ≤ 1.2 s cold, ≤ 0.6 s warm.
2. Drop-to-other-client latency with 8 clients (the Soulweaver dragging a token, 7 players observing): from a
   capturing `pointerup` in the dragging page to a `MutationObserver` seeing the token's `data-q`/`data-r` in
   each observing page (and to the next animation frame there); every page is idle before each drop. The drag is
   a Soulweaver "place" (the fight is not begun). Next to it, a bare NiceGUI round trip measured the same way
   with 8 clients: a tiny app (a second subprocess) whose button click in one client sets a label in every client
   through a shared object. The two take turns, change by change, with both apps' pages open and every page idle
   before each change (`run_paired`): both meet the same moments of the machine (measured one after the other, the
   bare's p95 moved 19-33 ms between runs with the browser's warmth and the host's spells). Target: p95 ≤ 1.5× the
   bare round trip's p95 (the summary also prints how far that ratio moves when the run's drops are drawn again with
   replacement: a run's p95 rests on its few slowest drops).
   Where the time goes, leg by leg: the server notes each moment of a drop (`VTT_LATENCY_TRACE`,
   `vtt/table/latency_trace.py`: received, rules applied, committed, listeners told, each page's patch queued and
   handed to its socket), matched with the dragging page's pointerup and send and each observer's message handled
   and DOM changed (`--trace FILE` keeps them all).
   Then: when each socket.io message's handler ran in the observers and how long Vue took to
   re-render after it, server CPU per drop (/proc: in all, and less the server's idle CPU measured with the same
   clients just before, for as long as a drop takes; target ≤ 10 ms), the CPU per drop of every thread of every
   process a drop costs (`bench/process_cpu.py`: each page's raster and compositor threads, Chromium's GPU process,
   which composites every page's frames in software here, its browser process, the server, this benchmark itself),
   each page's main-thread time per drop (CDP),
   observer 1's JS profile by script, the server pieces timed in this process (the rules' `apply`, the seat views
   and tokens of a change) and the vision work per move with fog of war on (target ≤ 10 ms per seat). Each
   observer's main thread per move is its CPU time (/proc/<renderer>/task/<main thread>/schedstat; the CDP busy
   time, the wall clock of its tasks, is printed next to it: with 8 pages on 2 cores it counts mostly the waits for
   a core), split into the roll log's and the map's own `performance.measure`s and the NiceGUI element updates
   (panels), next to the bare app's; target ≤ 25 ms. `bench/map_trace.py` shows where that time goes (a trace).
   The changing page's own main thread: after the measured drops, `--traced N` more (6; 0: none) under a Chromium
   trace, split by phase (the drag's frames before the pointerup, the drop, after it) and kind of work, next to the
   bare page's clicks traced the same way (`bench/page_trace.py`).
3. Websocket bytes received by an observing client per move (CDP `Network.webSocketFrameReceived`, payload
   lengths of the socket.io messages between the drop and a settle time), on a 10×10 and the 100×100 map, with
   a breakdown by message (element updates by tag and last class, `run_method` by method). Target: ≤ 400 B,
   equal on both (big / small ≤ 1.1×).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `e2e` is not an installed package

from playwright.sync_api import Browser, BrowserContext, CDPSession, ConsoleMessage, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from bench.page_trace import PageWork, print_page_work, trace_changes  # noqa: E402
from bench.process_cpu import (  # noqa: E402
    KINDS,
    children,
    chromium_processes,
    describe,
    process_cpu_ms,
    snapshot,
    spent,
    thread_cpu_ms,
)
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, AppServer  # noqa: E402
from e2e.helpers import Cell, cell_xy, drag  # noqa: E402
from vtt.rules import apply  # noqa: E402
from vtt.rules.commands import parse_command  # noqa: E402
from vtt.rules.dice import RandomDice  # noqa: E402
from vtt.rules.grid import make_grid  # noqa: E402
from vtt.rules.model import SOULWEAVER  # noqa: E402
from vtt.rules.scenario import load_scenario  # noqa: E402
from vtt.rules.vision import clear_sight_cache  # noqa: E402
from vtt.store import db  # noqa: E402
from vtt.table import latency_trace  # noqa: E402
from vtt.table.fog import Fog  # noqa: E402
from vtt.table.table import Outcome, Table, Viewer  # noqa: E402
from vtt.web.tokens import seat_token, token_for  # noqa: E402

PAINT_TARGET_S = 1.2
WARM_PAINT_TARGET_S = 0.6
LATENCY_RATIO_TARGET = 1.5  # p95 of the drop -> other client latency over the bare round trip's p95
SERVER_CPU_TARGET_MS = 10.0
BYTES_TARGET = 400
BYTES_EQUAL = 1.1  # "equal on small and big maps": big / small at most this
WARMUP = 2  # changes of each side before section 2's measured ones
IDLE_S = 3.0  # the server's idle CPU is measured this long with the clients connected, before the changes
MAIN_THREAD_TARGET_MS = 25.0
"""Each observer's renderer main thread per move (issue 14)."""

BIG = (100, 100, 500, 300)  # cols, rows, creatures, walls
SMALL = (10, 10, 6, 6)
FEW = (100, 100, 50, 300)
"""The big map with a tenth of the creatures: the server's work per move should not depend on the creatures that
did not change (the server pieces are timed on both)."""
CLIENTS = 8  # 1 dragging + 7 observing (--quick: QUICK_CLIENTS)
QUICK_CLIENTS = 4
MOVER = "mover"
TIMEOUT_MS = 90_000
SIZES: tuple[int, ...] = (-1, 0, 1, 2, 3)
SIZE_WEIGHTS: tuple[float, ...] = (0.15, 0.45, 0.25, 0.10, 0.05)
# CDP Performance metrics of a page's renderer main thread (seconds, since the document started).
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
CPU = "CPU"  # the CPU time of a page's renderer main thread (/proc), next to METRICS
COLORS: tuple[str, ...] = ("#7b3f2a", "#2f6db5", "#8a8070", "#3f7b4a", "#8d5a3c", "#6b4f8a", "#a0522d", "#4a6670")


# ----------------------------------------------------------------------------------------------------------
# Encounter files
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Encounter:
    path: Path
    creatures: int
    spot_a: Cell  # the mover's anchor; it is dragged A -> B -> A ...
    spot_b: Cell


def make_encounter(folder: Path, cols: int, rows: int, n_creatures: int, n_walls: int, seed: int) -> Encounter:
    """Write a scenario file (docs/scenarios.md) with `n_creatures` creatures of sizes -1..3 placed without
    overlap and `n_walls` walls; a size-0 "mover" stands at spot A with a free lane to spot B, 3 spaces east."""
    rng = random.Random(seed)
    grid = make_grid("hex")
    a = grid.from_offset(cols // 2, rows // 2)
    b = grid.from_offset(cols // 2 + 3, rows // 2)
    lane = {grid.from_offset(cols // 2 + i, rows // 2) for i in range(4)}
    reserved: set[Cell] = set()
    for cell in lane:
        reserved.add(cell)
        reserved.update(grid.neighbours(cell))
    taken: set[Cell] = set()
    creatures: list[dict[str, Any]] = [
        {"id": MOVER, "name": "Mover", "size": 0, "anchor": list(a), "color": "#c0392b"},
    ]
    attempts = 0
    while len(creatures) < n_creatures:
        attempts += 1
        if attempts > 100_000:
            raise RuntimeError(f"could not place {n_creatures} creatures on {cols}×{rows}")
        size = rng.choices(SIZES, SIZE_WEIGHTS)[0]
        anchor = grid.from_offset(rng.randrange(cols), rng.randrange(rows))
        cells = grid.footprint(anchor, size)
        if any(not grid.in_bounds(c, cols, rows) or c in taken or c in reserved for c in cells):
            continue
        taken.update(cells)
        n = len(creatures)
        creatures.append(
            {"id": f"c{n}", "name": f"Creature {n}", "size": size, "anchor": list(anchor), "color": rng.choice(COLORS)}
        )
    free = [
        cell
        for row in range(rows)
        for col in range(cols)
        if (cell := grid.from_offset(col, row)) not in taken and cell not in reserved
    ]
    walls = sorted(rng.sample(free, n_walls))
    scenario = {
        "version": 1,
        "name": f"Bench {cols}x{rows}",
        "description": f"bench/web.py: {n_creatures} creatures and {n_walls} walls on a {cols}×{rows} hex map.",
        "settings": {},
        "board": {"cols": cols, "rows": rows, "walls": [list(w) for w in walls]},
        "creatures": creatures,
    }
    load_scenario(scenario)  # raises if a creature does not fit where it stands
    path = folder / f"bench_{cols}x{rows}.json"
    path.write_text(json.dumps(scenario))
    return Encounter(path, n_creatures, a, b)


def trace_file(folder: Path, enc: Encounter) -> Path:
    """Where the server notes the moments of each change (`vtt.table.latency_trace`)."""
    return folder / f"{enc.path.stem}.trace.jsonl"


def start_table(folder: Path, enc: Encounter, seed: int, profile: Path | None = None) -> AppServer:
    """`profile`: the server's event loop is profiled during the measured drops of section 2, the figures written to
    this file (`bench/profile_on_signal.py`)."""
    db = folder / f"{enc.path.stem}.sqlite"
    args = ["--map", str(enc.path), "--database", f"sqlite:///{db}", "--watchable", "--seed", str(seed)]
    env = {latency_trace.ENV: str(trace_file(folder, enc))}
    if profile is None:
        return AppServer(module="vtt.cli", args=args, env=env, startup_timeout=90).start()
    env["VTT_PROFILE_OUT"] = str(profile.resolve())
    return AppServer(module="bench.profile_on_signal", args=args, env=env, startup_timeout=90).start()


@contextmanager
def profiled(server: AppServer, on: bool) -> Iterator[None]:
    """The server's profile (`start_table(profile=...)`) taken during the block, when `on`."""
    if on and server.process is not None:
        os.kill(server.process.pid, signal.SIGUSR1)
    try:
        yield
    finally:
        if on and server.process is not None:
            os.kill(server.process.pid, signal.SIGUSR2)


BARE_APP = '''
"""bench/web.py: the bare NiceGUI round trip: a click in one client sets a label in every client."""
import os
import weakref

from nicegui import ui


class Shared:
    def __init__(self) -> None:
        self.count = 0
        self.labels: weakref.WeakSet[ui.label] = weakref.WeakSet()

    def bump(self) -> None:
        self.count += 1
        for label in list(self.labels):
            label.set_text(f"count {self.count}")


SHARED = Shared()


@ui.page("/")
def index() -> None:
    SHARED.labels.add(ui.label(f"count {SHARED.count}").classes("bare-label"))
    ui.button("Click", on_click=SHARED.bump).classes("bare-button")


if __name__ in {"__main__", "__mp_main__"}:
    ui.run(port=int(os.environ["BARE_PORT"]), reload=False, show=False, uvicorn_logging_level="warning")
'''


# ----------------------------------------------------------------------------------------------------------
# Statistics and output
# ----------------------------------------------------------------------------------------------------------


def pct(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), linear interpolation."""
    xs = sorted(values)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def dist(values: Sequence[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"median {statistics.median(values):6.1f}  p95 {pct(values, 95):6.1f}  "
        f"min {min(values):6.1f}  max {max(values):6.1f}  (n={len(values)})"
    )


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


@contextmanager
def timed(label: str) -> Iterator[None]:
    t0 = time.perf_counter()
    yield
    print(f"   ({label}: {time.perf_counter() - t0:.1f} s)", flush=True)


def report_server(server: AppServer, name: str) -> None:
    out = server.output()
    if "Traceback" in out or "Error" in out:
        print(f"!! the {name} server logged errors:\n{textwrap.indent(out[-3000:], '   ')}")


# ----------------------------------------------------------------------------------------------------------
# Browser helpers
# ----------------------------------------------------------------------------------------------------------


def new_context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def wait_tokens(page: Page, n: int) -> None:
    page.wait_for_function("window.did_handshake === true", timeout=TIMEOUT_MS)
    page.wait_for_function("n => document.querySelectorAll('[data-token-id]').length >= n", arg=n, timeout=TIMEOUT_MS)


def perf_metrics(cdp: CDPSession) -> dict[str, float]:
    result: dict[str, Any] = cdp.send("Performance.getMetrics")
    return {str(m["name"]): float(m["value"]) for m in result["metrics"]}


def start_js_profile(cdp: CDPSession) -> None:
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})  # µs
    cdp.send("Profiler.start")


def stop_js_profile(cdp: CDPSession) -> dict[str, float]:
    """ms of main-thread samples by script file (a native function such as querySelectorAll is charged to the
    script that called it); V8's own buckets "(program)" (native work outside JS: style, layout, paint, parsing)
    and "(garbage collector)" are kept, "(idle)" is dropped."""
    profile: dict[str, Any] = cdp.send("Profiler.stop")["profile"]
    cdp.send("Profiler.disable")
    nodes = {int(n["id"]): n for n in profile["nodes"]}
    parent = {int(child): int(n["id"]) for n in profile["nodes"] for child in n.get("children", [])}
    by_script: dict[str, float] = {}
    owner: dict[int, str] = {}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        node_id = int(sample)
        if node_id not in owner:
            x: int | None = node_id
            name = str(nodes[node_id]["callFrame"]["functionName"]) or "(anonymous)"
            while x is not None and not nodes[x]["callFrame"]["url"]:
                x = parent.get(x)
            owner[node_id] = name if x is None else str(nodes[x]["callFrame"]["url"]).rsplit("/", 1)[-1]
        by_script[owner[node_id]] = by_script.get(owner[node_id], 0.0) + float(delta) / 1000
    by_script.pop("(idle)", None)
    by_script.pop("(root)", None)
    return by_script


def print_profile(label: str, by_script: dict[str, float], per: int = 1, top: int = 7) -> None:
    total = sum(by_script.values()) / per
    biggest = sorted(by_script.items(), key=lambda kv: -kv[1])[:top]
    parts = ", ".join(f"{name} {ms / per:.0f}" for name, ms in biggest)
    print(f"   {label}: {total:.0f} ms of samples: {parts}")


def renderer_pids(browser_cdp: CDPSession) -> set[int]:
    """Process ids of the browser's renderers (Chromium runs without its sandbox here: these are the host's)."""
    info: dict[str, Any] = browser_cdp.send("SystemInfo.getProcessInfo")
    return {int(p["id"]) for p in info["processInfo"] if p["type"] == "renderer"}


def renderer_of(page: Page, candidates: set[int]) -> int | None:
    """Of the renderer processes `candidates`, the one whose main thread works while `page` runs a busy loop (the
    others are other pages', idle, or spares the browser keeps for the next page)."""
    before = {pid: thread_cpu_ms(pid, pid) for pid in candidates}
    for attempt in range(3):  # a page on a loaded machine may reload itself (its socket was slow to answer)
        try:
            page.evaluate("() => { const t = performance.now(); while (performance.now() - t < 150) {} }")
            break
        except PlaywrightError as e:
            if "destroyed" not in str(e) or attempt == 2:
                raise
            page.wait_for_load_state()
    grew = {pid: thread_cpu_ms(pid, pid) - ms for pid, ms in before.items()}
    return max(grew, key=lambda pid: grew[pid], default=None)


@dataclass
class Client:
    page: Page
    cdp: CDPSession  # Performance domain on (main-thread time); Network too for the client recording frames
    frames: list[str] = field(default_factory=list)  # payloads of the websocket frames received (if recorded)
    pid: int | None = None  # its renderer process (its main thread is the process's first thread)
    client_id: str = ""  # NiceGUI's id of the page (the server's trace names pages by it)

    def main_thread_ms(self) -> dict[str, float]:
        """Busy time of the page's renderer main thread so far, in all and in script, style and layout (CDP: the
        wall time of its tasks, which counts the waits for a core while other processes run), and its CPU time
        (CPU, from /proc: what the thread itself did)."""
        metrics = perf_metrics(self.cdp)
        busy = {k: metrics.get(k, 0.0) * 1000 for k in METRICS}
        busy[CPU] = thread_cpu_ms(self.pid, self.pid) if self.pid is not None else float("nan")
        return busy


def reload_warning(index: int) -> Callable[[ConsoleMessage], None]:
    """NiceGUI logs "reloading because ..." before it reloads a page (a lost socket, a failed handshake)."""

    def warn(message: ConsoleMessage) -> None:
        if "reloading" in message.text:
            print(f"!! client {index}: {message.text}")

    return warn


@contextmanager
def open_clients(
    browser: Browser, urls: Sequence[str], ready: Callable[[Page], None], frames_of: int | None
) -> Iterator[list[Client]]:
    """One context per user, opened one after the other (with 8 big pages loading at once on 2 cores, one of them
    once reloaded itself mid-run), and closed at the end of the block. The client at index `frames_of` records
    every websocket frame it receives (CDP Network domain enabled before it navigates)."""
    clients: list[Client] = []
    browser_cdp = browser.new_browser_cdp_session()
    try:
        for i, url in enumerate(urls):
            page = new_context(browser).new_page()
            client = Client(page, page.context.new_cdp_session(page))
            clients.append(client)
            client.cdp.send("Performance.enable")
            if i == frames_of:
                client.cdp.send("Network.enable")
                client.cdp.on(
                    "Network.webSocketFrameReceived",
                    lambda ev, c=client: c.frames.append(str(ev["response"]["payloadData"])),
                )
            page.on("console", reload_warning(i))
            page.goto(url, wait_until="commit")
            ready(page)
            client.pid = renderer_of(page, renderer_pids(browser_cdp) - {c.pid for c in clients})
            client.client_id = str(page.evaluate("window.clientId"))
        yield clients
    finally:
        for client in clients:
            client.page.context.close()
        browser_cdp.detach()


# ----------------------------------------------------------------------------------------------------------
# 1. First paint
# ----------------------------------------------------------------------------------------------------------

PAINT_PROBE = """(() => {
  const N = __N__;
  const SELECTOR = __SELECTOR__;
  const marks = { tokens: null, painted: null, handshake: null, busy: 0 };
  window.__benchPaint = marks;
  // the end of the page's last long task (over 50 ms of main thread): when it stopped being busy after the paint
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) marks.busy = Math.max(marks.busy, e.startTime + e.duration);
  }).observe({ type: 'longtask', buffered: true });
  const tick = () => {
    const now = performance.now();
    if (marks.handshake === null && window.did_handshake === true) marks.handshake = now;
    if (marks.tokens === null && document.querySelectorAll(SELECTOR).length >= N) {
      marks.tokens = now;
      // this frame draws them: a message posted now is handled once its rendering (style, layout, paint) is done
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { marks.painted = performance.now(); };
      channel.port2.postMessage(null);
    }
    if (marks.painted === null || marks.handshake === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""
TOKEN_SELECTOR = "[data-token-id]"
BARE_SELECTOR = ".bare-label"
QUIET_MS = 500
"""A page is settled once it ran no long task for this long after its paint."""
SETTLED = f"""() => {{
  const m = window.__benchPaint;
  return m && m.painted !== null && performance.now() - Math.max(m.busy, m.painted) > {QUIET_MS};
}}"""

NAV_TIMING = """() => {
  const n = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return {
    marks: window.__benchPaint,
    response_end: n.responseEnd, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,
    html_encoded: n.encodedBodySize, html_decoded: n.decodedBodySize,
    transferred: n.transferSize + res.reduce((s, r) => s + (r.transferSize || 0), 0),
    resources: res.length,
    fetched: res.filter((r) => r.transferSize > 0).length,
  };
}"""


@dataclass
class Load:
    label: str
    painted: float  # ms from navigation start
    tokens: float
    handshake: float
    settled: float  # the end of the last long task (or the paint, if later)
    response_end: float
    dcl: float
    html_encoded: int
    html_decoded: int
    transferred: int
    requests: int  # files the page loaded (besides the HTML)
    fetched: int  # of them, not from the browser's cache
    main_thread: dict[str, float]  # ms, CDP Performance metrics of the new document (they restart per document)


def measure_load(page: Page, cdp: CDPSession, url: str, label: str) -> Load:
    page.goto(url, wait_until="commit")
    page.wait_for_function(
        "() => window.__benchPaint && window.__benchPaint.painted !== null && window.__benchPaint.handshake !== null",
        timeout=TIMEOUT_MS,
        polling=50,
    )
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=100)
    after = perf_metrics(cdp)
    t: dict[str, Any] = page.evaluate(NAV_TIMING)
    m = t["marks"]
    return Load(
        label,
        float(m["painted"]),
        float(m["tokens"]),
        float(m["handshake"]),
        max(float(m["busy"]), float(m["painted"])),
        float(t["response_end"]),
        float(t["dcl"]),
        int(t["html_encoded"]),
        int(t["html_decoded"]),
        int(t["transferred"]),
        int(t["resources"]),
        int(t["fetched"]),
        {k: after.get(k, 0.0) * 1000 for k in METRICS},
    )


def print_load(x: Load) -> None:
    mt = x.main_thread
    print(
        f"   {x.label:<24} painted {x.painted:5.0f} | HTML in {x.response_end:4.0f}  DOMContentLoaded {x.dcl:5.0f}  "
        f"tokens in DOM {x.tokens:5.0f}  handshake {x.handshake:5.0f}  settled {x.settled:5.0f} | "
        f"{x.transferred / 1024:4.0f} KB, {x.fetched:2d} of {x.requests:2d} files fetched | "
        f"renderer main thread {mt['TaskDuration']:5.0f}: script {mt['ScriptDuration']:4.0f}, "
        f"style {mt['RecalcStyleDuration']:4.0f}, layout {mt['LayoutDuration']:4.0f}"
    )


def bench_paint(
    browser: Browser,
    url: str,
    n_tokens: int,
    runs: int,
    warmup: bool = True,
    profile: bool = False,
    selector: str = TOKEN_SELECTOR,
) -> tuple[list[Load], list[Load]]:
    """`runs` cold loads (a new context each), each followed by a warm one in the same context: painted is the
    frame after `n_tokens` elements matching `selector` exist. With `warmup`, a first load (printed, not counted)
    builds the server's first page and compiles its imports. With `profile`, one more cold load (not counted) runs
    under the JS sampling profiler."""
    probe = PAINT_PROBE.replace("__N__", str(n_tokens)).replace("__SELECTOR__", json.dumps(selector))
    cold: list[Load] = []
    warm: list[Load] = []
    for i in range(0 if warmup else 1, runs + 1):
        with new_context(browser) as context:
            context.add_init_script(script=probe)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            first = measure_load(page, cdp, url, f"cold #{i}" if i else "first load after start")
            print_load(first)
            if i:
                second = measure_load(page, cdp, url, f"warm #{i}")
                print_load(second)
                cold.append(first)
                warm.append(second)
    x = cold[0]
    print(f"   initial HTML: {x.html_decoded / 1024:.0f} KB ({x.html_encoded / 1024:.0f} KB on the wire)")
    if profile:
        with new_context(browser) as context:
            context.add_init_script(script=probe)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            start_js_profile(cdp)
            load = measure_load(page, cdp, url, "cold, JS profiler on")
            by_script = stop_js_profile(cdp)
        print_load(load)
        print_profile("   its main thread up to the paint, by script", by_script, top=8)
    return cold, warm


def bare_first_paint(browser: Browser, script: Path, folder: Path, runs: int) -> tuple[list[Load], list[Load]]:
    """The bare NiceGUI page's first paint (its label), measured as the table's: what NiceGUI itself costs."""
    section("1a. For reference, first paint of the bare NiceGUI page (a label and a button)")
    server = AppServer(script, port_env="BARE_PORT", cwd=folder).start()
    try:
        return bench_paint(browser, server.url, 1, runs, selector=BARE_SELECTOR)
    finally:
        server.stop()
        report_server(server, "bare NiceGUI")


def print_paint_summary(cold: Sequence[Load], warm: Sequence[Load], bare: tuple[list[Load], list[Load]]) -> None:
    for name, loads, bare_loads, target in (
        ("cold", cold, bare[0], PAINT_TARGET_S),
        ("warm", warm, bare[1], WARM_PAINT_TARGET_S),
    ):
        med = statistics.median(x.painted for x in loads) / 1000
        bare_med = statistics.median(x.painted for x in bare_loads) / 1000
        parts = "  ".join(
            f"{what} {statistics.median(getattr(x, key) for x in loads):.0f}"
            for what, key in (("HTML in", "response_end"), ("DOMContentLoaded", "dcl"), ("settled", "settled"))
        )
        main = statistics.median(x.main_thread["TaskDuration"] for x in loads)
        print(
            f"   first paint, {name}: {med:.2f} s median ({parts} ms; main thread {main:.0f} ms); bare NiceGUI page "
            f"{bare_med:.2f} s ({med / bare_med:.1f}×)   target ≤ {target} s: {verdict(med <= target)}"
        )


# ----------------------------------------------------------------------------------------------------------
# 2. Drop -> other client's DOM, and the bare NiceGUI round trip
# ----------------------------------------------------------------------------------------------------------

# The changing page's pointerups, and when it hands each socket.io "event" message (a drop) to its socket.
SENDER_PROBE = """() => {
  window.__ups = [];
  window.__sent = [];
  window.addEventListener('pointerup', () => window.__ups.push(performance.timeOrigin + performance.now()), true);
  const emit = window.socket.emit.bind(window.socket);
  window.socket.emit = (ev, ...args) => {
    if (ev === 'event') window.__sent.push(performance.timeOrigin + performance.now());
    return emit(ev, ...args);
  };
}"""

# Every socket.io event the page receives: when its handler starts (onAny runs just before NiceGUI's own handler),
# the run_method names (NiceGUI 3 sends `run_method` as `run_javascript` with `return runMethod(id, "name", args)`;
# a page taking in a change gets its calls together, `vtt.web.one_message`: "run+patchToken", then its log entry
# `table_view.FLUSH_DELAY` later, "run+add")
# and when Vue has re-rendered what it changed (a nextTick queued after the handler's synchronous part).
MESSAGE_LOG = r"""
  window.socket.onAny((ev, msg) => {
    const code = msg && typeof msg.code === 'string' ? msg.code : '';
    const name = [...code.matchAll(/(?:runMethod\(|\[)\d+, ?"(\w+)"/g)].map((m) => m[1]).join('+');
    const rec = [performance.timeOrigin + performance.now(), ev, name, null];
    window.__msgs.push(rec);
    Promise.resolve().then(() => Vue.nextTick()).then(() => { rec[3] = performance.timeOrigin + performance.now(); });
  });
"""
RUN_METHOD = re.compile(r'(?:runMethod\(|\[)\d+, ?"(\w+)"')
"""The methods a message runs: NiceGUI's `runMethod(id, "name", ...)`, and each call `[id, "name", ...]` of
`vtt.web.one_message`'s carrier."""

TOKEN_OBSERVER = (
    """(id) => {
  window.__seen = [];
  window.__msgs = [];
  if (window.__observing) return;
  window.__observing = true;
  const root = document.querySelector('svg.vtt-svg');
  new MutationObserver((records) => {
    const t = performance.timeOrigin + performance.now();
    for (const m of records) {
      if (m.target.getAttribute && m.target.getAttribute('data-token-id') === id) {
        const rec = { t, frame: null, q: m.target.dataset.q, r: m.target.dataset.r };
        window.__seen.push(rec);
        if (window.__wake) window.__wake();
        requestAnimationFrame(() => { rec.frame = performance.timeOrigin + performance.now(); });
        break;
      }
    }
  }).observe(root, { attributes: true, subtree: true, attributeFilter: ['data-q', 'data-r'] });"""
    + MESSAGE_LOG
    + "}"
)

LABEL_OBSERVER = (
    """() => {
  window.__seen = [];
  window.__msgs = [];
  if (window.__observing) return;
  window.__observing = true;
  const el = document.querySelector('.bare-label');
  new MutationObserver(() => {
    const rec = { t: performance.timeOrigin + performance.now(), frame: null, text: el.textContent };
    window.__seen.push(rec);
    if (window.__wake) window.__wake();
    requestAnimationFrame(() => { rec.frame = performance.timeOrigin + performance.now(); });
  }).observe(el, { childList: true, characterData: true, subtree: true });"""
    + MESSAGE_LOG
    + "}"
)

SEEN_MORE = """([n, ms]) => window.__seen.length > n || new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no change seen in ' + ms + ' ms')), ms);
  window.__wake = () => { if (window.__seen.length > n) { clearTimeout(timer); window.__wake = null; resolve(true); } };
})"""
"""Wait until the page has seen more than `n` changes: woken by its observer, not polled (Playwright's
`wait_for_function` polls on every animation frame, a frame of the page being measured each time)."""

TAKE_MESSAGES = "() => { const m = window.__msgs; window.__msgs = []; return m; }"

# The table page's own handlers measure themselves when asked (`window.__vttMeasure`): `vtt:log` (the roll log and
# chat adding or marking entries, static/log_view.js) and `vtt:map` (a frame's token patches applied and rendered,
# static/map_view.js). Summed here per change.
PART_TIMES = """() => {
  window.__vtt = { log: 0, map: 0 };
  if (window.__vttMeasure) return;
  window.__vttMeasure = true;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const part = e.name.slice(4);
      if (e.name.startsWith('vtt:') && part in window.__vtt) window.__vtt[part] += e.duration;
    }
    performance.clearMeasures();
  }).observe({ entryTypes: ['measure'] });
}"""
TAKE_PART_TIMES = "() => { const v = window.__vtt || null; window.__vtt = { log: 0, map: 0 }; return v; }"


@dataclass
class Seen:
    """One change: its pointerup in the changing page, and per observer (by client id) when the message that
    changes its DOM was handled and when the DOM changed (ms since the epoch)."""

    up: float
    sent: float | None = None  # the drop handed to the changing page's socket (None: no "event" message after up)
    handled: dict[str, float] = field(default_factory=dict)
    dom: dict[str, float] = field(default_factory=dict)


TRAILING_MS = 200
"""How long after the last observer saw a change its trailing messages may come (the log and panels follow the map's
patch by `vtt.web.table_view.FLUSH_DELAY`); the next change is made after them."""

Matcher = Callable[[str, str], bool]  # (socket.io event, run_method name) -> is it the message that changes the DOM


@dataclass
class Latency:
    dom: list[float] = field(default_factory=list)  # every (change, observer) pair, ms
    frame: list[float] = field(default_factory=list)
    slowest: list[float] = field(default_factory=list)  # per change, the last of the observers
    first_msg: list[float] = field(default_factory=list)  # change -> the page's JS gets the first message
    key_msg: list[float] = field(default_factory=list)  # change -> the page's JS gets the message that changes the DOM
    key_to_dom: list[float] = field(default_factory=list)  # that message -> DOM changed
    before_key: Counter[str] = field(default_factory=Counter)  # messages handled before it
    render: dict[str, list[float]] = field(default_factory=dict)  # message -> its handler start to Vue re-rendered
    samples: int = 0
    changes: list[Seen] = field(default_factory=list)  # per change: when it was made and seen, for `legs`
    server_cpu: float = 0.0  # ms of server CPU (user + system, all threads) per change
    idle_cpu: float = 0.0  # ms of server CPU per second with the same clients connected and nothing happening
    wall: float = 0.0  # ms of wall time per change (the idle CPU of that time is in `server_cpu`)

    @property
    def work_cpu(self) -> float:
        """Server CPU per change less what the server spends idle with these clients in as long a time."""
        return max(0.0, self.server_cpu - self.idle_cpu * self.wall / 1000)

    sender_main: dict[str, float] = field(default_factory=dict)  # ms of the changing page's main thread per change
    observer_main: list[dict[str, float]] = field(default_factory=list)  # the same, each observer
    js_profile: dict[str, float] = field(default_factory=dict)  # observer 1's main thread by script, ms per change
    sender_work: PageWork | None = None  # the changing page's main thread by phase and kind (a traced pass)
    observer_trace: dict[str, float] = field(default_factory=dict)  # the same by trace event, CPU ms (--observer-trace)
    parts: dict[str, list[float]] = field(default_factory=dict)  # (change, observer) -> ms in the log, map, panels
    threads: dict[str, dict[str, float]] = field(default_factory=dict)  # part -> kind of thread -> CPU ms per change


def message_name(m: Sequence[Any]) -> str:
    return f"run_method {m[2]}" if m[2] else str(m[1])


def collect(sender: Page, observers: Sequence[Client], counts: list[int], lat: Latency | None, is_key: Matcher) -> None:
    """Wait until every observer has seen one more change, then record the latencies (if `lat`)."""
    for client, n in zip(observers, counts, strict=True):
        client.page.evaluate(SEEN_MORE, [n, 10_000])
    sender.wait_for_timeout(TRAILING_MS)  # the observers' next frames; the server's trailing messages
    up = float(sender.evaluate("window.__ups[window.__ups.length - 1]"))
    sent = [float(t) for t in sender.evaluate("window.__sent || []") if float(t) >= up]
    per_drop: list[float] = []
    seen = Seen(up, min(sent, default=None))
    for i, client in enumerate(observers):
        page = client.page
        rec: dict[str, Any] = page.evaluate("n => window.__seen[n]", counts[i])
        counts[i] = int(page.evaluate("window.__seen.length"))
        msgs: list[list[Any]] = [m for m in page.evaluate(TAKE_MESSAGES) if float(m[0]) >= up]
        parts: dict[str, float] | None = page.evaluate(TAKE_PART_TIMES)
        client.frames.clear()
        if lat is None:
            continue
        if parts is not None:
            parts["panels"] = sum(float(m[3]) - float(m[0]) for m in msgs if m[1] == "update" and m[3] is not None)
            for what, ms in parts.items():
                lat.parts.setdefault(what, []).append(float(ms))
        dom = float(rec["t"])
        per_drop.append(dom - up)
        seen.dom[client.client_id] = dom
        if rec["frame"] is not None:
            lat.frame.append(float(rec["frame"]) - up)
        if msgs:
            lat.first_msg.append(float(msgs[0][0]) - up)
        lat.samples += 1
        for m in msgs:
            if m[3] is not None:
                lat.render.setdefault(message_name(m), []).append(float(m[3]) - float(m[0]))
        for m in msgs:
            if is_key(str(m[1]), str(m[2])):
                seen.handled[client.client_id] = float(m[0])
                lat.key_msg.append(float(m[0]) - up)
                lat.key_to_dom.append(dom - float(m[0]))
                break
            lat.before_key[message_name(m)] += 1
    if lat is not None:
        lat.changes.append(seen)
        lat.dom.extend(per_drop)
        lat.slowest.append(max(per_drop))


def is_patch(event: str, method: str) -> bool:
    return "patchToken" in method.split("+")


def is_update(event: str, method: str) -> bool:
    return event == "update"


def wait_idle(clients: Sequence[Client]) -> None:
    """Let every page finish the work of the previous change (its renders and paints) before the next one, so
    that each sample is one change on quiet pages, as when people drop a token every few seconds."""
    for client in clients:
        client.page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestIdleCallback(r, { timeout: 3000 })))"
        )


@dataclass
class Side:
    """One of the two apps section 2 measures, change by change: its server, its pages (clients[0] makes the
    changes, the others observe), what its change `i` is, and which message changes an observer's DOM. `profile`:
    its server takes `profiled`'s signals."""

    server: AppServer
    clients: Sequence[Client]
    change: Callable[[int], None]
    is_key: Matcher
    profile: bool = False
    lat: Latency = field(default_factory=Latency)
    counts: list[int] = field(default_factory=list)

    @property
    def pid(self) -> int:
        """The server's process."""
        if self.server.process is None:
            raise RuntimeError("a server is not running")
        return self.server.process.pid


def add_spent(total: dict[str, dict[str, float]], more: dict[str, dict[str, float]]) -> None:
    for part, kinds in more.items():
        into = total.setdefault(part, {})
        for kind, ms in kinds.items():
            into[kind] = into.get(kind, 0.0) + ms


def run_paired(sides: Sequence[Side], n: int, warmup: int, trace: bool = False) -> None:
    """`warmup + n` changes of each side, the sides taking turns change by change (which goes first alternates),
    every page of both sides idle before each change: both apps are measured in the same moments of the same
    machine (a slow spell of it falls on both alike), each with the other's pages open and idle. A change's CPU
    (every thread of every process it may cost, its server's) is taken from just before it to the end of its
    trailing messages and counted to its side. Observer 1 of each side is profiled meanwhile: by script (the JS
    sampling profiler), or with `trace` by trace event in its CPU time (one Chrome trace of the browser)."""
    for side in sides:
        side.counts = [0] * (len(side.clients) - 1)
    everyone = [c for side in sides for c in side.clients]
    parts = [machine_parts(side.pid, side.clients) for side in sides]
    threads: list[dict[str, dict[str, float]]] = [{} for _ in sides]

    def turn(i: int, measured: bool) -> None:
        order = range(len(sides)) if i % 2 == 0 else reversed(range(len(sides)))
        for k in order:
            side = sides[k]
            wait_idle(everyone)
            if not measured:
                side.change(i)
                collect(side.clients[0].page, side.clients[1:], side.counts, None, side.is_key)
                continue
            before, cpu0, t0 = snapshot(parts[k]), process_cpu_ms(side.pid), time.perf_counter()
            side.change(i)
            collect(side.clients[0].page, side.clients[1:], side.counts, side.lat, side.is_key)
            side.lat.wall += (time.perf_counter() - t0) * 1000
            side.lat.server_cpu += process_cpu_ms(side.pid) - cpu0
            add_spent(threads[k], spent(before, snapshot(parts[k]), 1))

    for i in range(warmup):
        turn(i, False)
    wait_idle(everyone)
    idle0, t_idle = [process_cpu_ms(side.pid) for side in sides], time.perf_counter()
    time.sleep(IDLE_S)
    for side, cpu in zip(sides, idle0, strict=True):
        side.lat.idle_cpu = (process_cpu_ms(side.pid) - cpu) / (time.perf_counter() - t_idle)
    main0 = [[c.main_thread_ms() for c in side.clients] for side in sides]

    def measured() -> None:
        for i in range(warmup, warmup + n):
            turn(i, True)

    with ExitStack() as profiling:
        for side in sides:
            profiling.enter_context(profiled(side.server, side.profile))
        if trace:
            from bench.map_trace import record, self_times  # it imports this module

            first = sides[0].clients[1]
            events = record(first.cdp, first.page, measured)
            for side in sides:
                pid = side.clients[1].pid
                times = self_times(events, (pid, pid)) if pid is not None else {}
                side.lat.observer_trace = {name: ms / n for name, ms in times.items()}
        else:
            for side in sides:
                start_js_profile(side.clients[1].cdp)
            measured()
            for side in sides:
                side.lat.js_profile = {k: v / n for k, v in stop_js_profile(side.clients[1].cdp).items()}
    for side, m0, spent_ms in zip(sides, main0, threads, strict=True):
        lat = side.lat
        lat.threads = {part: {kind: ms / n for kind, ms in kinds.items()} for part, kinds in spent_ms.items()}
        lat.server_cpu /= n
        lat.wall /= n
        now = [c.main_thread_ms() for c in side.clients]
        main = [{k: (v - was[k]) / n for k, v in ms.items()} for ms, was in zip(now, m0, strict=True)]
        lat.sender_main, lat.observer_main = main[0], main[1:]


def machine_parts(server_pid: int, clients: Sequence[Client]) -> dict[str, list[int]]:
    """The processes whose CPU a change costs, by part: each page's renderer, Chromium's GPU, browser and utility
    (network) processes, the server, and this benchmark itself (its Python process and the Playwright driver)."""
    chromium = chromium_processes(CHROMIUM)
    parts = {
        "changing page" if i == 0 else f"observer {i}": [c.pid] for i, c in enumerate(clients) if c.pid is not None
    }
    parts["GPU process"] = chromium.get("gpu-process", [])
    parts["browser process"] = chromium.get("browser", [])
    parts["utility processes (network)"] = chromium.get("utility", [])
    parts["server"] = [server_pid]
    ours = {pid for pids in chromium.values() for pid in pids} | {server_pid}
    parts["this benchmark (Python, Playwright driver)"] = [
        os.getpid(),
        *(pid for pid in children(os.getpid()) if pid not in ours and not is_server(pid)),
    ]
    return parts


def is_server(pid: int) -> bool:
    """Whether `pid` runs a table or bare server (this benchmark starts both)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return False
    return b"vtt.cli" in command or b"bare_app" in command


def trace_sender(
    browser: Browser, clients: Sequence[Client], change: Callable[[int], None], n: int, first: int
) -> PageWork:
    """`n` more changes by clients[0], its main thread traced (`bench.page_trace`); each change waited out."""
    sender = clients[0]

    def settle() -> None:
        sender.page.wait_for_timeout(2 * TRAILING_MS)
        wait_idle(clients)

    wait_idle(clients)
    return trace_changes(browser, sender.page, sender.cdp, sender.pid, change, n, settle, first)


def app_side(server: AppServer, clients: Sequence[Client], enc: Encounter, profile: bool = False) -> Side:
    """The Soulweaver (clients[0]) drags the mover A -> B -> A ... (change `i`: from A when `i` is even); the others
    observe."""
    sender = clients[0].page
    sender.evaluate(SENDER_PROBE)
    for client in clients[1:]:
        client.page.evaluate(TOKEN_OBSERVER, MOVER)
        client.page.evaluate(PART_TIMES)
        client.frames.clear()

    def move(i: int) -> None:
        here, there = (enc.spot_a, enc.spot_b) if i % 2 == 0 else (enc.spot_b, enc.spot_a)
        drag(sender, cell_xy(sender, here), cell_xy(sender, there), steps=8)

    return Side(server, clients, move, is_patch, profile)


def check_mover(page: Page, enc: Encounter, changes: int) -> None:
    """After `changes` drags the mover is at A (an even count) or B."""
    final = enc.spot_a if changes % 2 == 0 else enc.spot_b
    q, r = page.locator(f'[data-token-id="{MOVER}"]').evaluate("el => [el.dataset.q, el.dataset.r]")
    if (int(q), int(r)) != final:
        print(f"!! the mover is at {q},{r} in the dragging page, expected {final}")


LOG_ENTRIES = 300
"""Entries in an observer's roll log when a new one's cost is measured (a long session's log)."""
LONG_LOG = """(n) => {
  const id = Number(document.querySelector('.roll-log').id.slice(1));
  const roll = { label: 'attack', result: 5, faces: [['5', []], ['5', ['double']]], typed: false, outcome: '= 5',
    dl: 'DL 3', doubles: 'doubles 5', counting: null, fumble: false, changes: [], modifiers: ['+1 · flanking'] };
  const entry = (seq) => ({ seq, head: '#' + seq + ' · bench · strike', undone: false, meta: false,
    events: [{ text: 'A strikes B.', quiet: false, rolls: [roll], needed: [] }] });
  for (let i = 1; i <= n; i++) getElement(id).add([entry(1e6 + i)]);
  window.__logEntry = (seq) => getElement(id).add([entry(seq)]);
}"""
NEW_ENTRY = """([next, n]) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    window.__logEntry(next + i);
    const t0 = performance.now();
    document.body.offsetHeight;  // style and layout, now
    times.push(performance.now() - t0);
  }
  return times;
}"""
FALLBACK_RULE = "#esm-fallback ~ *"
"""NiceGUI's page rule that `static/log_view.js` drops: put back for the comparison, then taken out again."""
SET_FALLBACK_RULE = """(on) => {
  const own = (s) => { try { return s.cssRules && !s.href; } catch (e) { return false; } };
  const sheet = [...document.styleSheets].find(own);
  if (on) { sheet.insertRule('#esm-fallback ~ * { display: none; }', sheet.cssRules.length); return; }
  for (let i = sheet.cssRules.length - 1; i >= 0; i--) {
    if (sheet.cssRules[i].selectorText === '#esm-fallback ~ *') sheet.deleteRule(i);
  }
}"""


def new_entry_cost(page: Page, n: int = 20) -> tuple[list[float], list[float]]:
    """A new roll-log entry's style and layout (ms, forced at once) in an observer's page whose log holds
    `LOG_ENTRIES`, `n` times as the page is, then `n` times with NiceGUI's `#esm-fallback ~ *` rule put back."""
    page.evaluate(LONG_LOG, LOG_ENTRIES)
    page.evaluate("() => document.body.offsetHeight")
    now = [float(t) for t in page.evaluate(NEW_ENTRY, [2_000_000, n])]
    page.evaluate(SET_FALLBACK_RULE, True)
    page.evaluate("() => document.body.offsetHeight")
    shipped = [float(t) for t in page.evaluate(NEW_ENTRY, [3_000_000, n])]
    page.evaluate(SET_FALLBACK_RULE, False)
    return now, shipped


# The legs of a drop, from the server's trace (`vtt.table.latency_trace`) and the pages' own times: (label, from, to)
# as names of moments. Moments of the server are its marks; "up" is the pointerup in the dragging page; "patch",
# "emit", "handled" and "dom" are each observer's (its patch queued, its patchToken message handed to the socket,
# handled by its page's JS, its DOM changed).
CHANGE_LEGS: tuple[tuple[str, str, str], ...] = (
    ("pointerup -> the page sends the drop", "up", "sent"),
    ("sent -> received by the server", "sent", "received"),
    ("received -> the page's drop handler runs", "received", "handler"),
    ("handler -> rules applied (check, apply)", "handler", "applied"),
    ("applied -> the commit starts (a thread hop?)", "applied", "writing"),
    ("the commit", "writing", "written"),
    ("committed -> listeners told (a hop back?)", "written", "tell"),
    ("every listener's table_changed", "tell", "told"),
)
OBSERVER_LEGS: tuple[tuple[str, str, str], ...] = (
    ("listeners told -> its patch queued", "tell", "patch"),
    ("patch queued -> handed to its socket", "patch", "emit"),
    ("handed to the socket -> handled in its page", "emit", "handled"),
    ("handled -> its DOM changed", "handled", "dom"),
)


def read_trace(path: Path) -> list[dict[str, Any]]:
    """The server's trace so far (ms since the epoch in `t`); the file is emptied for the next section."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    path.write_text("")
    marks = [json.loads(line) for line in lines if line.strip()]
    for m in marks:
        m["t"] = float(m["t"]) * 1000
    return marks


def drop_legs(marks: Sequence[dict[str, Any]], lat: Latency, sender_id: str) -> dict[str, list[float]]:
    """Each leg's durations over the measured changes (ms): the server's trace cut at each drop the dragging page's
    server received, each piece matched to the change whose pointerup is nearest before it."""
    starts = [i for i, m in enumerate(marks) if m["what"] == "received" and m.get("client") == sender_id]
    pieces = [marks[a:b] for a, b in zip(starts, [*starts[1:], len(marks)][: len(starts)], strict=True)]
    legs: dict[str, list[float]] = {}
    for change in lat.changes:
        piece = min(pieces, key=lambda p: abs(float(p[0]["t"]) - change.up), default=None)
        if piece is None:
            continue
        at: dict[str, float] = {"up": change.up, "received": float(piece[0]["t"])}
        if change.sent is not None:
            at["sent"] = change.sent
        for m in piece:
            if "client" not in m:
                at.setdefault(str(m["what"]), float(m["t"]))
        for label, a, b in CHANGE_LEGS:
            if a in at and b in at:
                legs.setdefault(label, []).append(at[b] - at[a])
        for client_id, dom in change.dom.items():
            mine = dict(at)
            mine["dom"] = dom
            if client_id in change.handled:
                mine["handled"] = change.handled[client_id]
            for m in piece:
                if m.get("client") == client_id and (m["what"] == "patch" or m.get("kind") == "patchToken"):
                    mine.setdefault(str(m["what"]), float(m["t"]))
            for label, a, b in OBSERVER_LEGS:
                if a in mine and b in mine:
                    legs.setdefault(label, []).append(mine[b] - mine[a])
    return legs


def print_gc(marks: Sequence[dict[str, Any]], lat: Latency) -> None:
    """The server's garbage collections of 0.5 ms or more (`latency_trace` notes them) during the measured drops: how
    many fell inside a drop (from its pointerup to the last observer's DOM change), by generation, and their ms."""
    windows = [(c.up, max(c.dom.values())) for c in lat.changes if c.dom]
    if not windows:
        return
    first, last = windows[0][0], windows[-1][1]
    passes = [m for m in marks if m["what"] == "gc" and first <= float(m["t"]) <= last]
    inside = [m for m in passes if any(a <= float(m["t"]) <= b for a, b in windows)]
    by_gen = Counter(str(m.get("generation")) for m in inside)
    print(
        f"   the server's garbage collections of 0.5 ms or more during the {len(windows)} measured drops: "
        f"{len(passes)} in all, {len(inside)} inside a drop (generation {dict(sorted(by_gen.items()))}, "
        f"{sum(float(m.get('ms', 0)) for m in inside):.1f} ms; the longest "
        f"{max((float(m.get('ms', 0)) for m in inside), default=0.0):.1f} ms)"
    )


def trace_cost_ms(marks: int, reps: int = 2000) -> float:
    """CPU ms (this process) of `marks` marks as `vtt.table.latency_trace.mark` writes them with the variable set: a
    JSON line each, written under a lock to a line-buffered file."""
    lock = threading.Lock()
    with tempfile.TemporaryFile("w", buffering=1, encoding="utf-8") as out:
        t0 = time.process_time()
        for i in range(reps):
            line = json.dumps({"t": time.time(), "what": "patch", "client": "0123456789abcdef", "seq": i})
            with lock:
                out.write(line + "\n")
        took = time.process_time() - t0
    return took * 1000 / reps * marks


def print_legs(legs: dict[str, list[float]]) -> None:
    if not legs:
        print("      (the server wrote no trace)")
        return
    print("      where the time goes, leg by leg (server trace and the pages' times; each observer's legs per pair):")
    for label, *_ in (*CHANGE_LEGS, *OBSERVER_LEGS):
        if label in legs:
            row(label, legs[label], 9)


def bare_ready(page: Page) -> None:
    page.wait_for_function("window.did_handshake === true", timeout=TIMEOUT_MS)
    page.wait_for_selector(".bare-label")


def bare_side(server: AppServer, clients: Sequence[Client]) -> Side:
    """A click in clients[0] sets the label in every client (the bare app); the others observe."""
    sender = clients[0].page
    sender.evaluate(SENDER_PROBE)
    for client in clients[1:]:
        client.page.evaluate(LABEL_OBSERVER)
    box = sender.locator(".bare-button").bounding_box()
    if box is None:
        raise RuntimeError("the bare app's button is not rendered")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return Side(server, clients, lambda _: sender.mouse.click(x, y), is_update)


async def timed_submit(table: Table, viewer: Viewer, command: dict[str, Any]) -> tuple[Outcome, float]:
    """`table.submit`, and how long it took in ms (on a running event loop, as in the server)."""
    t0 = time.perf_counter()
    outcome = await table.submit(viewer, command)
    return outcome, (time.perf_counter() - t0) * 1000


def server_pieces(enc: Encounter, n_views: int, folder: Path, reps: int = 20) -> None:
    """Time, in this process, the server's own work per move: the rules (`apply` of the Soulweaver's place); the
    whole `Table.submit` (check, rules, the command committed, folded in) on a SQLite file as the server keeps it,
    and that commit alone, as the event loop makes it when the file's lock is free (`db.append_command_at_once`)
    and as the database's writer thread makes it otherwise (`db.append_command`), both in this thread; and what
    `TableView.table_changed` works out for `n_views` pages (the Soulweaver's and `n_views - 1` spectators'):
    each page's seat views of the state before and after, and the moved creature's token (`seat_token`: built
    once per kind of seat and shared). For comparison, rebuilding every creature's token once (`token_for`)."""
    state = load_scenario(json.loads(enc.path.read_text())).state
    views = [Viewer("soulweaver", "Soulweaver")] + [Viewer("spectator", "spectator")] * (n_views - 1)
    engine = db.open_engine(f"sqlite:///{folder}/pieces-{len(state.creatures)}.sqlite")
    table = Table("bench", state, engine, db.create_game(engine, "bench", {}))
    writes = db.create_game(engine, "bench-writes", {})
    t_apply: list[float] = []
    t_submit: list[float] = []
    t_commit: list[float] = []
    t_at_once: list[float] = []
    t_fan: list[float] = []
    t_all: list[float] = []
    for i in range(reps):
        to = enc.spot_b if i % 2 == 0 else enc.spot_a
        before = table.state
        t0 = time.perf_counter()
        apply(before, parse_command({"type": "place", "creature": MOVER, "to": list(to)}), RandomDice(0))
        t1 = time.perf_counter()
        command = {"type": "place", "creature": MOVER, "to": list(to)}
        with ThreadPoolExecutor(max_workers=1) as thread:  # this thread runs Playwright's event loop
            outcome, took = thread.submit(asyncio.run, timed_submit(table, views[0], command)).result()
        if not outcome.ok or outcome.record is None:
            raise RuntimeError(f"the bench's place was refused: {outcome.error}")
        t_submit.append(took)
        t2 = time.perf_counter()
        db.append_command(engine, writes, i + 1, SOULWEAVER, command, outcome.record.faces, outcome.record.events)
        t_commit.append((time.perf_counter() - t2) * 1000)
        t2 = time.perf_counter()
        seq, faces, events = reps + i + 1, outcome.record.faces, outcome.record.events
        if not db.append_command_at_once(engine, writes, seq, SOULWEAVER, command, faces, events):
            raise RuntimeError("the bench's database was locked")
        t_at_once.append((time.perf_counter() - t2) * 1000)
        t2 = time.perf_counter()
        for viewer in views:
            table.seat_view(viewer, before)
            seat = table.seat_view(viewer)
            seat_token(table, viewer, seat, table.state.creatures[MOVER])
        t3 = time.perf_counter()
        for creature in table.state.creatures.values():
            token_for(table.state, creature, views[1], table.version(creature.id), seat)
        t4 = time.perf_counter()
        t_apply.append((t1 - t0) * 1000)
        t_fan.append((t3 - t2) * 1000)
        t_all.append((t4 - t3) * 1000)
    table.close()
    engine.dispose()
    print(
        f"   server pieces, timed in this process: Table.submit(place) {statistics.median(t_submit):.1f} ms (p95 "
        f"{pct(t_submit, 95):.1f}: check, rules, the command committed on the event loop, folded in); the commit "
        f"alone (SQLite, WAL, synchronous=NORMAL, in this thread): on the loop {statistics.median(t_at_once):.2f} ms "
        f"(p95 {pct(t_at_once, 95):.2f}), as the writer thread makes it {statistics.median(t_commit):.2f} ms (p95 "
        f"{pct(t_commit, 95):.2f}; handed to that thread, two thread hops more, each a wake-up the operating system "
        "may delay on a busy machine)"
    )
    print(
        f"   server pieces, timed in this process, {len(state.creatures)} creatures: rules apply(place) "
        f"{statistics.median(t_apply):.1f} ms; seat views and the moved token for {n_views} pages "
        f"{statistics.median(t_fan):.2f} ms (built once per kind of seat, each from its view of the state before); "
        f"for comparison, every token rebuilt (token_for × {len(state.creatures)}) {statistics.median(t_all):.1f} ms "
        "per page"
    )


def vision_pieces(enc: Encounter, reps: int = 5) -> float:
    """Time, in this process, the vision work of a move with fog of war on (`vtt.table.fog`): the mover's player's
    perception after its own creature moved with the line-of-sight cache cold, then warm; after another creature
    moved (an update of the last perception: only that creature looked at again); and for a change that moves
    nobody (taken from the cache). The table does this once per player and once for the spectators, off the event
    loop. Returns the median of the other creature's move (the common case: most creatures are not the player's)."""
    state = load_scenario(json.loads(enc.path.read_text())).state
    mover = state.creatures[MOVER].model_copy(update={"controller": "watcher1"})
    fogged = state.model_copy(
        update={
            "settings": state.settings.model_copy(update={"fog_of_war": True}),
            "creatures": {**state.creatures, MOVER: mover},
        }
    )
    moved, _ = apply(fogged, parse_command({"type": "place", "creature": MOVER, "to": list(enc.spot_b)}), RandomDice(0))
    other = next(cid for cid in sorted(moved.creatures) if cid != MOVER)
    there = list(moved.creatures[other].anchor)
    viewer = Viewer("player", "watcher1")
    cold: list[float] = []
    warm: list[float] = []
    update: list[float] = []
    cached: list[float] = []
    for _ in range(reps):
        clear_sight_cache()
        t0 = time.perf_counter()
        Fog().vision(moved, viewer)
        t1 = time.perf_counter()
        fog = Fog()
        fog.vision(moved, viewer)
        t2 = time.perf_counter()
        fog.vision(moved.model_copy(update={"version": moved.version + 1}), viewer)  # same places, lights, walls
        t3 = time.perf_counter()
        away, _ = apply(moved, parse_command({"type": "place", "creature": other, "to": there}), RandomDice(0))
        step = away.creatures[other].model_copy(update={"anchor": (there[0] + 1, there[1])})
        elsewhere = away.model_copy(update={"creatures": {**away.creatures, other: step}})
        t4 = time.perf_counter()
        fog.vision(elsewhere, viewer)
        t5 = time.perf_counter()
        cold.append((t1 - t0) * 1000)
        warm.append((t2 - t1) * 1000)
        cached.append((t3 - t2) * 1000)
        update.append((t5 - t4) * 1000)
    print(
        f"   vision per move, fog of war on, one player with one creature ({len(state.creatures)} creatures), off the "
        f"event loop: its own creature moved {statistics.median(cold):.1f} ms with the line-of-sight cache cold, "
        f"{statistics.median(warm):.1f} ms warm; another creature moved {statistics.median(update):.2f} ms (an "
        f"update); nothing seen changed {statistics.median(cached):.2f} ms"
    )
    return statistics.median(update)


def row(label: str, values: Sequence[float], indent: int = 3) -> None:
    print(f"{' ' * indent}{label:<{48 - indent}} {dist(values)}")


def print_latency(name: str, lat: Latency, key: str) -> None:
    row(f"{name}: change -> other client's DOM (ms)", lat.dom)
    row(f"{name}: change -> next frame there", lat.frame)
    n = len(lat.observer_main)
    row(f"{name}: slowest of {n} observers per change", lat.slowest)
    print(f"      where the time goes, {n} observers (when the page's socket.io handlers ran):")
    row("change -> first message handled", lat.first_msg, 9)
    row(f"change -> {key} handled", lat.key_msg, 9)
    row(f"{key} handled -> DOM", lat.key_to_dom, 9)
    if lat.before_key and lat.samples:
        before = ", ".join(f"{n / lat.samples:.1f}× {what}" for what, n in lat.before_key.most_common())
        print(f"         handled before it, per change: {before}")

    observers = [m["TaskDuration"] for m in lat.observer_main]
    cpus = [m[CPU] for m in lat.observer_main]
    print(
        f"      CPU per change: server process {lat.server_cpu:.0f} ms in all, {lat.work_cpu:.1f} ms less its idle "
        f"CPU ({lat.idle_cpu:.1f} ms a second with these clients, {lat.wall:.0f} ms of wall time a change); "
        f"renderer main threads, CPU time (/proc) and busy time (CDP TaskDuration, wall clock): "
        f"changing page {lat.sender_main[CPU]:.1f} ms CPU, {lat.sender_main['TaskDuration']:.0f} ms busy; each "
        f"observer {statistics.median(cpus):.1f} ms CPU, {statistics.median(observers):.0f} ms busy (median); all "
        f"{n} observers {sum(cpus):.0f} ms CPU, {sum(observers):.0f} ms busy"
    )
    if lat.threads:
        print_threads(lat.threads)
    if lat.parts:
        print("      an observer's main thread per change by part (the page's own measures; panels: element updates):")
        for what in ("log", "map", "panels"):
            row(what, lat.parts.get(what, []), 9)
    if lat.js_profile:
        print_profile("      observer 1's main thread per change, JS profile by script", lat.js_profile)
    if lat.observer_trace:
        print_profile(
            "      observer 1's main thread per change, CPU by trace event (self time)", lat.observer_trace, top=12
        )
    print("      each message's handler start -> Vue has re-rendered (main thread of an observer):")
    for what, values in sorted(lat.render.items(), key=lambda kv: -statistics.median(kv[1])):
        row(what, values, 9)


def print_threads(threads: dict[str, dict[str, float]]) -> None:
    """CPU per change of every thread of every process a change costs: each observer's (the median of each kind
    of thread), the changing page's, Chromium's other processes', the server's and this benchmark's own."""
    observers = [kinds for part, kinds in threads.items() if part.startswith("observer ")]
    median = {kind: statistics.median(k.get(kind, 0.0) for k in observers) for kind in KINDS} if observers else {}
    print(
        "      CPU per change of every thread (/proc; on these shared cores, what one process does delays the "
        f"others): each observer (median of each kind) {describe(median)}; the changing page "
        f"{describe(threads.get('changing page', {}))}"
    )
    others = "; ".join(
        f"{part} {describe(kinds)}"
        for part, kinds in threads.items()
        if part != "changing page" and not part.startswith("observer ")
    )
    print(f"         {others}")


# ----------------------------------------------------------------------------------------------------------
# 3. Websocket bytes per move
# ----------------------------------------------------------------------------------------------------------


def classify(payload: str) -> list[tuple[str, int]]:
    """Split one socket.io frame into (what, bytes) parts: element updates by tag, run_method by name, ..."""
    size = len(payload.encode())
    if not payload.startswith("4"):
        return [(f"engine.io control {payload[:1]!r}", size)]
    body = payload.lstrip("0123456789")
    if body.startswith("/"):
        body = body.split(",", 1)[1] if "," in body else "[]"
    try:
        message = json.loads(body)
    except json.JSONDecodeError:
        return [("unparsed", size)]
    if not isinstance(message, list) or not message:
        return [("socket.io other", size)]
    kind, data = str(message[0]), message[1] if len(message) > 1 else None
    if kind == "run_javascript" and isinstance(data, dict):
        methods = RUN_METHOD.findall(str(data.get("code", "")))
        return [(f"run_method {'+'.join(methods)}" if methods else "run_javascript", size)]
    if kind == "update" and isinstance(data, dict):
        parts: list[tuple[str, int]] = []
        overhead = size
        for key, element in data.items():
            if key == "_id":
                continue
            n = len(json.dumps(element, separators=(",", ":")).encode()) + len(key) + 4
            overhead -= n
            what = (
                "deleted element"
                if element is None
                else ".".join([element.get("tag", "?"), *element.get("class", [])[-1:]])
            )
            parts.append((f"update {what}", n))
        parts.append(("update framing", max(overhead, 0)))
        return parts
    return [(kind, size)]


@dataclass
class Bytes:
    per_move: list[int] = field(default_factory=list)
    frames_per_move: list[int] = field(default_factory=list)
    parts: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    sample: list[str] = field(default_factory=list)


def bench_bytes(sender: Page, observer: Client, enc: Encounter, moves: int, settle_ms: int = 400) -> Bytes:
    """Drag the mover back and forth; sum the frames the observer receives from the drop to `settle_ms` after
    its DOM changed (engine.io pings excluded)."""
    out = Bytes()
    page = observer.page
    page.evaluate(TOKEN_OBSERVER, MOVER)
    here = (
        enc.spot_a
        if page.locator(f'[data-token-id="{MOVER}"][data-q="{enc.spot_a[0]}"][data-r="{enc.spot_a[1]}"]').count()
        else enc.spot_b
    )
    for _ in range(moves):
        there = enc.spot_b if here == enc.spot_a else enc.spot_a
        sender.wait_for_timeout(settle_ms)
        page.evaluate("0")  # deliver pending CDP events before clearing
        observer.frames.clear()
        n = int(page.evaluate("window.__seen.length"))
        drag(sender, cell_xy(sender, here), cell_xy(sender, there), steps=8)
        page.evaluate(SEEN_MORE, [n, 10_000])
        page.wait_for_timeout(settle_ms)
        frames = [f for f in observer.frames if f.startswith("4")]
        out.per_move.append(sum(len(f.encode()) for f in frames))
        out.frames_per_move.append(len(frames))
        for f in frames:
            for what, size in classify(f):
                out.parts[what] += size
                out.counts[what] += 1
        if not out.sample:
            out.sample = frames
        here = there
    return out


def print_bytes(label: str, b: Bytes) -> None:
    moves = len(b.per_move)
    print(
        f"   {label}: {statistics.median(b.per_move):6.0f} B per move (median; min {min(b.per_move)}, "
        f"max {max(b.per_move)}), {statistics.median(b.frames_per_move):.0f} frames per move"
    )
    for what, size in b.parts.most_common():
        print(f"      {size / moves:7.0f} B  {b.counts[what] / moves:4.1f}×  {what}")


# ----------------------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------------------


RESAMPLES = 1000
"""Resamples of the drops for the spread of the p95 ratio (`p95_ratio_spread`)."""


def by_drop(lat: Latency) -> list[list[float]]:
    """Each drop's latencies to its observers (`lat.dom` holds them drop after drop)."""
    k = max(1, len(lat.observer_main))
    return [lat.dom[i : i + k] for i in range(0, len(lat.dom), k)]


def p95_ratio_spread(app: Latency, bare: Latency, seed: int = 1) -> tuple[float, float]:
    """The 5th and 95th percentiles of the app / bare p95 ratio over `RESAMPLES` bootstrap resamples of the drops
    (a drop's observers stay together: they share its moment of the machine)."""
    rng = random.Random(seed)
    app_drops, bare_drops = by_drop(app), by_drop(bare)
    if not app_drops or not bare_drops:
        return float("nan"), float("nan")

    def p95_of(drops: list[list[float]]) -> float:
        return pct([x for drop in rng.choices(drops, k=len(drops)) for x in drop], 95)

    ratios = sorted(p95_of(app_drops) / p95_of(bare_drops) for _ in range(RESAMPLES))
    return pct(ratios, 5), pct(ratios, 95)


def print_latency_summary(app: Latency, bare: Latency, n_clients: int) -> None:
    bare_p95 = pct(bare.dom, 95)
    p95 = pct(app.dom, 95)
    ratio_med = statistics.median(app.dom) / statistics.median(bare.dom)
    ratio_p95 = p95 / bare_p95
    print(
        f"   drop -> other client ({n_clients} clients): median {statistics.median(app.dom):.1f} ms, p95 {p95:.1f} ms; "
        f"bare NiceGUI round trip in this run: median {statistics.median(bare.dom):.1f} ms, p95 {bare_p95:.1f} ms"
    )
    print(
        f"   ratio app / bare: {ratio_med:.2f}× median, {ratio_p95:.2f}× p95   target p95 ≤ {LATENCY_RATIO_TARGET}× "
        f"bare: {verdict(ratio_p95 <= LATENCY_RATIO_TARGET)}"
    )
    low, high = p95_ratio_spread(app, bare)
    print(
        f"   how much that p95 ratio rests on a few drops: {low:.2f}×-{high:.2f}× in 90% of {RESAMPLES} resamples of "
        "the drops (each run's drops drawn again with replacement, app and bare alike; a run's p95 is set by its few "
        "slowest drops)"
    )
    mine, theirs = app.sender_main.get(CPU, float("nan")), bare.sender_main.get(CPU, float("nan"))
    peer = f"{theirs:.1f} ms ({mine / theirs:.2f}×)" if theirs > 0 else "not measured in this run (its renderer read 0)"
    print(f"   the dragging page's main thread per drop: {mine:.1f} ms of CPU, the bare page's per click {peer}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"fewer repetitions and {QUICK_CLIENTS} clients (a smoke run)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the generated maps' placement and the server's dice")
    ap.add_argument("--paint", action="store_true", help="only the first paint (section 1 and the bare page's)")
    ap.add_argument("--latency", action="store_true", help="only the drops and the bare round trip (section 2)")
    ap.add_argument("--drops", type=int, default=0, help="drops (and bare clicks) measured in section 2")
    ap.add_argument(
        "--trace", type=Path, help="write the server's trace of section 2's drops to this file (JSON lines)"
    )
    ap.add_argument(
        "--traced",
        type=int,
        default=-1,
        help="drops (and bare clicks) traced after section 2's, for the changing page's breakdown (0: none)",
    )
    ap.add_argument(
        "--observer-trace",
        action="store_true",
        help="section 2: observer 1's main thread by Chrome trace event (CPU), the app's and the bare page's, "
        "instead of its JS profile by script",
    )
    ap.add_argument(
        "--profile",
        type=Path,
        help="section 2: profile the server's event loop (cProfile, its thread's CPU time) during the measured drops "
        "and write the figures to this file (pstats); its CPU figures then include the profiler's cost",
    )
    args = ap.parse_args(argv)
    cold_runs, drops, bytes_moves, traced = (1, 6, 3, 3) if args.quick else (3, 50, 8, 6)
    drops = args.drops or drops
    traced = traced if args.traced < 0 else args.traced
    n_clients = QUICK_CLIENTS if args.quick else CLIENTS
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `bash e2e/ensure_chromium.sh` first", file=sys.stderr)
        return 2
    started = time.perf_counter()
    print(f"bench/web.py{' --quick' if args.quick else ''}: the NiceGUI table in {CHROMIUM}, headless")

    with tempfile.TemporaryDirectory(prefix="vtt-bench-") as tmp, sync_playwright() as pw:
        folder = Path(tmp)
        big = make_encounter(folder, *BIG, seed=args.seed)
        small = make_encounter(folder, *SMALL, seed=args.seed)
        bare_script = folder / "bare_app.py"
        bare_script.write_text(BARE_APP)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

        t0 = time.perf_counter()
        server = start_table(folder, big, args.seed, args.profile)
        print(f"   the big map's server listens after {time.perf_counter() - t0:.1f} s")
        try:
            url_sw = server.url + server.seat("soulweaver")
            if not args.latency:
                section(f"1. First paint: {BIG[0]}×{BIG[1]} hex, {BIG[2]} tokens, {BIG[3]} walls (ms from navigation)")
                with timed("section 1"):
                    cold, warm = bench_paint(browser, url_sw, big.creatures, cold_runs, profile=not args.quick)
                bare_paint = bare_first_paint(browser, bare_script, folder, cold_runs)
            if args.paint:
                browser.close()
                section("Summary (targets)")
                print_paint_summary(cold, warm, bare_paint)
                return 0

            section(
                f"2. Drop -> other client's DOM, {n_clients} clients "
                f"(1 Soulweaver dragging, {n_clients - 1} players observing), {drops} drops"
            )
            # The app and the bare round trip change by change, both apps' pages open (`run_paired`); the bare's
            # pages are closed before the app's entry costs are measured (and the app's pages stay for section 3).
            bare_server = AppServer(bare_script, port_env="BARE_PORT", cwd=folder).start()
            with ExitStack() as opened:
                with timed("section 2, the app and bare NiceGUI"):
                    try:
                        with open_clients(browser, [bare_server.url] * n_clients, bare_ready, None) as bare_clients:
                            urls = [url_sw] + [f"{server.url}/watch/1" for _ in range(1, n_clients)]
                            ready = partial(wait_tokens, n=big.creatures)
                            clients = opened.enter_context(open_clients(browser, urls, ready, frames_of=1))
                            read_trace(trace_file(folder, big))  # the first paint's marks
                            app_s = app_side(server, clients, big, profile=bool(args.profile))
                            bare_s = bare_side(bare_server, bare_clients)
                            run_paired([app_s, bare_s], drops, WARMUP, trace=args.observer_trace)
                            app, bare = app_s.lat, bare_s.lat
                            if traced:
                                app.sender_work = trace_sender(browser, clients, app_s.change, traced, WARMUP + drops)
                                bare.sender_work = trace_sender(browser, bare_clients, bare_s.change, traced, 0)
                            check_mover(clients[0].page, big, WARMUP + drops + traced)
                    finally:
                        bare_server.stop()
                        report_server(bare_server, "bare NiceGUI")
                    marks = read_trace(trace_file(folder, big))
                    legs = drop_legs(marks, app, clients[0].client_id)
                    entry_now, entry_shipped = new_entry_cost(clients[-1].page)
                    drops_marked = sum(
                        1 for m in marks if m["what"] == "received" and m.get("client") == clients[0].client_id
                    )
                    marks_per_change = sum(1 for m in marks if m["what"] != "gc") / max(1, drops_marked)
                    if args.trace is not None:
                        changes = [
                            {"up": c.up, "sent": c.sent, "handled": c.handled, "dom": c.dom} for c in app.changes
                        ]
                        ids = {"sender": clients[0].client_id, "observers": [c.client_id for c in clients[1:]]}
                        lines = [ids, *changes, *marks]
                        args.trace.write_text("".join(json.dumps(x) + "\n" for x in lines))
                print_latency("app ", app, "patchToken")
                print_legs(legs)
                print_gc(marks, app)
                print(
                    f"   of the server's CPU per change, its trace (VTT_LATENCY_TRACE, which the bare server does not "
                    f"write): {marks_per_change:.0f} marks, about {trace_cost_ms(round(marks_per_change)):.2f} ms "
                    "(a mark timed in this process)"
                )
                print(
                    f"   a new roll-log entry in an observer's page with {LOG_ENTRIES} entries, its style and layout: "
                    f"median {statistics.median(entry_now):.2f} ms (p95 {pct(entry_now, 95):.2f}); with NiceGUI's "
                    f"`{FALLBACK_RULE}` rule put back (log_view.js drops it) {statistics.median(entry_shipped):.2f} ms "
                    f"(p95 {pct(entry_shipped, 95):.2f})"
                )
                server_pieces(big, n_clients, folder)
                server_pieces(make_encounter(folder, *FEW, seed=args.seed), n_clients, folder)
                vision_update = vision_pieces(big)
                print_latency("bare", bare, "label update")
                if app.sender_work is not None and bare.sender_work is not None:
                    print_page_work(
                        "the changing page (app: the dragging Soulweaver)", app.sender_work, bare.sender_work
                    )
                ratio_med = statistics.median(app.dom) / statistics.median(bare.dom)
                ratio_p95 = pct(app.dom, 95) / pct(bare.dom, 95)
                print(f"   ratio app / bare: median {ratio_med:.2f}×, p95 {ratio_p95:.2f}×")
                if args.latency:
                    section("Summary (targets)")
                    print_latency_summary(app, bare, n_clients)
                    return 0

                section("3. Websocket bytes per move received by an observing player")
                with timed("section 3, big map"):
                    bytes_big = bench_bytes(clients[0].page, clients[1], big, bytes_moves)
        finally:
            server.stop()
            report_server(server, "big map")

        server = start_table(folder, small, args.seed)
        try:
            urls = [server.url + server.seat("soulweaver"), f"{server.url}/watch/1"]
            with (
                timed("section 3, small map"),
                open_clients(browser, urls, lambda p: wait_tokens(p, small.creatures), frames_of=1) as clients,
            ):
                bytes_small = bench_bytes(clients[0].page, clients[1], small, bytes_moves)
            print_bytes(f"{SMALL[0]}×{SMALL[1]} map, {SMALL[2]} tokens  ", bytes_small)
            print_bytes(f"{BIG[0]}×{BIG[1]} map, {BIG[2]} tokens", bytes_big)
            if not args.quick:
                section(f"1b. For reference, first paint of the {SMALL[0]}×{SMALL[1]} map ({SMALL[2]} tokens)")
                bench_paint(browser, urls[0], small.creatures, 1)
        finally:
            server.stop()
            report_server(server, "small map")
        browser.close()

    section("Summary (targets)")
    print_paint_summary(cold, warm, bare_paint)
    print_latency_summary(app, bare, n_clients)
    print(
        f"   server CPU per move: {app.work_cpu:.1f} ms less idle ({app.server_cpu:.0f} ms in all; bare NiceGUI "
        f"{bare.work_cpu:.1f} ms less idle, ratio {app.work_cpu / max(bare.work_cpu, 0.1):.1f}×)   target ≤ "
        f"{SERVER_CPU_TARGET_MS:.0f} ms: {verdict(app.work_cpu <= SERVER_CPU_TARGET_MS)}"
    )
    print(
        f"   vision work per move, another creature moved: {vision_update:.2f} ms per seat (off the event loop)   "
        f"target ≤ {SERVER_CPU_TARGET_MS:.0f} ms: {verdict(vision_update <= SERVER_CPU_TARGET_MS)}"
    )
    # The main thread's work is its CPU time. Its busy time (CDP TaskDuration: the wall time of its tasks) also
    # counts the waits for a core while the other pages, the server and the other renderers of this run work on
    # the same change: with n_clients pages on a few cores it grows with n_clients, not with the page's work.
    cpu_app = statistics.median(m[CPU] for m in app.observer_main)
    cpu_bare = statistics.median(m[CPU] for m in bare.observer_main)
    busy_app = statistics.median(m["TaskDuration"] for m in app.observer_main)
    busy_bare = statistics.median(m["TaskDuration"] for m in bare.observer_main)
    split = ", ".join(f"{what} {statistics.median(v):.1f}" for what, v in app.parts.items() if v)
    cdp = ", ".join(
        f"{what} {statistics.median(m[key] for m in app.observer_main):.1f}"
        for what, key in (("script", "ScriptDuration"), ("style", "RecalcStyleDuration"), ("layout", "LayoutDuration"))
    )
    print(
        f"   each observer's main thread per move: {cpu_app:.1f} ms of CPU median, bare NiceGUI {cpu_bare:.1f} ms "
        f"({cpu_app / cpu_bare:.2f}×); busy {busy_app:.1f} ms by the wall clock ({n_clients} pages on "
        f"{os.cpu_count()} cores), bare {busy_bare:.1f} ms; its own measures: {split}; wall clock of its {cdp}; the "
        f"rest is message handling, paint and compositing   target ≤ {MAIN_THREAD_TARGET_MS:.0f} ms: "
        f"{verdict(cpu_app <= MAIN_THREAD_TARGET_MS)}"
    )
    b_small, b_big = statistics.median(bytes_small.per_move), statistics.median(bytes_big.per_move)
    print(
        f"   bytes per move: {b_small:.0f} B ({SMALL[0]}×{SMALL[1]}), {b_big:.0f} B ({BIG[0]}×{BIG[1]})   "
        f"target ≤ {BYTES_TARGET} B: {verdict(max(b_small, b_big) <= BYTES_TARGET)}; big / small "
        f"{b_big / b_small:.2f}×   target ≤ {BYTES_EQUAL}×: {verdict(b_big / b_small <= BYTES_EQUAL)}"
    )
    print(f"   total run time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
