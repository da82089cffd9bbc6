"""The heavy part of making a game from a file, as plain functions a worker process runs (`vtt.table.offload`):
decoding, converting a Universal VTT map (tracing its walls) and checking the whole map. Each returns everything
the caller then stores, and raises `UvttError` or `MapError` naming what is wrong; none touches the database.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vtt.maps.uvtt import UvttError, uvtt_to_map
from vtt.rules.limits import MAP_FILE_BYTES_MAX, UVTT_BYTES_MAX
from vtt.rules.mapfile import MapError, load_map, parse_json_text
from vtt.rules.model import GameState
from vtt.rules.settings import TableSettings
from vtt.store.images import image_problem, image_type


@dataclass(frozen=True)
class ImportedMap:
    """A checked map: its file data (without its picture), its starting state, and its picture apart."""

    map_data: dict[str, Any]
    state: GameState
    background: dict[str, Any] | None
    picture: tuple[str, bytes] | None


def picture_of(background: dict[str, Any]) -> tuple[str, bytes] | None:
    """The content type and bytes of a background given as a `data:image/...;base64,` URL; `UvttError` when the
    picture is too big in pixels (see `vtt.store.images`)."""
    image = str(background.get("image", ""))
    head, sep, b64 = image.partition(";base64,")
    if not sep or not head.startswith("data:"):
        return None
    try:
        data = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        return None
    kind = image_type(data)
    if kind is None:
        return None
    why = image_problem(data)
    if why is not None:
        raise UvttError([f"image: {why}"])
    return kind, data


def uvtt_import(raw: bytes, filename: str, name: str) -> ImportedMap:
    """A Universal VTT file's bytes as a checked square-grid map (`UvttError` names each problem)."""
    if len(raw) > UVTT_BYTES_MAX:
        raise UvttError([f"file: bigger than {UVTT_BYTES_MAX // (1024 * 1024)} MB"])
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise UvttError([f"file: {filename} is not a JSON file ({exc})"]) from None
    map_data = uvtt_to_map(data, name, grid="square")
    background = map_data["board"].pop("background", None)
    picture = picture_of(background) if background is not None else None
    try:
        state = load_map(map_data)
    except MapError as exc:
        raise UvttError(exc.problems) from None
    return ImportedMap(map_data, state, background, picture)


def map_file_state(path: str, grid: str | None) -> GameState:
    """The starting state of a map file on the server (`MapError` names each problem), on `grid` when given."""
    file = Path(path)
    if file.stat().st_size > MAP_FILE_BYTES_MAX:
        raise MapError([f"file: bigger than {MAP_FILE_BYTES_MAX // (1024 * 1024)} MB"])
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise MapError(["file: not UTF-8 text"]) from None
    try:
        state = load_map(parse_json_text(text))
    except RecursionError:
        raise MapError(["file: nested too deeply"]) from None
    if grid is not None:
        settings = TableSettings.model_validate({**state.settings.model_dump(), "grid": grid})
        state = state.model_copy(update={"settings": settings})
    return state
