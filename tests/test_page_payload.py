"""What a table page costs the server: long board layers go to the browser packed (a bitmap, not a list of spaces),
each converted once per board, and a page's tokens are built once per state and seat kind and shared by views."""

from __future__ import annotations

import base64
import json
from typing import Any

from factories import creature, state

from vtt.table.table import Table, Viewer
from vtt.web.map_view import PACK_MIN, _layer, _pack, head_json
from vtt.web.tokens import shown_tokens

SW = Viewer("soulweaver", "Soulweaver")
ALICE = Viewer("player", "alice")
SPECTATOR = Viewer("spectator", "spectator")


def unpack(layer: dict[str, Any]) -> list[list[int]]:
    """The reading `static/map_view.js` `unpackCells` does, written again from the format's description."""
    data = base64.b64decode(layer["packed"])
    bits, cols, rows = layer["bits"], layer["cols"], layer["rows"]
    out: list[list[int]] = []
    for i in range(cols * rows):
        value = 0
        for b in range(bits):
            pos = i * bits + b
            if data[pos >> 3] & (0x80 >> (pos & 7)):
                value |= 1 << (bits - 1 - b)
        if value:
            row, col = divmod(i, cols)
            q = col - (row - (row & 1)) // 2 if layer["hex"] else col
            out.append([q, row, value] if layer["width"] == 3 else [q, row])
    return out


def test_a_square_layer_packs_to_the_same_spaces() -> None:
    walls = [[x, y] for y in range(0, 30, 3) for x in range(0, 41, 2)]
    packed = _pack(walls, 2, False, 41, 30)
    assert packed is not None and packed["bits"] == 1
    assert sorted(unpack(packed)) == sorted(walls)


def test_a_hex_layer_with_tiers_packs_to_the_same_spaces_and_tiers() -> None:
    # odd-r rows: space (q, r) sits in column q + (r - (r & 1)) // 2, so q runs from -(r // 2)
    uneven = [[col - (r - (r & 1)) // 2, r, 1 + (col * 7 + r) % 99] for r in range(25) for col in range(0, 31, 3)]
    packed = _pack(uneven, 3, True, 31, 25)
    assert packed is not None and packed["bits"] == 7
    assert sorted(unpack(packed)) == sorted(uneven)


def test_a_layer_with_a_space_off_the_board_or_named_twice_is_not_packed() -> None:
    assert _pack([[0, 0], [10, 0]], 2, False, 10, 10) is None
    assert _pack([[0, 0], [0, 0]], 2, False, 10, 10) is None
    assert _pack([[0, 0, 2], [1, 0, 128]], 3, False, 10, 10) is None


def test_a_long_layer_goes_packed_once_and_a_short_one_as_its_spaces() -> None:
    walls = [[x, y] for y in range(40) for x in range(40)]
    assert len(walls) >= PACK_MIN
    first = _layer(walls, 2, False, 40, 40)
    assert isinstance(first, dict) and sorted(unpack(first)) == sorted(walls)
    assert _layer(walls, 2, False, 40, 40) is first
    assert _layer(list(walls), 2, False, 40, 40) is not first  # another list: converted again, not mistaken
    assert _layer([[1, 2], [3, 4]], 2, False, 40, 40) == ((1, 2), (3, 4))
    off_board = [*walls, [45, 0]]
    assert _layer(off_board, 2, False, 40, 40) == tuple(tuple(c) for c in off_board)


async def test_views_of_one_seat_kind_share_tokens_until_the_state_changes() -> None:
    table = Table(
        "t",
        state(creature("a", (1, 1), controller="alice"), creature("g", (4, 4)), creature("h", (6, 6), hidden=True)),
    )
    first = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    again = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    assert set(first) == {"a", "g"} and again is not first
    assert all(again[cid] is first[cid] for cid in first)
    mine = shown_tokens(table, SW, table.seat_view(SW))
    assert set(mine) == {"a", "g", "h"} and (mine["g"]["draggable"], first["g"]["draggable"]) == (True, False)
    assert set(shown_tokens(table, ALICE, table.seat_view(ALICE))) == {"a", "g"}

    outcome = await table.submit(SW, {"type": "place", "creature": "g", "to": [5, 4]})
    assert outcome.ok, outcome.error
    after = shown_tokens(table, SPECTATOR, table.seat_view(SPECTATOR))
    assert after["g"]["cells"] == [[5, 4]] and after["g"]["v"] == first["g"]["v"] + 1
    assert first["g"]["cells"] == [[4, 4]]  # the tokens already handed out are left as they were


def test_a_big_maps_tokens_go_in_the_head_as_json_that_no_name_can_break_out_of() -> None:
    """A creature's name is text: in the page's head it stays inside its JSON script, whatever it holds, and reads
    back unchanged."""
    tokens = {
        "a": {"id": "a", "name": "</script><script>alert(1)</script>", "cells": [[0, 0]]},
        "b": {"id": "b", "name": "Ætherwolf & <b>co</b> \u2028", "cells": [[1, 0]]},
    }
    html = head_json("vtt-tokens-7", tokens)
    head, _, rest = html.partition(">")
    body, _, tail = rest.rpartition("</script>")
    assert head == '<script type="application/json" id="vtt-tokens-7"' and tail == ""
    assert "<" not in body and ">" not in body and "&" not in body and body.isascii()
    assert json.loads(body) == tokens
