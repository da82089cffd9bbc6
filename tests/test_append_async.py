"""Commands stored on PostgreSQL from the event loop (`db.append_command_async`): no writer thread, the same row and
the same message to the other processes as `db.append_command`, `SeqTaken` when the place is taken."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy.engine import Engine

from e2e.pg_server import PostgresDatabases
from vtt.store import db
from vtt.store.change_feed import listen_url


@pytest.fixture
def engine(postgres_databases: PostgresDatabases) -> Iterator[Engine]:
    made = db.open_engine(postgres_databases.new())
    try:
        yield made
    finally:
        db.close_async_appender(made)
        made.dispose()


def _game(engine: Engine) -> int:
    return db.create_game(engine, f"async {uuid.uuid4().hex}", {"unused": True})


def _stored(engine: Engine, game_id: int) -> list[tuple[int, str, dict[str, object], list[int]]]:
    return [(r["seq"], r["sender"], r["command"], r["faces"]) for r in db.load_log(engine, game_id)]


def test_a_command_is_stored_and_told_to_the_other_processes(engine: Engine) -> None:
    game_id = _game(engine)
    url = listen_url(engine)
    assert url is not None
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute(f"LISTEN {db.CHANGES_CHANNEL}")
        asyncio.run(db.append_command_async(engine, game_id, 1, "p1", {"type": "end_turn"}, [4, 2], []))
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
    assert _stored(engine, game_id) == [(1, "p1", {"type": "end_turn"}, [4, 2])]
    assert heard == [f"log {game_id} 1 {db.origin_of(engine)}"]


def test_a_place_taken_first_is_refused_and_the_connection_serves_on(engine: Engine) -> None:
    """The second command at place 1 raises `SeqTaken` and stores nothing; the next place is stored after it."""
    game_id = _game(engine)

    async def play() -> None:
        await db.append_command_async(engine, game_id, 1, "soulweaver", {"type": "begin"}, [], [])
        with pytest.raises(db.SeqTaken):
            await db.append_command_async(engine, game_id, 1, "p1", {"type": "end_turn"}, [], [])
        await db.append_command_async(engine, game_id, 2, "p1", {"type": "end_turn"}, [], [])

    asyncio.run(play())
    assert [(seq, sender) for seq, sender, _, _ in _stored(engine, game_id)] == [(1, "soulweaver"), (2, "p1")]


def test_many_games_at_once_each_in_order_and_a_new_loop_stores_too(engine: Engine) -> None:
    """More games storing at once than the appender has connections: every command stored, each game's in order;
    a later event loop (a test's, a restarted server's) gets connections of its own."""
    games = [_game(engine) for _ in range(db.APPEND_CONNECTIONS * 2 + 1)]

    async def game(game_id: int, first: int, n: int) -> None:
        for seq in range(first, first + n):
            await db.append_command_async(engine, game_id, seq, "soulweaver", {"type": "end_turn", "n": seq}, [], [])

    async def play(first: int, n: int) -> None:
        await asyncio.gather(*(game(g, first, n) for g in games))

    asyncio.run(play(1, 5))
    asyncio.run(play(6, 2))
    for game_id in games:
        assert [(seq, command["n"]) for seq, _, command, _ in _stored(engine, game_id)] == [(n, n) for n in range(1, 8)]
