"""Trust benchmark: does one game's heavy request stop the other games? And how much memory does the largest legal
game take?

Run it from the repository root (it starts its own server and a headless Chromium, and stops both)::

    .venv/bin/python bench/trust.py            # 60 moves alone, then moves while the largest map is imported and viewed
    .venv/bin/python bench/trust.py --quick    # fewer moves, one import of each kind

It writes, in a temporary folder, a small "peer" game's map (two creatures on 10 × 10 squares), the largest legal
map file (`vtt.rules.limits`: 200 × 200 spaces, every space a wall or Uneven Ground, 500 creatures) and the largest
legal Universal VTT map (200 × 200, a wall along every row and corner-to-corner diagonals), creates the largest game
in the database, and starts the app (`python -m vtt.cli --seed 1`, the peer map as its starting game, the folder as
its maps: `VTT_MAPS`). It PRINTS figures and never asserts (it is not a test).

1. The peer game: the Soulweaver moves a creature over the seat API's websocket every 0.2 s and its player's
   websocket waits for the change. Move → other client latency, p50 and p95 (one clock: both clients run here),
   first with nothing else happening, then while a browser imports the largest Universal VTT map (start page,
   Import Universal VTT) and makes new games from the largest map file (New game form), each of which opens the
   new game's table page, and while another process fetches the largest game's spectator page (`/watch/<id>`,
   built on the server for each request) over and over. Target: p95 under 100 ms in both. The load's clients run
   at a lower priority than the server and the timed clients (`LOAD_NICENESS`), confined to the last CPU
   (`LOAD_CPUS`; `--shared-cores` lifts that): a user's browser is not on the server's cores.
2. The time each of those requests took (so the load is known), and the server's memory (RSS) before the largest
   game was first opened, after it, and at the end (with the games the imports made), and its workers' RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `e2e` is not an installed package

import httpx  # noqa: E402
from playwright.async_api import Page, async_playwright  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from e2e.conftest import AppServer  # noqa: E402
from vtt.rules import limits as L  # noqa: E402
from vtt.rules.mapfile import load_map  # noqa: E402
from vtt.rules.model import SOULWEAVER  # noqa: E402
from vtt.store.db import open_engine  # noqa: E402
from vtt.table.registry import Games  # noqa: E402

P95_TARGET_MS = 100.0
MOVE_EVERY_S = 0.2
CHROMIUM = "/usr/bin/chromium"
LOAD_NICENESS = 10
LOAD_CPUS = [str((os.cpu_count() or 1) - 1) if (os.cpu_count() or 1) > 1 else ""]
"""The CPU the load's clients are confined to (`taskset -c`): the last one. The simulated users get a core of their
own, as their own machines would be, and the server keeps every core (it may use the last one too). Drawing the
200 × 200 map in Chromium otherwise takes the server's cores, which a real user's browser never does.
`--shared-cores` leaves the clients on every core (at the lower priority only), for comparison."""


def _confined(command: list[str]) -> list[str]:
    """`command` at the load's lower priority, on `LOAD_CPUS` when set."""
    niced = ["nice", "-n", str(LOAD_NICENESS), *command]
    return ["taskset", "-c", LOAD_CPUS[0], *niced] if LOAD_CPUS[0] else niced


"""The load's clients (the importing browser, the anonymous views) run at this lower priority: at a real table
they run on their users' own machines, not on the server's cores, and drawing a 200 × 200 map or parsing page after
page would otherwise take a core from the server being measured. The clients whose moves are timed do not."""
LARGEST = "a-largest.json"
PEER_SPACES = ((1, 1), (2, 1))


# ----------------------------------------------------------------------------------------------------------
# The maps
# ----------------------------------------------------------------------------------------------------------


def largest_map() -> dict[str, Any]:
    """200 × 200 squares, every space a wall or Uneven Ground, 500 creatures standing on the Uneven Ground."""
    side = L.MAP_SIDE_MAX
    open_rows = range(0, side, 8)
    walls = [[x, y] for y in range(side) for x in range(side) if y not in open_rows]
    uneven = [[x, y, 2] for y in open_rows for x in range(side)]
    spaces = [(x, y) for y in open_rows for x in range(side)]
    creatures = [
        {"id": f"c{i}", "name": f"Goblin {i}", "anchor": list(spaces[i]), "controller": "alice" if i < 5 else None}
        for i in range(L.CREATURES_MAX)
    ]
    return {
        "format": 1,
        "name": "Largest",
        "grid": "square",
        "board": {"cols": side, "rows": side, "walls": walls, "uneven": uneven},
        "creatures": creatures,
    }


def largest_uvtt() -> dict[str, Any]:
    """A 200 × 200 Universal VTT map: a wall along every row (each marks the whole row) and 20 diagonals."""
    side = L.MAP_SIDE_MAX
    rows = [[{"x": 0, "y": y}, {"x": side, "y": y}] for y in range(1, side)]
    diagonals = [[{"x": 0.5 + k, "y": 0}, {"x": side - 0.5 - k, "y": side}] for k in range(20)]
    return {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": side, "y": side}, "pixels_per_grid": 50},
        "line_of_sight": rows + diagonals,
        "portals": [],
    }


def peer_map() -> dict[str, Any]:
    return {
        "format": 1,
        "name": "Peer",
        "grid": "square",
        "settings": {"reactions": False},
        "board": {"cols": 10, "rows": 10},
        "creatures": [
            {"id": "runner", "name": "Runner", "anchor": list(PEER_SPACES[0]), "controller": "alice"},
            {"id": "foe", "name": "Foe", "anchor": [8, 8]},
        ],
    }


# ----------------------------------------------------------------------------------------------------------
# The peer game's two clients
# ----------------------------------------------------------------------------------------------------------


@dataclass
class Peer:
    sender: ClientConnection
    observer: ClientConnection
    seen: asyncio.Queue[float] = field(default_factory=asyncio.Queue)
    latencies: list[float] = field(default_factory=list)
    lost: int = 0


async def _watch(ws: ClientConnection, seen: asyncio.Queue[float]) -> None:
    async for text in ws:
        if json.loads(text)["kind"] == "change":
            seen.put_nowait(time.perf_counter())


async def _drain(ws: ClientConnection) -> None:
    async for _ in ws:
        pass


async def move_peer(peer: Peer, moves: int, stop: asyncio.Event | None = None) -> list[float]:
    """Move the runner `moves` times (or until `stop`), each time timing send → the observer has the change."""
    out: list[float] = []
    n = 0
    while (stop is None and n < moves) or (stop is not None and not stop.is_set()):
        to = PEER_SPACES[(n + 1) % 2]
        t0 = time.perf_counter()
        await peer.sender.send(json.dumps({"id": str(n), "command": {"type": "place", "creature": "runner", "to": to}}))
        try:
            seen = await asyncio.wait_for(peer.seen.get(), 30)
            out.append((seen - t0) * 1000)
        except TimeoutError:
            peer.lost += 1
        n += 1
        await asyncio.sleep(max(0.0, MOVE_EVERY_S - (time.perf_counter() - t0)))
    return out


# ----------------------------------------------------------------------------------------------------------
# The load: imports in a browser, views over HTTP
# ----------------------------------------------------------------------------------------------------------


async def own_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late this process's own event loop wakes (ms), every 10 ms until `stop`: the clients that time the moves
    run on it, so a late wake-up here is counted in a move's time though the server was not to blame."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append((time.perf_counter() - t0 - 0.01) * 1000)


async def import_uvtt(page: Page, base: str, path: Path, name: str) -> float:
    await page.goto(f"{base}/")
    await page.locator("input[data-field=game-name]").fill(name)
    await page.locator("input[data-field=your-name]").fill("Bench")
    t0 = time.perf_counter()
    await page.locator("[data-field=uvtt-file] input[type=file]").set_input_files(str(path))
    await page.wait_for_url("**/play/**", timeout=120_000)
    await page.locator("svg.vtt-svg").wait_for(timeout=120_000)
    return time.perf_counter() - t0


async def new_game_from_map(page: Page, base: str, name: str) -> float:
    await page.goto(f"{base}/")
    await page.locator("input[data-field=game-name]").fill(name)
    await page.locator("input[data-field=your-name]").fill("Bench")
    t0 = time.perf_counter()
    await page.locator("[data-action=create-game]").click()
    await page.wait_for_url("**/play/**", timeout=120_000)
    await page.locator("svg.vtt-svg").wait_for(timeout=120_000)
    return time.perf_counter() - t0


async def imports(base: str, uvtt_path: Path, rounds: int, seconds: dict[str, list[float]]) -> None:
    async with async_playwright() as pw:
        wrapper = uvtt_path.parent / "chromium-niced"
        wrapper.write_text(f'#!/bin/sh\nexec {" ".join(_confined([CHROMIUM]))} "$@"\n')
        wrapper.chmod(0o755)
        browser = await pw.chromium.launch(executable_path=str(wrapper), headless=True)
        try:
            context = await browser.new_context()
            try:
                page = await context.new_page()
                for i in range(rounds):
                    seconds["Universal VTT import + its table page"].append(
                        await import_uvtt(page, base, uvtt_path, f"Imported {i}")
                    )
                    seconds["map file game + its table page"].append(await new_game_from_map(page, base, f"Made {i}"))
                await page.close()
            finally:
                await context.close()
        finally:
            await browser.close()


def fetch_views(url: str) -> None:
    """Fetch `url` over and over until stopped, printing each fetch's seconds (the `--views-of` process)."""
    with httpx.Client(timeout=120) as client:
        while True:
            t0 = time.perf_counter()
            client.get(url).raise_for_status()
            print(f"{time.perf_counter() - t0:.4f}", flush=True)


async def views(base: str, game_id: int, stop: asyncio.Event, seconds: list[float]) -> None:
    """The anonymous views, from a process of their own at a lower priority (`LOAD_NICENESS`): a visitor's
    requests come from elsewhere, and here they would otherwise share this process's loop with the moves timed."""
    child = await asyncio.create_subprocess_exec(
        *_confined([sys.executable, str(Path(__file__).resolve()), "--views-of", f"{base}/watch/{game_id}"]),
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    reader = asyncio.create_task(child.stdout.read())
    await stop.wait()
    child.terminate()
    out = await reader
    await child.wait()
    seconds.extend(float(line) for line in out.decode().split())


# ----------------------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out += [int(x) for x in text]
    return out


def pct(values: list[float], q: float) -> float:
    xs = sorted(values)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def verdict(p95: float) -> str:
    return "MET" if p95 < P95_TARGET_MS else "MISSED"


def prepare(folder: Path) -> tuple[Path, Path, Path, int]:
    maps = folder / "maps"
    maps.mkdir()
    (maps / LARGEST).write_text(json.dumps(largest_map()))
    uvtt = folder / "largest.dd2vtt"
    uvtt.write_text(json.dumps(largest_uvtt()))
    peer = folder / "peer.json"
    peer.write_text(json.dumps(peer_map()))
    database = folder / "trust.sqlite"
    games = Games(open_engine(f"sqlite:///{database}"), maps)
    game_id, _, _ = games.ensure("The largest", load_map(largest_map()), LARGEST)
    games.set_watchable(game_id, True)  # its spectator page is the view under test
    games.close()
    return maps, uvtt, peer, game_id


def print_stalls(output: str) -> None:
    """The server's `VTT_LOOP_WATCH` report, summed by the stack the loop was most often sampled in during each
    stall: how often, how long (wall clock) and how much of it the loop's thread computed (its CPU time). On a busy
    machine a stall with little computing is the server waiting for a core or for another thread's GIL."""
    by_stack: dict[str, list[tuple[float, float]]] = {}
    for block in output.split("loop held ")[1:]:
        lines = block.splitlines()
        words = lines[0].split()
        held, computing = float(words[0]), float(words[2])
        top = next((line.split("% ", 1)[1] for line in lines[1:] if line.startswith("    ") and "% " in line), "")
        by_stack.setdefault(top or "(no sample: the GIL held in C code, or no core free)", []).append((held, computing))
    stalls = [s for v in by_stack.values() for s in v]
    print(
        f"Event loop held past the watch's threshold: {len(stalls)} times, {sum(s[0] for s in stalls):.0f} ms, "
        f"{sum(s[1] for s in stalls):.0f} ms of it computing on the loop's thread"
    )
    for stack, times in sorted(by_stack.items(), key=lambda kv: -max(c for _, c in kv[1]))[:12]:
        most, computing, total = max(h for h, _ in times), max(c for _, c in times), sum(c for _, c in times)
        print(f"   {len(times):3d} x, max {most:4.0f} ms (computing max {computing:4.0f}, total {total:5.0f}): {stack}")


async def bench(quick: bool, loop_watch: float | None = None, server_log: Path | None = None) -> int:
    moves = 20 if quick else 60
    load_before = os.getloadavg()[0]
    rounds = 1 if quick else 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        maps, uvtt_path, peer_path, largest_id = prepare(folder)
        print(f"largest map written and its game stored in {time.perf_counter() - t0:.1f} s")
        server = AppServer(
            module="vtt.cli",
            args=["--map", str(peer_path), "--database", f"sqlite:///{folder / 'trust.sqlite'}", "--seed", "1"],
            env={"VTT_MAPS": str(maps), "VTT_STORAGE_SECRET": "bench"}
            | ({"VTT_LOOP_WATCH": f"{loop_watch:g}"} if loop_watch else {}),
            startup_timeout=120,
        ).start()
        try:
            assert server.process is not None
            pid = server.process.pid
            base = server.url
            sender = base.replace("http", "ws") + "/api/seat/" + server.seat(SOULWEAVER).rsplit("/", 1)[1] + "/events"
            observer = base.replace("http", "ws") + "/api/seat/" + server.seat("alice").rsplit("/", 1)[1] + "/events"
            async with connect(sender, ping_interval=None) as ws_send, connect(observer, ping_interval=None) as ws_obs:
                peer = Peer(ws_send, ws_obs)
                tasks = [asyncio.create_task(_watch(ws_obs, peer.seen)), asyncio.create_task(_drain(ws_send))]
                await asyncio.sleep(1.0)
                await move_peer(peer, 5)  # warm up
                alone = await move_peer(peer, moves)
                rss_before = rss_mb(pid)
                async with httpx.AsyncClient(timeout=300) as client:
                    t0 = time.perf_counter()
                    (await client.get(f"{base}/watch/{largest_id}")).raise_for_status()
                    first_view = time.perf_counter() - t0
                rss_after = rss_mb(pid)
                stop = asyncio.Event()
                seconds: dict[str, list[float]] = {
                    "Universal VTT import + its table page": [],
                    "map file game + its table page": [],
                }
                view_s: list[float] = []
                lags: list[float] = []
                lagger = asyncio.create_task(own_lag(stop, lags))
                mover = asyncio.create_task(move_peer(peer, 0, stop))
                viewer = asyncio.create_task(views(base, largest_id, stop, view_s))
                try:
                    await imports(base, uvtt_path, rounds, seconds)
                    await asyncio.sleep(2.5)  # a few views at least
                finally:
                    stop.set()
                    loaded = await mover
                    await viewer
                    await lagger
                rss_end = rss_mb(pid)
                workers = [(c, rss_mb(c)) for c in children(pid)]
                for task in tasks:
                    task.cancel()
        except BaseException:
            print(f"--- the server's output ---\n{server.output()[-4000:]}")
            raise
        finally:
            server.stop()
        output = server.output()
    print()
    print(f"The machine's load (1 minute average): {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    where = f"confined to CPU {LOAD_CPUS[0]}" if LOAD_CPUS[0] else "on every core"
    print(f"The load's clients (browser, anonymous views): nice {LOAD_NICENESS}, {where}; the server: every core")
    print()
    print("Another game's move -> its other client (seat API websockets, one move every 0.2 s)")
    print(f"   {'':34} {'alone':>10} {'under load':>12}")
    print(f"   {'moves':34} {len(alone):>10} {len(loaded):>12}")
    print(f"   {'p50 (ms)':34} {statistics.median(alone):>10.1f} {statistics.median(loaded):>12.1f}")
    p95a, p95l = pct(alone, 95), pct(loaded, 95)
    print(f"   {'p95 (ms)':34} {p95a:>10.1f} {p95l:>12.1f}")
    print(f"   {'max (ms)':34} {max(alone):>10.1f} {max(loaded):>12.1f}")
    print(f"   {'p95 under 100 ms':34} {verdict(p95a):>10} {verdict(p95l):>12}")
    print(f"   moves unanswered after 30 s: {peer.lost}")
    print(
        f"   this process's own loop woke late under load by p50 {statistics.median(lags):.1f}, "
        f"p95 {pct(lags, 95):.1f}, max {max(lags):.1f} ms (counted in the moves' times)"
    )
    print()
    print("The load (seconds each)")
    print(f"   first view of the largest game (loads its table): {first_view:.2f}")
    print(
        f"   /watch of the largest game: {len(view_s)} views, "
        f"p50 {statistics.median(view_s):.2f}, max {max(view_s):.2f}"
    )
    for label, values in seconds.items():
        print(f"   {label}: {', '.join(f'{v:.1f}' for v in values)}")
    print()
    print("Server memory (RSS)")
    print(f"   before the largest game was opened: {rss_before:.0f} MB")
    print(
        f"   after its first view:               {rss_after:.0f} MB "
        f"(the largest legal game: +{rss_after - rss_before:.0f} MB)"
    )
    print(f"   at the end (imported games loaded): {rss_end:.0f} MB")
    for child, mb in workers:
        print(f"   worker process {child}: {mb:.0f} MB")
    if loop_watch:
        print()
        print_stalls(output)
    if server_log is not None:
        server_log.write_text(output)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer moves, one import of each kind")
    parser.add_argument(
        "--loop-watch",
        type=float,
        metavar="MS",
        help="report each time the server's event loop was held longer than MS milliseconds, and where",
    )
    parser.add_argument("--server-log", type=Path, metavar="FILE", help="write the server's output to FILE")
    parser.add_argument("--views-of", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument(
        "--shared-cores", action="store_true", help="leave the load's clients on every core (see LOAD_CPUS)"
    )
    args = parser.parse_args(argv)
    if args.shared_cores:
        LOAD_CPUS[0] = ""
    if args.views_of:
        fetch_views(args.views_of)
        return 0
    return asyncio.run(bench(args.quick, args.loop_watch, args.server_log))


if __name__ == "__main__":
    sys.exit(main())
