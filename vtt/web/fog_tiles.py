"""The map's background picture under fog of war, cut to what a seat may see.

Without fog of war, and for the Soulweaver, a page gets the whole picture. Under fog of war a player's or a
spectator's page never gets it: the picture is cut into tiles of `TILE_SPACES` x `TILE_SPACES` spacings from the
grid's origin (a square's side; on a hex grid the distance between neighbouring centres, across and down alike:
`space_box`) and the page is sent, and may fetch, only the tiles that touch a space its seat sees or remembers
(`SeatVision.remembered`, which holds what it sees now and what the Soulweaver revealed). So a tile shows at most a
few spaces past what the seat knows; nothing farther ever reaches its browser. Each tile is cut with a thin margin
(`cut_rect`) so that neighbouring tiles overlap without a seam; the map draws the tiles only on the spaces the
seat knows.

Tiles are fetched by URL (`/api/fog/<pass>/tile/<i>/<j>`). A page's pass is a secret the server derives from its
game, seat and the seat link it was opened with (`seat_pass`): another seat's pass cannot be guessed, a replaced
link's pass (or a watch page's, once watching is turned off) is refused, and each request is checked against the
seat's vision as it is then, so a tile it may not see yet is refused (404). The same pass serves the whole picture
(`/api/fog/<pass>/whole`) to the Soulweaver, or to anyone when the game has no fog of war; the game's public
picture address (`/api/games/<id>/background`) refuses while fog of war is on.

Cutting decodes the picture once and keeps it (the last `DECODED_KEPT` pictures) and keeps the tiles made (by
picture hash and tile, at most `TILE_BYTES_KEPT` bytes); all image work runs in a worker thread, off the event loop.
A background given as an https address cannot be cut (the server does not fetch other sites): under fog of war a
player is shown none.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import io
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from PIL import Image

from vtt.rules.grid import GridKind
from vtt.rules.model import Background, Cell, GameState
from vtt.store import db
from vtt.store.images import BACKGROUND, background_path, image_problem, image_size, image_type
from vtt.table.registry import Games, viewer_for
from vtt.table.table import Table, Viewer

TILE_SPACES = 8
BLEED = 1 / 16
"""The margin cut round a tile, in spaces (`cut_rect`)."""
DECODED_KEPT = 2
TILE_BYTES_KEPT = 48 * 1024 * 1024
SOURCES_KEPT = 4
WEBP_QUALITY = 85
SQRT3 = math.sqrt(3)
EDGE = 1e-9
"""A space whose box only touches a tile's edge does not touch the tile."""
Tile = tuple[int, int]
Rect = tuple[int, int, int, int]
"""Image pixels: left, top, width, height."""


# ---- which tiles a seat may see -----------------------------------------------------------------------------------


def space_box(kind: GridKind, cell: Cell) -> tuple[float, float, float, float]:
    """The bounding box of a space (left, top, right, bottom) in spacings from the grid's origin (a square's side;
    for hexes the distance between neighbouring centres), as the map draws it (`static/map_view.js`)."""
    q, r = cell
    if kind == "square":
        return float(q), float(r), q + 1.0, r + 1.0
    left = q + r / 2
    top = 1.5 * r / SQRT3
    return left, top, left + 1.0, top + 2 / SQRT3


def tiles_of(kind: GridKind, cells: Iterable[Cell]) -> frozenset[Tile]:
    """Every tile that a space of `cells` touches (`space_box`, worked in whole numbers: on a hex grid a space's
    left edge lies at (2q + r) / 2 spacings, and each row's span of tile rows is the same for every column)."""
    if kind == "square":
        return frozenset((q // TILE_SPACES, r // TILE_SPACES) for q, r in cells)
    out: set[Tile] = set()
    rows: dict[int, range] = {}
    side = 2 * TILE_SPACES
    for q, r in cells:
        js = rows.get(r)
        if js is None:
            _, top, _, bottom = space_box(kind, (0, r))
            js = rows[r] = range(math.floor(top / TILE_SPACES), math.floor((bottom - EDGE) / TILE_SPACES) + 1)
        x = 2 * q + r
        for i in range(x // side, (x + 1) // side + 1):
            for j in js:
                out.add((i, j))
    return frozenset(out)


_seen_lock = threading.Lock()
_seen: OrderedDict[tuple[str, int], tuple[frozenset[Cell], frozenset[Tile]]] = OrderedDict()
SEEN_KEPT = 64
SEEN_TRIED = 4


def tiles_seen(kind: GridKind, remembered: frozenset[Cell]) -> frozenset[Tile]:
    """`tiles_of` a seat's remembered spaces, kept per set (a seat's vision of one state is one set, asked for by
    its page and by each tile it fetches). What a seat remembers mostly grows: a set holding one worked out
    before needs only the tiles of the spaces it adds."""
    key = (str(kind), id(remembered))
    with _seen_lock:
        found = _seen.get(key)
        if found is not None and found[0] is remembered:
            _seen.move_to_end(key)
            return found[1]
        recent = [v for k, v in reversed(_seen.items()) if k[0] == key[0]][:SEEN_TRIED]
    base = next((v for v in recent if len(v[0]) <= len(remembered) and v[0] <= remembered), None)
    tiles = tiles_of(kind, remembered) if base is None else base[1] | tiles_of(kind, remembered - base[0])
    with _seen_lock:
        _seen[key] = (remembered, tiles)
        while len(_seen) > SEEN_KEPT:
            _seen.popitem(last=False)
    return tiles


@dataclass(frozen=True)
class Picture:
    """A background picture's bytes, hash and size in pixels."""

    data: bytes
    digest: str
    width: int
    height: int


def tile_rect(bg: Background, width: int, height: int, tile: Tile) -> Rect | None:
    """The image pixels tile `tile` covers (whole pixels, cut to the picture), or None when it covers none."""
    i, j = tile
    side = TILE_SPACES * bg.cell_px
    ox, oy = bg.offset
    left, top = max(0, math.floor(ox + i * side)), max(0, math.floor(oy + j * side))
    right, bottom = min(width, math.ceil(ox + (i + 1) * side)), min(height, math.ceil(oy + (j + 1) * side))
    if right <= left or bottom <= top:
        return None
    return left, top, right - left, bottom - top


def cut_rect(bg: Background, width: int, height: int, tile: Tile) -> Rect | None:
    """The image pixels cut for tile `tile`: its own (`tile_rect`) and a margin of `BLEED` of a space (at least a
    pixel) round them, cut to the picture. Neighbouring tiles overlap by that margin, so that no seam shows between
    them where the map draws them at a fractional scale (each tile's edge is smoothed into its neighbour's)."""
    own = tile_rect(bg, width, height, tile)
    if own is None:
        return None
    margin = max(1, math.ceil(bg.cell_px * BLEED))
    left, top = max(0, own[0] - margin), max(0, own[1] - margin)
    right, bottom = min(width, own[0] + own[2] + margin), min(height, own[1] + own[3] + margin)
    return left, top, right - left, bottom - top


# ---- cutting ----------------------------------------------------------------------------------------------------


class _Cutter:
    """Decoded pictures and cut tiles, kept across pages and games (thread-safe: tiles are cut in workers)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._decoded: OrderedDict[str, Image.Image] = OrderedDict()
        self._tiles: OrderedDict[tuple[str, Rect], bytes] = OrderedDict()
        self._bytes = 0
        self.cut = 0
        """How many tiles were cut (not taken from the cache): for tests."""

    def _image(self, picture: Picture) -> Image.Image:
        with self._lock:
            found = self._decoded.get(picture.digest)
            if found is not None:
                self._decoded.move_to_end(picture.digest)
                return found
        with Image.open(io.BytesIO(picture.data)) as opened:
            image = opened.convert("RGBA" if "A" in opened.getbands() or "transparency" in opened.info else "RGB")
        with self._lock:
            self._decoded[picture.digest] = image
            while len(self._decoded) > DECODED_KEPT:
                self._decoded.popitem(last=False)
        return image

    def tile(self, picture: Picture, rect: Rect) -> bytes:
        key = (picture.digest, rect)
        with self._lock:
            found = self._tiles.get(key)
            if found is not None:
                self._tiles.move_to_end(key)
                return found
        left, top, w, h = rect
        out = io.BytesIO()
        self._image(picture).crop((left, top, left + w, top + h)).save(out, "WEBP", quality=WEBP_QUALITY)
        data = out.getvalue()
        with self._lock:
            self.cut += 1
            if key not in self._tiles:
                self._tiles[key] = data
                self._bytes += len(data)
            while self._bytes > TILE_BYTES_KEPT and self._tiles:
                self._bytes -= len(self._tiles.popitem(last=False)[1])
        return data


CUTTER = _Cutter()


# ---- where a game's picture comes from ----------------------------------------------------------------------------

_sources: OrderedDict[tuple[int | None, str], Picture | None] = OrderedDict()
_sources_lock = threading.Lock()


def stored_image(game_id: int | None, image: str) -> bool:
    """Whether `image` is the game's uploaded picture (`/api/games/<id>/background`, with a version or not)."""
    return game_id is not None and image.split("?")[0] == background_path(game_id)


def _picture_of(data: bytes) -> Picture | None:
    if image_problem(data) is not None:
        return None
    size = image_size(data)
    if size is None:
        return None
    return Picture(data, hashlib.sha256(data).hexdigest(), size[0], size[1])


def load_picture(table: Table, image: str) -> Picture | None:
    """The bytes of the table's background `image` (blocking: call it in a worker), or None when they cannot be
    had: an https address, no stored upload, or not a picture the server takes."""
    key = (table.game_id, image)
    with _sources_lock:
        if key in _sources:
            _sources.move_to_end(key)
            return _sources[key]
    found: Picture | None = None
    if image.startswith("data:"):
        try:
            found = _picture_of(base64.b64decode(image.partition(",")[2], validate=True))
        except (binascii.Error, ValueError):
            found = None
    elif stored_image(table.game_id, image) and table.engine is not None and table.game_id is not None:
        upload = db.load_upload(table.engine, table.game_id, BACKGROUND)
        found = None if upload is None else _picture_of(upload.data)
    with _sources_lock:
        _sources[key] = found
        while len(_sources) > SOURCES_KEPT:
            _sources.popitem(last=False)
    return found


def known_picture(table: Table, image: str) -> tuple[bool, Picture | None]:
    """(whether it was loaded already, the picture), without loading anything."""
    with _sources_lock:
        key = (table.game_id, image)
        return (key in _sources, _sources.get(key))


# ---- a seat's pass ------------------------------------------------------------------------------------------------

_PASS_KEY = secrets.token_bytes(32)


@dataclass(frozen=True)
class Holder:
    """Whom a pass was given to: a page of `viewer` at game `game_id`, opened with the seat link `secret` (None: a
    spectator's watch page)."""

    game_id: int
    viewer: Viewer
    secret: str | None


_passes: dict[str, Holder] = {}


def seat_pass(game_id: int, viewer: Viewer, secret: str | None) -> str:
    """The secret a page of `viewer` at game `game_id`, opened with the seat link `secret` (None: watching), fetches
    its background with: the same for that link while the server runs; a replaced link's pass is refused."""
    message = f"{game_id}\x00{viewer.role}\x00{viewer.name}\x00{secret or ''}".encode()
    found = hmac.new(_PASS_KEY, message, hashlib.sha256).hexdigest()[:40]
    _passes[found] = Holder(game_id, viewer, secret)
    return found


def pass_holder(found: str) -> Holder | None:
    return _passes.get(found)


def holder_allowed(games: Games, holder: Holder) -> bool:
    """Whether the pass's holder may still see the game (blocking: the database): its seat link still opens that
    seat, or, for a spectator, the game may be watched."""
    if holder.secret is None:
        return holder.viewer.is_spectator and bool(games.watchable(holder.game_id))
    seat = games.seat(holder.secret)
    return seat is not None and seat.game_id == holder.game_id and viewer_for(seat) == holder.viewer


# ---- what a page draws ------------------------------------------------------------------------------------------


def seat_tiles(table: Table, viewer: Viewer) -> frozenset[Tile] | None:
    """The tiles the seat may fetch now (None: any; it sees the whole map). Works out the seat's vision if it is
    not known yet: call it in a worker."""
    vision = table.seat_view(viewer).vision
    return None if vision is None else tiles_seen(table.state.settings.grid, vision.remembered)


def whole_allowed(table: Table, viewer: Viewer) -> bool:
    return viewer.is_soulweaver or not table.state.settings.fog_of_war


def background_prop(
    table: Table,
    viewer: Viewer,
    state: GameState,
    remembered: frozenset[Cell] | None,
    picture: Picture | None,
    secret: str | None = None,
) -> dict[str, Any] | None:
    """The map's `background` prop for this page in `state`: the whole picture (its uploaded one, under fog of war,
    by the seat's pass: the public address refuses then), or for a fogged seat (`remembered` not None) the tiles it
    may see, or None. `secret`: the seat link the page was opened with (None: a watch page)."""
    bg = state.board.background
    if bg is None:
        return None
    base = {"offset": list(bg.offset), "cell_px": bg.cell_px, "opacity": bg.opacity}
    game_id = table.game_id
    if remembered is None:
        image = bg.image
        if stored_image(game_id, image) and game_id is not None and state.settings.fog_of_war:
            version = hashlib.sha256(image.encode()).hexdigest()[:12]
            image = f"/api/fog/{seat_pass(game_id, viewer, secret)}/whole?v={version}"
        return {"image": image, **base}
    if picture is None or game_id is None:
        return None
    kind = state.settings.grid
    tiles = []
    key = seat_pass(game_id, viewer, secret)
    for tile in sorted(tiles_seen(kind, remembered)):
        rect = cut_rect(bg, picture.width, picture.height, tile)
        if rect is not None:
            href = f"/api/fog/{key}/tile/{tile[0]}/{tile[1]}?v={picture.digest[:12]}"
            tiles.append([href, *rect])
    return {"image": "", "size": [picture.width, picture.height], "tiles": tiles, **base}


# ---- the routes -----------------------------------------------------------------------------------------------------

HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-cache"}


def _refused(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def make_fog_router(games: Games) -> APIRouter:
    router = APIRouter()

    async def holder_table(found: str) -> tuple[Table, Viewer] | None:
        holder = pass_holder(found)
        if holder is None or not await asyncio.to_thread(holder_allowed, games, holder):
            return None
        return await games.load_table(holder.game_id), holder.viewer

    @router.get("/api/fog/{found}/whole")
    async def whole(found: str) -> Response:
        held = await holder_table(found)
        if held is None:
            return _refused(404, "there is no such picture")
        table, viewer = held
        if not whole_allowed(table, viewer):
            return _refused(403, "under fog of war only the Soulweaver gets the whole map picture")
        bg = table.state.board.background
        picture = None if bg is None else await asyncio.to_thread(load_picture, table, bg.image)
        if picture is None:
            return _refused(404, "this game has no uploaded background picture")
        kind = image_type(picture.data) or "application/octet-stream"
        return Response(picture.data, media_type=kind, headers=HEADERS)

    @router.get("/api/fog/{found}/tile/{i}/{j}")
    async def tile(found: str, i: int, j: int) -> Response:
        held = await holder_table(found)
        if held is None:
            return _refused(404, "there is no such picture")
        table, viewer = held
        state = table.state
        bg = state.board.background
        if bg is None:
            return _refused(404, "this game has no background picture")
        allowed = await asyncio.to_thread(seat_tiles, table, viewer)
        if allowed is not None and (i, j) not in allowed:
            return _refused(404, "there is no such picture")
        picture = await asyncio.to_thread(load_picture, table, bg.image)
        rect = None if picture is None else cut_rect(bg, picture.width, picture.height, (i, j))
        if picture is None or rect is None:
            return _refused(404, "there is no such picture")
        data = await asyncio.to_thread(CUTTER.tile, picture, rect)
        return Response(data, media_type="image/webp", headers=HEADERS)

    return router
