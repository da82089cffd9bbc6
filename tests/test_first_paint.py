"""A table page's first paint (the board's packed layers, the seat's tokens) is built in a thread before the page,
kept per state and kind of seat, and found ready by the page: no hidden creature in a player's or a spectator's,
and built again once the state changes."""

from __future__ import annotations

from typing import Any

import pytest
from factories import creature, state

from vtt.rules.settings import TableSettings
from vtt.table.table import Table, Viewer
from vtt.web import first_paint, map_view, tokens
from vtt.web.map_editor import board_props
from vtt.web.map_view import PACK_MIN, _layer
from vtt.web.tokens import shown_tokens

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
SPECTATOR = Viewer("spectator", "spectator")
SIDE = 40


def walled_table() -> Table:
    """A 40 x 40 square board with a long wall layer (packed for the browser), a player's creature, a creature all
    see and one hidden from all but the Soulweaver."""
    walls = {(x, y) for y in range(20, SIDE) for x in range(SIDE)}
    assert len(walls) >= PACK_MIN
    game = state(
        creature("a", (1, 1), controller="alice"),
        creature("g", (4, 4)),
        creature("h", (6, 6), hidden=True),
        cols=SIDE,
        rows=SIDE,
        walls=walls,
        settings=TableSettings(grid="square", defense_prompts="nobody", reactions=False),
    )
    return Table("t", game)


def refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("built again on the page: the first paint should have kept it")


async def test_the_page_finds_the_board_layers_and_the_tokens_built_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    table = walled_table()
    await first_paint.prepare(table, SPECTATOR)
    built = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    monkeypatch.setattr(map_view, "_pack", refuse)
    monkeypatch.setattr(tokens, "token_for", refuse)
    board = table.state.board
    props = board_props(board)
    packed = _layer(props["walls"], 2, False, board.cols, board.rows)
    assert isinstance(packed, dict) and packed["cols"] == SIDE
    again = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    assert set(again) == {"a", "g"} and all(again[cid] is built[cid] for cid in again)


async def test_each_kind_of_seat_gets_its_own_first_paint_and_no_hidden_creature_but_the_soulweavers() -> None:
    table = walled_table()
    for viewer in (ALICE, SPECTATOR, SW):
        await first_paint.prepare(table, viewer)
    alice = shown_tokens(table, ALICE, table.seat_view(ALICE))
    spectator = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    soulweaver = shown_tokens(table, SW, table.seat_view(SW))
    assert set(alice) == set(spectator) == {"a", "g"}
    assert set(soulweaver) == {"a", "g", "h"}
    assert "h" not in str(alice) and "H" not in [t["name"] for t in spectator.values()]
    # what a seat may do differs too: alice drags her own creature, the spectator nothing
    assert alice["a"]["draggable"] is True and spectator["a"]["draggable"] is False
    assert alice["a"] is not spectator["a"]


async def test_the_first_paint_is_built_again_once_the_state_changes() -> None:
    table = walled_table()
    await first_paint.prepare(table, SPECTATOR)
    before = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    outcome = await table.submit(SW, {"type": "place", "creature": "g", "to": [5, 4]})
    assert outcome.ok, outcome.error
    await first_paint.prepare(table, SPECTATOR)
    after = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    assert after["g"]["cells"] == [[5, 4]] and after["g"]["v"] == before["g"]["v"] + 1
    assert after["a"] is not before["a"]  # a new state: every token built again, none kept from the old one
    outcome = await table.submit(SW, {"type": "edit_creature", "creature": "h", "changes": {"hidden": False}})
    assert outcome.ok, outcome.error
    await first_paint.prepare(table, SPECTATOR)
    assert set(shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))) == {"a", "g", "h"}


def test_tokens_follow_the_tables_state_even_given_a_seat_view_of_an_older_one() -> None:
    """The race a thread may meet: it takes a seat view, and the table moves on before the tokens are built. The
    tokens are those of the table's state, seen as that state says: a creature hidden since is not among them."""
    table = walled_table()
    old = table.state
    kept = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR, old))
    g = old.creatures["g"].model_copy(update={"anchor": (7, 7), "hidden": True})
    a = old.creatures["a"].model_copy(update={"anchor": (2, 1)})
    table.state = old.model_copy(update={"creatures": {**old.creatures, "g": g, "a": a}})
    table.versions.update(g=table.version("g") + 1, a=table.version("a") + 1)
    fresh = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR, old))
    assert set(fresh) == {"a"} and fresh["a"]["cells"] == [[2, 1]] and fresh["a"]["v"] == kept["a"]["v"] + 1
