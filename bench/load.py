"""Load benchmark of the seat API (`vtt.web.api`) on the real app: many games, six websocket clients each.

Run it from the repository root::

    .venv/bin/python bench/load.py              # 20 games × 6 clients, one command per client per second, 60 s
    .venv/bin/python bench/load.py --quick      # 4 games for 10 s (a smoke run)
    .venv/bin/python bench/load.py --seconds 30 --games 10 --no-deflate
    .venv/bin/python bench/load.py --games 100 --interval 10 --seconds 60 --no-reference
                                                # 100 games × 6 clients, each client one command every 10 s
    .venv/bin/python bench/load.py --processes 2   # through nginx: 1 vs 2 processes on PostgreSQL (bench/scale.py)

It writes an encounter file and creates the games with `Games.ensure` in a fresh SQLite database (a Soulweaver
seat and 5 player seats per game, each player owning one creature), starts the app on it (`python -m vtt.cli
--database sqlite:///…`, through `e2e.conftest.AppServer`), begins each fight over the API, then connects the
6 clients of each game to `WS /api/seat/{secret}/events` with the `websockets` client (permessage-deflate on,
as a default client has it, unless `--no-deflate`). It PRINTS figures and never asserts (it is not a test).

Every command always succeeds, so that a command acknowledged but not broadcast is lost, not refused:

- the client whose turn it is (as the last broadcast said) sends `end_turn` — a player for its creature, the
  Soulweaver on the Soulweaver's turn;
- otherwise the Soulweaver `place`s one of its 6 creatures on a free space of a field only they use, and a
  player has the Soulweaver `place` its creature on the other space of a lane only it uses: a player may not
  place, so that command goes over the Soulweaver's socket (the player is still the one it is timed for).

Figures:

1. Command-to-broadcast latency: from just before a client sends a command to the moment the last of the other
   5 clients of its game has the change (one clock: every client runs in this process). p50 and p95.
   Target: p95 ≤ 100 ms.
2. Server memory per client: the server's RSS (`/proc/<pid>/status`) with the clients connected and idle, less
   its RSS before they connected (every game's table already loaded), divided by the clients. Target: ≤ 2 MB.
   The RSS after the load is shown too: it also holds the commands played (each game keeps its log and the
   states it went through in memory, for undo).
3. Commands lost: acknowledged `ok` but missing at one of the other clients of the game after the run and a
   2 s drain. Must be 0. Refused and unanswered commands are counted apart (both should be 0 too).
4. For reference (where the time goes), once the server has stopped: the same load, with the same clients'
   choices, straight into `Table.submit` in this process on the same database (no API, no websocket), with the
   time of the database writes (`db.append_command`, timed by wrapping it).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `e2e` is not an installed package

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from e2e.conftest import AppServer  # noqa: E402
from vtt.rules.grid import make_grid  # noqa: E402
from vtt.rules.model import SOULWEAVER, Cell  # noqa: E402
from vtt.rules.scenario import load_scenario  # noqa: E402
from vtt.store import db  # noqa: E402
from vtt.store.db import open_engine  # noqa: E402
from vtt.table.registry import Games  # noqa: E402
from vtt.table.table import Change, Table, Viewer  # noqa: E402

LATENCY_P95_TARGET_MS = 100.0
RSS_PER_CLIENT_TARGET_MB = 2.0
GAMES, QUICK_GAMES = 20, 4
SECONDS, QUICK_SECONDS = 60.0, 10.0
PLAYERS = 5
NPCS = 6
COLS, ROWS = 40, 24
FIELD = (range(20, 36), range(3, 21))  # map columns and rows of the Soulweaver's creatures' field
DRAIN_S = 2.0
ANSWER_TIMEOUT_S = 10.0


# ----------------------------------------------------------------------------------------------------------
# The encounter and the games
# ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Encounter:
    path: Path
    scenario: dict[str, Any]
    lanes: dict[str, tuple[Cell, Cell]]  # player creature -> the two spaces it is placed on in turn
    npcs: dict[str, Cell]  # the Soulweaver's creatures -> where they start
    field: list[Cell]


def make_encounter(folder: Path) -> Encounter:
    grid = make_grid("hex")
    creatures: list[dict[str, Any]] = []
    lanes: dict[str, tuple[Cell, Cell]] = {}
    for i in range(1, PLAYERS + 1):
        a, b = grid.from_offset(2, 4 * i - 2), grid.from_offset(4, 4 * i - 2)
        lanes[f"hero{i}"] = (a, b)
        creatures.append(
            {"id": f"hero{i}", "name": f"Hero {i}", "anchor": list(a), "controller": f"p{i}", "skills": {"Zeal": 1}}
        )
    field_cells = [grid.from_offset(c, r) for r in FIELD[1] for c in FIELD[0]]
    npcs = {f"npc{i}": field_cells[i * 7] for i in range(1, NPCS + 1)}
    creatures += [{"id": cid, "name": f"Foe {cid[3:]}", "anchor": list(at)} for cid, at in npcs.items()]
    scenario = {
        "version": 1,
        "name": "Load",
        "description": f"bench/load.py: {PLAYERS} heroes in their lanes, {NPCS} foes in a field.",
        "settings": {"reactions": False},
        "board": {"cols": COLS, "rows": ROWS},
        "creatures": creatures,
    }
    load_scenario(scenario)
    path = folder / "load.json"
    path.write_text(json.dumps(scenario))
    return Encounter(path, scenario, lanes, npcs, field_cells)


class Socket(Protocol):
    """What a client's connection does for `send`: the `websockets` client's, or `bench.lean_socket`'s."""

    async def send(self, message: str) -> None: ...

    async def close(self) -> None: ...


@dataclass
class Client:
    game: int
    index: int  # 0 is the Soulweaver, 1..5 the players
    key: str
    secret: str
    creature: str | None
    ws: Socket | None = None
    turn: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    received: dict[int, float] = field(default_factory=dict)
    waiting: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Sent:
    game: int
    sender: int
    kind: str
    t0: float
    ok: bool | None = None
    seq: int | None = None
    error: str | None = None
    acked: float | None = None
    """When the sender had the answer."""


@dataclass
class Game:
    id: int
    clients: list[Client]
    npc_at: dict[str, Cell]
    free: set[Cell]
    hero_at: dict[str, Cell]
    lanes: dict[str, tuple[Cell, Cell]]
    sent: list[Sent] = field(default_factory=list)


def create_games(url: str, encounter: Encounter, n: int) -> list[Game]:
    games = Games(open_engine(url), encounter.path.parent)
    state = load_scenario(encounter.scenario).state
    made: list[Game] = []
    for g in range(1, n + 1):
        game_id, seats, _ = games.ensure(f"Load {g}", state, encounter.path.name)
        by_key = {s.key: s for s in seats}
        clients = [Client(game_id, 0, SOULWEAVER, by_key[SOULWEAVER].secret, None)]
        clients += [Client(game_id, i, f"p{i}", by_key[f"p{i}"].secret, f"hero{i}") for i in range(1, PLAYERS + 1)]
        free = set(encounter.field) - set(encounter.npcs.values())
        hero_at = {cid: lane[0] for cid, lane in encounter.lanes.items()}
        made.append(Game(game_id, clients, dict(encounter.npcs), free, hero_at, encounter.lanes))
    games.close()
    return made


# ----------------------------------------------------------------------------------------------------------
# Clients
# ----------------------------------------------------------------------------------------------------------

_ids = itertools.count(1)


def current_of(turn: dict[str, Any]) -> str | None:
    entries: list[str] = turn["entries"]
    index: int = turn["index"]
    return entries[index] if turn["round"] > 0 and 0 <= index < len(entries) else None


async def receive(client: Client) -> None:
    assert isinstance(client.ws, ClientConnection)
    try:
        await _receive(client, client.ws)
    except ConnectionClosed:
        CLOSED.append(client.key)


CLOSED: list[str] = []
"""The clients whose socket the server closed during the run (its commands then count as unanswered)."""


async def _receive(client: Client, ws: ClientConnection) -> None:
    async for text in ws:
        now = time.perf_counter()
        message = json.loads(text)
        if message["kind"] == "change":
            client.received[message["seq"]] = now
        take(client, message)


def take(client: Client, message: dict[str, Any]) -> None:
    """What a client keeps of a message: whose turn it is, an answer to a command it waits for, being ready."""
    kind = message["kind"]
    if kind == "change":
        turn = message["state"].get("turn")
        if turn is not None:
            client.turn = current_of(turn)
    elif kind == "outcome":
        future = client.waiting.pop(str(message["id"]), None)
        if future is not None and not future.done():
            future.set_result(message)
    elif kind == "state":
        client.turn = current_of(message["state"]["turn"])
        client.ready.set()


async def send(via: Client, command: dict[str, Any]) -> tuple[float, dict[str, Any] | None]:
    """Send on `via`'s socket; the time just before and the answer (None when none came in time)."""
    assert via.ws is not None
    ident = str(next(_ids))
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    via.waiting[ident] = future
    t0 = time.perf_counter()
    try:
        await via.ws.send(json.dumps({"id": ident, "command": command}))
        return t0, await asyncio.wait_for(future, ANSWER_TIMEOUT_S)
    except (TimeoutError, ConnectionClosed):  # a socket the server closed: counted as unanswered, the run goes on
        via.waiting.pop(ident, None)
        return t0, None


def choose(game: Game, client: Client, rng: random.Random) -> tuple[Client, dict[str, Any], str]:
    """The command this client sends now, the client whose socket carries it, and what to call it."""
    soulweaver = game.clients[0]
    if client.index == 0:
        if client.turn == SOULWEAVER:
            return client, {"type": "end_turn"}, "end_turn"
        npc = rng.choice(sorted(game.npc_at))
        to = rng.choice(sorted(game.free))
        game.free.add(game.npc_at[npc])
        game.free.discard(to)
        game.npc_at[npc] = to
        return client, {"type": "place", "creature": npc, "to": list(to)}, "place foe"
    assert client.creature is not None
    if client.turn == client.creature:
        return client, {"type": "end_turn"}, "end_turn"
    lane = game.lanes[client.creature]
    to = lane[1] if game.hero_at[client.creature] == lane[0] else lane[0]
    game.hero_at[client.creature] = to
    return soulweaver, {"type": "place", "creature": client.creature, "to": list(to)}, "place hero"


INTERVAL = [1.0]
"""Seconds between two commands of one client (`--interval`)."""


async def act(
    game: Game, client: Client, start: float, stop: float, rng: random.Random, period: float | None = None
) -> list[Sent]:
    """The client's commands, one every `period` seconds (`INTERVAL` unless given) from a random moment in the first
    period; returns them (they are in `game.sent` too)."""
    period = INTERVAL[0] if period is None else period
    mine: list[Sent] = []
    tick = start + rng.random() * period
    while tick < stop:
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        via, command, kind = choose(game, client, rng)
        t0, answer = await send(via, command)
        sent = Sent(game.id, client.index, kind, t0, acked=time.perf_counter())
        game.sent.append(sent)
        mine.append(sent)
        if answer is not None:
            sent.ok, sent.seq, sent.error = bool(answer["ok"]), answer["seq"], answer["error"]
        tick += period
    return mine


class _Turns:
    """Tells a game's clients whose turn it is, as their broadcasts would."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def table_changed(self, change: Change) -> None:
        for client in self.game.clients:
            client.turn = change.after.turn.current


async def in_process(url: str, folder: Path, games: list[Game], seconds: float, seed: int) -> None:
    """The same load straight into `Table.submit` in this process: no API, no websocket, the same database."""
    registry = Games(open_engine(url), folder)
    soulweaver = Viewer("soulweaver", "Soulweaver")
    writes: list[float] = []
    append = db.append_command

    def timed_append(*args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        append(*args, **kwargs)
        writes.append((time.perf_counter() - t0) * 1000)

    db.append_command = timed_append
    turns = []
    tables: dict[int, Table] = {}
    for game in games:
        tables[game.id] = table = registry.table(game.id)
        turns.append(_Turns(game))
        table.subscribe(turns[-1])
        for client in game.clients:
            client.turn = table.state.turn.current
    submits: list[float] = []
    refused: list[str] = []

    async def act_here(game: Game, client: Client, start: float, stop: float, rng: random.Random) -> None:
        tick = start + rng.random() * INTERVAL[0]
        while tick < stop:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            via, command, _ = choose(game, client, rng)
            viewer = soulweaver if via.index == 0 else Viewer("player", via.key)
            t0 = time.perf_counter()
            outcome = await tables[game.id].submit(viewer, command)
            submits.append((time.perf_counter() - t0) * 1000)
            if not outcome.ok:
                refused.append(str(outcome.error))
            tick += INTERVAL[0]

    rng = random.Random(seed)
    start = time.perf_counter() + 0.5
    await asyncio.gather(
        *(act_here(g, c, start, start + seconds, random.Random(rng.random())) for g in games for c in g.clients)
    )
    db.append_command = append
    registry.close()
    print(
        f"   Table.submit: p50 {statistics.median(submits):.1f} ms, p95 {pct(submits, 95):.1f} ms "
        f"({len(submits)} commands, {len(refused)} refused); of which the database write "
        f"(one thread per game): p50 {statistics.median(writes):.1f} ms, p95 {pct(writes, 95):.1f} ms"
    )


# ----------------------------------------------------------------------------------------------------------
# The server process
# ----------------------------------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


# ----------------------------------------------------------------------------------------------------------
# The run
# ----------------------------------------------------------------------------------------------------------


async def run(server: AppServer, games: list[Game], seconds: float, deflate: bool, seed: int) -> dict[str, Any]:
    assert server.process is not None
    pid = server.process.pid
    ws_url = server.url.replace("http://", "ws://")
    compression = "deflate" if deflate else None

    def url(client: Client) -> str:
        return f"{ws_url}/api/seat/{client.secret}/events"

    section("Warming up: every game's table loaded and its fight begun over the API")
    for game in games:
        sw = game.clients[0]
        async with connect(url(sw), compression=compression) as ws:
            json.loads(await ws.recv())
            await ws.send(json.dumps({"id": "begin", "command": {"type": "begin"}}))
            while (answer := json.loads(await ws.recv()))["kind"] != "outcome":
                pass
            if not answer["ok"]:
                raise RuntimeError(f"game {game.id}: begin refused: {answer['error']}")
    await asyncio.sleep(1.0)
    rss_before = rss_mb(pid)
    print(f"   server RSS with {len(games)} tables loaded, no client: {rss_before:.1f} MB")

    section(f"Connecting {sum(len(g.clients) for g in games)} clients")
    clients = [c for g in games for c in g.clients]
    t0 = time.perf_counter()
    sockets = await asyncio.gather(*(connect(url(c), compression=compression, max_size=None) for c in clients))
    for client, ws in zip(clients, sockets, strict=True):
        client.ws = ws
    receivers = [asyncio.create_task(receive(c)) for c in clients]
    await asyncio.gather(*(c.ready.wait() for c in clients))
    print(f"   connected and given the state in {time.perf_counter() - t0:.1f} s")
    await asyncio.sleep(2.0)
    rss_idle = rss_mb(pid)
    print(f"   server RSS with the clients connected, idle: {rss_idle:.1f} MB")

    section(f"Load: every client sends one command every {INTERVAL[0]:g} s for {seconds:.0f} s")
    cpu0 = cpu_s(pid)
    rng = random.Random(seed)
    start = time.perf_counter() + 0.5
    stop = start + seconds
    samples: list[float] = []

    async def sample() -> None:
        while time.perf_counter() < stop:
            await asyncio.sleep(1.0)
            samples.append(rss_mb(pid))

    actors = [
        asyncio.create_task(act(g, c, start, stop, random.Random(rng.random()))) for g in games for c in g.clients
    ]
    await asyncio.gather(sample(), *actors)
    await asyncio.sleep(DRAIN_S)
    cpu = cpu_s(pid) - cpu0
    rss_after = rss_mb(pid)
    for ws in sockets:
        await ws.close()
    for task in receivers:
        task.cancel()
    return {
        "rss_before": rss_before,
        "rss_idle": rss_idle,
        "rss_after": rss_after,
        "rss_peak": max([rss_idle, *samples]),
        "cpu": cpu,
        "clients": len(clients),
    }


def report(games: list[Game], figures: dict[str, Any], seconds: float) -> None:
    latencies: list[float] = []
    lost: list[Sent] = []
    refused: list[Sent] = []
    unanswered = 0
    by_kind: dict[str, list[float]] = {}
    for game in games:
        for s in game.sent:
            if s.ok is None:
                unanswered += 1
                continue
            if not s.ok or s.seq is None:
                refused.append(s)
                continue
            others = [c for c in game.clients if c.index != s.sender]
            times = [c.received.get(s.seq) for c in others]
            if any(t is None for t in times):
                lost.append(s)
                continue
            ms = (max(t for t in times if t is not None) - s.t0) * 1000
            latencies.append(ms)
            by_kind.setdefault(s.kind, []).append(ms)
    sent = sum(len(g.sent) for g in games)
    section("Results")
    print(f"   commands sent: {sent} ({sent / seconds:.0f}/s), acknowledged ok: {len(latencies) + len(lost)}")
    if latencies:
        print(
            f"   command -> last of the other 5 clients: p50 {statistics.median(latencies):.1f} ms, "
            f"p95 {pct(latencies, 95):.1f} ms, p99 {pct(latencies, 99):.1f} ms, max {max(latencies):.1f} ms"
        )
        for kind, values in sorted(by_kind.items()):
            print(
                f"      {kind:<11} {len(values):6d}×  p50 {statistics.median(values):6.1f} ms  "
                f"p95 {pct(values, 95):6.1f} ms"
            )
    n = figures["clients"]
    idle = (figures["rss_idle"] - figures["rss_before"]) / n
    after = (figures["rss_after"] - figures["rss_before"]) / n
    print(
        f"   server RSS: {figures['rss_before']:.1f} MB before the clients, {figures['rss_idle']:.1f} MB with "
        f"{n} idle, {figures['rss_after']:.1f} MB after the load (peak {figures['rss_peak']:.1f} MB)"
    )
    ok_commands = max(1, len(latencies) + len(lost))
    print(
        f"   server CPU during the load: {figures['cpu']:.1f} s ({figures['cpu'] / seconds * 100:.0f}% of a core), "
        f"{figures['cpu'] / ok_commands * 1000:.2f} ms per command"
    )
    if refused:
        print(f"!! {len(refused)} refused, e.g. {refused[0].kind}: {refused[0].error}")
    if unanswered:
        print(f"!! {unanswered} commands got no answer within {ANSWER_TIMEOUT_S:.0f} s")
    if CLOSED:
        print(f"!! the server closed {len(CLOSED)} clients' sockets during the run")

    section("Summary (targets)")
    p95 = pct(latencies, 95) if latencies else float("inf")
    print(
        f"   latency p50 {statistics.median(latencies) if latencies else float('nan'):.1f} ms, p95 {p95:.1f} ms"
        f"   target p95 ≤ {LATENCY_P95_TARGET_MS:.0f} ms: {verdict(p95 <= LATENCY_P95_TARGET_MS)}"
    )
    print(
        f"   server RSS per client: {idle * 1024:.0f} KB connected and idle   "
        f"target ≤ {RSS_PER_CLIENT_TARGET_MB:.0f} MB: {verdict(idle <= RSS_PER_CLIENT_TARGET_MB)}"
    )
    print(
        f"      after {ok_commands} commands: {after * 1024:.0f} KB per client "
        f"({verdict(after <= RSS_PER_CLIENT_TARGET_MB)}; includes the games' logs kept in memory)"
    )
    print(
        f"   commands lost: {len(lost)} (refused {len(refused)}, unanswered {unanswered})   "
        f"target 0: {verdict(not lost and not refused and not unanswered)}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games for {QUICK_SECONDS:.0f} s")
    ap.add_argument("--seconds", type=float, default=None, help=f"length of the load (default {SECONDS:.0f})")
    ap.add_argument("--games", type=int, default=None, help=f"games, 6 clients each (default {GAMES})")
    ap.add_argument(
        "--interval",
        type=float,
        default=1.0,
        help="seconds between two commands of one client (default 1: six commands a second per game)",
    )
    ap.add_argument("--no-deflate", action="store_true", help="clients do not offer permessage-deflate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-reference", action="store_true", help="skip the in-process Table.submit reference run")
    ap.add_argument(
        "--processes", type=int, default=None, help="N processes behind nginx on PostgreSQL vs one (bench/scale.py)"
    )
    args = ap.parse_args(argv)
    if args.processes is not None:
        from bench.scale import main as scale

        quick = ["--quick"] if args.quick else []
        return scale(["--processes", str(args.processes), "--seed", str(args.seed), *quick])
    seconds = args.seconds if args.seconds is not None else (QUICK_SECONDS if args.quick else SECONDS)
    n_games = args.games if args.games is not None else (QUICK_GAMES if args.quick else GAMES)
    started = time.perf_counter()
    INTERVAL[0] = max(0.01, args.interval)
    print(
        f"bench/load.py: {n_games} games × {PLAYERS + 1} websocket clients, 1 command per client every "
        f"{INTERVAL[0]:g} s ({n_games * (PLAYERS + 1) / INTERVAL[0]:.0f} commands a second in all), "
        f"{seconds:.0f} s, permessage-deflate {'off' if args.no_deflate else 'on'}; "
        f"machine load average {load_average()} on {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory(prefix="vtt-load-") as tmp:
        folder = Path(tmp)
        encounter = make_encounter(folder)
        url = f"sqlite:///{folder}/load.sqlite"
        games = create_games(url, encounter, n_games)
        server = AppServer(
            module="vtt.cli",
            args=[
                "--host",
                "127.0.0.1",
                "--database",
                url,
                "--map",
                str(encounter.path),
                "--game",
                "Load 1",
                "--seed",
                str(args.seed),
            ],
            env={"VTT_STORAGE_SECRET": "bench-load"},
        )
        t0 = time.perf_counter()
        server.start()
        print(f"   the server listens after {time.perf_counter() - t0:.1f} s")
        try:
            figures = asyncio.run(run(server, games, seconds, not args.no_deflate, args.seed))
        finally:
            server.stop()
            out = server.output()
            if "Traceback" in out or "ERROR" in out:
                print(f"!! the server logged errors:\n{textwrap.indent(out[-3000:], '   ')}")
        report(games, figures, seconds)
        if not args.no_reference:
            section(f"Reference: the same load without the API, into Table.submit in this process ({seconds:.0f} s)")
            asyncio.run(in_process(url, folder, games, seconds, args.seed + 1))
    print(f"   total run time {time.perf_counter() - started:.0f} s; machine load average now {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
