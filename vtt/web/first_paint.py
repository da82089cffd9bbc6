"""What a table page draws first, built in a thread before the page is: the board's layers (walls and terrain,
packed) and the tokens its kind of seat sees.

A page is built on the event loop, which every game shares. The first view of a big board (a game just made or
imported, or loaded after a restart) would build these there: for the largest legal map a tenth of a second and
more in which no other game's move is answered. Built here first, they are kept (`map_editor.board_props`,
`map_view` packed layers, `tokens.shown_tokens`) and the page finds them ready; every later view of the same
state finds them too. What a seat sees is decided by its `SeatView`, as on the page: the tokens are kept per kind
of seat, never shared between seats that see differently.
"""

from __future__ import annotations

import asyncio

from vtt.table.table import Table, Viewer
from vtt.web.map_editor import board_props
from vtt.web.map_view import prepare_layers
from vtt.web.tokens import shown_tokens


def build(table: Table, viewer: Viewer) -> None:
    """Build and keep the board's layers and `viewer`'s tokens of the table's current state (any thread)."""
    state = table.state
    board = state.board
    props = board_props(board)
    prepare_layers(str(state.settings.grid), board.cols, board.rows, props["walls"], props["terrain"])
    shown_tokens(table, viewer, table.seat_view(viewer, state))


async def prepare(table: Table, viewer: Viewer) -> None:
    """`build`, in a thread, so the event loop stays free for other games while it runs."""
    await asyncio.to_thread(build, table, viewer)
