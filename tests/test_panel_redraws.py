"""The Soulweaver's side panels are drawn again only when what they show changed (issue 14: work per move
proportional to what changed), through NiceGUI's simulated `User` (no browser): dragging the creature whose sheet is
open leaves the sheet as drawn (a half-typed note survives a move), while a change to its pools draws it again; a
move leaves the turn panel's "Add to the order" picker as drawn, while a creature taken off the map leaves it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
from factories import creature, state
from fastapi import Request
from nicegui import ui
from nicegui.testing.user_simulation import user_simulation

from vtt.rules.model import GameState
from vtt.store.db import Seat
from vtt.table.registry import Games
from vtt.table.table import Table, Viewer
from vtt.web import app as web_app
from vtt.web.table_view import TableView

SW = Viewer("soulweaver", "Soulweaver")


def _game() -> GameState:
    return state(creature("ayla", (2, 2), controller="alice"), creature("orc", (6, 2)), creature("troll", (9, 4)))


@pytest.fixture
def seats(games: Games) -> Iterator[dict[str, Seat]]:
    web_app.Server.games = games
    _, made, _ = games.ensure("Panels", _game(), "")
    yield {s.key: s for s in made}
    web_app.Server.games = None


async def _root(secret: str = "", *, request: Request) -> None:
    await web_app.play(secret, request)


def _view(table: Table) -> TableView:
    views = [v for v in table._listeners if isinstance(v, TableView)]
    assert len(views) == 1
    return views[0]


async def _flushed(view: TableView, check: Callable[[], bool] = lambda: True) -> bool:
    """Wait (a few seconds at most) until the page drew the change's log and panels and `check` holds."""
    for _ in range(200):
        if view._flush_task is None and check():
            return True
        await asyncio.sleep(0.02)
    return False


def _card_ids(column: ui.element) -> list[int]:
    return [child.id for child in column.default_slot.children]


async def test_the_open_sheet_is_not_drawn_again_when_its_creature_moves(games: Games, seats: dict[str, Seat]) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['soulweaver'].secret}")
        view = _view(table)
        view._select("orc")
        drawn = _card_ids(view.sheet)
        assert drawn, "the sheet is drawn"
        assert (await table.submit(SW, {"type": "place", "creature": "orc", "to": [7, 3]})).ok
        assert await _flushed(view)
        assert table.state.creatures["orc"].anchor == (7, 3)
        assert _card_ids(view.sheet) == drawn
        grit = {"type": "edit_creature", "creature": "orc", "changes": {"grit": {"max": 6, "pips": 2}}}
        assert (await table.submit(SW, grit)).ok
        assert await _flushed(view, lambda: _card_ids(view.sheet) != drawn)


async def test_the_turn_tools_are_drawn_again_only_when_the_candidates_change(
    games: Games, seats: dict[str, Seat]
) -> None:
    table = games.table(seats["soulweaver"].game_id)
    async with user_simulation(_root) as user:
        await user.open(f"/?secret={seats['soulweaver'].secret}")
        view = _view(table)
        assert (await table.submit(SW, {"type": "begin"})).ok
        assert await _flushed(view)
        assert view._turn_parts is not None
        tools = view._turn_parts[2]
        drawn = _card_ids(tools)
        assert view._order_candidates() == (("orc", "Orc"), ("troll", "Troll"))  # the Soulweaver's creatures
        assert (await table.submit(SW, {"type": "place", "creature": "troll", "to": [10, 5]})).ok
        assert await _flushed(view)
        assert _card_ids(tools) == drawn
        assert (await table.submit(SW, {"type": "remove_creature", "creature": "troll"})).ok
        assert await _flushed(view, lambda: _card_ids(tools) != drawn)
        assert view._order_candidates() == (("orc", "Orc"),)
