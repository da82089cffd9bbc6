"""Where one page's main thread spends its time per change, from a Chromium trace (`bench/web.py`).

A traced pass of a few changes made by one page (the Soulweaver's drops, the bare app's clicks): the renderer main
thread's own time (the trace's thread time, which a wait for a core does not count) by kind of work — script, style,
layout, hit testing, pre-paint, paint, layerizing, commit, tasks and messages — in three phases of each change: the
gesture before the pointerup (the drag's frames), the drop (the pointerup and the next `DROP_MS`, when the other
pages handle the change), and after it (the server's trailing messages until the next gesture). Next to it the
page's JS profile by function (CDP sampling profiler). Tracing costs time itself: read these figures side by side
with the bare page's traced the same way, not against the untraced run's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, CDPSession, Page

TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8.execute"]
DROP_MS = 100.0
"""The drop phase: from the pointerup this long (the other pages' p95 is about this)."""
PHASES = ("gesture", "drop", "after")

KIND_OF: dict[str, str] = {
    **dict.fromkeys(
        (
            "FunctionCall",
            "EventDispatch",
            "TimerFire",
            "FireAnimationFrame",
            "FireIdleCallback",
            "RunMicrotasks",
            "EvaluateScript",
            "v8.compile",
            "v8.callFunction",
            "v8.run",
            "v8.compileModule",
            "v8.evaluateModule",
            "V8.HandleInterrupts",
            "V8.StackGuard",
            "V8.BytecodeBudgetInterrupt",
            "V8.BytecodeBudgetInterruptWithStackCheck",
            "V8.InvokeApiInterruptCallbacks",
        ),
        "script",
    ),
    **dict.fromkeys(("MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "BlinkGC.AtomicPhase"), "gc"),
    **dict.fromkeys(("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet"), "style"),
    "Layout": "layout",
    "HitTest": "hit test",
    "PrePaint": "pre-paint",
    **dict.fromkeys(("Paint", "PaintImage", "Decode Image"), "paint"),
    **dict.fromkeys(("Layerize", "UpdateLayer", "UpdateLayerTree", "CompositeLayers"), "layerize"),
    "Commit": "commit",
}
KINDS = ("script", "gc", "style", "layout", "hit test", "pre-paint", "paint", "layerize", "commit", "tasks", "devtools")
""""tasks": the time of the task runner and of messages (input, socket frames) outside the events above; "devtools":
the DevTools protocol's messages and what runs in them (this bench's own `evaluate`s and waits in the page), kept
apart from the page's own work (`own`)."""
OWN = KINDS[:-1]


@dataclass
class PageWork:
    """One page's main thread per change (ms): by phase and kind, and its JS profile by function."""

    changes: int
    by_phase: dict[str, dict[str, float]] = field(default_factory=dict)
    functions: dict[str, float] = field(default_factory=dict)
    frames: dict[str, float] = field(default_factory=dict)  # rendered frames (Paint + Layerize runs) per phase

    def phase_total(self, phase: str) -> float:
        return sum(v for k, v in self.by_phase.get(phase, {}).items() if k in OWN)

    @property
    def total(self) -> float:
        return sum(self.phase_total(p) for p in PHASES)


def kind_of(name: str) -> str:
    if name == DEVTOOLS:
        return "devtools"
    if name.startswith(("V8.GC", "BlinkGC")):
        return "gc"
    return KIND_OF.get(name, "tasks")


DEVTOOLS = "DevTools message"
"""The name `main_thread_events` gives a "Receive mojo message" of the DevTools protocol's session."""


def main_thread_events(events: Sequence[dict[str, Any]], pid: int) -> list[dict[str, Any]]:
    """The complete ("X") events of the renderer `pid`'s main thread, in order, outer events first (a message of the
    DevTools session renamed `DEVTOOLS`)."""
    tids = {
        e["tid"]
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("pid") == pid
        and e.get("args", {}).get("name") == "CrRendererMain"
    }
    mine = [e for e in events if e.get("pid") == pid and e.get("tid") in tids and e.get("ph") == "X"]
    for i, e in enumerate(mine):
        info = e.get("args", {}).get("chrome_mojo_event_info", {})
        if e["name"] == "Receive mojo message" and "DevTools" in str(info.get("mojo_interface_tag", "")):
            mine[i] = {**e, "name": DEVTOOLS}
    mine.sort(key=lambda e: (float(e["ts"]), -float(e.get("dur", 0))))
    return mine


def event_type(e: dict[str, Any]) -> str:
    return str(e.get("args", {}).get("data", {}).get("type", "")) if e["name"] == "EventDispatch" else ""


def by_phase(events: Sequence[dict[str, Any]], changes: int) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Self thread time (ms per change) by phase and kind; the time before the first gesture is not counted."""
    downs = [float(e["ts"]) for e in events if event_type(e) in ("pointerdown", "mousedown")]
    ups = [float(e["ts"]) for e in events if event_type(e) in ("pointerup", "mouseup")]
    if not downs or not ups:
        return {}, {}

    def phase(ts: float) -> str | None:
        last_down = max((d for d in downs if d <= ts), default=None)
        if last_down is None:
            return None
        last_up = max((u for u in ups if last_down <= u <= ts), default=None)
        if last_up is None:
            return "gesture"
        return "drop" if ts - last_up < DROP_MS * 1000 else "after"

    out: dict[str, dict[str, float]] = {p: dict.fromkeys(KINDS, 0.0) for p in PHASES}
    frames: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    stack: list[tuple[dict[str, Any], str | None]] = []
    for e in events:
        ts = float(e["ts"])
        while stack and float(stack[-1][0]["ts"]) + float(stack[-1][0].get("dur", 0)) <= ts:
            stack.pop()
        # a task is of the phase where it ends: the one that dispatches the pointerup belongs to the drop
        ph = stack[0][1] if stack else phase(ts + float(e.get("dur", 0)))
        own = float(e.get("tdur", 0)) / 1000 / changes
        if ph is not None:
            out[ph][kind_of(str(e["name"]))] += own
            if stack:
                out[ph][kind_of(str(stack[-1][0]["name"]))] -= own
            if e["name"] == "Layerize":
                frames[ph] += 1 / changes
        stack.append((e, ph))
    return out, frames


def functions_of(profile: dict[str, Any], changes: int) -> dict[str, float]:
    """ms of JS samples per change by function ("name script:line", self time); a native function (a DOM call)
    is charged to its JS caller; V8's own "(program)" (native work outside JS), "(garbage collector)" are kept."""
    nodes = {int(n["id"]): n for n in profile["nodes"]}
    parent = {int(child): int(n["id"]) for n in profile["nodes"] for child in n.get("children", [])}
    out: dict[str, float] = {}
    owner: dict[int, str] = {}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        node_id = int(sample)
        if node_id not in owner:
            x: int | None = node_id
            while x is not None and not nodes[x]["callFrame"]["url"]:
                x = parent.get(x)
            frame = nodes[node_id if x is None else x]["callFrame"]
            name = str(frame["functionName"]) or "(anonymous)"
            url = str(frame["url"]).rsplit("/", 1)[-1]
            owner[node_id] = f"{name} {url}:{int(frame['lineNumber']) + 1}" if url else name
        out[owner[node_id]] = out.get(owner[node_id], 0.0) + float(delta) / 1000 / changes
    out.pop("(idle)", None)
    out.pop("(root)", None)
    return out


def trace_changes(
    browser: Browser,
    page: Page,
    cdp: CDPSession,
    pid: int | None,
    change: Callable[[int], None],
    n: int,
    settle: Callable[[], None],
    first: int = 0,
) -> PageWork:
    """`n` changes made by `page` (`change(first + i)`, then `settle()`), traced and profiled."""
    work = PageWork(n)
    if pid is None:
        return work
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # µs
    cdp.send("Profiler.start")
    try:
        for i in range(first, first + n):
            change(i)
            settle()
    finally:
        profile: dict[str, Any] = cdp.send("Profiler.stop")["profile"]
        cdp.send("Profiler.disable")
        raw = json.loads(browser.stop_tracing())
    events = raw["traceEvents"] if isinstance(raw, dict) else raw
    work.by_phase, work.frames = by_phase(main_thread_events(events, pid), n)
    work.functions = functions_of(profile, n)
    return work


def print_page_work(label: str, app: PageWork, bare: PageWork, top: int = 12) -> None:
    """The two pages' main thread per change side by side, by phase and kind; the app page's top JS functions."""
    print(
        f"   {label}: main thread per change by kind (trace thread time, ms; {app.changes} changes traced; the "
        f"drop phase: the pointerup and {DROP_MS:.0f} ms after it)"
    )
    head = "".join(f"{p:>16}" for p in PHASES)
    print(f"      {'':<18}{head}{'all':>10}")
    rows = [("app", app), ("bare", bare)]
    for kind in KINDS:
        for name, w in rows:
            cells = "".join(f"{w.by_phase.get(p, {}).get(kind, 0.0):16.1f}" for p in PHASES)
            every = sum(w.by_phase.get(p, {}).get(kind, 0.0) for p in PHASES)
            print(f"      {(kind if name == 'app' else ''):<12}{name:<6}{cells}{every:10.1f}")
    for name, w in rows:
        cells = "".join(f"{w.phase_total(p):16.1f}" for p in PHASES)
        print(f"      {('in all' if name == 'app' else ''):<12}{name:<6}{cells}{w.total:10.1f}")
    for name, w in rows:
        cells = "".join(f"{w.frames.get(p, 0.0):16.1f}" for p in PHASES)
        print(f"      {('frames' if name == 'app' else ''):<12}{name:<6}{cells}")
    native = app.functions.get("(program)", 0.0)
    js = {fn: ms for fn, ms in app.functions.items() if fn != "(program)"}
    biggest = sorted(js.items(), key=lambda kv: -kv[1])[:top]
    print(
        f"      app page's JS profile per change, self time by function: {sum(js.values()):.1f} ms (and "
        f'{native:.0f} ms of samples outside JS, "(program)": rendering, input, and waits on a busy machine):'
    )
    for fn, ms in biggest:
        print(f"         {ms:6.2f}  {fn}")


# ----------------------------------------------------------------------------------------------------------
# One page alone (`python -m bench.page_trace`): its idle work, and its own drags without observers
# ----------------------------------------------------------------------------------------------------------

ACTIVE = "c1"
"""The token made active on the idle page (it pulses as the creature whose turn it is)."""
SET_ACTIVE = "id => getElement(document.querySelector('.vtt-map').closest('[id^=c]')).setActive(id)"
GPU_THREADS = ("VizCompositorThread", "CrGpuMain")
"""The GPU process's threads that draw every page's frames (shared by the browser's pages)."""
COUNTED = ("Paint", "Layerize", "TimerFire", "FireAnimationFrame", "UpdateLayoutTree", "HitTest")


@dataclass
class IdleWork:
    """A page's main thread per second while nothing happens: thread time by kind (ms/s) and events counted."""

    seconds: float
    by_kind: dict[str, float] = field(default_factory=dict)
    counts: dict[str, float] = field(default_factory=dict)
    other_threads: dict[str, float] = field(default_factory=dict)  # ms/s by thread: the renderer's others, the GPU's


def idle_work(events: Sequence[dict[str, Any]], pid: int, seconds: float) -> IdleWork:
    """`seconds` of a trace of renderer `pid` as a page's idle work (self thread time by kind, events per second);
    its compositor and raster threads' time beside it (where a compositor-only animation's frames are made)."""
    main = main_thread_events(events, pid)
    work = IdleWork(seconds, dict.fromkeys(KINDS, 0.0), dict.fromkeys(COUNTED, 0.0))
    stack: list[dict[str, Any]] = []
    for e in main:
        ts = float(e["ts"])
        while stack and float(stack[-1]["ts"]) + float(stack[-1].get("dur", 0)) <= ts:
            stack.pop()
        own = float(e.get("tdur", 0)) / 1000 / seconds
        work.by_kind[kind_of(str(e["name"]))] += own
        if stack:
            work.by_kind[kind_of(str(stack[-1]["name"]))] -= own
        if e["name"] in work.counts:
            work.counts[str(e["name"])] += 1 / seconds
        stack.append(e)
    names = {
        (e["pid"], e["tid"]): str(e["args"]["name"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and (e.get("pid") == pid or e["args"].get("name") in GPU_THREADS)
    }
    for (tpid, tid), name in names.items():
        if name == "CrRendererMain":
            continue
        spans = sorted(
            (float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)), float(e.get("tdur", 0)))
            for e in events
            if e.get("pid") == tpid and e.get("tid") == tid and e.get("ph") == "X"
        )
        top = 0.0
        end = -1.0
        for start, stop, spent in spans:  # outermost events only
            if start >= end:
                top += spent
                end = stop
        if top:
            work.other_threads[name] = work.other_threads.get(name, 0.0) + top / 1000 / seconds
    return work


def trace_idle(browser: Browser, page: Page, pid: int | None, seconds: float) -> IdleWork:
    """`seconds` of `page` standing still, traced."""
    if pid is None:
        return IdleWork(seconds)
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    try:
        page.wait_for_timeout(seconds * 1000)
    finally:
        raw = json.loads(browser.stop_tracing())
    events = raw["traceEvents"] if isinstance(raw, dict) else raw
    return idle_work(events, pid, seconds)


def print_idle(label: str, work: IdleWork, per: str = "/s", digits: int = 1) -> None:
    """A page's main thread by kind of work, its events counted and its other threads' time, each `per` second (or
    per change, `per=""`), the main thread's figures with `digits` decimals."""
    total = sum(v for k, v in work.by_kind.items() if k in OWN)
    floor = 0.5 / 10**digits
    kinds = ", ".join(f"{k} {v:.{digits}f}" for k, v in work.by_kind.items() if v >= floor and k in OWN)
    probe = work.by_kind.get("devtools", 0.0)
    counts = ", ".join(f"{k} {v:.1f}" for k, v in work.counts.items())
    others = sorted(work.other_threads.items(), key=lambda kv: -kv[1])
    threads = ", ".join(f"{k} {v:.1f}" for k, v in others if v >= 0.05)
    print(
        f"   {label}: main thread {total:.{digits}f} ms{per} ({kinds}; and the bench's DevTools calls "
        f"{probe:.{digits}f}); events{per}: {counts}"
    )
    print(f"      its renderer's other threads and the GPU process's, ms{per} of thread time: {threads or 'none'}")


def print_alone(label: str, work: PageWork, top: int = 12) -> None:
    """One page's main thread per change by phase and kind, and its top JS functions."""
    print(f"   {label}: main thread per change by kind (trace thread time, ms; {work.changes} changes traced)")
    print(f"      {'':<12}" + "".join(f"{p:>12}" for p in PHASES) + f"{'all':>10}")
    for kind in KINDS:
        cells = "".join(f"{work.by_phase.get(p, {}).get(kind, 0.0):12.1f}" for p in PHASES)
        every = sum(work.by_phase.get(p, {}).get(kind, 0.0) for p in PHASES)
        print(f"      {kind:<12}{cells}{every:10.1f}")
    print(f"      {'in all':<12}" + "".join(f"{work.phase_total(p):12.1f}" for p in PHASES) + f"{work.total:10.1f}")
    print(f"      {'frames':<12}" + "".join(f"{work.frames.get(p, 0.0):12.1f}" for p in PHASES))
    js = sorted(((fn, ms) for fn, ms in work.functions.items() if fn != "(program)"), key=lambda kv: -kv[1])
    print(f"      JS self time by function ({sum(ms for _, ms in js):.1f} ms):")
    for fn, ms in js[:top]:
        print(f"         {ms:6.2f}  {fn}")


OBSERVED = """(id) => {
  window.__seen = 0;
  const root = document.querySelector('svg.vtt-svg');
  new MutationObserver(() => { window.__seen += 1; })
    .observe(root, { attributes: true, subtree: true, attributeFilter: ['data-q', 'data-r'] });
}"""
IDLE = "() => new Promise(r => requestAnimationFrame(() => requestIdleCallback(r, { timeout: 3000 })))"


def trace_observed(
    browser: Browser, sender: Page, watcher: Page, pid: int | None, enc: Any, n: int, save: Path | None = None
) -> tuple[IdleWork, dict[str, float]]:
    """`n` drops made in `sender`, each waited for in `watcher` and followed by both pages' idle time, with
    `watcher`'s renderer traced and its JS profiled: its work per drop (by kind, events counted) and JS by function."""
    from playwright.sync_api import Error as PlaywrightError

    from bench.web import MOVER, wait_tokens
    from e2e.helpers import cell_xy, drag

    if pid is None:
        return IdleWork(n), {}

    def move(i: int) -> None:
        at = sender.locator(f'[data-token-id="{MOVER}"]').evaluate("el => [+el.dataset.q, +el.dataset.r]")
        here, there = (enc.spot_a, enc.spot_b) if tuple(at) == tuple(enc.spot_a) else (enc.spot_b, enc.spot_a)
        for page in (sender, watcher):
            page.evaluate(IDLE)
        seen = int(watcher.evaluate("window.__seen"))
        drag(sender, cell_xy(sender, here), cell_xy(sender, there), steps=8)
        watcher.wait_for_function("n => window.__seen > n", arg=seen, timeout=30_000)
        watcher.wait_for_timeout(300)  # the change's trailing messages (panels, log)

    for attempt in range(3):  # on a loaded machine a page may reload itself once its socket was slow to answer
        try:
            for page in (sender, watcher):
                wait_tokens(page, enc.creatures)
            watcher.evaluate(OBSERVED)
            move(0)
            move(1)
            break
        except PlaywrightError as e:
            if "destroyed" not in str(e) or attempt == 2:
                raise
    cdp = watcher.context.new_cdp_session(watcher)
    browser.start_tracing(page=watcher, categories=TRACE_CATEGORIES)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # µs
    cdp.send("Profiler.start")
    try:
        for i in range(2, 2 + n):
            move(i)
    finally:
        profile: dict[str, Any] = cdp.send("Profiler.stop")["profile"]
        cdp.send("Profiler.disable")
        raw = json.loads(browser.stop_tracing())
        cdp.detach()
    events = raw["traceEvents"] if isinstance(raw, dict) else raw
    if save is not None:
        save.write_text(json.dumps({"traceEvents": events, "pid": pid}))
    return idle_work(events, pid, n), functions_of(profile, n)


def print_observed(label: str, work: IdleWork, functions: dict[str, float], top: int = 12) -> None:
    """A watching page's main thread per change: by kind, events counted, its top JS functions."""
    print_idle(label, work, per="", digits=2)
    js = sorted(((fn, ms) for fn, ms in functions.items() if fn != "(program)"), key=lambda kv: -kv[1])
    print(f"      JS self time by function ({sum(ms for _, ms in js):.2f} ms):")
    for fn, ms in js[:top]:
        print(f"         {ms:6.2f}  {fn}")


def main(argv: Sequence[str] | None = None) -> int:
    """The big map's pages alone: an idle Soulweaver page and spectator page (each traced from `--after` seconds after
    a token became active), and the Soulweaver's drags with no other page open and no token active, as in
    bench/web.py."""
    import argparse
    import sys
    import tempfile

    from playwright.sync_api import sync_playwright

    from bench.map_trace import open_page
    from bench.web import BIG, make_encounter, renderer_of, renderer_pids, start_table
    from e2e.conftest import CHROMIUM, CHROMIUM_ARGS
    from e2e.helpers import cell_xy, drag

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of each idle page traced (0: none)")
    ap.add_argument("--drags", type=int, default=6, help="drags traced on the Soulweaver's page alone (0: none)")
    ap.add_argument("--after", type=float, default=0.5, help="seconds between making a token active and the trace")
    ap.add_argument(
        "--observed",
        type=int,
        default=0,
        help="drops traced in a spectator's page while the Soulweaver drags (the other pages stay open; 0: none)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, default=None, help="write the spectator's trace (--observed) to this file")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `bash e2e/ensure_chromium.sh` first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="vtt-page-") as tmp, sync_playwright() as pw:
        enc = make_encounter(Path(tmp), *BIG, seed=args.seed)
        server = start_table(Path(tmp), enc, args.seed)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        browser_cdp = browser.new_browser_cdp_session()
        try:
            pages: list[tuple[str, Page, int | None]] = []
            for label, url in (
                ("Soulweaver", server.url + server.seat("soulweaver")),
                ("spectator", f"{server.url}/watch/1"),
            ):
                page = open_page(browser, url, enc.creatures)
                pid = renderer_of(page, renderer_pids(browser_cdp) - {p for _, _, p in pages})
                pages.append((label, page, pid))
            print(f"page_trace: the {BIG[0]}×{BIG[1]} map, {enc.creatures} tokens; {ACTIVE} active")
            if args.idle > 0:
                for label, page, pid in pages:
                    page.evaluate(SET_ACTIVE, ACTIVE)
                    page.wait_for_timeout(args.after * 1000)
                    idle = trace_idle(browser, page, pid, args.idle)
                    page.evaluate(SET_ACTIVE, None)
                    print_idle(f"{label} page, idle {args.idle:.0f} s from {args.after:.1f} s after", idle)
            if args.observed > 0:
                _, sender, _ = pages[0]
                _, watcher, watcher_pid = pages[1]
                seen, functions = trace_observed(browser, sender, watcher, watcher_pid, enc, args.observed, args.save)
                print_observed(f"spectator page, per drop by the Soulweaver ({args.observed} traced)", seen, functions)
            if args.drags > 0:
                label, sender, pid = pages[0]
                for _, page, _ in pages[1:]:
                    page.context.close()

                def move(i: int) -> None:
                    here, there = (enc.spot_a, enc.spot_b) if i % 2 == 0 else (enc.spot_b, enc.spot_a)
                    drag(sender, cell_xy(sender, here), cell_xy(sender, there), steps=8)

                def settle() -> None:
                    sender.wait_for_timeout(400)

                move(0)
                settle()
                move(1)
                settle()
                cdp = sender.context.new_cdp_session(sender)
                work = trace_changes(browser, sender, cdp, pid, move, args.drags, settle, first=2)
                print_alone(f"{label} page alone, {args.drags} drags", work)
        finally:
            for _, page, _ in pages:
                if not page.context.pages or page.is_closed():
                    continue
                page.context.close()
            browser_cdp.detach()
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
