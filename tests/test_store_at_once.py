"""A command is stored on the event loop when a SQLite file allows it without waiting, by the writer thread when
another connection holds the database's write lock; either way before anyone is told."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from factories import creature, state
from sqlalchemy.engine import Engine

from vtt.store import db
from vtt.table.table import Change, Table, Viewer

SW = Viewer("soulweaver", "Soulweaver")
PLACE = {"type": "place", "creature": "orc", "to": [4, 4]}


def _engine(tmp_path: Path) -> tuple[Engine, Path]:
    path = tmp_path / "game.sqlite"
    return db.open_engine(f"sqlite:///{path}"), path


def _pragma(engine: Engine, name: str) -> int:
    with engine.connect() as connection:
        return int(connection.exec_driver_sql(f"PRAGMA {name}").scalar_one())


def test_a_sqlite_file_stores_at_once_and_a_server_database_or_memory_does_not(tmp_path: Path) -> None:
    engine, _ = _engine(tmp_path)
    assert db.stores_at_once(engine)
    assert not db.stores_at_once(db.open_engine("sqlite://"))


def test_a_command_stored_at_once_is_in_the_log_and_the_connection_keeps_its_settings(tmp_path: Path) -> None:
    engine, _ = _engine(tmp_path)
    game = db.create_game(engine, "g", {})
    assert db.append_command_at_once(engine, game, 1, "soulweaver", PLACE, [], [{"kind": "place"}])
    rows = db.load_log(engine, game)
    assert [(r["seq"], r["command"], r["events"]) for r in rows] == [(1, PLACE, [{"kind": "place"}])]
    assert _pragma(engine, "busy_timeout") == db.BUSY_TIMEOUT_MS
    assert _pragma(engine, "wal_autocheckpoint") == db.AUTOCHECKPOINT_PAGES


def test_a_locked_database_makes_storing_at_once_give_up_without_waiting_and_store_nothing(tmp_path: Path) -> None:
    engine, path = _engine(tmp_path)
    game = db.create_game(engine, "g", {})
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        t0 = time.perf_counter()
        assert not db.append_command_at_once(engine, game, 1, "soulweaver", PLACE, [], [])
        assert time.perf_counter() - t0 < 1.0  # not the 5 s a waiting connection would take
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert db.load_log(engine, game) == []
    assert _pragma(engine, "busy_timeout") == db.BUSY_TIMEOUT_MS


class Recorder:
    def __init__(self, engine: Engine, game: int) -> None:
        self.engine, self.game = engine, game
        self.stored_when_told: list[int] = []

    def table_changed(self, change: Change) -> None:
        self.stored_when_told.append(len(db.load_log(self.engine, self.game)))


def test_a_command_played_while_another_writer_holds_the_lock_is_stored_by_the_writer_before_anyone_is_told(
    tmp_path: Path,
) -> None:
    engine, path = _engine(tmp_path)
    table = Table.open(engine, "g", state(creature("orc", (2, 2))))
    assert table.game_id is not None
    seen = Recorder(engine, table.game_id)
    table.subscribe(seen)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")

    def release() -> None:
        other.execute("ROLLBACK")
        other.close()

    threading.Timer(0.3, release).start()
    outcome = asyncio.run(table.submit(SW, PLACE))
    table.close()
    assert outcome.ok, outcome.error
    assert seen.stored_when_told == [1]
    assert [r["command"] for r in db.load_log(engine, table.game_id)] == [PLACE]


def test_commands_played_one_after_another_are_stored_in_order(tmp_path: Path) -> None:
    engine, _ = _engine(tmp_path)
    table = Table.open(engine, "g", state(creature("orc", (2, 2))))
    assert table.game_id is not None
    spaces = [[3, 2], [4, 2], [5, 2], [5, 3]]

    async def play() -> None:
        for to in spaces:
            assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": to})).ok

    asyncio.run(play())
    table.close()
    assert [r["command"]["to"] for r in db.load_log(engine, table.game_id)] == spaces
    again = Table.open(engine, "g", state(creature("orc", (2, 2))))
    assert again.state.creatures["orc"].anchor == (5, 3)


def test_storing_at_once_gives_up_rather_than_wait_for_a_connection_while_threads_hold_them_all(
    tmp_path: Path,
) -> None:
    engine, _ = _engine(tmp_path)
    game = db.create_game(engine, "g", {})
    held = [engine.connect() for _ in range(engine.pool.size())]  # type: ignore[attr-defined]
    try:
        assert not db.append_command_at_once(engine, game, 1, "soulweaver", PLACE, [], [])
    finally:
        for connection in held:
            connection.close()
    assert db.append_command_at_once(engine, game, 1, "soulweaver", PLACE, [], [])
    assert [r["seq"] for r in db.load_log(engine, game)] == [1]
