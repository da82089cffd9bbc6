"""A new game's table is made from the state in hand when the game is stored (its creator opens it next), the same
table loading the game from the database would give, without reading and checking the whole state back on the
server; and a board sent to or from a worker process leaves its cache of filled spaces behind."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from bench.trust import largest_uvtt
from vtt.rules import model
from vtt.rules.model import SOULWEAVER, Board
from vtt.store.db import open_engine
from vtt.table.imports import uvtt_import
from vtt.table.registry import Games
from vtt.table.table import Table, Viewer

MAPS = Path(__file__).resolve().parents[1] / "maps"
SW = Viewer("soulweaver", "Sam")


def refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("the new game was loaded back from the database")


async def test_a_new_games_table_is_the_one_loading_it_would_give(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = Games(open_engine(database_url), MAPS)
    try:
        made = games.create("Demo", "demo.json", "square", "Sam")
        with monkeypatch.context() as patched:
            patched.setattr(Table, "load", refuse)
            table = await games.load_table(made.game_id)
        loaded = Table.load(games.engine, made.game_id)
        assert (table.name, table.game_id, table.log) == (loaded.name, made.game_id, [])
        assert table.state.model_dump() == loaded.state.model_dump()
        assert table.state.settings.grid == "square"
        # it plays and stores like a loaded one
        goblin = next(cid for cid, c in table.state.creatures.items() if c.controller is None)
        to = [table.state.creatures[goblin].anchor[0], table.state.creatures[goblin].anchor[1] + 1]
        outcome = await table.submit(SW, {"type": "place", "creature": goblin, "to": to})
        assert outcome.ok, outcome.error
        assert Table.load(games.engine, made.game_id).state.creatures[goblin].anchor == tuple(to)
    finally:
        games.close()


def test_an_imported_maps_table_is_the_one_loading_it_would_give(tmp_path: Path) -> None:
    games = Games(open_engine(f"sqlite:///{tmp_path}/g.sqlite"), MAPS)
    try:
        imported = uvtt_import(json.dumps(largest_uvtt()).encode(), "big.dd2vtt", "Big")
        # as the web does it: the state comes back from a worker process, pickled
        state = pickle.loads(pickle.dumps(imported.state))
        made = games.create_from_map("Big", imported.map_data, "Sam", "big.dd2vtt", state=state)
        table = games.table(made.game_id)
        loaded = Table.load(games.engine, made.game_id)
        assert table.state.model_dump() == loaded.state.model_dump()
        assert table.state.board.filled() == loaded.state.board.filled()
        assert [s.key for s in games.seats(made.game_id)] == [SOULWEAVER]
    finally:
        games.close()


def test_a_board_goes_to_another_process_without_its_cache_of_filled_spaces() -> None:
    """The cache is keyed by the ids of the board's walls and objects: in another process those ids may be other
    objects', so the cache stays behind (it is kept apart from the board) and is made again there."""
    model._FILLED.clear()  # else a cache near its bound may be cleared between the calls below (order-dependent)
    board = Board(cols=6, rows=6, walls={(1, 1), (2, 1)})
    filled = board.filled()
    assert filled == {(1, 1), (2, 1)}
    assert board.__getstate__()["__pydantic_private__"] is None
    copy = pickle.loads(pickle.dumps(board))
    assert copy == board and copy.model_dump() == board.model_dump()
    assert copy.filled() == filled and copy.filled() is not filled
    assert board.filled() is filled  # the original keeps its own
