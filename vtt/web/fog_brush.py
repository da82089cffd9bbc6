"""The Soulweaver's fog tools on the table page: Reveal, Hide and Clear, a toggle of buttons (reached with Tab,
chosen with Enter or Space; Escape on the map or "Off" puts it away).

With a tool chosen, a press and drag on the map marks the rectangle it spans (a click marks one space; with
"Rectangle" off, only the spaces stroked), sent as one `mark_fog` command (`vtt.rules.fog_marks`: the table checks
it, logs it and can undo it). While a tool is chosen, the Soulweaver's map shows the marks: revealed spaces clear,
unmarked ones dim, hidden ones dark. The map editor's painting and the fog tools share the map's strokes, so
opening the editor puts the fog tools away, and choosing a fog tool closes the editor.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import events, ui

from vtt.rules.fog_marks import stroke_rectangle
from vtt.rules.model import Cell
from vtt.rules.space import grid_of
from vtt.table.table import Table
from vtt.web.attrs import with_data
from vtt.web.fog_view import PageFog
from vtt.web.map_editor import MapEditor
from vtt.web.map_view import MapView

Send = Callable[[dict[str, Any]], Awaitable[bool]]
TOOLS = {"": "Off", "reveal": "Reveal", "hide": "Hide", "clear": "Clear"}
HINTS = {
    "": "Reveal spaces to the players, or hide them even from their creatures' sight.",
    "reveal": "Drag across the map: the players see that rectangle, and every creature in it.",
    "hide": "Drag across the map: the players never see that rectangle, even in sight.",
    "clear": "Drag across the map: their creatures' senses alone decide again there.",
}
NO_FOG = "Fog of war is off in this game: the marks count once it is on (Settings)."


class FogBrush:
    """The fog tools of one Soulweaver page."""

    def __init__(self, table: Table, fog: PageFog, view: MapView, send: Send) -> None:
        self.table, self.fog, self.view, self.send = table, fog, view, send
        self.editor: MapEditor | None = None
        self.tool = ""
        with ui.column().classes("w-full gap-1 fog-tools"):
            ui.label("Fog of war by hand").classes("text-sm font-bold text-stone-700")
            self.toggle = ui.toggle(TOOLS, value="", on_change=lambda e: self.choose(str(e.value or "")))
            with_data(
                self.toggle.props("dense no-caps spread toggle-color=brown-8").classes("w-full"), field="fog-tool"
            )
            self.rectangle = ui.checkbox("Rectangle", value=True).props("dense data-field=fog-rectangle")
            self.hint = ui.label(HINTS[""]).classes("text-xs text-stone-600 fog-hint")
        view.on_paint(self._on_stroke)
        view.on_cancel(lambda _: self.toggle.set_value(""))

    def attach(self, editor: MapEditor) -> None:
        """Share the map's strokes with the map editor: opening it puts the fog tools away."""
        self.editor = editor
        editor.toggle_button.on("click", lambda: self.toggle.set_value("") if self.editing() else None)

    def editing(self) -> bool:
        return self.editor is not None and self.editor.active

    def choose(self, tool: str) -> None:
        """Choose a tool ("" puts them away)."""
        self.tool = tool if tool in TOOLS else ""
        hint = HINTS[self.tool]
        if self.tool and not self.table.state.settings.fog_of_war:
            hint = f"{hint} {NO_FOG}"
        self.hint.set_text(hint)
        self.fog.show_marks = bool(self.tool)
        if self.tool and self.editor is not None and self.editor.active:
            self.editor.toggle()  # choosing a fog tool closes the map editor
        if not self.editing():
            self.view.set_mode("paint" if self.tool else None)
        self.fog.refresh_fog(self.view, self.table.seat_view(self.fog.viewer))

    def marked_cells(self, stroke: list[Cell]) -> list[Cell]:
        """The spaces a stroke marks: the rectangle around it, or the spaces stroked."""
        if self.rectangle.value:
            return stroke_rectangle(grid_of(self.table.state), self.table.state.board, stroke)
        return stroke

    async def _on_stroke(self, e: events.GenericEventArguments) -> None:
        if not self.tool or self.editing():
            return
        try:
            stroke = [(int(c[0]), int(c[1])) for c in e.args["cells"]]
        except (KeyError, TypeError, ValueError, IndexError):
            return
        cells = self.marked_cells(stroke)
        if cells:
            await self.send({"type": "mark_fog", "mark": self.tool, "cells": [list(c) for c in cells]})
