"""The Soulweaver's fog marks (`vtt/rules/fog_marks.py`, applied by `vtt/table/fog.py`): revealed spaces are
shown to the players with every creature on them; hidden spaces are never shown, even in sight. No seed covers
fog of war: the outcomes below follow the module's own rules, worked out by hand on the maps drawn.

Maps as in `test_seat_view_vision` (square grid, `#` a wall, a capital letter a creature's anchor; alice controls
A, the Soulweaver the rest)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_fog_view import spaces
from test_seat_view_vision import ALICE, CORNER, SW, WATCHER, Messages, draw, play

from vtt.rules.fog_marks import rectangle, stroke_rectangle
from vtt.rules.grid import make_grid
from vtt.rules.model import Board
from vtt.table.table import Table, Viewer
from vtt.web.fog_view import marks_layer


def mark(how: str, *cells: tuple[int, int]) -> dict[str, Any]:
    return {"type": "mark_fog", "mark": how, "cells": [list(c) for c in cells]}


def text(value: Any) -> str:
    return json.dumps(value, default=str)


# CORNER: A at (0, 0) cannot see O at (8, 1) behind the wall at x = 5 (see test_seat_view_vision).
ROOM = rectangle(make_grid("square"), (7, 0), (9, 2))


def test_a_revealed_room_is_seen_with_the_creature_in_it() -> None:
    """Revealing the room (7..9, 0..2) behind the wall: alice's seat and the spectators see its spaces and O in
    it, as if their creatures saw them; the Soulweaver's own view does not change."""
    table = Table("fog", draw(CORNER))
    assert not table.seat_view(ALICE).sees("O")
    assert play(table, SW, mark("reveal", *ROOM)) == (True, None)
    seat = table.seat_view(ALICE)
    assert seat.sees("O")
    fog = seat.fog_json()
    assert fog is not None and [8, 1] in fog["visible"] and [9, 2] in fog["visible"]
    assert [6, 1] not in fog["visible"]  # beside the room, still behind the wall
    assert table.seat_view(WATCHER).sees("O")


def test_hidden_spaces_are_not_shown_even_in_sight() -> None:
    """A at (0, 0) sees the whole row up to the wall at (5, 0), O at (3, 0) among it. Hiding (3, 0): the space
    and O, wholly in it, are shown to alice no more, not even as remembered (she saw it before the hide); cleared
    again, it is remembered as before."""
    table = Table("fog", draw("A..O.#.."))
    assert table.seat_view(ALICE).sees("O")
    assert play(table, SW, mark("hide", (3, 0)))[0]
    seat = table.seat_view(ALICE)
    fog = seat.fog_json()
    assert fog is not None and not seat.sees("O")
    assert [3, 0] not in fog["visible"] + fog["remembered"] and [2, 0] in fog["visible"]
    assert play(table, SW, {"type": "place", "creature": "A", "to": [7, 0]})[0]
    assert play(table, SW, mark("clear", (3, 0)))[0]
    fog = table.seat_view(ALICE).fog_json()
    assert fog is not None and [3, 0] in fog["remembered"]


def test_a_space_hidden_while_in_sight_is_not_remembered() -> None:
    """The game starts with (3, 0) hidden: alice's seat is never shown it. A set down at (7, 0), behind the wall
    (it sees (5..7, 0) only), and the hide cleared: (3, 0) is not remembered; the spaces shown before are."""
    start = draw("A..O.#..")
    start = start.model_copy(update={"board": start.board.model_copy(update={"hidden": {(3, 0)}})})
    table = Table("fog", start)
    assert not table.seat_view(ALICE).sees("O")
    assert play(table, SW, {"type": "place", "creature": "A", "to": [7, 0]})[0]
    assert play(table, SW, mark("clear", (3, 0)))[0]
    fog = table.seat_view(ALICE).fog_json()
    assert fog is not None
    assert [3, 0] not in fog["visible"] + fog["remembered"]
    assert [2, 0] in fog["remembered"] and [4, 0] in fog["remembered"]


def test_a_players_own_creature_is_never_hidden_from_them() -> None:
    table = Table("fog", draw("A..O."))
    assert play(table, SW, mark("hide", (0, 0), (1, 0)))[0]
    seat = table.seat_view(ALICE)
    assert seat.sees("A") and seat.sees("O")
    fog = seat.fog_json()
    assert fog is not None and [0, 0] not in fog["visible"]


def test_hiding_takes_the_reveal_away_and_clearing_takes_both() -> None:
    table = Table("fog", draw(CORNER))
    assert play(table, SW, mark("reveal", (8, 1), (9, 1)))[0]
    assert play(table, SW, mark("hide", (8, 1)))[0]
    board = table.state.board
    assert board.revealed == {(9, 1)} and board.hidden == {(8, 1)}
    assert not table.seat_view(ALICE).sees("O")
    assert play(table, SW, mark("clear", (8, 1), (9, 1)))[0]
    assert table.state.board.revealed == set() and table.state.board.hidden == set()


def test_a_reveal_is_undone_like_any_command() -> None:
    table = Table("fog", draw(CORNER))
    assert play(table, SW, mark("reveal", *ROOM))[0]
    assert play(table, SW, {"type": "undo"})[0]
    assert table.state.board.revealed == set()
    assert not table.seat_view(ALICE).sees("O")
    assert play(table, SW, {"type": "redo"})[0]
    assert table.seat_view(ALICE).sees("O")


@pytest.mark.parametrize(
    ("viewer", "command", "reason"),
    [
        (ALICE, mark("reveal", (8, 1)), "only the Soulweaver can do that"),
        (WATCHER, mark("reveal", (8, 1)), "spectators watch; they do not play"),
        (SW, mark("reveal", (10, 0)), "(10, 0) is off the 10 by 5 map"),
        (SW, mark("hide", (0, 9), (-1, 0)), "(0, 9), (-1, 0) are off the 10 by 5 map"),
    ],
)
def test_a_mark_is_refused_in_plain_words_and_changes_nothing(
    viewer: Viewer, command: dict[str, Any], reason: str
) -> None:
    table = Table("fog", draw(CORNER))
    before = table.state
    assert play(table, viewer, command) == (False, reason)
    assert table.state is before


def test_a_mark_with_no_space_is_refused() -> None:
    table = Table("fog", draw(CORNER))
    ok, why = play(table, SW, {"type": "mark_fog", "mark": "reveal", "cells": []})
    assert not ok and why is not None and "cells" in why
    assert table.state.board.revealed == set()


def test_players_are_not_told_where_the_soulweaver_hid_or_revealed() -> None:
    """The board a player or spectator is sent has no marks; the logged command reaches them without its spaces
    and its event gives only a count."""
    table = Table("fog", draw(CORNER))
    got = Messages(table)
    assert play(table, SW, mark("hide", (8, 3), (9, 3)))[0]
    (message,) = got.got
    assert message["command"] == {"type": "mark_fog", "mark": "hide", "cells": []}
    assert [e["text"] for e in message["events"]] == ["The Soulweaver hides 2 spaces from the players."]
    for viewer in (ALICE, WATCHER):
        board = table.seat_view(viewer).state_json()["board"]
        assert "hidden" not in board and "revealed" not in board
    assert "[8, 3]" not in text(message["events"])
    assert table.seat_view(SW).state_json()["board"]["hidden"] == [[8, 3], [9, 3]]


def test_without_fog_of_war_the_marks_change_nothing_shown() -> None:
    table = Table("fog", draw("A..O.", fog_of_war=False))
    assert play(table, SW, mark("hide", (3, 0)))[0]
    seat = table.seat_view(ALICE)
    assert seat.sees("O") and seat.fog_json() is None


def test_a_stroke_marks_the_rectangle_around_it_cut_to_the_map() -> None:
    square = make_grid("square")
    board = Board(cols=10, rows=5)
    assert stroke_rectangle(square, board, [(2, 1), (3, 2), (4, 3)]) == rectangle(square, (2, 1), (4, 3))
    assert len(stroke_rectangle(square, board, [(8, 3), (12, 9)])) == 2 * 2  # (8..9, 3..4)
    assert stroke_rectangle(square, board, []) == []
    hexes = make_grid("hex")
    # offset columns and rows on the hex grid: the rectangle is as drawn, so its axial q shifts with the row
    cells = stroke_rectangle(hexes, board, [hexes.from_offset(1, 0), hexes.from_offset(2, 2)])
    assert sorted(hexes.to_offset(c) for c in cells) == [(c, r) for c in (1, 2) for r in (0, 1, 2)]


def test_the_soulweavers_map_shows_the_marks_revealed_clear_unmarked_dim_hidden_dark() -> None:
    table = Table("fog", draw(CORNER))
    assert play(table, SW, mark("reveal", (8, 1), (9, 1)))[0]
    assert play(table, SW, mark("hide", (0, 4)))[0]
    layer = marks_layer(table.state)
    assert layer["preview"] is True
    visible, dim = spaces(layer["visible"]), spaces(layer["remembered"])
    assert visible == {(8, 1), (9, 1)}
    assert (0, 4) not in visible | dim and (0, 0) in dim
    assert len(dim) == 10 * 5 - 3
