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
KINDS = ("script", "gc", "style", "layout", "hit test", "pre-paint", "paint", "layerize", "commit", "tasks")
""""tasks": the time of the task runner and of messages (input, socket frames) outside the events above."""


@dataclass
class PageWork:
    """One page's main thread per change (ms): by phase and kind, and its JS profile by function."""

    changes: int
    by_phase: dict[str, dict[str, float]] = field(default_factory=dict)
    functions: dict[str, float] = field(default_factory=dict)
    frames: dict[str, float] = field(default_factory=dict)  # rendered frames (Paint + Layerize runs) per phase

    def phase_total(self, phase: str) -> float:
        return sum(self.by_phase.get(phase, {}).values())

    @property
    def total(self) -> float:
        return sum(self.phase_total(p) for p in PHASES)


def kind_of(name: str) -> str:
    if name.startswith(("V8.GC", "BlinkGC")):
        return "gc"
    return KIND_OF.get(name, "tasks")


def main_thread_events(events: Sequence[dict[str, Any]], pid: int) -> list[dict[str, Any]]:
    """The complete ("X") events of the renderer `pid`'s main thread, in order, outer events first."""
    tids = {
        e["tid"]
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("pid") == pid
        and e.get("args", {}).get("name") == "CrRendererMain"
    }
    mine = [e for e in events if e.get("pid") == pid and e.get("tid") in tids and e.get("ph") == "X"]
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
