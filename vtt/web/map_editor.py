"""The Soulweaver's map editor on the table page: paint walls, objects, water, Uneven Ground and conductive
material with a stroke of the mouse, erase them, lay a background image under the grid and align the grid to it,
resize the map, place creatures from the library, and export the map as a map file.

Every change is a command (`edit_board`, `set_background`, `resize_board`, `add_creature`) sent through the table,
which checks it and refuses what the rules do not allow (a wall over a creature, an object over a wall, a space off
the map); the editor only turns strokes and clicks into commands: one `edit_board` per stroke, not per space. The
map shows the result when the table tells every page (`board_patch`).
"""

from __future__ import annotations

import base64
import json
import re
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from nicegui import events, run, ui
from sqlalchemy.engine import Engine

from vtt.library import LibraryError, creature_library, library_creature
from vtt.rules.mapfile import map_json
from vtt.rules.model import Board, Cell, GameState
from vtt.store import db
from vtt.store.images import BACKGROUND, MAX_UPLOAD_BYTES, image_problem, image_type
from vtt.table.table import Table
from vtt.web.attrs import with_data
from vtt.web.map_view import MapView

Send = Callable[[dict[str, Any]], Awaitable[bool]]

TOOLS: dict[str, tuple[str, str]] = {
    "wall": ("Wall", "fence"),
    "object": ("Object", "inventory_2"),
    "water": ("Water", "water"),
    "uneven": ("Uneven Ground", "landslide"),
    "conductive": ("Conductive", "bolt"),
    "erase": ("Erase", "backspace"),
}
"""The painting tools: layer (or erase) -> label and icon."""
LAYERS = ("wall", "object", "water", "uneven", "conductive")
DEFAULT_CELL_PX = 70.0
USER_PREFIX = "user:"
STARTER_PREFIX = "starter:"


# ---- what the map shows of a board ------------------------------------------------------------------------------


def objects_of(board: Board) -> list[dict[str, Any]]:
    return [
        {
            "id": o.id,
            "name": f"{o.name} (broken)" if o.broken else o.name,
            "cells": [list(c) for c in o.cells],
            "kind": "object",
            "size": o.size,
            "durability": o.durability,
        }
        for o in board.objects
    ]


def terrain_of(board: Board) -> dict[str, list[list[int]]]:
    return {
        "water": [list(c) for c in sorted(board.water)],
        "uneven": [[q, r, t] for (q, r), t in sorted(board.uneven.items())],
        "conductive": sorted([list(c) for piece in board.conductive for c in piece]),
    }


def background_of(board: Board) -> dict[str, Any] | None:
    bg = board.background
    if bg is None:
        return None
    return {"image": bg.image, "offset": list(bg.offset), "cell_px": bg.cell_px, "opacity": bg.opacity}


_DRAWN: dict[int, tuple[weakref.ref[Board], tuple[int, ...], dict[str, Any]]] = {}
"""`board_props` of each board still in use (by its id, gone with it), with the ids of the collections it was made
from: every page view of a game draws the same board, and a 200 x 200 map's is worth keeping (the rules replace a
board's collections, never change them in place, so the same ids mean the same board)."""


def board_props(board: Board) -> dict[str, Any]:
    """The `MapView` arguments that draw `board`: walls, objects, terrain and background (shared: do not change)."""
    key = tuple(map(id, (board.walls, board.objects, board.water, board.uneven, board.conductive, board.background)))
    drawn = _DRAWN.get(id(board))
    if drawn is not None and drawn[0]() is board and drawn[1] == key:
        return drawn[2]
    props = {
        "walls": [list(c) for c in sorted(board.walls)],
        "objects": objects_of(board),
        "terrain": terrain_of(board),
        "background": background_of(board),
    }
    board_id = id(board)
    _DRAWN[board_id] = (weakref.ref(board, lambda _: _DRAWN.pop(board_id, None)), key, props)
    return props


def board_patch(before: Board, after: Board) -> dict[str, Any]:
    """The `MapView.set_board` arguments for the parts of the board that changed (of the terrain, only the layers
    that changed); `{}` when the map looks the same."""
    patch: dict[str, Any] = {}
    if before.cols != after.cols:
        patch["cols"] = after.cols
    if before.rows != after.rows:
        patch["rows"] = after.rows
    if before.walls != after.walls:
        patch["walls"] = [list(c) for c in sorted(after.walls)]
    if before.objects != after.objects:
        patch["objects"] = objects_of(after)
    old, new = terrain_of(before), terrain_of(after)
    layers = {k: v for k, v in new.items() if old[k] != v}
    if layers:
        patch["terrain"] = layers
    return patch


# ---- the library the editor places from -------------------------------------------------------------------------


@dataclass(frozen=True)
class LibraryEntry:
    key: str
    """`starter:<id>` or `user:<slug>`."""
    name: str
    description: str
    data: dict[str, Any]

    @property
    def user_made(self) -> bool:
        return self.key.startswith(USER_PREFIX)


def library_entries(engine: Engine | None) -> list[LibraryEntry]:
    """The starter library, then the creatures made in the library form (stored server-wide)."""
    out = [
        LibraryEntry(STARTER_PREFIX + eid, str(e.get("name", eid)), str(e.get("description", "")), e)
        for eid, e in creature_library().items()
    ]
    if engine is not None:
        out += [
            LibraryEntry(u.key, u.name, str(u.data.get("description", "")), u.data)
            for u in db.library_creatures(engine)
        ]
    return out


# ---- strokes to commands ------------------------------------------------------------------------------------------


def erase_commands(board: Board, cells: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The Erase tool: one `edit_board` per layer that has something in the stroke's spaces."""
    stroke: list[Cell] = [(int(c[0]), int(c[1])) for c in cells]
    present: dict[str, set[Cell]] = {
        "wall": set(board.walls),
        "object": {c for o in board.objects for c in o.cells},
        "water": set(board.water),
        "uneven": set(board.uneven),
        "conductive": {c for piece in board.conductive for c in piece},
    }
    out: list[dict[str, Any]] = []
    for layer in LAYERS:
        hit = [list(c) for c in stroke if c in present[layer]]
        if hit:
            out.append({"type": "edit_board", "layer": layer, "erase": hit})
    return out


def paint_command(tool: str, cells: Sequence[Sequence[int]], options: dict[str, Any]) -> dict[str, Any]:
    """One stroke of a painting tool as one `edit_board`. `options`: the object's name, size and durability, the
    Uneven Ground's tier (sent as given: the table checks them)."""
    cmd: dict[str, Any] = {"type": "edit_board", "layer": tool, "paint": [[int(c[0]), int(c[1])] for c in cells]}
    if tool == "uneven":
        cmd["tier"] = options.get("tier")
    elif tool == "object":
        spec: dict[str, Any] = {"name": options.get("name"), "size": options.get("size")}
        if options.get("durability") is not None:
            spec["durability"] = options["durability"]
        cmd["object"] = spec
    return cmd


def map_file_name(name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "map"
    return f"{slug}.map.json"


def map_file(state: GameState, name: str, picture: tuple[str, bytes] | None = None) -> str:
    """The map file (format 1, `docs/map-format.md`) of the current board and creatures. `picture` (its type and
    bytes) is the game's uploaded background: written into the file as a data URL in place of this server's
    `/api/...` path, so the file shows it anywhere."""
    data = map_json(state, name, f"Exported from the game {name!r}")
    background = data.get("board", {}).get("background")
    if picture is not None and background and str(background.get("image", "")).startswith("/api/"):
        content_type, raw = picture
        background["image"] = f"data:{content_type};base64,{base64.b64encode(raw).decode()}"
    return json.dumps(data, indent=1)


def whole_number(value: Any) -> int | float | None:
    """A number input's value, as a whole number when it is one, None when empty. Anything else is sent as it is,
    for the table to refuse: nothing here decides what is legal."""
    if value is None or value == "":
        return None
    number = float(value)
    return int(number) if number.is_integer() else number


class MapEditor:
    """The editor's controls (built once per Soulweaver page) and its handlers on the map."""

    def __init__(
        self,
        table: Table,
        engine: Engine | None,
        map_view: MapView,
        send: Send,
        export_game: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.table = table
        self.engine = engine
        self.map = map_view
        self.send = send
        self.active = False
        self.tool = "wall"
        self.placing: LibraryEntry | None = None
        self._sent: dict[str, Any] | None = None
        """The background this editor last sent."""
        self._entries: dict[str, LibraryEntry] = {}
        self._tool_buttons: dict[str, ui.button] = {}
        with ui.card().classes("w-full p-2 gap-1 map-editor"):
            with ui.row().classes("items-center gap-2 w-full"):
                self.toggle_button = ui.button("Edit map", on_click=self.toggle).props(
                    "dense outline icon=edit_location_alt data-action=edit-map"
                )
                ui.button("Export map file", on_click=self.export_map).props(
                    "dense flat no-caps icon=download data-action=export-map"
                ).tooltip("The board and the creatures as a map file (docs/map-format.md)")
                if export_game is not None:
                    ui.button("Export game", on_click=export_game).props(
                        "dense flat no-caps icon=archive data-action=export-game"
                    ).tooltip("The whole game, its log included, to import on a server")
            # built when first opened: most pages never open it, and every page would build and draw it (and read
            # the library) before its map shows
            self.body = ui.column().classes("w-full gap-2")
            self.body.set_visibility(False)
            self._built = False
        map_view.on_paint(self._on_stroke)
        map_view.on_cell_click(self._on_cell_click)
        map_view.on_cancel(lambda _: self._stop_placing())

    # ---- building the controls --------------------------------------------------------------------------------

    def _build_tools(self) -> None:
        ui.label("Paint: press and drag across spaces (right button pans)").classes("text-xs text-stone-600")
        with ui.row().classes("gap-1 flex-wrap tools"):
            for key, (label, icon) in TOOLS.items():
                button = ui.button(label, icon=icon, on_click=lambda _, k=key: self.choose_tool(k))
                self._tool_buttons[key] = with_data(button.props("dense no-caps size=sm"), tool=key)
        with ui.row().classes("gap-1 items-end no-wrap object-options") as self.object_options:
            self.object_name = ui.input("Object", value="Crate").props("dense outlined data-field=object-name")
            self.object_size = ui.number("Size", value=1, step=1).props("dense outlined data-field=object-size")
            self.object_durability = ui.number("Durability", value=None, step=1).props(
                "dense outlined clearable data-field=object-durability"
            )
        for field in (self.object_name, self.object_size, self.object_durability):
            field.classes("w-24")
        self.object_name.classes("grow")
        with ui.row().classes("gap-1 items-end uneven-options") as self.uneven_options:
            self.uneven_tier = ui.number("Tier", value=2, step=1).props("dense outlined data-field=uneven-tier")
            self.uneven_tier.classes("w-24")
        self._show_tool()

    def _build_library(self) -> None:
        with ui.expansion("Place creatures", icon="pets").props("dense").classes("w-full library-panel") as exp:
            self.library_expansion = exp
            self.library_select = (
                ui.select({}, label="Library entry", with_input=True, on_change=lambda e: self._pick(e.value))
                .props("dense outlined options-dense clearable data-field=library-entry")
                .classes("w-full")
            )
            self.library_hint = ui.label("Pick an entry, then click a space: each click places a copy.").classes(
                "text-xs text-stone-600 library-hint"
            )
            self.place_hidden = ui.checkbox("Place hidden (only you see them)").props("dense data-field=place-hidden")
            ui.link("Make or edit creatures in the library", "/library", new_tab=True).classes("text-xs")
        self._load_library()

    def _build_background(self) -> None:
        with ui.expansion("Background image", icon="image").props("dense").classes("w-full background-panel"):
            # the uploader itself stays out of sight: a button opens its file dialog
            self.upload = (
                ui.upload(
                    auto_upload=True,
                    max_file_size=MAX_UPLOAD_BYTES,
                    on_upload=self._on_upload,
                    on_rejected=lambda: ui.notify(
                        f"The image is bigger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB", type="warning"
                    ),
                )
                .props('accept=".png,.jpg,.jpeg,.webp" data-field=background-upload')
                .classes("hidden")
            )
            ui.button("Upload an image…", on_click=lambda: self.upload.run_method("pickFiles")).props(
                "dense outline no-caps icon=upload data-action=upload-background"
            ).tooltip(f"PNG, JPEG or WebP, at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
            bg = self.table.state.board.background
            with ui.row().classes("gap-1 no-wrap items-end"):
                self.offset_x = ui.number("Offset x", value=bg.offset[0] if bg else 0, step=1).props(
                    "dense outlined data-field=offset-x"
                )
                self.offset_y = ui.number("Offset y", value=bg.offset[1] if bg else 0, step=1).props(
                    "dense outlined data-field=offset-y"
                )
                self.cell_px = ui.number(
                    "Pixels a space", value=bg.cell_px if bg else DEFAULT_CELL_PX, step=1, min=1
                ).props("dense outlined data-field=cell-px")
            for field in (self.offset_x, self.offset_y, self.cell_px):
                field.classes("w-28").on("change", self._align).on("keydown.enter", self._align)
            with ui.row().classes("gap-2 items-center no-wrap w-full"):
                ui.label("Opacity").classes("text-xs")
                self.opacity = (
                    ui.slider(min=0, max=1, step=0.05, value=bg.opacity if bg else 1)
                    .props("dense label data-field=opacity")
                    .classes("grow")
                )
                self.opacity.on("change", self._align)
            ui.label(
                "Offset: the image pixel on the top-left corner of space (0, 0); pixels a space: a square's side, or "
                "the distance between neighbouring hex centres."
            ).classes("text-xs text-stone-600")
            ui.button("Remove background", on_click=self._remove_background).props(
                "dense flat no-caps color=negative data-action=remove-background"
            )

    def _build_size(self) -> None:
        board = self.table.state.board
        with ui.row().classes("gap-1 items-end no-wrap map-size"):
            self.cols = ui.number("Columns", value=board.cols, step=1).props("dense outlined data-field=cols")
            self.rows = ui.number("Rows", value=board.rows, step=1).props("dense outlined data-field=rows")
            for field in (self.cols, self.rows):
                field.classes("w-24")
            ui.button("Resize", on_click=self._resize).props("dense outline no-caps data-action=resize-map")

    # ---- mode and tools ---------------------------------------------------------------------------------------

    def _build_body(self) -> None:
        if self._built:
            return
        self._built = True
        with self.body:
            self._build_tools()
            self._build_library()
            self._build_background()
            self._build_size()

    def toggle(self) -> None:
        self.active = not self.active
        if self.active and not self._built:
            self._build_body()  # reads the library
        elif self.active:
            self._load_library()
        self.body.set_visibility(self.active)
        self.toggle_button.props(remove="outline unelevated")
        self.toggle_button.props(add="unelevated" if self.active else "outline")
        self.toggle_button.text = "Done editing" if self.active else "Edit map"
        if not self.active:
            self.placing = None
            self.library_select.set_value(None)
        self._apply_mode()

    def choose_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            return
        self.tool = tool
        self._stop_placing(keep_mode=True)
        self._show_tool()
        self._apply_mode()

    def _show_tool(self) -> None:
        for key, button in self._tool_buttons.items():
            on = key == self.tool and self.placing is None
            button.props(remove="outline unelevated")
            button.props(add="unelevated" if on else "outline")
        self.object_options.set_visibility(self.tool == "object")
        self.uneven_options.set_visibility(self.tool == "uneven")

    def _apply_mode(self) -> None:
        if not self.active:
            self.map.set_mode(None)
        elif self.placing is not None:
            self.map.set_mode("place")
        else:
            self.map.set_mode("erase" if self.tool == "erase" else "paint")

    # ---- painting -----------------------------------------------------------------------------------------------

    def _options(self) -> dict[str, Any]:
        try:
            return {
                "name": str(self.object_name.value or "").strip(),
                "size": whole_number(self.object_size.value),
                "durability": whole_number(self.object_durability.value),
                "tier": whole_number(self.uneven_tier.value),
            }
        except (TypeError, ValueError):
            return {}

    async def _on_stroke(self, e: events.GenericEventArguments) -> None:
        if not self.active or self.placing is not None:
            return
        cells = e.args["cells"]
        if self.tool == "erase":
            commands = erase_commands(self.table.state.board, cells)
            if not commands:
                ui.notify("Nothing to erase there", position="top")
        else:
            commands = [paint_command(self.tool, cells, self._options())]
        for cmd in commands:
            if not await self.send(cmd):
                return

    # ---- placing creatures ----------------------------------------------------------------------------------

    def _load_library(self) -> None:
        try:
            entries = library_entries(self.engine)
        except LibraryError as exc:
            ui.notify(f"The library is not valid: {exc}", type="negative")
            entries = []
        self._entries = {e.key: e for e in entries}
        options = {e.key: f"{e.name}{' (yours)' if e.user_made else ''}" for e in entries}
        self.library_select.set_options(
            options, value=self.library_select.value if self.library_select.value in options else None
        )

    def _pick(self, key: Any) -> None:
        entry = self._entries.get(str(key)) if key else None
        self.placing = entry
        if entry is None:
            self.library_hint.set_text("Pick an entry, then click a space: each click places a copy.")
        else:
            about = f" {entry.description}" if entry.description else ""
            self.library_hint.set_text(f"Click a space to place a {entry.name} (Escape stops).{about}")
        self._show_tool()
        self._apply_mode()

    def _stop_placing(self, keep_mode: bool = False) -> None:
        if self.placing is None:
            return
        self.placing = None
        self.library_select.set_value(None)
        if not keep_mode:
            self._show_tool()
            self._apply_mode()

    async def _on_cell_click(self, e: events.GenericEventArguments) -> None:
        entry = self.placing
        if not self.active or entry is None:
            return
        at = (int(e.args["q"]), int(e.args["r"]))
        try:
            cmd = library_creature(entry.data, at)
        except (LibraryError, ValueError) as exc:
            ui.notify(f"{entry.name} cannot be placed: {exc}", type="warning", position="top")
            return
        if self.place_hidden.value:
            cmd["creature"]["hidden"] = True
        await self.send(cmd)

    # ---- background ------------------------------------------------------------------------------------------

    async def _on_upload(self, e: events.UploadEventArguments) -> None:
        data = await e.file.read()
        kind = image_type(data)
        if kind is None:
            ui.notify("That file is not a PNG, JPEG or WebP image", type="warning", position="top")
            self.upload.reset()
            return
        why = image_problem(data)
        if why is not None:
            ui.notify(f"That image cannot be used: {why}", type="warning", position="top")
            self.upload.reset()
            return
        game_id = self.table.game_id
        if self.engine is not None and game_id is not None:
            await run.io_bound(db.save_upload, self.engine, game_id, BACKGROUND, kind, data)
            stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
            image = f"/api/games/{game_id}/background?v={stamp}"
        else:  # a table without a database (tests, demos): the image travels in the command
            image = f"data:{kind};base64,{base64.b64encode(data).decode()}"
        self.upload.reset()
        await self._send_background(image)

    async def _align(self) -> None:
        bg = self.table.state.board.background
        if bg is None:
            return
        await self._send_background(bg.image)

    async def _send_background(self, image: str) -> None:
        shown = {
            "image": image,
            "offset": [self.offset_x.value or 0, self.offset_y.value or 0],
            "cell_px": self.cell_px.value,
            "opacity": self.opacity.value,
        }
        if shown == background_of(self.table.state.board):
            return  # a change event of a field that did not change
        self._sent = shown
        await self.send({"type": "set_background", **shown})

    async def _remove_background(self) -> None:
        if self.table.state.board.background is None:
            ui.notify("The map has no background image", position="top")
            return
        await self.send({"type": "set_background", "image": None})

    async def _resize(self) -> None:
        await self.send(
            {"type": "resize_board", "cols": whole_number(self.cols.value), "rows": whole_number(self.rows.value)}
        )

    # ---- the table changed ---------------------------------------------------------------------------------

    def board_changed(self, before: Board, after: Board) -> None:
        """Keep the size and background fields in step with the board when someone else (another page, an undo)
        changed them; what this editor sent itself is already in its fields, maybe typed further since."""
        if not self._built:
            return  # its fields will show the board as it is then
        if (before.cols, before.rows) != (after.cols, after.rows):
            self.cols.set_value(after.cols)
            self.rows.set_value(after.rows)
        bg = after.background
        if bg is not None and before.background != bg and background_of(after) != self._sent:
            self.offset_x.set_value(bg.offset[0])
            self.offset_y.set_value(bg.offset[1])
            self.cell_px.set_value(bg.cell_px)
            self.opacity.set_value(bg.opacity)

    # ---- export -------------------------------------------------------------------------------------------------

    def export_map(self) -> None:
        stored = None
        if self.table.engine is not None and self.table.game_id is not None:
            stored = db.load_upload(self.table.engine, self.table.game_id, BACKGROUND)
        picture = None if stored is None else (stored.content_type, stored.data)
        ui.download.content(
            map_file(self.table.state, self.table.name, picture), map_file_name(self.table.name), "application/json"
        )
