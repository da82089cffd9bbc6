"""The fog of war on one page's map, as the seat view decides it (`SeatView.vision`): the board as the seat knows
it (walls, objects and terrain of the spaces it remembers), the fog layer (spaces seen now, remembered ones dim,
the rest dark; packed like the walls) and the tokens of creatures only heard (an opaque id and their spaces).

The Soulweaver sees everything, and may preview a player's view ("See as"): the fog of that player's seat is then
drawn lighter, over every token, on the Soulweaver's own map; nothing else changes. While one of the fog tools is
chosen (`fog_brush`), the Soulweaver's map shows the fog marks the same way instead (`marks_layer`).

The background picture: the whole one, or under fog of war only its tiles the seat may see (`fog_tiles`); read in
a worker the first time, so a page may get it a moment after the map.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from nicegui import background_tasks, ui

from vtt.rules.model import Board, GameState
from vtt.rules.space import grid_of
from vtt.table.fog import SeatVision
from vtt.table.seat_view import SeatView
from vtt.table.table import Table, Viewer
from vtt.web.attrs import with_data
from vtt.web.fog_tiles import background_prop, known_picture, load_picture
from vtt.web.map_editor import board_props
from vtt.web.map_view import MapView, pack_spaces

HEARD_NAME = "Something heard"
HEARD_PLATE = "Heard"
"""The heard marker's name plate: about a space wide, like a short name, at every zoom (the tooltip keeps
`HEARD_NAME`)."""
HEARD_COLOR = "#5d5750"
BOARD_PARTS = ("walls", "objects", "terrain")


def known_board(board: Board, vision: SeatVision | None) -> dict[str, Any]:
    """`board_props(board)`, or with fog of war only the walls, objects (their remembered spaces) and terrain of
    the spaces the seat remembers. Its background is the whole picture: `PageFog` sends the seat's own
    (`fog_tiles.background_prop`)."""
    props = board_props(board)
    if vision is None:
        return props
    known = vision.remembered

    def seen(cells: list[list[int]]) -> list[list[int]]:
        return [c for c in cells if (c[0], c[1]) in known]

    objects = [{**o, "cells": seen(o["cells"])} for o in props["objects"]]
    return {
        "walls": seen(props["walls"]),
        "objects": [o for o in objects if o["cells"]],
        "terrain": {layer: seen(cells) for layer, cells in props["terrain"].items()},
        "background": props["background"],
    }


LAYERS_KEPT = 16
_LAYERS: list[tuple[SeatVision, Board, bool, dict[str, Any]]] = []
"""The latest fog layers made, with the vision, board and preview flag each was made of: the pages of one kind of
seat share their seat's vision of a state, and its layer is packed once for them all. Never change one."""


def fog_layer(state: GameState, vision: SeatVision | None, preview: bool = False) -> dict[str, Any] | None:
    """The map's fog prop for a seat's vision (None: no fog)."""
    if vision is None:
        return None
    board, hexes = state.board, state.settings.grid == "hex"
    for seen, made_on, was_preview, layer in reversed(_LAYERS):
        if seen is vision and made_on is board and was_preview == preview:
            found: dict[str, Any] = layer
            return found
    made: dict[str, Any] = {
        "visible": pack_spaces(sorted(vision.spaces), hexes, board.cols, board.rows),
        "remembered": pack_spaces(sorted(vision.remembered - vision.spaces), hexes, board.cols, board.rows),
        "preview": preview,
    }
    _LAYERS.append((vision, board, preview, made))
    del _LAYERS[:-LAYERS_KEPT]
    return made


def marks_layer(state: GameState) -> dict[str, Any]:
    """The Soulweaver's view of the fog marks (while a fog tool is chosen), drawn as a preview of the fog:
    revealed spaces clear, unmarked ones dim, hidden ones dark."""
    board, hexes = state.board, state.settings.grid == "hex"
    grid = grid_of(state)
    every = {grid.from_offset(col, row) for row in range(board.rows) for col in range(board.cols)}
    revealed = sorted(every & board.revealed)
    plain = sorted(every - board.revealed - board.hidden)
    return {
        "visible": pack_spaces(revealed, hexes, board.cols, board.rows),
        "remembered": pack_spaces(plain, hexes, board.cols, board.rows),
        "preview": True,
    }


def heard_tokens(seat: SeatView) -> dict[str, dict[str, Any]]:
    """A token for each creature the seat only hears: its spaces and nothing else of it (`SeatView.heard_json`)."""
    return {
        h["id"]: {
            "id": h["id"],
            "v": 0,
            "name": HEARD_NAME,
            "plate": HEARD_PLATE,
            "size": 0,
            "cells": h["cells"],
            "color": HEARD_COLOR,
            "label": "?",
            "grit": [0, 0],
            "energy": [0, 0],
            "resolve": [0, 0],
            "ailments": [],
            "draggable": False,
            "dead": False,
            "prone": False,
            "heard": True,
        }
        for h in seat.heard_json()
    }


class PageFog:
    """The fog of war of one page's map; the page calls `changed` after each change of the table."""

    def __init__(self, table: Table, viewer: Viewer, seat: SeatView, secret: str | None = None) -> None:
        """`secret`: the seat link the page was opened with (None: a watch page); its background pass is bound to
        it."""
        self.table = table
        self.viewer = viewer
        self.secret = secret
        self.preview_as: str | None = None
        """The player whose view the Soulweaver previews, or None."""
        self.show_marks = False
        """The Soulweaver's map shows the fog marks (`marks_layer`): a fog tool is chosen."""
        self.heard: dict[str, dict[str, Any]] = heard_tokens(seat)
        self._fog = self._layer(seat.state, seat)
        self._board = (seat.state.board, self._remembered(seat))
        self.view: MapView | None = None
        """The page's map, once made (the background picture may come a moment after it)."""
        self._loading: set[str] = set()
        self._background = self._background_of(seat)

    @staticmethod
    def _remembered(seat: SeatView) -> frozenset[tuple[int, int]] | None:
        return None if seat.vision is None else seat.vision.remembered

    def _layer(self, state: GameState, seat: SeatView) -> dict[str, Any] | None:
        if self.viewer.is_soulweaver:
            if self.show_marks:
                return marks_layer(state)
            if self.preview_as is None:
                return None
            return fog_layer(state, self.table.fog.vision(state, Viewer("player", self.preview_as), True), True)
        return fog_layer(state, seat.vision)

    def map_props(self, seat: SeatView) -> dict[str, Any]:
        """The `MapView` arguments for the board and the fog, as this seat knows them."""
        return {**known_board(seat.state.board, seat.vision), "fog": self._fog, "background": self._background}

    def _background_of(self, seat: SeatView) -> dict[str, Any] | None:
        """The map's background for this page (`fog_tiles.background_prop`); under fog of war, before the picture
        was read (in a worker), none yet: `_load` sends it when read."""
        remembered = self._remembered(seat)
        bg = seat.state.board.background
        picture = None
        if remembered is not None and bg is not None:
            known, picture = known_picture(self.table, bg.image)
            if not known and bg.image not in self._loading:
                self._loading.add(bg.image)
                background_tasks.create(self._load(bg.image), name="fog-background")
        return background_prop(self.table, self.viewer, seat.state, remembered, picture, self.secret)

    async def _load(self, image: str) -> None:
        try:
            await asyncio.to_thread(load_picture, self.table, image)
        finally:
            self._loading.discard(image)
        if self.view is not None and not self.view.is_deleted:
            self.refresh_background(self.view, self.table.seat_view(self.viewer))

    def refresh_background(self, view: MapView, seat: SeatView) -> None:
        background = self._background_of(seat)
        if background != self._background:
            self._background = background
            view.set_background(background)

    def board_fogged(self, before: SeatView, after: SeatView) -> bool:
        """Whether the board's walls, objects and terrain are this page's to send (fog of war, now or before)."""
        return before.vision is not None or after.vision is not None

    def changed(self, view: MapView, seat: SeatView, tokens: dict[str, dict[str, Any]]) -> None:
        """Bring the map's heard tokens, fog and known board up to date with `seat` (the table's current state)."""
        heard = heard_tokens(seat)
        for hid in sorted(set(self.heard) - set(heard)):
            tokens.pop(hid, None)
            view.remove_token(hid)
        for hid, token in heard.items():
            if self.heard.get(hid) != token:
                tokens[hid] = token
                view.patch_token(token)
        self.heard = heard
        self.refresh_fog(view, seat)
        self.refresh_background(view, seat)
        board, was = (seat.state.board, self._remembered(seat)), self._board
        self._board = board
        if board[1] is None and was[1] is None:
            return  # no fog of war, now or before: the page's own board patch did it
        if board[0] is not was[0] or board[1] != was[1]:
            props = known_board(seat.state.board, seat.vision)
            view.set_board(**{part: props[part] for part in BOARD_PARTS})

    def refresh_fog(self, view: MapView, seat: SeatView) -> None:
        layer = self._layer(seat.state, seat)
        if layer != self._fog:
            self._fog = layer
            view.set_fog(layer)

    def render_preview_select(self, players: Callable[[], dict[str, str]], on_change: Callable[[], None]) -> None:
        """The Soulweaver's "See as" select: everything, or a player's view (their seat's fog of war)."""
        keys = dict(players())
        for c in self.table.state.creatures.values():
            if c.controller and c.controller not in keys:
                keys[c.controller] = c.controller
        options = {"": "everything", **{k: keys[k] for k in sorted(keys)}}

        def pick(e: Any) -> None:
            value = e.value or None
            self.preview_as = value if value in keys else None
            on_change()

        picker = ui.select(options, value=self.preview_as or "", label="See as", on_change=pick)
        with_data(picker.props("dense outlined options-dense").classes("w-full see-as"), field="see-as")
