"""Files in and out of the server from the pages: a new game from a Universal VTT map (`.dd2vtt`, `.uvtt`,
`.df2vtt`) on the start page's New game form, and a whole game exported (the Soulweaver's panel) and imported (the
start page) as one archive file (`vtt.table.archive`).

An imported map's picture is not kept in the game's starting state (a few megabytes of `data:` URL would travel with
every page load and every snapshot): it is stored as the game's background upload, and the game's first command is
the Soulweaver's `set_background` naming it, aligned as the file says (its origin on space (0, 0), its pixels per
grid a space).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from nicegui import events, ui

from vtt.maps.uvtt import SUFFIXES, UvttError, uvtt_to_map
from vtt.rules.limits import ARCHIVE_BYTES_MAX
from vtt.store import db
from vtt.store.images import BACKGROUND, IMAGE_TYPES, image_type
from vtt.table.registry import GameError, Games, NewGame, viewer_for
from vtt.web.api import utf8_text

MAX_UVTT_BYTES = 40 * 1024 * 1024
BROKEN_TEXT = "holds a broken character that cannot be shown; save it again from the program that made it"


def _picture(background: dict[str, Any]) -> tuple[str, bytes] | None:
    """The content type and bytes of a background given as a `data:image/...;base64,` URL."""
    image = str(background.get("image", ""))
    head, sep, b64 = image.partition(";base64,")
    if not sep or not head.startswith("data:"):
        return None
    try:
        data = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        return None
    kind = image_type(data)
    return (kind, data) if kind in IMAGE_TYPES else None


async def import_uvtt(games: Games, raw: bytes, filename: str, game_name: str, who: str) -> NewGame:
    """A new square-grid game from a Universal VTT file; `GameError` says what is wrong with it."""
    suffix = PurePath(filename).suffix.lower()
    if suffix not in SUFFIXES:
        raise GameError(f"{filename} is not a Universal VTT file ({', '.join(SUFFIXES)})")
    if len(raw) > MAX_UVTT_BYTES:
        raise GameError(f"{filename} is bigger than {MAX_UVTT_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise GameError(f"{filename} is not a JSON file: {exc}") from None
    if not utf8_text(data):
        raise GameError(f"{filename} {BROKEN_TEXT}")
    name = game_name.strip() or PurePath(filename).stem
    try:
        map_data = uvtt_to_map(data, name, grid="square")
    except UvttError as exc:
        raise GameError(f"{filename}: {exc}") from None
    background = map_data["board"].pop("background", None)
    made = games.create_from_map(name, map_data, who, filename)
    if background is not None:
        picture = _picture(background)
        if picture is not None:
            kind, image = picture
            db.save_upload(games.engine, made.game_id, BACKGROUND, kind, image)
            command = {
                "type": "set_background",
                "image": f"/api/games/{made.game_id}/background",
                "offset": background.get("offset", [0, 0]),
                "cell_px": background.get("cell_px", 70),
                "opacity": background.get("opacity", 1),
            }
            await games.table(made.game_id).submit(viewer_for(made.soulweaver), command)
    return made


NOT_ALLOWED = "Only this server's admins make and import games here."


def render_uvtt_import(
    games: Games, name: ui.input, who: ui.input, opened: Callable[[NewGame], None], allowed: Callable[[], bool]
) -> None:
    """The New game form's Universal VTT import: a button opening the file dialog; the game takes the form's name
    (or the file's) and its creator's name, and `opened` takes the creator to it. `allowed` says, at the upload,
    whether this browser may make games."""

    async def upload(e: events.UploadEventArguments) -> None:
        raw = await e.file.read()
        picker.reset()
        if not allowed():
            ui.notify(NOT_ALLOWED, type="warning", position="top")
            return
        try:
            made = await import_uvtt(games, raw, e.file.name, str(name.value or ""), str(who.value or ""))
        except GameError as exc:
            ui.notify(str(exc), type="warning", position="top", multi_line=True)
            return
        opened(made)

    picker = (
        ui.upload(
            auto_upload=True,
            max_file_size=MAX_UVTT_BYTES,
            on_upload=upload,
            on_rejected=lambda: ui.notify(f"The file is bigger than {MAX_UVTT_BYTES // (1024 * 1024)} MB"),
        )
        .props("data-field=uvtt-file")
        .classes("hidden")
    )
    picker.props["accept"] = ",".join(SUFFIXES)
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


def export_game(games: Games, game_id: int, name: str) -> None:
    """Download the whole game (`vtt.table.archive`): its starting state and its log."""
    try:
        archive = games.export_game(game_id)
    except GameError as exc:
        ui.notify(str(exc), type="warning")
        return
    ui.download.content(json.dumps(archive, indent=1), game_file_name(name), "application/json")


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

        async def upload(e: events.UploadEventArguments) -> None:
            raw = await e.file.read()
            picker.reset()
            if not allowed():
                ui.notify(NOT_ALLOWED, type="warning", position="top")
                return
            try:
                made = await games.import_archive(raw, str(who.value or ""))
            except GameError as exc:
                ui.notify(str(exc), type="warning", position="top", multi_line=True)
                return
            opened(made)

        picker = (
            ui.upload(
                auto_upload=True,
                max_file_size=ARCHIVE_BYTES_MAX,
                on_upload=upload,
                on_rejected=lambda: ui.notify(f"The file is bigger than {ARCHIVE_BYTES_MAX // (1024 * 1024)} MB"),
            )
            .props('accept=".json" data-field=game-file')
            .classes("hidden")
        )
        ui.button("Import game…", on_click=lambda: picker.run_method("pickFiles")).props(
            "outline no-caps icon=upload_file data-action=import-game"
        )
