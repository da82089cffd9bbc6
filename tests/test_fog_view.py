"""What a player's map gets with fog of war (`vtt/web/fog_view.py`): the board only where the seat remembers, the
fog as packed bitmaps of the spaces seen and remembered (read back as `static/map_view.js` reads them), and a
heard creature's token with nothing of the creature but its spaces."""

from __future__ import annotations

import json
from typing import Any

from test_page_payload import unpack
from test_seat_view_vision import ALICE, CORNER, SW, draw

from vtt.rules.model import BoardObject
from vtt.table.table import Table
from vtt.web.fog_view import HEARD_NAME, HEARD_PLATE, fog_layer, heard_tokens, known_board


def spaces(layer: Any) -> set[tuple[int, int]]:
    cells = unpack(layer) if isinstance(layer, dict) else [list(c) for c in layer]
    return {(c[0], c[1]) for c in cells}


def test_the_map_gets_walls_and_objects_only_where_the_seat_has_looked() -> None:
    """CORNER: from (0, 0) A sees the long wall's near side (column 5) but not the wall piece at (8, 3) behind it;
    a crate at (9, 4) lies in the unseen east part, one at (2, 2) in sight."""
    s = draw(CORNER)
    crates = [BoardObject(id="near", name="Crate", cells=[(2, 2)]), BoardObject(id="far", name="Crate", cells=[(9, 4)])]
    s = s.model_copy(update={"board": s.board.model_copy(update={"objects": crates})})
    table = Table("fog", s)
    seat = table.seat_view(ALICE)
    props = known_board(s.board, seat.vision)
    walls = {tuple(c) for c in props["walls"]}
    assert (5, 0) in walls and (8, 3) not in walls
    assert [o["id"] for o in props["objects"]] == ["near"]
    everything = known_board(s.board, table.seat_view(SW).vision)
    assert {tuple(c) for c in everything["walls"]} == s.board.walls


def test_the_fog_goes_packed_and_reads_back_as_the_seat_view_says() -> None:
    table = Table("fog", draw(CORNER))
    seat = table.seat_view(ALICE)
    assert seat.vision is not None
    layer = fog_layer(table.state, seat.vision)
    assert layer is not None and isinstance(layer["visible"], dict) and "packed" in layer["visible"]
    assert spaces(layer["visible"]) == set(seat.vision.spaces)
    assert spaces(layer["remembered"]) == set()
    assert fog_layer(table.state, None) is None


def test_a_heard_creatures_token_tells_only_its_spaces() -> None:
    """In darkness A hears O next to it (§2.6: a moving sound of Magnitude 2 carries 1 space) but does not see it."""
    table = Table("fog", draw("AO..", ambient_light="dark"))
    ((hid, token),) = heard_tokens(table.seat_view(ALICE)).items()
    assert token["heard"] is True and token["name"] == HEARD_NAME and token["cells"] == [[1, 0]]
    assert token["plate"] == HEARD_PLATE == "Heard"
    text = json.dumps(token)
    assert '"O"' not in text and "Grukk" not in text and hid != "O"
