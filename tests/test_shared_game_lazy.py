"""Less work per command when several processes serve one game through PostgreSQL.

A command is played on the state this process knows and stored at the next place of the log, without reading the
log first: the unique `(game, seq)` refuses it when another process stored there first, and it is played again
after what they stored. A process folds in another's commands as they are heard only for a game someone on it
listens to; a game nobody there looks at is caught up when someone comes. A process ignores what it said itself.
Each `Table` or `Games` here stands for a process, with its own engine (`tests/test_shared_game_log.py`).
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest
from factories import creature, on_turn, state
from sqlalchemy.engine import Engine
from test_shared_game_log import Recorder

from vtt.rules.model import GameState
from vtt.store import db
from vtt.store.change_feed import Heard, parse
from vtt.table.registry import Games
from vtt.table.table import Table, Viewer

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")


def _game() -> GameState:
    return on_turn(state(creature("ayla", (2, 2), controller="alice"), creature("goblin", (8, 8))), "ayla")


@pytest.fixture
def log_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The `after` of every read of a game's log (`db.load_log`) made from now on."""
    reads: list[int] = []
    real = db.load_log

    def counted(engine: Engine, game_id: int, after: int = 0) -> list[dict[str, Any]]:
        reads.append(after)
        return real(engine, game_id, after)

    monkeypatch.setattr(db, "load_log", counted)
    return reads


def _new_game(engine: Engine) -> int:
    return db.create_game(engine, f"lazy {uuid.uuid4().hex}", _game().model_dump(mode="json"))


def test_a_command_on_an_up_to_date_table_reads_no_log(engines: tuple[Engine, Engine], log_reads: list[int]) -> None:
    """Nothing was heard from other processes: the command is stored at the next place without a look at the log."""
    game_id = _new_game(engines[0])
    table = Table.load(engines[0], game_id)
    log_reads.clear()

    async def play() -> None:
        for to in ([9, 9], [8, 8], [9, 9]):
            assert (await table.submit(SW, {"type": "place", "creature": "goblin", "to": to})).ok

    asyncio.run(play())
    assert log_reads == []
    assert [r["seq"] for r in db.load_log(engines[0], game_id)] == [1, 2, 3]


def test_a_refusal_made_on_a_state_another_process_moved_past_is_played_again(
    engines: tuple[Engine, Engine],
) -> None:
    """Process two has not heard that the Soulweaver ended their turn on process one: on what two knows, it is not
    ayla's turn, and alice's end of turn looks refused. Before refusing, two looks at the log, folds in the end of
    the Soulweaver's turn, and plays alice's on the state it made."""
    one_engine, two_engine = engines
    game_id = _new_game(one_engine)
    one = Table.load(one_engine, game_id)
    asyncio.run(one.submit(ALICE, {"type": "end_turn"}))
    two = Table.load(two_engine, game_id)
    assert one.state.turn.current == two.state.turn.current == "soulweaver"

    async def play() -> None:
        assert (await one.submit(SW, {"type": "end_turn"})).ok
        out = await two.submit(ALICE, {"type": "end_turn"})
        assert out.ok, out.error
        assert out.record is not None and out.record.seq == 3

    asyncio.run(play())
    assert [r["sender"] for r in db.load_log(two_engine, game_id)] == ["alice", "soulweaver", "alice"]
    assert two.state.turn.current == "soulweaver"


def test_a_game_nobody_here_listens_to_is_caught_up_when_someone_comes(
    engines: tuple[Engine, Engine], log_reads: list[int]
) -> None:
    """Messages about a game with no listener on this process only mark it behind; opening it folds them in, in
    one look at the log, and a listener that subscribes to a table marked behind gets the changes it missed."""
    one_engine, two_engine = engines
    game_id = _new_game(one_engine)
    here = Table.load(one_engine, game_id)

    async def play() -> None:
        there = Games(two_engine, Path("."))
        try:
            table = await there.load_table(game_id)
            log_reads.clear()
            for seq, to in enumerate(([9, 9], [8, 8], [9, 9]), start=1):
                assert (await here.submit(SW, {"type": "place", "creature": "goblin", "to": to})).ok
                there._heard(Heard("log", game_id, seq, origin="another"))
            await asyncio.sleep(0)
            assert table.behind and len(table.log) == 0 and log_reads == []
            assert await there.load_table(game_id) is table
            assert len(table.log) == 3 and not table.behind
            assert log_reads == [0]

            told = Recorder()
            assert (await here.submit(SW, {"type": "place", "creature": "goblin", "to": [7, 7]})).ok
            there._heard(Heard("log", game_id, 4, origin="another"))
            assert table.behind
            table.subscribe(told)
            async with asyncio.timeout(10):
                while not told.changes:
                    await asyncio.sleep(0.01)
            assert [c.record.seq for c in told.changes] == [4]
        finally:
            there.close()

    asyncio.run(play())


def test_messages_heard_together_are_folded_in_with_one_look(
    engines: tuple[Engine, Engine], log_reads: list[int]
) -> None:
    """With someone listening, the messages that came in one batch take one read of the log, not one each."""
    one_engine, two_engine = engines
    game_id = _new_game(one_engine)
    here = Table.load(one_engine, game_id)

    async def play() -> None:
        there = Games(two_engine, Path("."))
        try:
            table = await there.load_table(game_id)
            told = Recorder()
            table.subscribe(told)
            for to in ([9, 9], [8, 8], [9, 9], [7, 7]):
                assert (await here.submit(SW, {"type": "place", "creature": "goblin", "to": to})).ok
            log_reads.clear()
            for seq in range(1, 5):
                there._heard(Heard("log", game_id, seq, origin="another"))
            async with asyncio.timeout(10):
                while len(told.changes) < 4:
                    await asyncio.sleep(0.01)
        finally:
            there.close()
        assert [c.record.seq for c in told.changes] == [1, 2, 3, 4]
        assert log_reads == [0]

    asyncio.run(play())


def test_a_process_ignores_what_it_said_itself(engines: tuple[Engine, Engine]) -> None:
    """`log` and `seats` messages carry their process's token: its own do not mark its table behind."""
    engine = engines[0]
    game_id = _new_game(engine)

    async def play() -> None:
        games = Games(engine, Path("."))
        try:
            table = await games.load_table(game_id)
            games._heard(Heard("log", game_id, 5, origin=db.origin_of(engine)))
            assert not table.behind
            games._heard(Heard("log", game_id, 5, origin="another"))
            assert table.behind
        finally:
            games.close()

    asyncio.run(play())


def test_messages_name_the_process_that_said_them() -> None:
    heard = parse("log 3 17 a1b2c3")
    assert heard == Heard("log", 3, 17) and heard.origin == "a1b2c3"
    assert parse("seats 3 a1b2c3") == Heard("seats", 3, origin="a1b2c3")
    assert parse("log 3 17 {oops}") is None
    assert parse("seats 3 two words") is None
