"""Where an observing page's main thread spends a move: a Chrome trace of token moves on the big map.

Run it from the repository root::

    .venv/bin/python bench/map_trace.py [--drops 12] [--save trace.json] [--js]

It starts the table on the 100×100 hex map with 500 tokens that `bench/web.py` generates, opens the Soulweaver's
page (which drags the mover A -> B -> A ...) and one spectator's page, records a Chrome trace of the spectator's
renderer (CDP Tracing, the DevTools timeline categories) over the drops, and PRINTS the spectator's main-thread
busy time per drop (CDP Performance TaskDuration) and the trace's self time by event (script, style
recalculation, layout, pre-paint, paint, layerize, hit tests, ...) per drop, in the thread's CPU time (the trace's
thread clock: what the thread did, however busy the machine) and in wall time, and the rendering steps' counts per
drop (elements styled, layout objects dirty and in all). `--js`: the JS sampling profile by function instead of a
trace. A tool for finding where the time goes, not a benchmark with targets (bench/web.py
has those).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, CDPSession, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from bench.web import (  # noqa: E402
    BIG,
    MOVER,
    TOKEN_OBSERVER,
    make_encounter,
    new_context,
    perf_metrics,
    start_table,
    wait_tokens,
)
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from e2e.helpers import cell_xy, drag  # noqa: E402


def wait_idle_pages(pages: list[Page]) -> None:
    for page in pages:
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestIdleCallback(r, { timeout: 3000 })))")


def open_page(browser: Browser, url: str, n: int) -> Page:
    """A page showing `url` once its tokens are in and it has stood still (a seat link may reload once)."""
    page = new_context(browser).new_page()
    page.goto(url, wait_until="commit")
    for _ in range(3):
        try:
            wait_tokens(page, n)
            page.wait_for_timeout(1000)
            wait_idle_pages([page])
            return page
        except PlaywrightError as e:
            if "destroyed" not in str(e):
                raise
    raise RuntimeError(f"{url} kept reloading")


# TRACE_CATEGORIES adds others, e.g. "blink_style,disabled-by-default-devtools.timeline.invalidationTracking" (what
# invalidated which element's style, and why)
CATEGORIES = ",".join(
    c
    for c in (
        "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing",
        os.environ.get("TRACE_CATEGORIES", ""),
    )
    if c
)


def renderer_of(events: list[dict[str, Any]], frame: str) -> tuple[int, int]:
    """(pid, tid) of the main thread of the renderer that draws `frame` (a trace holds every renderer's)."""
    pids = {
        e["pid"]
        for e in events
        if (e.get("args") or {}).get("beginData", {}).get("frame") == frame
        or (e.get("args") or {}).get("data", {}).get("frame") == frame
    }
    for e in events:
        is_main = e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
        if is_main and e["pid"] in pids:
            return (int(e["pid"]), int(e["tid"]))
    raise RuntimeError(f"no renderer main thread draws frame {frame}")


def self_times(events: list[dict[str, Any]], main_tid: tuple[int, int], clock: str = "tdur") -> dict[str, float]:
    """ms of self time by event name on the renderer's main thread (complete events nested by time); `clock`
    "tdur" counts the thread's CPU time (what it did, whatever else ran on the machine), "dur" wall time."""
    spans = sorted(
        (
            (float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)), str(e["name"]), float(e.get(clock, 0)))
            for e in events
            if e.get("ph") == "X" and (e["pid"], e["tid"]) == main_tid and e.get("dur")
        ),
        key=lambda s: (s[0], -s[1]),
    )
    out: dict[str, float] = defaultdict(float)
    stack: list[tuple[float, float, str, float]] = []
    for start, end, name, spent in spans:
        while stack and stack[-1][1] <= start:
            stack.pop()
        if stack:
            out[stack[-1][2]] -= spent / 1000
        out[name] += spent / 1000
        stack.append((start, end, name, spent))
    return dict(out)


def record(cdp: CDPSession, page: Page, run: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda ev: events.extend(ev["value"]))
    cdp.on("Tracing.tracingComplete", lambda ev: done.append(True))
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    run()
    cdp.send("Tracing.end")
    for _ in range(300):  # the events arrive after Tracing.end, while Playwright waits
        if done:
            break
        page.wait_for_timeout(100)
    return events


def print_functions(profile: dict[str, Any], n: int, top: int = 30) -> None:
    """ms of samples per drop by function (self time), with its script and line."""
    nodes = {int(x["id"]): x for x in profile["nodes"]}
    by: dict[str, float] = defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        f = nodes[int(sample)]["callFrame"]
        where = str(f["url"]).rsplit("/", 1)[-1]
        by[f"{f['functionName'] or '(anonymous)'} {where}:{f['lineNumber'] + 1}"] += float(delta) / 1000
    by.pop("(idle) :0", None)
    print(f"JS profile, self time per drop ({sum(by.values()) / n:.1f} ms of samples):")
    for name, ms in sorted(by.items(), key=lambda kv: -kv[1])[:top]:
        print(f"   {ms / n:6.2f} ms  {name}")


RENDERING = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "HitTest")
"""The main thread's rendering steps of a change (style, layout, pre-paint, paint, layerizing, hit tests)."""


def rendering_counts(events: list[dict[str, Any]], tid: tuple[int, int], n: int) -> dict[str, float]:
    """Per drop: how many of each rendering step ran, the elements whose style was worked out again, the layout
    objects a layout found dirty, and the layout tree's size (layout objects, at each layout): counts of work,
    which a busy machine does not change."""
    steps = [e for e in events if (e["pid"], e["tid"]) == tid and e.get("ph") == "X" and e["name"] in RENDERING]
    out = {name: sum(1 for e in steps if e["name"] == name) / n for name in RENDERING}
    layouts = [e["args"]["beginData"] for e in steps if e["name"] == "Layout"]
    out["styled elements"] = sum(int(e["args"].get("elementCount", 0)) for e in steps if e["name"] == RENDERING[0]) / n
    out["dirty layout objects"] = sum(int(b["dirtyObjects"]) for b in layouts) / n
    out["layout objects"] = sum(int(b["totalObjects"]) for b in layouts) / max(1, len(layouts))
    return out


def rendering_cpu_ms(events: list[dict[str, Any]], tid: tuple[int, int]) -> float:
    """ms of the thread's CPU time in rendering steps, each with what it called (a step inside another, such as a hit
    test in a commit or a paint in a paint, counted once): the same whatever TRACE_CATEGORIES add."""
    steps = sorted(
        (float(e["ts"]), float(e["ts"]) + float(e["dur"]), float(e.get("tdur", 0)))
        for e in events
        if (e["pid"], e["tid"]) == tid and e.get("ph") == "X" and e["name"] in RENDERING and e.get("dur")
    )
    total, end = 0.0, -1.0
    for start, stop, spent in steps:
        if start >= end:
            total += spent
            end = stop
    return total / 1000


def print_trace(events: list[dict[str, Any]], tid: tuple[int, int], n: int) -> None:
    counts = rendering_counts(events, tid, n)
    print("rendering counts per drop: " + ", ".join(f"{k} {v:.2f}" for k, v in counts.items()))
    rendering = rendering_cpu_ms(events, tid) / n
    print(f"rendering steps' CPU per drop: {rendering:.2f} ms ({' + '.join(RENDERING)})")
    wall, cpu = self_times(events, tid, "dur"), self_times(events, tid, "tdur")
    print(
        f"trace, main thread, per drop: {sum(cpu.values()) / n:.1f} ms of CPU time "
        f"({sum(wall.values()) / n:.1f} ms of wall time); self time by event, CPU (wall):"
    )
    for name, ms in sorted(cpu.items(), key=lambda kv: -kv[1])[:25]:
        print(f"   {ms / n:7.2f} ms ({wall.get(name, 0.0) / n:6.2f})  {name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--drops", type=int, default=12)
    ap.add_argument("--js", action="store_true", help="the JS sampling profile by function instead of a trace")
    ap.add_argument("--save", type=Path, default=None, help="write the trace here (open it in chrome://tracing)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vtt-trace-") as tmp, sync_playwright() as pw:
        enc = make_encounter(Path(tmp), *BIG, seed=1)
        server = start_table(Path(tmp), enc, 1)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            sender = open_page(browser, server.url + server.seat("soulweaver"), enc.creatures)
            observer = open_page(browser, f"{server.url}/watch/1", enc.creatures)
            cdp = observer.context.new_cdp_session(observer)
            cdp.send("Performance.enable")
            observer.evaluate(TOKEN_OBSERVER, MOVER)

            def move(i: int) -> None:
                here, there = (enc.spot_a, enc.spot_b) if i % 2 == 0 else (enc.spot_b, enc.spot_a)
                wait_idle_pages([sender, observer])
                drag(sender, cell_xy(sender, here), cell_xy(sender, there), steps=8)
                observer.wait_for_function("n => window.__seen.length > n", arg=i, timeout=10_000)

            move(0)
            move(1)
            observer.evaluate("() => { window.__seen = [null, null]; }")

            def run() -> None:
                for i in range(2, 2 + args.drops):
                    move(i)
                wait_idle_pages([sender, observer])

            before = perf_metrics(cdp)
            if args.js:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                cdp.send("Profiler.start")
                run()
                print_functions(cdp.send("Profiler.stop")["profile"], args.drops)
                events: list[dict[str, Any]] = []
            else:
                events = record(cdp, observer, run)
            after = perf_metrics(cdp)
            sender.wait_for_timeout(500)
            if args.save and events:
                args.save.write_text(json.dumps({"traceEvents": events}))
            n = args.drops
            print("spectator's main thread per drop (CDP Performance, while tracing): ", end="")
            print(
                ", ".join(
                    f"{k} {(after[k] - before[k]) * 1000 / n:.1f} ms"
                    for k in ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
                )
            )
            if events:
                frame = str(cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"])
                print_trace(events, renderer_of(events, frame), n)
            sender.context.close()
            observer.context.close()
        finally:
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
