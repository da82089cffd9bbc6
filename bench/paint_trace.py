"""Where a big table page's first paint goes, from Chromium traces: figures a busy machine changes far less than the
wall clock.

    .venv/bin/python -m bench.paint_trace            # 3 cold and 3 warm loads of the 100×100 map, and the bare page's
    .venv/bin/python -m bench.paint_trace --runs 5

`bench/web.py --paint` times the first paint on the wall clock, which on a shared 2-core machine swings 3×. This
traces the same loads (the same map, probe and viewport) and sums the renderer main thread's own *thread* time (a
wait for a core does not count) from the navigation to the end of the frame that first shows every token, by kind
of work (HTML parsing, script compile and run by file, style, layout, paint...), next to the bare NiceGUI page
(a label) traced the same way; and the server's CPU time per page load (/proc: the whole process, its page
build, socket and all). Tracing costs time itself: compare figures of one run, or of runs made the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `e2e` is not an installed package

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from bench.page_trace import KIND_OF, main_thread_events  # noqa: E402
from bench.process_cpu import process_cpu_ms  # noqa: E402
from bench.web import (  # noqa: E402
    BARE_APP,
    BARE_SELECTOR,
    BIG,
    PAINT_PROBE,
    SETTLED,
    TIMEOUT_MS,
    TOKEN_SELECTOR,
    make_encounter,
    new_context,
    start_table,
)
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "toplevel",
    "v8.execute",
    "v8",
    "blink.user_timing",
    "loading",
]
PAINTED_MARK = "vtt-painted"
MARK_PAINT = f"""(() => {{
  const poll = () => {{
    const m = window.__benchPaint;
    if (m && m.painted !== null) performance.mark({json.dumps(PAINTED_MARK)}, {{ startTime: m.painted }});
    else setTimeout(poll, 20);
  }};
  poll();
}})();"""
"""The probe's "painted" moment as a user-timing mark, which the trace carries on the page's clock."""

KINDS = ("parse HTML", "compile", "script", "gc", "style", "layout", "pre-paint", "paint", "layerize", "other")
EXTRA_KINDS: dict[str, str] = {
    "ParseHTML": "parse HTML",
    "v8.compile": "compile",
    "v8.compileModule": "compile",
    "V8.CompileCode": "compile",
    "V8.CompileLazy": "compile",
    "v8.parseOnBackground": "compile",
    "V8.ParseProgram": "compile",
    "V8.ParseFunction": "compile",
    "v8.produceCache": "compile",
    "v8.produceModuleCache": "compile",
}
PER_FILE = {"EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule", "FunctionCall"}
"""Events whose own time is also summed by the script file they name."""


def kind(name: str) -> str:
    if name in EXTRA_KINDS:
        return EXTRA_KINDS[name]
    if name.startswith(("V8.GC", "BlinkGC")) or name in ("MinorGC", "MajorGC"):
        return "gc"
    k = KIND_OF.get(name, "other")
    return k if k in KINDS else ("layerize" if k == "commit" else "other")


def url_of(e: dict[str, Any]) -> str:
    data = e.get("args", {}).get("data", {}) or {}
    url = str(data.get("url") or e.get("args", {}).get("fileName") or data.get("scriptName") or "")
    tail = url.rsplit("/", 1)[-1] or "(inline)"
    return tail.split("?", 1)[0]


@dataclass
class Traced:
    label: str
    by_kind: dict[str, float] = field(default_factory=dict)  # ms of main-thread thread time to the paint
    by_file: dict[str, float] = field(default_factory=dict)  # of which script compile + run, by file
    by_event: dict[str, float] = field(default_factory=dict)  # the same time by trace event name
    after: float = 0.0  # ms of main-thread thread time from the paint to the end of the trace (settled)
    painted_ms: float = 0.0  # wall clock, from navigation start (load-dependent)
    html_bytes: int = 0
    server_cpu_ms: float = 0.0

    @property
    def total(self) -> float:
        return sum(self.by_kind.values())


def painted_ts(events: Sequence[dict[str, Any]]) -> tuple[int, float] | None:
    for e in events:
        if e.get("name") == PAINTED_MARK and "blink.user_timing" in str(e.get("cat", "")):
            return int(e["pid"]), float(e["ts"])
    return None


def tally(events: Sequence[dict[str, Any]], label: str) -> Traced:
    out = Traced(label, dict.fromkeys(KINDS, 0.0))
    found = painted_ts(events)
    if found is None:
        raise RuntimeError("the trace has no paint mark")
    pid, until = found
    files: dict[str, float] = defaultdict(float)
    names: dict[str, float] = defaultdict(float)
    stack: list[dict[str, Any]] = []
    for e in main_thread_events(events, pid):
        ts = float(e["ts"])
        while stack and float(stack[-1]["ts"]) + float(stack[-1].get("dur", 0)) <= ts:
            stack.pop()
        own = float(e.get("tdur", 0)) / 1000
        parent = stack[-1] if stack else None
        if ts + float(e.get("dur", 0)) / 2 <= until:
            out.by_kind[kind(str(e["name"]))] += own
            names[str(e["name"])] += own
            if parent is not None:
                out.by_kind[kind(str(parent["name"]))] -= own
                names[str(parent["name"])] -= own
            if e["name"] in PER_FILE:
                files[url_of(e)] += own
            if parent is not None and parent["name"] in PER_FILE:
                files[url_of(parent)] -= own
        elif parent is None:
            out.after += own
        stack.append(e)
    out.by_file = dict(files)
    out.by_event = dict(names)
    return out


def traced_load(browser: Browser, page: Any, url: str, label: str, server: AppServer) -> Traced:
    pid = server.process.pid if server.process is not None else 0
    before = process_cpu_ms(pid)
    browser.start_tracing(page=page, categories=CATEGORIES)
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function(
            "() => window.__benchPaint && window.__benchPaint.painted !== null", timeout=TIMEOUT_MS, polling=50
        )
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=100)
        page.wait_for_function(f"() => performance.getEntriesByName({json.dumps(PAINTED_MARK)}).length > 0")
    finally:
        raw = json.loads(browser.stop_tracing())
    events = raw["traceEvents"] if isinstance(raw, dict) else raw
    out = tally(events, label)
    out.server_cpu_ms = process_cpu_ms(pid) - before
    nav: dict[str, Any] = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return { painted: window.__benchPaint.painted, html: n.decodedBodySize }; }"
    )
    out.painted_ms, out.html_bytes = float(nav["painted"]), int(nav["html"])
    return out


def loads(browser: Browser, server: AppServer, url: str, n: int, selector: str, runs: int) -> list[Traced]:
    """A first load (not counted: it builds the server's first page), then `runs` cold loads (a new context each),
    each followed by a warm one in the same context."""
    probe = PAINT_PROBE.replace("__N__", str(n)).replace("__SELECTOR__", json.dumps(selector))
    out: list[Traced] = []
    for i in range(runs + 1):
        with new_context(browser) as context:
            context.add_init_script(script=probe + MARK_PAINT)
            page = context.new_page()
            cold = traced_load(browser, page, url, f"cold #{i}", server)
            if i:
                out.append(cold)
                out.append(traced_load(browser, page, url, f"warm #{i}", server))
    return out


def median_of(xs: Sequence[Traced], label: str) -> Traced:
    out = Traced(label, {k: statistics.median(x.by_kind[k] for x in xs) for k in KINDS})
    names = {f for x in xs for f in x.by_file}
    out.by_file = {f: statistics.median(x.by_file.get(f, 0.0) for x in xs) for f in names}
    events = {f for x in xs for f in x.by_event}
    out.by_event = {f: statistics.median(x.by_event.get(f, 0.0) for x in xs) for f in events}
    out.after = statistics.median(x.after for x in xs)
    out.painted_ms = statistics.median(x.painted_ms for x in xs)
    out.html_bytes = xs[0].html_bytes
    out.server_cpu_ms = statistics.median(x.server_cpu_ms for x in xs)
    return out


def print_table(rows: Sequence[Traced]) -> None:
    print(f"   {'':<16}" + "".join(f"{r.label:>14}" for r in rows))
    for k in KINDS:
        print(f"   {k:<16}" + "".join(f"{r.by_kind[k]:14.1f}" for r in rows))
    print(f"   {'to the paint':<16}" + "".join(f"{r.total:14.1f}" for r in rows))
    print(f"   {'after it':<16}" + "".join(f"{r.after:14.1f}" for r in rows))
    print(f"   {'server CPU':<16}" + "".join(f"{r.server_cpu_ms:14.0f}" for r in rows))
    print(f"   {'HTML KB':<16}" + "".join(f"{r.html_bytes / 1024:14.1f}" for r in rows))
    print(f"   {'painted (wall)':<16}" + "".join(f"{r.painted_ms:14.0f}" for r in rows))
    for r in rows:
        files = sorted(r.by_file.items(), key=lambda kv: -kv[1])[:8]
        print(f"   {r.label}: script by file: " + ", ".join(f"{f} {ms:.1f}" for f, ms in files))
    for r in rows:
        events = sorted(r.by_event.items(), key=lambda kv: -kv[1])[:14]
        print(f"   {r.label}: by trace event: " + ", ".join(f"{f} {ms:.1f}" for f, ms in events))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="cold loads (each followed by a warm one) per page")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-bare", action="store_true", help="skip the bare NiceGUI page")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vtt-paint-") as tmp, sync_playwright() as pw:
        folder = Path(tmp)
        big = make_encounter(folder, *BIG, seed=args.seed)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            server = start_table(folder, big, args.seed)
            try:
                table = loads(
                    browser, server, server.url + server.seat("soulweaver"), big.creatures, TOKEN_SELECTOR, args.runs
                )
            finally:
                server.stop()
            rows = [
                median_of([x for x in table if x.label.startswith("cold")], "table cold"),
                median_of([x for x in table if x.label.startswith("warm")], "table warm"),
            ]
            if not args.no_bare:
                script = folder / "bare_app.py"
                script.write_text(BARE_APP)
                bare_server = AppServer(script, port_env="BARE_PORT", cwd=folder).start()
                try:
                    bare = loads(browser, bare_server, bare_server.url, 1, BARE_SELECTOR, args.runs)
                finally:
                    bare_server.stop()
                rows += [
                    median_of([x for x in bare if x.label.startswith("cold")], "bare cold"),
                    median_of([x for x in bare if x.label.startswith("warm")], "bare warm"),
                ]
        finally:
            browser.close()
    print(
        f"First paint, {BIG[0]}×{BIG[1]} hex, {BIG[2]} tokens: renderer main thread's own thread time (ms, medians "
        f"of {args.runs}) from navigation to the painted frame, by kind"
    )
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
