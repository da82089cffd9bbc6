"""What opening the Soulweaver's Settings dialog costs (`vtt/web/settings_dialog.py`).

Run it from the repository root::

    .venv/bin/python bench/settings_dialog.py            # 6 opens
    .venv/bin/python bench/settings_dialog.py --opens 10

It starts the table server (`python -m vtt.cli --map e2e/maps/arena.json --seed 7`) and one Soulweaver page in
`/usr/bin/chromium`, then opens the dialog `--opens` times (Cancel closes it between), and each time opens one more
group ("Defenses and reactions"). For each it PRINTS the elements NiceGUI created (its element table in the page),
the DOM elements in the dialog, the renderer main thread's CPU time (/proc schedstat: the thread's own work, which a
wait for a core on a busy machine does not count) and the server's CPU time from the click until the page is idle
again (two animation frames and an idle callback after the rows show), with the wall time beside them for reference.
It never asserts on time (it is not a test).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.process_cpu import process_cpu_ms, thread_cpu_ms  # noqa: E402
from bench.web import renderer_of, renderer_pids  # noqa: E402
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, AppServer  # noqa: E402
from vtt.rules.setting_groups import grouped  # noqa: E402

ARENA = ROOT / "e2e" / "maps" / "arena.json"
SECOND_GROUP = "Defenses and reactions"
IDLE = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => done(null), {timeout: 2000}))))"""
COUNTS = """() => ({
  nicegui: Object.keys(mounted_app.elements).length,
  dom: document.querySelector(".settings-dialog")?.querySelectorAll("*").length ?? 0,
})"""


def measured(page: Page, pid: int, server_pid: int, act: Callable[[], None]) -> dict[str, float]:
    before = page.evaluate(COUNTS)
    cpu, server, wall = thread_cpu_ms(pid, pid), process_cpu_ms(server_pid), time.perf_counter()
    act()
    page.evaluate(IDLE)
    after = page.evaluate(COUNTS)
    return {
        "nicegui": after["nicegui"] - before["nicegui"],
        "dom": after["dom"] - before["dom"],
        "page_cpu": thread_cpu_ms(pid, pid) - cpu,
        "server_cpu": process_cpu_ms(server_pid) - server,
        "wall": (time.perf_counter() - wall) * 1000,
    }


def summary(label: str, runs: list[dict[str, float]]) -> None:
    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    print(
        f"{label:<28} NiceGUI elements {med('nicegui'):5.0f}   DOM elements {med('dom'):5.0f}   "
        f"page CPU {med('page_cpu'):6.0f} ms (min {min(r['page_cpu'] for r in runs):.0f})   "
        f"server CPU {med('server_cpu'):5.0f} ms   wall {med('wall'):6.0f} ms   (medians of {len(runs)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opens", type=int, default=6)
    args = parser.parse_args(argv)
    groups = grouped()
    first, rows_first = next(iter(groups.items()))
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite"
        server = AppServer(
            module="vtt.cli", args=["--map", str(ARENA), "--database", f"sqlite:///{db}", "--seed", "7"]
        ).start()
        try:
            assert server.process is not None
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                try:
                    context = browser.new_context(viewport=VIEWPORT, reduced_motion="reduce")
                    page = context.new_page()
                    page.set_default_timeout(120_000)
                    page.goto(server.url + server.seat("soulweaver"))
                    page.wait_for_function("window.did_handshake === true")
                    page.wait_for_selector("[data-action=settings]")
                    cdp = browser.new_browser_cdp_session()
                    pid = renderer_of(page, renderer_pids(cdp))
                    assert pid is not None
                    dialog = page.locator(".settings-dialog")
                    opens: list[dict[str, float]] = []
                    seconds: list[dict[str, float]] = []

                    def open_dialog() -> None:
                        page.locator("[data-action=settings]").click()
                        dialog.locator(f'[data-group="{first}"] [data-setting={rows_first[-1]}]').wait_for()

                    def open_second() -> None:
                        dialog.locator(f'[data-group="{SECOND_GROUP}"] .q-item').first.click()
                        last = groups[SECOND_GROUP][-1]
                        dialog.locator(f"[data-setting={last}]").wait_for(state="visible")

                    for _ in range(args.opens):
                        opens.append(measured(page, pid, server.process.pid, open_dialog))
                        seconds.append(measured(page, pid, server.process.pid, open_second))
                        page.locator("[data-action=cancel-settings]").click()
                        dialog.wait_for(state="detached")
                        page.evaluate(IDLE)
                    settings = sum(len(n) for n in groups.values())
                    print(f"bench/settings_dialog.py: {settings} settings in {len(groups)} groups")
                    summary("open the dialog", opens)
                    summary(f"then open {SECOND_GROUP!r}", seconds)
                    context.close()
                finally:
                    browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
