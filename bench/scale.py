"""Scale-out benchmark: the seat API's load through nginx against 1 and N `vtt` processes on one PostgreSQL.

Run it from the repository root::

    .venv/bin/python bench/scale.py                  # 1 process, then 2; 10 games; rates 1, 2, 4-14, 16 per client
    .venv/bin/python bench/scale.py --processes 3    # 1 process, then 3
    .venv/bin/python bench/scale.py --quick          # 4 games, shorter steps (a smoke run)
    .venv/bin/python bench/scale.py --by-connection  # each websocket routed on its own, as before games were
    .venv/bin/python bench/scale.py --load-cpu 1     # the load generator's processes confined to CPU 1
    .venv/bin/python bench/scale.py --load-processes 1   # the load generator in one process (2 by default)
    .venv/bin/python bench/scale.py --quick --trace /tmp/trace   # where each step's time goes, leg by leg
    .venv/bin/python bench/scale.py --only 1 --quick --profile /tmp/prof   # one side, servers and load under cProfile

(`bench/load.py --processes N` runs this.) It needs PostgreSQL (`VTT_TEST_POSTGRES_URL`, or Debian's binaries for
a throw-away cluster, as the tests: `e2e/pg_server.py`) and nginx (Debian's package). It PRINTS figures and never
asserts (it is not a test).

For each number of processes (1, then N), in the same run: a fresh database holding the same games (the encounter
of `bench/load.py`: 6 websocket clients a game, the Soulweaver and 5 players), N servers started on it, and nginx
with the project's own `deploy/nginx-vtt.conf` in front (`e2e/nginx_proxy.py`). Every client connects through
nginx to `/api/game/<game>/seat/<secret>/events`, which nginx routes by the game: the clients of a game on one
process, the games spread over the processes (the games played are picked among three times as many so that
nginx's hash spreads them evenly: `balanced`; `--by-connection`: to `/api/seat/<secret>/events`, each websocket
with its own route cookie, so that the clients of one game are spread over the processes). Then steps of load,
`STEP_SECONDS` each: every client sends one command every 1/r seconds (the commands of `bench/load.py`), for r in
`RATES`. The load generator runs in processes of its own (`--load-processes`, 2 by default), each with its share
of the games (a game's clients in one, so its latencies are on one clock), their figures merged step by step: one
process receiving every message queued them up and counted its own queueing as latency. Its clients are
`bench/lean_socket.py`'s, which read each message in the loop's call that read its bytes (`--library-client`: the
`websockets` library's, which cost about half as much again a command, on the cores the servers share).

Figures per step: the commands acknowledged per second; command → last of the other 5 clients of its game, p50 and
p95; and, for each receiving client, whether it is on the process that played the command or on another (which
hears it through PostgreSQL NOTIFY and replays it): the p95 of each, and their difference, the latency a change
adds by crossing processes. And the processor time the `vtt` processes spent, all together, per command
acknowledged (from /proc): what the machine pays for a command, which the same load on more processes should not
raise much (each process replays only the commands of the games its clients are at); within it, the event loop's
thread and the others (database writes, the listening thread). Beside it, from /proc too, the time PostgreSQL
(the cluster's processes), nginx and this load generator (which is not the system under test) spent, and what
the rest of the machine did meanwhile (other programs: on a busy machine the figures say little), as cores kept
busy and as ms a command (the load generator's from its processes' own accounts). It is made cheap: uvloop when
installed, and a change message is read only as far as its `seq` unless it may name whose turn it is.

A command is lost when, acknowledged ok, some other client of its game never had it: after a step's drain
(`DRAIN_S`) its load process waits up to `STRAGGLERS_S` more for the changes still on their way, counts those that
come as late (the drain cut them off: their latency counts, whole) and names each one that never comes (its game,
place in the log, and the clients without it; a socket the server closed is said too).

Throughput at p95 ≤ 100 ms: the most commands per second of a step whose p95 stayed within 100 ms. Target on a
2-core machine: N processes (2) ≥ 1.6× one. On one small machine the processes, PostgreSQL, nginx and this
load generator share the same cores, so the ratio shows the cost of the shared log as much as the gain: one
process is bound by its one core, two by the machine, so with c the servers' ms a command and r the rest's
(PostgreSQL, nginx, load generator) the ratio is at most about 2c / (c + r), and 1.6 needs r ≤ c / 4. Each side
and the summary print that budget from the processor time its steps took a command (`Budget`): at most n / loop
commands a second (each process's event loop on one core) and cores / (c + r), and the ratio it allows beside the
measured one (and the same without the load generator, whose clients would be elsewhere in a real deployment).

`--trace DIR`: each server writes its `VTT_LATENCY_TRACE` (`vtt.table.latency_trace`) to DIR, and after each side
the commands' legs are printed step by step (p50 / p95): sent → the server has it (the load generator's loop,
nginx, the server's loop), waiting behind the game's earlier commands (its lock), the rules, applied → committed
(PostgreSQL, and the loop's turn to hear its answer), committed → messages queued, queued → the last receiver has
it (the sockets, nginx, the receiving loop), and sent → the answer at the sender.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import math
import multiprocessing
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import ForkProcess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `e2e` and `bench` are not installed packages

import httpx  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from bench.lean_socket import OnText  # noqa: E402
from bench.lean_socket import connect as lean_connect  # noqa: E402
from bench.load import (  # noqa: E402
    CLOSED,
    PLAYERS,
    Client,
    Encounter,
    Game,
    Sent,
    Socket,
    act,
    create_games,
    load_average,
    make_encounter,
    pct,
    section,
    take,
)
from e2e.conftest import AppServer  # noqa: E402
from e2e.nginx_proxy import UPSTREAM_HEADER, NginxProxy, nginx_binary  # noqa: E402
from e2e.pg_server import PostgresDatabases, available, postgres_server  # noqa: E402
from vtt.store.change_feed import COUNTS_ENV  # noqa: E402

P95_TARGET_MS = 100.0
RATIO_TARGET = 1.6
RATES = (1.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 16.0)
"""Commands a second a client: from 4 on in steps of one (60 commands a second with 10 games), near where one process
passes 100 ms on a 2-core machine, so that the ratio is not rounded to a doubling; on to 16 (960 a second), so that
two processes can show more than 1.6 times one (up to 8, the most they could show was 480 a second: 1.33 times the
360 of one process)."""
LOAD_PROCESSES = 2
"""Processes the load generator runs in (`--load-processes`), each with its share of the games."""
STEP_SECONDS, QUICK_STEP_SECONDS = 10.0, 4.0
GAMES, QUICK_GAMES = 10, 4
DRAIN_S = 2.0
STRAGGLERS_S = 15.0
"""After a step's drain, how long its load process waits more for the changes some receiver has not got yet (each
looked for every `STRAGGLER_POLL_S`): one that comes is late (the drain cut it off), one that never does is lost."""
STRAGGLER_POLL_S = 0.02
TRACE: list[Path | None] = [None]
"""The folder of the servers' traces (`--trace`): each server's `VTT_LATENCY_TRACE` file, read after the run."""
DEFLATE = [True]
LEAN = [True]
"""Whether the load's clients are `bench.lean_socket`'s (else the `websockets` client's, `--library-client`)."""
"""Whether the clients offer permessage-deflate, as browsers and the `websockets` client do (`--no-deflate`)."""


@dataclass
class Step:
    rate: float
    sent: int
    ok: int
    lost: int
    refused: int
    unanswered: int
    latencies: list[float]
    same: list[float]
    crossing: list[float]
    seconds: float
    cpu: dict[str, float] = field(default_factory=dict)
    """Processor seconds during the step (and its drain): of the `vtt` processes, PostgreSQL, nginx, this load
    generator and the whole machine (`Parts.sample`)."""
    wall: float = 0.0
    """Seconds from the step's start to the end of its drain."""
    commands: list[Timed] = field(default_factory=list)
    late: int = 0
    """Commands some receiver got only after the step's drain (counted in `ok`, with their whole latency)."""
    closed: int = 0
    """Clients whose socket the server closed during the step."""
    missing: list[str] = field(default_factory=list)
    """What each lost command was and which receivers never got it."""

    @property
    def per_second(self) -> float:
        return self.ok / self.seconds

    def ms_per_command(self, part: str) -> float:
        return 1000 * self.cpu.get(part, float("nan")) / self.ok if self.ok else float("nan")

    @property
    def cpu_ms_per_command(self) -> float:
        return self.ms_per_command("vtt")

    def cores(self, part: str) -> float:
        """How many cores `part` kept busy on average during the step."""
        return self.cpu.get(part, float("nan")) / self.wall if self.wall else float("nan")

    @property
    def p95(self) -> float:
        return pct(self.latencies, 95) if self.latencies else float("inf")


def _stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (the 3rd field of the line is the first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pids: list[int], waited: bool = False) -> float:
    """User and system processor time of these processes so far (/proc/<pid>/stat); with `waited`, also that of
    their children that ended (PostgreSQL's backends of closed connections). A process gone counts nothing."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = _stat(pid)
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: the 14th and 15th fields of the line
        if waited:
            total += int(fields[13]) + int(fields[14])  # cutime, cstime
    return total / ticks


def family(root: int) -> list[int]:
    """`root` and every process below it (nginx's workers, PostgreSQL's backends)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except OSError:
                continue
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def postmaster_of(url: str) -> int | None:
    """The PostgreSQL server's main process, for a throw-away cluster of `e2e.pg_server` (None for another)."""
    host = re.search(r"[?&]host=([^&]+)", url)
    pid_file = Path(host.group(1)).parent / "data" / "postmaster.pid" if host else None
    try:
        return int(pid_file.read_text().split()[0]) if pid_file else None
    except (OSError, ValueError):
        return None


PG_SESSION = re.compile(rb"^postgres: \S+ \S+ (\[local\]|\S+\(\d+\))")
"""The title of a PostgreSQL backend serving a client (`postgres: <user> <database> [local] idle`), as against its
background processes (WAL writer, checkpointer, autovacuum...)."""


def pg_sessions(postmaster: int) -> list[int]:
    """The PostgreSQL server's processes that serve a client's connection (the `vtt` servers' appenders, listeners
    and pool, this bench's)."""
    found = []
    for pid in family(postmaster):
        try:
            if PG_SESSION.match(Path(f"/proc/{pid}/cmdline").read_bytes()):
                found.append(pid)
        except OSError:
            continue
    return found


def machine_busy_seconds() -> float:
    """Processor time the whole machine spent busy so far, all cores (/proc/stat: all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def thread_seconds(pids: list[int]) -> dict[str, float]:
    """The processor time so far of the `vtt` processes' event loops (their main threads) and of their other threads
    (database writers, the listening thread, `to_thread`'s pool: Python does not name them to the system). A thread
    that ended counts nothing."""
    ticks = os.sysconf("SC_CLK_TCK")
    groups = {"loop": 0, "threads": 0}
    for pid in pids:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            groups["loop" if task.name == str(pid) else "threads"] += int(fields[11]) + int(fields[12])
    return {k: v / ticks for k, v in groups.items()}


def own_cpu_seconds() -> float:
    """This load generator's processor time so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Parts:
    """The processes whose processor time a step shows apart: the `vtt` servers, PostgreSQL, nginx."""

    servers: list[int]
    postgres: int | None
    nginx: int | None

    def sample(self) -> dict[str, float]:
        """Processor seconds so far: `vtt`, PostgreSQL (and of it its sessions: the servers' connections), nginx,
        this load generator, and the whole machine."""
        postgres = cpu_seconds(family(self.postgres), waited=True) if self.postgres else float("nan")
        sessions = cpu_seconds(pg_sessions(self.postgres)) if self.postgres else float("nan")
        nginx = cpu_seconds(family(self.nginx), waited=True) if self.nginx else float("nan")
        return {
            **thread_seconds(self.servers),
            "vtt": cpu_seconds(self.servers),
            "postgres": postgres,
            "postgres sessions": sessions,
            "nginx": nginx,
            "load": own_cpu_seconds(),
            "machine": machine_busy_seconds(),
        }


def _via(game: Game, sent: Sent) -> Client:
    """The client whose socket carried the command (`bench.load.choose`: a player's place goes through the
    Soulweaver's socket, an end of turn through the sender's own)."""
    return game.clients[sent.sender] if sent.kind == "end_turn" else game.clients[0]


def measure(
    games: list[Game], sent: list[tuple[Game, Sent]], upstream: dict[int, str], step: Step, cut: float = math.inf
) -> None:
    """Count the step's commands into `step`; one whose last receiver had it after `cut` (the end of the drain) is
    also counted late."""
    for game, s in sent:
        if s.ok is None:
            step.unanswered += 1
            continue
        if not s.ok or s.seq is None:
            step.refused += 1
            continue
        others = [c for c in game.clients if c.index != s.sender]
        times = [c.received.get(s.seq) for c in others]
        if any(t is None for t in times):
            step.lost += 1
            absent = [c for c, t in zip(others, times, strict=True) if t is None]
            step.missing.append(
                f"game {game.id} seq {s.seq} ({s.kind} of client {s.sender}): not at client "
                + ", ".join(
                    f"{c.index}{' (socket closed)' if (c.game, c.index) in CLOSED_CLIENTS else ''}" for c in absent
                )
            )
            continue
        step.ok += 1
        last = max(t for t in times if t is not None)
        step.late += last > cut
        step.latencies.append((last - s.t0) * 1000)
        played_on = upstream[id(_via(game, s))]
        for c, t in zip(others, times, strict=True):
            assert t is not None
            (step.same if upstream[id(c)] == played_on else step.crossing).append((t - s.t0) * 1000)


CHANGE_SEQ = re.compile(r'\{"kind": ?"change", ?"seq": ?(\d+)[,}]')
"""The start of a change message as the server writes it: its place in the log is all the load needs of most."""


async def receive(client: Client) -> None:
    """`bench.load.receive`, reading no more of a message than the load needs: a change's `seq` from its first
    bytes; the whole message only when it may say whose turn it is, or is something else. The load generator is
    not the system under test: decoding each of the ~7 messages a command makes cost it as much as a server."""
    assert isinstance(client.ws, ClientConnection)
    try:
        await _receive(client, client.ws)
    except ConnectionClosed:
        closed(client)


def closed(client: Client) -> None:
    CLOSED.append(client.key)
    CLOSED_CLIENTS.add((client.game, client.index))


CHANGE_SEQ_BYTES = re.compile(CHANGE_SEQ.pattern.encode())


def lean_receiver(client: Client) -> OnText:
    """`_receive` for a `bench.lean_socket` connection: called with each message as it is read."""
    received = client.received

    def on_text(data: bytes, now: float) -> None:
        found = CHANGE_SEQ_BYTES.match(data)
        if found is not None:
            received[int(found.group(1))] = now
            if b'"turn"' not in data:
                return
        take(client, json.loads(data))

    return on_text


CLOSED_CLIENTS: set[tuple[int, int]] = set()
"""The clients (game, index) whose socket the server closed (`bench.load.CLOSED` has only their seat keys)."""


def missing(games: list[Game], sent: list[tuple[Game, Sent]]) -> int:
    """Commands acknowledged ok that some other client of their game has not got (yet)."""
    by_id = {g.id: g for g in games}
    return sum(
        1
        for game, s in sent
        if s.ok and s.seq is not None
        and any(s.seq not in c.received for c in by_id[game.id].clients if c.index != s.sender)
    )  # fmt: skip


async def stragglers(games: list[Game], sent: list[tuple[Game, Sent]], seconds: float) -> None:
    """Wait, at most `seconds`, until every command acknowledged ok has reached every other client of its game."""
    deadline = time.perf_counter() + seconds
    while missing(games, sent) and time.perf_counter() < deadline:
        await asyncio.sleep(STRAGGLER_POLL_S)


async def _receive(client: Client, ws: ClientConnection) -> None:
    async for text in ws:
        now = time.perf_counter()
        assert isinstance(text, str)
        found = CHANGE_SEQ.match(text)
        if found is not None:
            client.received[int(found.group(1))] = now
            if '"turn"' not in text:
                continue
        take(client, json.loads(text))


@dataclass(frozen=True)
class Timed:
    """A command's moments as the load generator saw them, in seconds since the epoch (the servers' trace's clock):
    sent, its answer at the sender, the last of the other clients of its game having the change."""

    game: int
    seq: int
    sent: float
    acked: float
    last: float


def timed(games: list[Game], pairs: list[tuple[Game, Sent]]) -> list[Timed]:
    epoch = time.time() - time.perf_counter()
    found: list[Timed] = []
    for game, s in pairs:
        if not s.ok or s.seq is None or s.acked is None:
            continue
        times = [c.received.get(s.seq) for c in game.clients if c.index != s.sender]
        if all(t is not None for t in times):
            last = max(t for t in times if t is not None)
            found.append(Timed(game.id, s.seq, s.t0 + epoch, s.acked + epoch, last + epoch))
    return found


@dataclass(frozen=True)
class Part:
    """What one load process measured of a step: `Step`'s counts and latencies, and its own processor time."""

    sent: int
    ok: int
    lost: int
    refused: int
    unanswered: int
    latencies: list[float]
    same: list[float]
    crossing: list[float]
    cpu: float
    commands: list[Timed] = field(default_factory=list)
    """Each command acknowledged and received by every other client (with `--trace`)."""
    late: int = 0
    closed: int = 0
    missing: list[str] = field(default_factory=list)
    waited: float = 0.0
    """Seconds it waited for stragglers after the drain (its processor time is counted up to the drain's end)."""


def client_url(ws_url: str, client: Client, by_connection: bool) -> str:
    if by_connection:
        return f"{ws_url}/api/seat/{client.secret}/events"
    return f"{ws_url}/api/game/{client.game}/seat/{client.secret}/events"


async def begin(ws_url: str, games: list[Game], by_connection: bool) -> None:
    """Begin each game's fight, over the Soulweaver's socket."""
    for game in games:
        async with connect(client_url(ws_url, game.clients[0], by_connection)) as ws:
            json.loads(await ws.recv())
            await ws.send(json.dumps({"id": "begin", "command": {"type": "begin"}}))
            while (answer := json.loads(await ws.recv()))["kind"] != "outcome":
                pass
            if not answer["ok"]:
                raise RuntimeError(f"game {game.id}: begin refused: {answer['error']}")


def client_rng(seed: int, rate: float, client: Client) -> random.Random:
    """A client's own draws for a step: the same whichever load process runs it."""
    return random.Random(f"{seed} {rate} {client.game} {client.index}")


async def drive(conn: Connection, ws_url: str, games: list[Game], seed: int, by_connection: bool) -> None:
    """One load process: connect its games' clients, then play each step the parent asks for (`step`, its rate and
    when it starts on the machine's monotonic clock), answering with a `Part`, until told to stop."""
    clients = [c for g in games for c in g.clients]
    urls = [client_url(ws_url, c, by_connection) for c in clients]
    upstream: dict[int, str] = {}
    receivers: list[asyncio.Task[None]] = []
    sockets: list[Socket]
    if LEAN[0]:
        lean = await asyncio.gather(
            *(
                lean_connect(u, lean_receiver(c), partial(closed, c), DEFLATE[0])
                for c, u in zip(clients, urls, strict=True)
            )
        )
        for client, socket in zip(clients, lean, strict=True):
            client.ws = socket
            upstream[id(client)] = socket.headers.get(UPSTREAM_HEADER.lower(), "?")
        sockets = list(lean)
    else:
        compression = "deflate" if DEFLATE[0] else None
        library = await asyncio.gather(*(connect(u, max_size=None, compression=compression) for u in urls))
        for client, ws in zip(clients, library, strict=True):
            client.ws = ws
            assert ws.response is not None
            upstream[id(client)] = ws.response.headers.get(UPSTREAM_HEADER, "?")
        receivers = [asyncio.create_task(receive(c)) for c in clients]
        sockets = list(library)
    await asyncio.gather(*(c.ready.wait() for c in clients))
    conn.send([(c.game, upstream[id(c)]) for c in clients])
    try:
        while (order := await asyncio.to_thread(conn.recv))[0] == "step":
            _, rate, starts_at, step_seconds = order
            start = time.perf_counter() + (starts_at - time.monotonic())
            cpu0 = own_cpu_seconds()
            everyone = [(g, c) for g in games for c in g.clients]
            done = await asyncio.gather(
                *(act(g, c, start, start + step_seconds, client_rng(seed, rate, c), 1.0 / rate) for g, c in everyone)
            )
            await asyncio.sleep(max(0.0, start + step_seconds + DRAIN_S - time.perf_counter()))
            pairs = [(g, s) for (g, _), mine in zip(everyone, done, strict=True) for s in mine]
            cut, cpu = time.perf_counter(), own_cpu_seconds() - cpu0
            closed_before = len(CLOSED_CLIENTS)
            await stragglers(games, pairs, STRAGGLERS_S)
            step = Step(rate, len(pairs), 0, 0, 0, 0, [], [], [], step_seconds)
            measure(games, pairs, upstream, step, cut)
            conn.send(
                Part(step.sent, step.ok, step.lost, step.refused, step.unanswered, step.latencies, step.same,
                     step.crossing, cpu, timed(games, pairs) if TRACE[0] else [], step.late,
                     len(CLOSED_CLIENTS) - closed_before, step.missing, time.perf_counter() - cut)
            )  # fmt: skip
    finally:
        for each in sockets:
            await each.close()
        for task in receivers:
            task.cancel()


def load_process(
    conn: Connection, ws_url: str, games: list[Game], seed: int, by_connection: bool, profile: Path | None = None
) -> None:
    """A load process's main (started by fork: it has its share of the games already); with `profile`, under
    cProfile on its thread's processor time, the figures written there."""
    profiler = cProfile.Profile(time.thread_time) if profile is not None else None
    try:
        if profiler is not None:
            profiler.enable()
        run(drive(conn, ws_url, games, seed, by_connection))
    finally:
        if profiler is not None and profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        conn.close()


def shares(games: list[Game], n: int) -> list[list[Game]]:
    """The games dealt over `n` load processes (each game's clients all in one, its latency on one clock)."""
    return [part for part in (games[i::n] for i in range(n)) if part]


def load(
    proxy: NginxProxy,
    parts: Parts,
    games: list[Game],
    step_seconds: float,
    seed: int,
    by_connection: bool = False,
    load_processes: int = 2,
    load_cpu: int | None = None,
    profile: Path | None = None,
) -> list[Step]:
    """The load's steps, played by `load_processes` processes of their own (the load generator is not the system
    under test: one process's event loop receiving every message queued them up and showed that as latency), each
    with its share of the games; their figures merged step by step. This process only samples processor time. With
    `profile` (a file name's start), each load process is profiled to `<profile>-<i>.prof`."""
    ws_url = proxy.url.replace("http://", "ws://")
    run(begin(ws_url, games, by_connection))
    context = multiprocessing.get_context("fork")
    pipes: list[Connection] = []
    workers: list[ForkProcess] = []
    try:
        for i, share in enumerate(shares(games, load_processes), 1):
            mine, theirs = context.Pipe()
            out = None if profile is None else profile.with_name(f"{profile.name}-{i}.prof")
            worker = context.Process(target=load_process, args=(theirs, ws_url, share, seed, by_connection, out))
            worker.start()
            theirs.close()
            if load_cpu is not None:
                os.sched_setaffinity(worker.pid or 0, {load_cpu})
            pipes.append(mine)
            workers.append(worker)
        connected = [pair for pipe in pipes for pair in pipe.recv()]
        spread = sorted({u for _, u in connected})
        games_on = [len({g for g, on in connected if on == u}) for u in spread]
        print(
            f"   {len(connected)} clients connected through nginx to {len(spread)} processes "
            f"(games with clients on each: {', '.join(map(str, games_on))}), driven by {len(workers)} load processes"
        )
        return list(steps(pipes, parts, step_seconds))
    finally:
        for pipe in pipes:
            with contextlib.suppress(OSError):
                pipe.send(("stop",))
        for worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
                worker.join()


def steps(pipes: list[Connection], parts: Parts, step_seconds: float) -> Iterator[Step]:
    for rate in RATES:
        starts_at = time.monotonic() + 0.5
        for pipe in pipes:
            pipe.send(("step", rate, starts_at, step_seconds))
        before = parts.sample()
        began = time.perf_counter()
        got: list[Part] = [pipe.recv() for pipe in pipes]
        after = parts.sample()
        cpu = {k: after[k] - before[k] for k in after}
        cpu["load"] = sum(p.cpu for p in got)
        wall = time.perf_counter() - began - max(p.waited for p in got)
        step = Step(rate, 0, 0, 0, 0, 0, [], [], [], step_seconds, cpu, wall)
        for p in got:
            step.sent += p.sent
            step.ok += p.ok
            step.lost += p.lost
            step.late += p.late
            step.closed += p.closed
            step.missing += p.missing
            step.refused += p.refused
            step.unanswered += p.unanswered
            step.latencies += p.latencies
            step.same += p.same
            step.crossing += p.crossing
            step.commands += p.commands
        crossing = f"{pct(step.crossing, 95):7.1f}" if step.crossing else "      -"
        print(
            f"   {rate:4g}/s a client: {step.per_second:6.0f} commands/s ok, p50 "
            f"{statistics.median(step.latencies) if step.latencies else float('nan'):6.1f} ms, p95 "
            f"{step.p95:7.1f} ms (receivers on the same process p95 {pct(step.same, 95) if step.same else 0:6.1f}, "
            f"on another {crossing}); lost {step.lost} (late {step.late}), refused {step.refused}, unanswered "
            f"{step.unanswered}; server processor time {step.cpu_ms_per_command:.2f} ms a command",
            flush=True,
        )
        if step.closed:
            print(f"!!      the servers closed {step.closed} clients' sockets during the step", flush=True)
        for what in step.missing[:5]:
            print(f"!!      lost (not there {STRAGGLERS_S:g} s after the drain): {what}", flush=True)
        print(f"        {cores_line(step)}", flush=True)
        yield step
        if step.p95 > 4 * P95_TARGET_MS:
            break  # far past the target: the next step only queues up more


def cores_line(step: Step) -> str:
    """Where the machine's processor time went during the step: cores kept busy, and ms a command."""
    names = (("vtt", "vtt processes"), ("postgres", "PostgreSQL"), ("nginx", "nginx"), ("load", "load generator"))
    shown = [f"{label} {step.cores(k):.2f} ({step.ms_per_command(k):.2f} ms)" for k, label in names]
    known = sum(step.cpu.get(k, 0.0) for k, _ in names if step.cpu.get(k) == step.cpu.get(k))
    rest = (step.cpu.get("machine", 0.0) - known) / step.wall if step.wall else float("nan")
    threads = ", ".join(
        f"{label} {step.ms_per_command(k):.2f}"
        for k, label in (("loop", "event loop"), ("threads", "other threads (database writes, listening)"))
    )
    return (
        f"cores busy (ms a command): {', '.join(shown)}; anything else on the machine {rest:.2f}; "
        f"all {step.cores('machine'):.2f} of {os.cpu_count()}\n        vtt's ms a command by thread: {threads}; "
        f"PostgreSQL's sessions {step.ms_per_command('postgres sessions'):.2f} (its background processes the rest)"
    )


@contextmanager
def processes(
    url: str, encounter: Encounter, n: int, seed: int, profile: Path | None = None, counts: Path | None = None
) -> Iterator[tuple[NginxProxy, Parts]]:
    """`n` servers on the database at `url` and nginx before them; with `profile`, each server under cProfile
    (`bench/profiled_server.py`), its figures written to `profile/server-<n>-<i>.prof` when it stops; with `counts`,
    each writes what it heard from the others there when it stops (`counts_file`)."""
    with ExitStack() as stack:
        servers: list[AppServer] = []
        for i in range(n):
            args = ["--host", "127.0.0.1", "--database", url, "--map", str(encounter.path), "--game", "Load 1"]
            env = {"VTT_STORAGE_SECRET": "bench-scale"}
            module = "vtt.cli"
            if profile is not None:
                module = "bench.profiled_server"
                env["VTT_PROFILE_OUT"] = str(profile / f"server-{n}-{i + 1}.prof")
            if TRACE[0] is not None:
                env[TRACE_ENV] = str(trace_file(TRACE[0], n, i))
            if counts is not None:
                env[COUNTS_ENV] = str(counts_file(counts, n, i))
            server = AppServer(module=module, args=[*args, "--seed", str(seed + i)], env=env)
            stack.callback(server.stop)
            servers.append(server.start())
        pids = [s.process.pid for s in servers if s.process is not None]
        proxy = stack.enter_context(NginxProxy([s.port for s in servers]))
        nginx = proxy.process.pid if proxy.process is not None else None
        yield proxy, Parts(pids, postmaster_of(url), nginx)
        for server in servers:
            out = server.output()
            if "Traceback" in out:
                print(f"!! process on port {server.port} logged an exception:\n{out[-2000:]}")


TRACE_ENV = "VTT_LATENCY_TRACE"
LEGS = (
    ("sent → server has it", "sent", "received"),
    ("waits for the game's earlier commands", "received", "locked"),
    ("rules", "locked", "applied"),
    ("applied → committed", "applied", "stored"),
    ("committed → messages queued", "stored", "queued"),
    ("queued → last receiver has it", "queued", "last"),
    ("sent → answer at the sender", "sent", "acked"),
    ("committed → heard by another process", "stored", "heard elsewhere"),
    ("heard → queued there", "heard elsewhere", "queued elsewhere"),
)
"""The legs of a command's way (`--trace`): the load generator's moments (`Timed`) and the server's trace marks
(`vtt.table.latency_trace`: `api command` with when it was `received`, `locked`, `applied`, `stored`, `queued`)."""


def trace_file(folder: Path, n: int, i: int) -> Path:
    return folder / f"trace-{n}-{i + 1}.jsonl"


def counts_file(folder: Path, n: int, i: int) -> Path:
    return folder / f"feed-{n}-{i + 1}.json"


def print_counts(files: list[Path], steps: list[Step]) -> None:
    """What each process did for the commands the others stored (`vtt.store.change_feed`'s counts, for the whole
    run: the load's steps and their start): messages heard on the channel, dropped in the listening thread as its
    own or of a game it does not hold, handed to its event loop (and in how many calls), and the reads of the log
    (loading a game, catching up), with the commands they read."""
    played = sum(s.ok for s in steps) or 1
    for i, path in enumerate(files, 1):
        if not path.exists():
            print(f"   process {i}: no counts (it did not stop cleanly)")
            continue
        found = json.loads(path.read_text())
        feed, reads = found["feed"], found["log reads"]
        handed = ", ".join(f"{k.split()[1]} {v}" for k, v in sorted(feed.items()) if k.startswith("handed "))
        print(
            f"   process {i}: heard {feed.get('heard', 0)} messages ({feed.get('heard', 0) / played:.2f} a command "
            f"acknowledged): its own {feed.get('own', 0)}, of games it does not hold {feed.get('not held', 0)}, "
            f"handed to the loop {feed.get('handed', 0)} ({handed or 'none'}) in {feed.get('calls', 0)} calls; "
            f"the log read {reads.get('reads', 0)} times ({reads.get('rows', 0)} commands: loaded games' and "
            "those folded in from the others)"
        )


def server_moments(files: list[Path]) -> dict[tuple[int, int], dict[str, float]]:
    """(game, seq) → the last time of each mark of that command in the servers' traces: those of the process that
    played it, and those of the others (`heard` through PostgreSQL, then `queued` for their clients) as
    "… elsewhere"."""
    found: list[dict[tuple[int, int], dict[str, float]]] = []
    for path in files:
        mine: dict[tuple[int, int], dict[str, float]] = {}
        found.append(mine)
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            mark = json.loads(line)
            if mark.get("game") is None or mark.get("seq") is None:
                continue
            at = mine.setdefault((int(mark["game"]), int(mark["seq"])), {})
            if mark["what"] == "api command":
                at["received"] = float(mark["received"])
            else:
                at[str(mark["what"])] = float(mark["t"])
    moments: dict[tuple[int, int], dict[str, float]] = {}
    for mine in found:
        for key, at in mine.items():
            both = moments.setdefault(key, {})
            if "stored" in at:
                both.update(at)
            else:
                both.update({f"{what} elsewhere": t for what, t in at.items()})
    return moments


def print_gc(files: list[Path]) -> None:
    """The garbage collector's pauses each server's trace noted during the load (from its first command on; those
    of 0.5 ms or more: they stop the loop; a busy machine preempting the collection lengthens them)."""
    for i, path in enumerate(files, 1):
        marks = [json.loads(line) for line in (path.read_text().splitlines() if path.exists() else [])]
        first = min((m["t"] for m in marks if m["what"] == "api command"), default=float("inf"))
        pauses = [float(m["ms"]) for m in marks if m["what"] == "gc" and m["t"] >= first]
        if pauses:
            print(
                f"   process {i}: {len(pauses)} {'pause' if len(pauses) == 1 else 'pauses'} of the garbage collector "
                f"≥ 0.5 ms during the load, "
                f"{sum(pauses):.0f} ms in all, "
                f"p95 {pct(pauses, 95):.1f} ms, longest {max(pauses):.1f} ms"
            )
        else:
            print(f"   process {i}: no pause of the garbage collector ≥ 0.5 ms during the load")


def print_legs(steps: list[Step], files: list[Path]) -> None:
    """Where each step's time went, leg by leg: p50 / p95 in ms of the commands found in the servers' traces."""
    moments = server_moments(files)
    for step in steps:
        legs: dict[str, list[float]] = {name: [] for name, _, _ in LEGS}
        for command in step.commands:
            at = {**moments.get((command.game, command.seq), {}), "sent": command.sent, "acked": command.acked}
            at["last"] = command.last
            for name, start, end in LEGS:
                if start in at and end in at:
                    legs[name].append((at[end] - at[start]) * 1000)
        shown = [f"{name} {statistics.median(v):.1f} / {pct(v, 95):.1f}" for name, v in legs.items() if v]
        print(f"   {step.rate:4g}/s a client (p50 / p95 ms): {'; '.join(shown) or 'no trace'}")


SPARE_GAMES = 3
"""Games made for each one played: `balanced` picks among them."""


def balanced(proxy: NginxProxy, games: list[Game], n: int) -> list[Game]:
    """`n` of `games` that nginx's hash on the game spreads as evenly as it can over the processes (asked of nginx:
    the process that answers each game's request). With few games the first ones may fall unevenly (4 games fell 3
    and 1 on two processes: then two processes could carry at most 4/3 of one), and the figure would measure the
    hash's luck instead of what the processes carry. Routing by game evens out over the many games of a real
    server."""
    by_upstream: dict[str, list[Game]] = {}
    for game in games:
        secret = game.clients[0].secret
        answer = httpx.get(f"{proxy.url}/api/game/{game.id}/seat/{secret}/state", timeout=30)
        answer.raise_for_status()
        by_upstream.setdefault(answer.headers.get(UPSTREAM_HEADER, "?"), []).append(game)
    queues = list(by_upstream.values())
    chosen: list[Game] = []
    while len(chosen) < n and any(queues):
        for queue in queues:
            if queue and len(chosen) < n:
                chosen.append(queue.pop(0))
    return sorted(chosen, key=lambda g: g.id)


def run(work: Coroutine[Any, Any, None]) -> None:
    """Run the load on uvloop when it is installed (a cheaper event loop for the load generator)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


@dataclass(frozen=True)
class Budget:
    """What the machine's processors allow one setup (`n` processes), from the processor time its steps took a
    command (ms, all steps together): the servers' (`vtt`, of which `loop` on their event loops' threads), and the
    rest's, which shares the same cores (PostgreSQL, nginx, the load generator)."""

    n: int
    vtt: float
    loop: float
    postgres: float
    nginx: float
    load: float

    @classmethod
    def of(cls, n: int, steps: list[Step]) -> Budget:
        ok = sum(s.ok for s in steps)

        def ms(part: str) -> float:
            return 1000 * sum(s.cpu.get(part, 0.0) for s in steps) / ok if ok else math.nan

        return cls(n, ms("vtt"), ms("loop"), ms("postgres"), ms("nginx"), ms("load"))

    def most(self, cores: int, with_load: bool = True) -> float:
        """Commands a second at most: each process's event loop on one core at most (the games spread evenly over
        the `n` processes), and everything together on `cores`."""
        rest = self.postgres + self.nginx + (self.load if with_load else 0.0)
        return min(self.n * 1000 / self.loop, cores * 1000 / (self.vtt + rest))

    def line(self, cores: int) -> str:
        bound = "event loop" if self.n * 1000 / self.loop <= self.most(cores) else "cores"
        return (
            f"{self.n} process{'es' if self.n > 1 else ''}: vtt {self.vtt:.2f} (event loop {self.loop:.2f}), "
            f"PostgreSQL {self.postgres:.2f}, nginx {self.nginx:.2f}, load generator {self.load:.2f} ms a command "
            f"(r = {self.postgres + self.nginx + self.load:.2f}): at most {self.most(cores):.0f} commands/s on "
            f"{cores} cores (bound by the {bound}; {self.most(cores, with_load=False):.0f} with the load generator "
            "on another machine)"
        )


def throughput(steps: list[Step]) -> float:
    within = [s.per_second for s in steps if s.p95 <= P95_TARGET_MS and not s.lost]
    return max(within, default=0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processes", type=int, default=2, help="the number of processes compared with one")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games, {QUICK_STEP_SECONDS:.0f} s steps")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-deflate", action="store_true", help="the clients do not offer permessage-deflate")
    ap.add_argument(
        "--library-client",
        action="store_true",
        help="the load's clients are the `websockets` library's (by default `bench/lean_socket.py`'s, cheaper)",
    )
    ap.add_argument(
        "--load-cpu",
        type=int,
        default=None,
        metavar="N",
        help="confine the load generator's processes to CPU N (os.sched_setaffinity); the servers, PostgreSQL and "
        "nginx keep every CPU",
    )
    ap.add_argument(
        "--load-processes",
        type=int,
        default=LOAD_PROCESSES,
        metavar="K",
        help=f"run the load generator in K processes, each with its share of the games (default {LOAD_PROCESSES})",
    )
    ap.add_argument(
        "--trace",
        type=Path,
        default=None,
        metavar="DIR",
        help="trace each server (VTT_LATENCY_TRACE, files in DIR) and print where each step's time went, leg by leg",
    )
    ap.add_argument("--only", type=int, default=None, help="run only this number of processes (no ratio)")
    ap.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="profile each server and each load process; their figures go to this folder",
    )
    ap.add_argument(
        "--by-connection", action="store_true", help="route each websocket on its own, not a game's clients together"
    )
    args = ap.parse_args(argv)
    if (why := available()) is not None or nginx_binary() is None:
        print(f"bench/scale.py needs PostgreSQL and nginx: {why or 'nginx is not installed'}")
        return 2
    DEFLATE[0] = not args.no_deflate
    LEAN[0] = not args.library_client
    TRACE[0] = args.trace
    if args.trace is not None:
        args.trace.mkdir(parents=True, exist_ok=True)
    n_games = args.games or (QUICK_GAMES if args.quick else GAMES)
    step_seconds = QUICK_STEP_SECONDS if args.quick else STEP_SECONDS
    print(
        f"bench/scale.py: {n_games} games × {PLAYERS + 1} clients through nginx, 1 vs {args.processes} processes on "
        f"one PostgreSQL; machine load average {load_average()} on {os.cpu_count()} CPUs"
    )
    print(
        f"   clients: {'bench/lean_socket.py' if LEAN[0] else 'the websockets library'}'s, permessage-deflate "
        f"{'on' if DEFLATE[0] else 'off'}; load generator "
        + f"in {max(1, args.load_processes)} processes "
        + (f"on CPU {args.load_cpu}" if args.load_cpu is not None else "on every CPU")
        + f"; servers' websockets: {os.environ.get('VTT_WEBSOCKETS') or 'websockets-sansio'}"
    )
    results: dict[int, list[Step]] = {}
    with tempfile.TemporaryDirectory(prefix="vtt-scale-") as tmp, postgres_server() as server_url:
        encounter = make_encounter(Path(tmp))
        databases = PostgresDatabases(server_url)
        try:
            for n in (1, args.processes) if args.only is None else (args.only,):
                section(f"{n} process{'es' if n > 1 else ''}")
                url = databases.new()
                made = create_games(url, encounter, n_games * SPARE_GAMES)
                if args.profile is not None:
                    args.profile.mkdir(parents=True, exist_ok=True)
                for i in range(n) if args.trace is not None else ():
                    trace_file(args.trace, n, i).unlink(missing_ok=True)
                counted = Path(tmp)
                with processes(url, encounter, n, args.seed, args.profile, counted) as (proxy, parts):
                    games = made[:n_games] if args.by_connection else balanced(proxy, made, n_games)
                    results[n] = load(
                        proxy,
                        parts,
                        games,
                        step_seconds,
                        args.seed,
                        args.by_connection,
                        max(1, args.load_processes),
                        args.load_cpu,
                        None if args.profile is None else args.profile / f"load-{n}",
                    )
                print(f"   processor time a command, all steps: {Budget.of(n, results[n]).line(os.cpu_count() or 1)}")
                print_counts([counts_file(counted, n, i) for i in range(n)], results[n])
                if args.trace is not None:
                    section(f"Where the time went, {n} process{'es' if n > 1 else ''} (servers' trace)")
                    print_legs(results[n], [trace_file(args.trace, n, i) for i in range(n)])
                    print_gc([trace_file(args.trace, n, i) for i in range(n)])
        finally:
            databases.drop_all()
    if args.only is not None:
        return 0
    section("Summary (targets)")
    one, many = throughput(results[1]), throughput(results[args.processes])
    for n, value in ((1, one), (args.processes, many)):
        print(f"   {n} process{'es' if n > 1 else ''}: {value:.0f} commands/s with p95 ≤ {P95_TARGET_MS:.0f} ms")
    ratio = many / one if one else float("nan")
    met = "MET" if one and ratio >= RATIO_TARGET else "MISSED"
    print(f"   ratio {ratio:.2f}× (target ≥ {RATIO_TARGET}× with {args.processes} processes): {met}")
    cores = os.cpu_count() or 1
    budgets = [Budget.of(n, results[n]) for n in (1, args.processes)]
    print("   processor time a command, all steps (from /proc), and what it allows:")
    for budget in budgets:
        print(f"      {budget.line(cores)}")
    allowed = budgets[1].most(cores) / budgets[0].most(cores)
    elsewhere = budgets[1].most(cores, with_load=False) / budgets[0].most(cores, with_load=False)
    print(
        f"   ratio the processor time allows: {allowed:.2f}× ({elsewhere:.2f}× with the load generator on another "
        f"machine), measured {ratio:.2f}×"
    )
    for n in (1, args.processes):
        costs = ", ".join(f"{s.cpu_ms_per_command:.2f}" for s in results[n])
        print(f"   server processor time a command, {n} process{'es' if n > 1 else ''}, step by step: {costs} ms")
    crossing = [x for s in results[args.processes] if s.p95 <= P95_TARGET_MS for x in s.crossing]
    same = [x for s in results[args.processes] if s.p95 <= P95_TARGET_MS for x in s.same]
    if crossing and same:
        across, here = statistics.median(crossing), statistics.median(same)
        print(
            f"   a change crossing processes: p50 {across:.1f} ms vs {here:.1f} ms on the same process "
            f"(+{across - here:.1f} ms), p95 {pct(crossing, 95):.1f} vs {pct(same, 95):.1f} ms"
        )
    print(f"   machine load average now {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
