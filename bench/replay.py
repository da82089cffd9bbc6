"""Benchmark of rebuilding a stored game from its log: the replay of `bench/rules.py` section 3 as a table meets it.

Run it from the repository root::

    .venv/bin/python bench/replay.py             # a 10,000-command game
    .venv/bin/python bench/replay.py --quick     # 2,000 commands

The game is `bench/rules.py`'s replay log (a fight of 4 creatures played with real dice), stored in a SQLite file as
a table stores it: each command as its model's JSON dump, the faces and the events it gave, a snapshot every
`Table.snapshot_every` commands. Timed, each on the process's CPU time (the best of three rounds; other processes do
not inflate it) and counted in Python function calls (the same on a busy machine):

1. `Table._replay` of the log from the starting state, its records as dicts (`bench/rules.py` section 3);
2. `Table.load` from the newest snapshot (a restart): the log read and its records made, a few commands replayed;
3. `Table.load` from the start (a restart when an undo reaches back past the snapshot; an import replays as much);
4. an undo past the states kept in memory: the state before the newest command that does not keep it, rebuilt
   from the stored snapshot before it (`Table._rebuild_before(seq)` of the loaded game, as the undo asks for it);
5. every state before a command rebuilt from the start (`Table._rebuild_before()`: the replay such an undo made
   before it started from a snapshot).

Each runs as a server runs a load (`vtt.web.app.run`, `Games.load_table`): with the garbage collector's thresholds
of `vtt.web.app` and the objects made before it (here the stored game's; in a server its start-up and the games
loaded before) frozen, so that a full collection does not walk them; `--plain-gc` keeps the interpreter's thresholds
and leaves them unfrozen (in this process: 80-90 ms more of one full collection per load). Then where the CPU time
of one load from the start goes: reading the log, making its records, each kind of command's `apply`, the
collector's pauses, and the rest (the table's own work around them).

Target (issue #14): a replay of 10,000 commands ≤ 1 s. It never asserts timings (it is not a test).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

from sqlalchemy import insert
from sqlalchemy.engine import Engine

from vtt.rules import apply, parse_command
from vtt.rules.dice import ScriptedDice
from vtt.store import db
from vtt.table import table as table_module
from vtt.table.table import KEEP_STATES, LogRecord, Table
from vtt.web.app import GC_YOUNG_THRESHOLD

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `bench` is not an installed package

from bench.rules import REPLAY_COMMANDS, REPLAY_TARGET_S, met, replay_log  # noqa: E402

ROUNDS = 3


def store_game(engine: Engine, seed: int, commands: int) -> tuple[int, list[LogRecord]]:
    """The replay log stored as a table stores it; its records as `bench/rules.py` gives them."""
    initial, records = replay_log(seed, commands)
    game_id = db.create_game(engine, "bench", initial.model_dump(mode="json"))
    every = Table("sizes", initial).snapshot_every
    state = initial
    rows: list[dict[str, Any]] = []
    snapshots: list[dict[str, Any]] = []
    for r in records:
        cmd = parse_command(r.command)
        state, events = apply(state, cmd, ScriptedDice(r.faces))
        dumped = [e.model_dump(mode="json") for e in events]
        row = db._command_row(game_id, r.seq, "soulweaver", cmd.model_dump(mode="json"), r.faces, dumped)
        rows.append(row)
        if r.seq % every == 0:
            snapshot = {"seq": r.seq, "state": state.model_dump(mode="json"), "created": row["created"]}
            snapshots.append({"game_id": game_id, **snapshot})
    with engine.begin() as connection:
        connection.execute(insert(db.COMMAND_TABLE), rows)
        connection.execute(insert(db.SNAPSHOT_TABLE), snapshots)
    return game_id, records


def cpu_and_calls(run: Callable[[], float | None]) -> tuple[float, int]:
    """The best CPU seconds of `ROUNDS` runs (a run may return the seconds of its timed part), and the function
    calls of one more run under cProfile."""
    best = float("inf")
    for _ in range(ROUNDS):
        c0 = time.process_time()
        timed = run()
        best = min(best, time.process_time() - c0 if timed is None else timed)
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    calls: int = pstats.Stats(prof).total_calls  # type: ignore[attr-defined]
    return best, calls


class Parts(defaultdict[str, float]):
    """CPU seconds by part of a load; also the collector's pauses (`gc.callbacks`)."""

    def __init__(self) -> None:
        super().__init__(float)
        self._started = 0.0

    def pause(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self["collector's pauses"] += time.process_time() - self._started

    def timing(self, name: Callable[..., str], run: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            c0 = time.process_time()
            try:
                return run(*args)
            finally:
                self[name(*args)] += time.process_time() - c0

        return timed


@contextmanager
def timed_parts(parts: Parts) -> Iterator[None]:
    """Within it, the CPU seconds of a table's load are added up in `parts`: the log read, its records made, each
    kind of command's `apply` (by its `type`) and the collector's pauses."""
    with (
        patch.object(table_module, "apply", parts.timing(lambda _s, cmd, _d: f"apply: {cmd['type']}", apply)),
        patch.object(db, "load_log_texts", parts.timing(lambda *_: "log read", db.load_log_texts)),
        patch.object(LogRecord, "stored_log", parts.timing(lambda *_: "records made", LogRecord.stored_log)),
    ):
        gc.callbacks.append(parts.pause)
        try:
            yield
        finally:
            gc.callbacks.remove(parts.pause)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 commands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain-gc", action="store_true", help="the interpreter's collector settings, nothing frozen")
    args = parser.parse_args()
    commands = 2_000 if args.quick else REPLAY_COMMANDS
    with tempfile.TemporaryDirectory() as folder:
        engine = db.open_engine(f"sqlite:///{folder}/bench.sqlite")
        game_id, records = store_game(engine, args.seed, commands)
        initial = Table.load(engine, game_id)
        if not args.plain_gc:
            gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
            gc.collect()
            gc.freeze()

        def replay() -> float:
            table = Table("bench", initial.initial)
            fresh = [LogRecord(r.seq, r.sender, r.command, r.faces, r.events) for r in records]
            c0 = time.process_time()
            table._replay(fresh, initial.initial, 0)
            timed = time.process_time() - c0
            table.close()
            return timed

        def load() -> None:
            Table.load(engine, game_id).close()

        def load_from_start() -> None:
            seqs, db.snapshot_seqs = db.snapshot_seqs, lambda engine, game_id: []
            try:
                load()
            finally:
                db.snapshot_seqs = seqs

        def undo_past_kept() -> float:
            table = Table.load(engine, game_id)
            c0 = time.process_time()
            table._rebuild_before(len(table.log) - KEEP_STATES)
            timed = time.process_time() - c0
            table.close()
            return timed

        def rebuild_all() -> float:
            table = Table.load(engine, game_id)
            c0 = time.process_time()
            table._rebuild_before()
            timed = time.process_time() - c0
            table.close()
            return timed

        collector = "the interpreter's collector settings" if args.plain_gc else "the server's collector settings"
        print(f"Rebuilding a stored game of {len(records):,} commands (CPU, best of {ROUNDS}; calls of one run)")
        print(f"   with {collector}")
        scale = REPLAY_COMMANDS / len(records)
        for label, run in (
            ("Table._replay, records as dicts", replay),
            ("Table.load from its newest snapshot", load),
            ("Table.load from the start", load_from_start),
            ("undo past the kept states", undo_past_kept),
            ("every state rebuilt from the start", rebuild_all),
        ):
            seconds, calls = cpu_and_calls(run)
            print(
                f"   {label:<38} {seconds:6.2f} s  {calls:>10,} calls  — {REPLAY_COMMANDS:,} commands: "
                f"{seconds * scale:.2f} s, target ≤ {REPLAY_TARGET_S:g} s {met(seconds * scale <= REPLAY_TARGET_S)}"
            )
        parts = Parts()
        with timed_parts(parts):
            c0 = time.process_time()
            load_from_start()
            whole = time.process_time() - c0
        parts["the rest (the table's own work)"] = whole - sum(parts.values())
        print(f"   where one load from the start's {whole:.2f} s go (CPU; each part timed, so a little slower):")
        for part, seconds in sorted(parts.items(), key=lambda p: -p[1]):
            print(f"      {part:<34} {seconds:6.3f} s  {seconds / whole:4.0%}")
        engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
