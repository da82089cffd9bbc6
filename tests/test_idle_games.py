"""Games nobody watches leave memory (`Games.unload_idle`): a server that served many games keeps only those
played lately, and a game dropped is loaded again from its log, as it was, when someone opens it."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from factories import creature, on_turn, state
from test_shared_game_log import Recorder

from vtt.cli import idle_minutes
from vtt.rules.dice import RandomDice
from vtt.rules.model import GameState
from vtt.store import db
from vtt.table.registry import IDLE_MINUTES, Games
from vtt.table.table import Viewer

SW = Viewer("soulweaver", "Soulweaver")
IDLE = 5.0
"""Minutes before a game nobody watches is dropped, in these tests."""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def minutes(self, n: float) -> None:
        self.now += 60 * n


def _state() -> GameState:
    return on_turn(state(creature("ayla", (2, 2), controller="alice"), creature("goblin", (8, 8))), "ayla")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def idle_games(tmp_path: Path, clock: Clock) -> Iterator[Games]:
    engine = db.open_engine(f"sqlite:///{tmp_path}/games.sqlite")
    games = Games(engine, tmp_path, dice=lambda: RandomDice(3), idle_minutes=IDLE, clock=clock)
    yield games
    games.close()


def _new_game(games: Games, name: str = "Idle") -> int:
    game_id, _, _ = games.ensure(name, _state(), "idle.json")
    return game_id


def test_a_game_nobody_watches_is_dropped_after_the_idle_minutes(idle_games: Games, clock: Clock) -> None:
    game_id = _new_game(idle_games)
    table = idle_games.table(game_id)
    clock.minutes(IDLE - 1)
    assert idle_games.unload_idle() == ()
    assert idle_games.loaded() == (game_id,)
    clock.minutes(1)
    assert idle_games.unload_idle() == (game_id,)
    assert idle_games.loaded() == ()
    gone = weakref.ref(table)
    del table
    gc.collect()
    assert gone() is None, "the dropped table is still held somewhere: its memory is not given back"


def test_a_watched_game_stays_however_long(idle_games: Games, clock: Clock) -> None:
    game_id = _new_game(idle_games)
    watcher = Recorder()
    idle_games.table(game_id).subscribe(watcher)
    clock.minutes(3 * IDLE)
    assert idle_games.unload_idle() == ()
    idle_games.table(game_id).unsubscribe(watcher)
    clock.minutes(IDLE - 1)
    assert idle_games.unload_idle() == (), "the idle minutes count from when it was last watched"
    clock.minutes(1)
    assert idle_games.unload_idle() == (game_id,)


def test_asking_for_a_game_counts_as_watching_it(idle_games: Games, clock: Clock) -> None:
    game_id = _new_game(idle_games)
    idle_games.table(game_id)
    clock.minutes(IDLE - 1)
    idle_games.table(game_id)  # a command sent to it over the API, say
    clock.minutes(IDLE - 1)
    assert idle_games.unload_idle() == ()


def test_only_the_idle_games_are_dropped(idle_games: Games, clock: Clock) -> None:
    quiet, played = _new_game(idle_games, "Quiet"), _new_game(idle_games, "Played")
    idle_games.table(quiet)
    idle_games.table(played).subscribe(watcher := Recorder())
    clock.minutes(IDLE)
    assert idle_games.unload_idle() == (quiet,)
    assert idle_games.loaded() == (played,)
    assert watcher.changes == []


def test_a_dropped_game_is_loaded_again_as_it_was(idle_games: Games, clock: Clock) -> None:
    game_id = _new_game(idle_games)

    async def play() -> GameState:
        table = await idle_games.load_table(game_id)
        assert (await table.submit(SW, {"type": "place", "creature": "goblin", "to": [7, 7]})).ok
        assert (await table.submit(SW, {"type": "place", "creature": "goblin", "to": [6, 7]})).ok
        return table.state

    played = asyncio.run(play())
    clock.minutes(IDLE)
    assert idle_games.unload_idle() == (game_id,)

    async def reopen() -> tuple[GameState, int, bool]:
        table = await idle_games.load_table(game_id)
        return table.state, len(table.log), table.can_undo()

    again, length, can_undo = asyncio.run(reopen())
    assert again.model_dump(mode="json") == played.model_dump(mode="json")
    assert again.creatures["goblin"].anchor == (6, 7)
    assert (length, can_undo) == (2, True)


def test_a_game_with_a_time_limit_running_stays(idle_games: Games, clock: Clock) -> None:
    """A decision waiting on its time limit is answered by the table: it stays until that is done."""
    game_id = _new_game(idle_games)
    table = idle_games.table(game_id)
    handle = asyncio.new_event_loop()
    try:
        table._timers["d1"] = handle.call_later(3600, lambda: None)
        clock.minutes(2 * IDLE)
        assert idle_games.unload_idle() == ()
        table._timers.pop("d1").cancel()
        clock.minutes(IDLE)
        assert idle_games.unload_idle() == (game_id,)
    finally:
        handle.close()


def test_zero_idle_minutes_keeps_every_game(tmp_path: Path, clock: Clock) -> None:
    games = Games(db.open_engine(f"sqlite:///{tmp_path}/g.sqlite"), tmp_path, idle_minutes=0, clock=clock)
    try:
        game_id = _new_game(games)
        games.table(game_id)
        clock.minutes(10_000)
        assert games.unload_idle() == ()
        assert games.loaded() == (game_id,)
    finally:
        games.close()


def test_the_idle_minutes_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VTT_IDLE_MINUTES", raising=False)
    assert idle_minutes(None) == IDLE_MINUTES
    assert idle_minutes(12.5) == 12.5
    assert idle_minutes(0) == 0
    monkeypatch.setenv("VTT_IDLE_MINUTES", "7")
    assert idle_minutes(None) == 7
    assert idle_minutes(3) == 3, "the command line wins over the environment"
    for bad in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv("VTT_IDLE_MINUTES", bad)
        assert idle_minutes(None) is None, bad


def test_the_server_looks_for_idle_games_by_itself(tmp_path: Path, clock: Clock) -> None:
    """`sweep_idle`, started with the server, drops the idle games without being asked (every second here: the
    idle time is one second, and it looks every quarter of it, at least every second)."""
    games = Games(db.open_engine(f"sqlite:///{tmp_path}/g.sqlite"), tmp_path, idle_minutes=1 / 60, clock=clock)
    game_id = _new_game(games)

    async def serve() -> tuple[int, ...]:
        games.table(game_id)
        games.sweep_idle()
        clock.minutes(1)
        for _ in range(100):
            if not games.loaded():
                break
            await asyncio.sleep(0.05)
        return games.loaded()

    try:
        assert asyncio.run(serve()) == ()
    finally:
        games.close()
