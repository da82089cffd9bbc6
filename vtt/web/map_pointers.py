"""A table page's ruler, pings and keys: what its map sends goes through the table's `Pointers` (checked there),
and what the other seats at the table measure and ping is drawn on its map.

The keys the map passes on (`map_view.KEYS`) do what the page's buttons do, only where the button would be there and
enabled: ``E`` ends the turn for the seat whose turn it is, and the Soulweaver's ``Ctrl+Z`` / ``Ctrl+Shift+Z`` undo
and redo; for anyone else they do nothing (the table checks each command again anyway).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import events, ui

from vtt.table.pointers import PING, RULER, RULER_END, PointerError, pointers_of
from vtt.table.table import Table, Viewer
from vtt.web.map_view import MapView

Send = Callable[[dict[str, Any]], Awaitable[bool]]
_PAGES = itertools.count(1)


class MapPointers:
    """Wires one page's map to its table's rulers and pings, and its keys to the page's commands."""

    def __init__(
        self,
        table: Table,
        viewer: Viewer,
        map_view: MapView,
        name: Callable[[], str],
        may_end_turn: Callable[[], bool],
        send: Send,
    ) -> None:
        self.table = table
        self.viewer = viewer
        self.map = map_view
        self._name = name
        self._may_end_turn = may_end_turn
        self._send = send
        self.page = next(_PAGES)
        self.pointers = pointers_of(table)
        self.pointers.subscribe(self)
        map_view.on_ruler(self._on_ruler)
        map_view.on_ruler_end(lambda _: self.pointers.release(viewer, self.page))
        map_view.on_ping(self._on_ping)
        map_view.on_key(self._on_key)

    def pointer_message(self, message: dict[str, Any]) -> None:
        """A ruler or ping from a seat at this table (this page's own included): draw it."""
        kind = message.get("kind")
        if kind == RULER:
            self.map.show_ruler(message)
        elif kind == RULER_END:
            self.map.clear_ruler(str(message.get("hand")))
        elif kind == PING:
            self.map.show_ping(message)

    def _refuse(self, error: PointerError) -> None:
        reason = str(error)
        ui.notify(reason[:1].upper() + reason[1:], type="warning", position="top")

    def _on_ruler(self, e: events.GenericEventArguments) -> None:
        try:
            state, name = self.table.state, self._name()
            self.pointers.ruler(state, self.viewer, name, e.args["from"], e.args["to"], self.page)
        except PointerError as error:
            self._refuse(error)

    def _on_ping(self, e: events.GenericEventArguments) -> None:
        try:
            self.pointers.ping(self.table.state, self.viewer, self._name(), [e.args["q"], e.args["r"]])
        except PointerError as error:
            self._refuse(error)

    async def _on_key(self, e: events.GenericEventArguments) -> None:
        key = e.args["key"]
        if key == "end_turn":
            if self._may_end_turn():
                await self._send({"type": "end_turn"})
        elif self.viewer.is_soulweaver:
            if key == "undo" and self.table.undo_group():
                await self._send({"type": "undo"})
            elif key == "redo" and self.table.can_redo():
                await self._send({"type": "redo"})

    def close(self) -> None:
        """The page is gone: its ruler, if held, disappears for everyone."""
        self.pointers.unsubscribe(self)
        self.pointers.release(self.viewer, self.page)
