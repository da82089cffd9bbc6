"""A drop's server side in counts that do not depend on the machine's load: the big map of `bench/web.py` (100×100,
500 creatures) with the Soulweaver's page and 7 spectators' pages in one process (NiceGUI's user simulation: the
pages' elements and outboxes, no browsers; each page has an engine.io socket without a transport: the messages are
put on its queue, as the server's outbox puts them, and nothing reads them: engine.io's writer and the websocket's
framing are not in these figures), and drops of the mover A -> B -> A ... made as the dragging page's drop event
makes them.

Run it from the repository root (the user simulation runs under pytest only)::

    .venv/bin/pytest bench/drop_counts.py -s -q -p no:playwright -p no:cacheprovider      # DROPS=60 by default

With the server's collector setting (`vtt.web.app.GC_YOUNG_THRESHOLD`, start-up and the game frozen as the server
freezes them) it PRINTS per drop: the garbage collections by generation inside the drop (from the drop event to the
change's messages queued) and in the whole move (the panels' redraw after it too), with their ms; the messages
queued for the pages, by kind; the objects the collector tracks (what a collection of the oldest generation walks);
and the process's CPU time per drop, from the drop event to its change told and for the whole move (to the panels
rendered and every outbox empty). Then as many drops again under cProfile: the Python calls a whole move makes (by
package), which no load changes; `PROFILE=FILE` writes that profile (pstats). It never asserts (it is not a
test).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bidict import bidict
from engineio.async_socket import AsyncSocket  # type: ignore[import-untyped]
from fastapi import Request
from nicegui import core
from nicegui.events import GenericEventArguments
from nicegui.outbox import Outbox
from nicegui.testing.user import User
from nicegui.testing.user_simulation import user_simulation

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.gc_table import Pauses  # noqa: E402
from bench.web import BIG, MOVER, make_encounter  # noqa: E402
from vtt.rules.dice import RandomDice  # noqa: E402
from vtt.rules.scenario import load_scenario  # noqa: E402
from vtt.store import db  # noqa: E402
from vtt.table.registry import Games  # noqa: E402
from vtt.web import app as web_app  # noqa: E402
from vtt.web import outbox_send  # noqa: E402
from vtt.web.table_view import TableView  # noqa: E402

SPECTATORS = 7
WARMUP = 4
PROFILE = os.environ.get("PROFILE", "")


class Queued(Counter[str]):
    """The messages queued in the pages' outboxes, by kind (element updates counted per outbox pass elsewhere)."""

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        enqueue = Outbox.enqueue_message
        enqueue_update = Outbox.enqueue_update

        def message(outbox: Outbox, message_type: str, data: Any, target_id: str) -> None:
            self[message_type] += 1
            enqueue(outbox, message_type, data, target_id)

        def update(outbox: Outbox, element: Any) -> None:
            self["element update"] += 1
            enqueue_update(outbox, element)

        monkeypatch.setattr(Outbox, "enqueue_message", message)
        monkeypatch.setattr(Outbox, "enqueue_update", update)


async def _root(secret: str = "", watch: str = "", *, request: Request) -> None:
    if watch:
        await web_app.watch(watch, request)
    else:
        await web_app.play(secret, request)


async def _settled(views: list[TableView]) -> None:
    """Until every page's panels are rendered and its outbox has sent what it held."""
    for view in views:
        while view._flush_task is not None:
            await asyncio.wait([view._flush_task])
    while not all(outbox_send.idle(v.map.client.outbox) for v in views):
        await asyncio.sleep(0)


def _plug(views: list[TableView]) -> list[Any]:
    """An engine.io socket in each page's room, as socket.io's handshake seats it (no transport: its queue of
    packets is emptied after each move)."""
    sockets = []
    for view in views:
        client_id = view.map.client.id
        socket = AsyncSocket(core.sio.eio, f"eio-{client_id}")
        core.sio.eio.sockets[socket.sid] = socket
        core.sio.manager.rooms.setdefault("/", {})[client_id] = bidict({f"sid-{client_id}": socket.sid})
        sockets.append(socket)
    return sockets


def _unplug(views: list[TableView]) -> None:
    for view in views:
        core.sio.manager.rooms.get("/", {}).pop(view.map.client.id, None)
        core.sio.eio.sockets.pop(f"eio-{view.map.client.id}", None)


def _by_package(profile: cProfile.Profile, moves: int) -> tuple[float, Counter[str]]:
    """Python calls a move in all, and by package (the project's by module)."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    calls: Counter[str] = Counter()
    for (path, _, _), (_, n, _, _, _) in stats.items():
        if "site-packages/" in path:
            where = path.split("site-packages/")[1].split("/")[0]
        elif "/vtt/" in path:
            where = "vtt/" + path.split("/vtt/")[1]
        elif path.startswith("<") or path == "~":
            where = "built-in"
        else:
            where = "python: " + Path(path).parent.name + "/" + Path(path).name
        calls[where] += n
    return sum(calls.values()) / moves, Counter({k: round(n / moves) for k, n in calls.items()})


def _row(label: str, per: list[float]) -> None:
    print(f"   {label:<44} median {statistics.median(per):6.2f}  max {max(per):6.2f}")


async def test_drop_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    drops = int(os.environ.get("DROPS", "60"))
    with tempfile.TemporaryDirectory(prefix="vtt-drops-") as tmp:
        await _measure(Path(tmp), drops, monkeypatch)


async def _measure(folder: Path, drops: int, monkeypatch: pytest.MonkeyPatch) -> None:
    enc = make_encounter(folder, *BIG, seed=1)
    games = Games(db.open_engine(f"sqlite:///{folder}/games.sqlite"), folder, dice=lambda: RandomDice(1))
    web_app.Server.games = games
    game_id, seats, _ = games.ensure("bench", load_scenario(json.loads(enc.path.read_text())).state, "")
    games.set_watchable(game_id, True)
    soulweaver = next(s for s in seats if s.role == "soulweaver")
    queued = Queued()
    queued.install(monkeypatch)
    pauses = Pauses()
    gc.set_threshold(web_app.GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    gc.freeze()
    gc.callbacks.append(pauses)
    monkeypatch.setattr(Outbox, "_emit", Outbox._emit)  # put back at the end
    monkeypatch.setattr(AsyncSocket, "poll", AsyncSocket.poll)
    outbox_send.install()  # as the server does, before the pages open
    try:
        async with user_simulation(_root) as user:
            await user.open(f"/?secret={soulweaver.secret}")
            for _ in range(SPECTATORS):
                await User(user.http_client).open(f"/?watch={game_id}")
            table = games.table(game_id)
            views = [v for v in table._listeners if isinstance(v, TableView)]
            sender = next(v for v in views if v.viewer.is_soulweaver)
            await _settled(views)
            sockets = _plug(views)
            inside: list[list[tuple[int, float]]] = []
            whole: list[list[tuple[int, float]]] = []
            cpu: list[float] = []
            move_cpu: list[float] = []
            grown: list[int] = []  # objects the collector tracks, more after a move than before (no pass in it)
            messages: Counter[str] = Counter()
            for i in range(WARMUP + drops):
                to = enc.spot_b if i % 2 == 0 else enc.spot_a
                played = len(table.log)
                pauses.taken.clear()
                queued.clear()
                young = gc.get_count()[0]
                t0 = time.process_time()
                drop = {"id": MOVER, "q": to[0], "r": to[1], "v": table.version(MOVER)}
                sender.map._handle_move(GenericEventArguments(sender=sender.map, client=sender.map.client, args=drop))
                while len(table.log) == played:
                    await asyncio.sleep(0.001)
                took = (time.process_time() - t0) * 1000
                in_drop = list(pauses.taken)
                await _settled(views)
                whole_move = (time.process_time() - t0) * 1000
                sent = sum(s.queue.qsize() for s in sockets)
                for s in sockets:
                    s.queue = core.sio.eio.create_queue()
                if i >= WARMUP:
                    cpu.append(took)
                    move_cpu.append(whole_move)
                    messages["on the sockets"] += sent
                    inside.append(in_drop)
                    whole.append(list(pauses.taken))
                    if not pauses.taken:
                        grown.append(gc.get_count()[0] - young)
                    messages.update(queued)
            tracked = len(gc.get_objects())
            profile = cProfile.Profile()
            for i in range(drops):
                to = enc.spot_b if i % 2 == 0 else enc.spot_a
                played = len(table.log)
                drop = {"id": MOVER, "q": to[0], "r": to[1], "v": table.version(MOVER)}
                profile.enable()
                sender.map._handle_move(GenericEventArguments(sender=sender.map, client=sender.map.client, args=drop))
                while len(table.log) == played:
                    await asyncio.sleep(0.001)
                await _settled(views)
                profile.disable()
                for s in sockets:
                    s.queue = core.sio.eio.create_queue()
            _unplug(views)
    finally:
        gc.callbacks.remove(pauses)
        web_app.Server.games = None
        games.close()
    print(f"\n{drops} drops, {len(views)} pages of the {BIG[0]}×{BIG[1]} map with {BIG[2]} creatures (in process)")
    for gen in (0, 1, 2):
        d = [sum(1 for g, _ in p if g == gen) for p in inside]
        w = [ms for p in whole for g, ms in p if g == gen]
        print(
            f"   collections of generation {gen}: {sum(d) / drops:.2f} a drop inside it, {len(w) / drops:.2f} a move "
            f"in all ({sum(w) / drops:.2f} ms a move; the longest {max(w, default=0.0):.1f} ms)"
        )
    print("   queued per move: " + ", ".join(f"{n / drops:.1f}× {kind}" for kind, n in messages.most_common()))
    print(f"   objects the collector tracks after the drops (not frozen): {tracked}")
    if grown:
        per = statistics.median(grown)
        print(
            f"   tracked objects a move leaves (median): {per:.0f}, so a collection of the youngest every "
            f"{web_app.GC_YOUNG_THRESHOLD / max(per, 1):.0f} moves at the threshold of {web_app.GC_YOUNG_THRESHOLD}"
        )
    _row("process CPU ms, the drop event to its change told", cpu)
    _row("process CPU ms, the whole move", move_cpu)
    per_move, by = _by_package(profile, drops)
    print(f"   Python calls a whole move (cProfile, {drops} more drops): {per_move:.0f}; the most:")
    for where, n in by.most_common(14):
        print(f"      {n:6d}  {where}")
    if PROFILE:
        profile.dump_stats(PROFILE)
