"""Files in and out of the server from the pages: a new game from a Universal VTT map (`.dd2vtt`, `.uvtt`,
`.df2vtt`) on the start page's New game form, and a whole game exported (the Soulweaver's panel) and imported (the
start page) as one archive file (`vtt.table.archive`).

An imported map's picture is not kept in the game's starting state (a few megabytes of `data:` URL would travel with
every page load and every snapshot): it is stored as the game's background upload, and the game's first command is
the Soulweaver's `set_background` naming it, aligned as the file says (its origin on space (0, 0), its pixels per
grid a space).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import PurePath
from typing import cast

from nicegui import events, ui

from vtt.maps.uvtt import SUFFIXES, UvttError
from vtt.rules.limits import ARCHIVE_BYTES_MAX, UVTT_BYTES_MAX
from vtt.rules.mapfile import MapError
from vtt.store import db
from vtt.store.images import BACKGROUND
from vtt.table.archive import pictures_left_out
from vtt.table.imports import map_file_state, uvtt_import
from vtt.table.offload import TooSlow, WorkerFailed, off_loop
from vtt.table.registry import GameError, Games, Grid, NewGame, viewer_for

MAX_UVTT_BYTES = UVTT_BYTES_MAX
MAX_ARCHIVE_BYTES = ARCHIVE_BYTES_MAX
IMPORT_SECONDS = 30.0
"""The time budget for reading, tracing and checking an imported map (the largest legal one takes a few seconds)."""


async def import_uvtt(games: Games, raw: bytes, filename: str, game_name: str, who: str) -> NewGame:
    """A new square-grid game from a Universal VTT file; `GameError` says what is wrong with it. The file is read,
    its walls traced and the map checked in a worker process (`vtt.table.offload`), so no other game waits."""
    suffix = PurePath(filename).suffix.lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{filename} is not a Universal VTT file ({', '.join(SUFFIXES)})")
    if len(raw) > MAX_UVTT_BYTES:
        raise GameError(f"{filename} is bigger than {MAX_UVTT_BYTES // (1024 * 1024)} MB")
    name = game_name.strip() or PurePath(filename).stem
    try:
        imported = await off_loop(uvtt_import, raw, filename, name, seconds=IMPORT_SECONDS)
    except (UvttError, TooSlow, WorkerFailed) as exc:
        raise GameError(f"{filename}: {exc}") from None
    made = await asyncio.to_thread(games.create_from_map, name, imported.map_data, who, filename, state=imported.state)
    background = imported.background
    if background is not None and imported.picture is not None:
        kind, image = imported.picture
        await asyncio.to_thread(db.save_upload, games.engine, made.game_id, BACKGROUND, kind, image)
        command = {
            "type": "set_background",
            "image": f"/api/games/{made.game_id}/background",
            "offset": background.get("offset", [0, 0]),
            "cell_px": background.get("cell_px", 70),
            "opacity": background.get("opacity", 1),
        }
        table = await games.load_table(made.game_id)
        await table.submit(viewer_for(made.soulweaver), command)
    return made


NOT_ALLOWED = "Only this server's admins make and import games here."


async def create_game(games: Games, name: str, map_file: str, grid: str | None, who: str) -> NewGame:
    """A new game from one of the server's map files (the New game form): the map is read and checked in a worker
    process (`vtt.table.offload`), then stored; `GameError` says what is wrong."""
    initial = None
    if map_file in games.map_files() and grid in (None, "hex", "square"):
        try:
            initial = await off_loop(map_file_state, str(games.maps / map_file), grid, seconds=IMPORT_SECONDS)
        except (MapError, TooSlow, WorkerFailed, OSError) as exc:
            raise GameError(f"{map_file}: {exc}") from None
    return await asyncio.to_thread(games.create, name, map_file, cast(Grid | None, grid), who, initial=initial)


def render_uvtt_import(
    games: Games, name: ui.input, who: ui.input, opened: Callable[[NewGame], None], allowed: Callable[[], bool]
) -> None:
    """The New game form's Universal VTT import: a button opening the file dialog; the game takes the form's name
    (or the file's) and its creator's name, and `opened` takes the creator to it. `allowed` says, at the upload,
    whether this browser may make games."""

    async def make(raw: bytes, filename: str) -> NewGame:
        return await import_uvtt(games, raw, filename, str(name.value or ""), str(who.value or ""))

    picker = _hidden_picker("uvtt-file", ",".join(SUFFIXES), MAX_UVTT_BYTES, make, opened, allowed)
    with ui.row().classes("items-center gap-2"):
        ui.button("Import Universal VTT…", on_click=lambda: picker.run_method("pickFiles")).props(
            "outline no-caps icon=map data-action=import-uvtt"
        )
        ui.label("a .dd2vtt, .uvtt or .df2vtt map: a square-grid game with its walls and picture").classes(
            "text-xs text-stone-600"
        )


def game_file_name(name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "game"
    return f"{slug}.game.json"


def _archive_text(games: Games, game_id: int) -> tuple[str, int]:
    archive = games.export_game(game_id)
    return json.dumps(archive, indent=1), pictures_left_out(archive)


async def export_game(games: Games, game_id: int, name: str) -> None:
    """Download the whole game (`vtt.table.archive`): its starting state, its log and its pictures, read and
    written out off the event loop."""
    try:
        text, left_out = await asyncio.to_thread(_archive_text, games, game_id)
    except GameError as exc:
        ui.notify(str(exc), type="warning")
        return
    ui.download.content(text, game_file_name(name), "application/json")
    if left_out:
        pictures = "picture does" if left_out == 1 else "pictures do"
        ui.notify(
            f"{left_out} token {pictures} not fit in the file (at most {ARCHIVE_BYTES_MAX // (1024 * 1024)} MB): "
            "those tokens will show initials in an imported copy.",
            type="warning",
            position="top",
            multi_line=True,
        )


def render_game_import(games: Games, opened: Callable[[NewGame], None], allowed: Callable[[], bool]) -> None:
    """The start page's Import game: a game archive (an exported `.game.json`) becomes a new game on this server,
    checked in full (off the event loop) before anything is stored; the importer is its Soulweaver. `allowed`
    says, at the upload, whether this browser may make games."""
    with ui.card().classes("p-4 gap-2 w-full import-game"):
        ui.label("Import a game").classes("text-lg font-bold")
        ui.label("A whole game exported from a table (Export game): its map, creatures and log.").classes(
            "text-xs text-stone-600"
        )
        who = (
            ui.input("Your name (you will be its Soulweaver)")
            .props("outlined dense data-field=import-your-name")
            .classes("w-full")
        )

        async def make(raw: bytes, filename: str) -> NewGame:
            return await games.import_archive(raw, str(who.value or ""))

        picker = _hidden_picker("game-file", ".json", ARCHIVE_BYTES_MAX, make, opened, allowed)
        ui.button("Import game…", on_click=lambda: picker.run_method("pickFiles")).props(
            "outline no-caps icon=upload_file data-action=import-game"
        )


def _hidden_picker(
    field: str,
    accept: str,
    max_bytes: int,
    make: Callable[[bytes, str], Awaitable[NewGame]],
    opened: Callable[[NewGame], None],
    allowed: Callable[[], bool],
) -> ui.upload:
    """A hidden file picker (a button opens it with `pickFiles`) whose file `make` turns into a new game, which
    `opened` takes its creator to; `allowed` says, at the upload, whether this browser may make games, and what
    is wrong with the file is told in plain words."""

    async def upload(e: events.UploadEventArguments) -> None:
        raw = await e.file.read()
        picker.reset()
        if not allowed():
            ui.notify(NOT_ALLOWED, type="warning", position="top")
            return
        try:
            made = await make(raw, e.file.name)
        except GameError as exc:
            ui.notify(str(exc), type="warning", position="top", multi_line=True)
            return
        opened(made)

    picker = ui.upload(
        auto_upload=True,
        max_file_size=max_bytes,
        on_upload=upload,
        on_rejected=lambda: ui.notify(f"The file is bigger than {max_bytes // (1024 * 1024)} MB"),
    ).classes("hidden")
    picker.props["data-field"] = field
    picker.props["accept"] = accept
    return picker
