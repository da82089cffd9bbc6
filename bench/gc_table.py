"""The garbage collector's share of a server's commands, in process: figures that do not depend on the machine's load.

Run it from the repository root::

    .venv/bin/python bench/gc_table.py                  # 10 games, 3,000 commands after 220 a game
    .venv/bin/python bench/gc_table.py --games 1 --commands 2000

The games of `bench/load.py` (6 seats each) are made in a fresh SQLite database and loaded with `Games.load_table`,
as the server loads them (which freezes what loading made), each with the seat API's hub (`vtt.web.api._Hub`)
and 6 sockets that keep only their last messages. Then the commands of `bench/load.py`'s clients go through
`Table.submit` as the API sends them, and the hub makes each change's messages, on one event loop with the
server's collector thresholds (`vtt.web.app.GC_YOUNG_THRESHOLD`). Printed per 1,000 commands: the collections of
each generation and the processor time they took (the loop waits that long); the objects the collector tracks
that are still there after the run and a full collection, per command (what each later collection of the older
generations walks again), by type; and the process's processor time and RSS growth per command. It PRINTS figures
and never asserts (it is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import resource
import sys
import tempfile
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `bench` is not an installed package

from bench.load import Game, choose, create_games, make_encounter  # noqa: E402
from vtt.store.db import open_engine  # noqa: E402
from vtt.table.registry import Games  # noqa: E402
from vtt.table.table import KEEP_STATES, Change, Table, Viewer  # noqa: E402
from vtt.web import api  # noqa: E402
from vtt.web.app import GC_YOUNG_THRESHOLD  # noqa: E402

WARM_UP = KEEP_STATES + 20
"""Commands each game plays first: past the states its table keeps, what is left after the run grows without end."""
SOULWEAVER = Viewer("soulweaver", "Soulweaver")


class Socket:
    """A seat's websocket as the hub sees it: it keeps its last few messages."""

    def __init__(self, viewer: Viewer, secret: str) -> None:
        self.viewer, self.secret, self.replaced = viewer, secret, False
        self.sent: deque[str] = deque(maxlen=4)

    def push(self, text: str) -> None:
        self.sent.append(text)


class Turns:
    """Tells a game's clients whose turn it is, as their messages would."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def table_changed(self, change: Change) -> None:
        for client in self.game.clients:
            client.turn = change.after.turn.current


class Pauses:
    """Each collection's generation and the processor time it took (`gc.callbacks`)."""

    def __init__(self) -> None:
        self.taken: list[tuple[int, float]] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.taken.append((int(info["generation"]), (time.thread_time() - self._started) * 1000))


def tracked() -> Counter[str]:
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(n_games: int, commands: int, seed: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="vtt-gc-"))
    encounter = make_encounter(folder)
    url = f"sqlite:///{folder}/gc.sqlite"
    made = create_games(url, encounter, n_games)
    games = Games(open_engine(url), folder)
    tables: dict[int, Table] = {}
    keep: list[object] = []
    for game in made:
        table = tables[game.id] = await games.load_table(game.id)
        hub = api._Hub(table, games)
        for client in game.clients:
            viewer = SOULWEAVER if client.index == 0 else Viewer("player", client.key)
            hub.clients.add(Socket(viewer, client.secret))  # type: ignore[arg-type]
        turns = Turns(game)
        table.subscribe(turns)
        keep += [hub, turns]
        if (await table.submit(SOULWEAVER, {"type": "begin"})).ok:
            for client in game.clients:
                client.turn = table.state.turn.current
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    rng = random.Random(seed)

    async def one(i: int) -> None:
        game = made[i % n_games]
        via, command, _ = choose(game, game.clients[rng.randrange(len(game.clients))], rng)
        viewer = SOULWEAVER if via.index == 0 else Viewer("player", via.key)
        body = api.parse_body(json.dumps({"id": str(i), "command": command}))
        outcome = await tables[game.id].submit(viewer, body.command, body.seen, body.typed)
        if outcome.record is None:
            raise SystemExit(f"refused: {command} ({outcome.error})")
        json.dumps({"kind": "outcome", "id": body.ident, "ok": True, "error": None, "seq": outcome.record.seq})

    for i in range(WARM_UP * n_games):
        await one(i)
    gc.collect()
    before, rss0 = tracked(), rss_mb()
    pauses = Pauses()
    gc.callbacks.append(pauses)
    cpu0 = time.process_time()
    for i in range(WARM_UP * n_games, WARM_UP * n_games + commands):
        await one(i)
    cpu = time.process_time() - cpu0
    gc.callbacks.remove(pauses)
    gc.collect()
    grown = tracked() - before
    per_k = 1000 / commands
    print(
        f"bench/gc_table.py: {n_games} games × 6 seats, {commands} commands after {WARM_UP} a game; collector "
        f"thresholds "
        f"{gc.get_threshold()}, {gc.get_freeze_count()} objects frozen"
    )
    print(f"   processor time {cpu * 1000 / commands:.2f} ms a command; max RSS +{rss_mb() - rss0:.1f} MB")
    for generation in range(3):
        ms = [t for g, t in pauses.taken if g == generation]
        shown = f", longest {max(ms):.1f} ms" if ms else ""
        print(
            f"   generation {generation}: {len(ms) * per_k:.2f} collections and {sum(ms) * per_k:.1f} ms a 1,000 "
            f"commands{shown}"
        )
    left = sum(grown.values()) / commands
    print(f"   objects tracked by the collector, still there after the run and a full collection: {left:.1f} a command")
    for name, n in grown.most_common(8):
        print(f"      {n / commands:6.2f}  {name}")
    games.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--commands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    asyncio.run(run(args.games, args.commands, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
