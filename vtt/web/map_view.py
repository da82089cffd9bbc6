"""The map element: a NiceGUI element backed by the plain-JS Vue component ``static/map_view.js``.

The browser renders the SVG map (grid, walls, objects, tokens, highlights) from compact props and handles
drag, zoom and pan on its own. Python only receives the resulting events (``token_move``, ``token_click``,
``cell_click``, ``cancel``, ``drag_start``, in the map editor's paint mode ``paint_stroke``, and with the map's tools
``ruler``, ``ruler_end``, ``ping`` and ``key``) and pushes small patches back with ``run_method`` (``patch_token``,
``set_board``, ``set_background``, ``show_ruler``, ``show_ping``...); it never re-sends the
full props after construction (pitfall: nested writes into ``_props`` would trigger a full update, so every write
happens under ``suspend_updates()``).

Coordinates: hex maps use pointy-top axial ``(q, r)`` on a ``cols x rows`` odd-r rectangle
(``col = q + (r - (r & 1)) // 2``, ``row = r``); square maps use ``(x, y)`` column/row.
"""

from __future__ import annotations

import base64
import copy
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Self

from nicegui import events, helpers, ui

from vtt.rules.limits import MAP_SIDE_MAX
from vtt.table import latency_trace
from vtt.web.one_message import Batched
from vtt.web.pair_memo import PairMemo

EventHandler = events.Handler[events.GenericEventArguments]

GRIDS = ("hex", "square")
HIGHLIGHT_KINDS = ("reach", "target", "space", "path", "illegal")
MODES = (None, "paint", "erase", "place")
"""Map modes: play; paint or erase (a press and drag is a stroke of spaces: ``paint_stroke``); place (a click on a
space places something: ``cell_click``, with a placing cursor)."""
TERRAIN_LAYERS = ("water", "uneven", "conductive")
MAX_STROKE = 5000
"""Most spaces one paint stroke may name (the browser stops adding at this many)."""


COORD_MAX = 4 * MAP_SIDE_MAX
"""The largest space coordinate (either sign) a browser event may name: any space of the largest map, with room
for hex offsets; a bigger number is junk."""
SCREEN_MAX = 1e6
"""The largest pixel position (either sign) a click may report."""
ID_TEXT_MAX = 200
VERSION_MAX = 2**53
KEYS = ("end_turn", "undo", "redo")
"""What the map's keys ask of the page (``E``, ``Ctrl+Z``, ``Ctrl+Shift+Z``); the page decides whether they apply."""


def _whole(value: object, limit: int) -> int | None:
    """`value` if it is a whole number within ±`limit` (never a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int) or not -limit <= value <= limit:
        return None
    return value


def _token_id(value: object) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= ID_TEXT_MAX else None


def _space(args: Mapping[str, Any]) -> tuple[int, int] | None:
    q, r = _whole(args.get("q"), COORD_MAX), _whole(args.get("r"), COORD_MAX)
    return None if q is None or r is None else (q, r)


def _pair(value: object) -> tuple[int, int] | None:
    """A space written ``[q, r]``, or None."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    q, r = _whole(value[0], COORD_MAX), _whole(value[1], COORD_MAX)
    return None if q is None or r is None else (q, r)


def clean_event(name: str, args: object) -> dict[str, Any] | None:
    """A browser event's arguments in the shape its handlers are promised (see `on_move`, `on_token_click`...), or
    None for junk: the event is then dropped without a word (the page only sends well-formed events, so a malformed
    one comes from a script, and no handler ever sees it)."""
    if name in ("cancel", "ruler_end"):
        return {}
    if not isinstance(args, dict):
        return None
    if name == "drag_start":
        token = _token_id(args.get("id"))
        return None if token is None else {"id": token}
    if name in ("token_click", "token_refused"):
        token = _token_id(args.get("id"))
        if token is None:
            return None
        out: dict[str, Any] = {"id": token}
        x, y = args.get("x"), args.get("y")
        if name == "token_click" and all(
            isinstance(v, int | float) and not isinstance(v, bool) and abs(v) <= SCREEN_MAX for v in (x, y)
        ):
            out["x"], out["y"] = float(x), float(y)  # type: ignore[arg-type]
            w, h = args.get("w"), args.get("h")
            if all(isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= SCREEN_MAX for v in (w, h)):
                out["w"], out["h"] = float(w), float(h)  # type: ignore[arg-type]
        return out
    if name in ("cell_click", "ping"):
        space = _space(args)
        return None if space is None else {"q": space[0], "r": space[1]}
    if name == "ruler":
        a, b = _pair(args.get("from")), _pair(args.get("to"))
        return None if a is None or b is None else {"from": list(a), "to": list(b)}
    if name == "key":
        key = args.get("key")
        return {"key": key} if isinstance(key, str) and key in KEYS else None
    if name == "token_move":
        token, space = _token_id(args.get("id")), _space(args)
        if token is None or space is None:
            return None
        out = {"id": token, "q": space[0], "r": space[1]}
        version = _whole(args.get("v"), VERSION_MAX)
        if version is not None and version >= 0:
            out["v"] = version
        return out
    if name == "paint_stroke":
        raw = args.get("cells")
        if not isinstance(raw, list) or not raw or len(raw) > MAX_STROKE:
            return None
        cells: list[list[int]] = []
        seen: set[tuple[int, int]] = set()
        for c in raw:
            if not (isinstance(c, list) and len(c) == 2):
                return None
            q, r = _whole(c[0], COORD_MAX), _whole(c[1], COORD_MAX)
            if q is None or r is None:
                return None
            if (q, r) not in seen:
                seen.add((q, r))
                cells.append([q, r])
        return {"cells": cells, "erase": args.get("erase") is True}
    return None


def _cells(cells: Iterable[Sequence[int]]) -> list[list[int]]:
    return [[int(c[0]), int(c[1])] for c in cells]


def _copied(value: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a JSON-like dict, its lists and dicts copied too (what `copy.deepcopy` does, several times faster)."""
    return {k: _copy_json(v) for k, v in value.items()}


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(v) for v in value]
    return value


def _frozen(cells: Iterable[Sequence[int]], width: int = 2) -> tuple[tuple[int, ...], ...]:
    """Spaces (their first `width` numbers) as a tuple of tuples, for the element's props: NiceGUI wraps every list
    and dict kept in props in an observing wrapper, one by one (seconds for a 200 x 200 map's walls, on every page
    view), and leaves tuples be."""
    return tuple(tuple(int(n) for n in c[:width]) for c in cells)


TOKENS_IN_PAGE_MAX = 50
"""A map with more tokens gives them to its page as JSON in the page's head (`head_json`), not in the text of its
elements, which NiceGUI escapes character by character on the event loop (50 ns each when it holds any non-ASCII
letter). Read by the map as it is created: its first frame has its tokens, with no wait for the page's connection."""
JSON_IN_HTML = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
"""What may not stand in JSON inside a script element, written as JSON's escapes (the same text to `JSON.parse`)."""


def head_json(element_id: str, data: Any) -> str:
    """A `<script type="application/json">` holding `data`, for a page's head; `element_id` is made by the server
    (never a user's text). The JSON is ASCII with `<`, `>` and `&` escaped: no text in it can end the element."""
    text = json.dumps(data, separators=(",", ":")).translate(JSON_IN_HTML)
    return f'<script type="application/json" id="{element_id}">{text}</script>'


Layer = tuple[tuple[int, ...], ...] | dict[str, Any]
"""A layer of the board as the browser gets it: its spaces, or for a long layer the packed form of `_pack`."""

PACK_MIN = 500
"""Layers of at least this many spaces go to the browser packed."""
PACKED_KEPT = 32
_PACKED: OrderedDict[tuple[int, int, bool, int, int], tuple[Sequence[Sequence[int]], Layer]] = OrderedDict()
"""The latest long layers given to a map, by identity (each kept alive here, so that its id stays its own), with
the form sent: every page view of a 200 x 200 map would otherwise convert its 40,000 walls on the event loop. The
layers given to a map are never changed afterwards (`map_editor.board_props`: shared, do not change)."""
_PACKED_LOCK = threading.Lock()


def _layer(cells: Sequence[Sequence[int]], width: int, hexes: bool, cols: int, rows: int) -> Layer:
    """A layer of spaces (`width` 3: with a tier) in the form the browser gets: a long one packed (`_pack`)."""
    if len(cells) < PACK_MIN:
        return _frozen(cells, width)
    key = (id(cells), width, hexes, cols, rows)
    with _PACKED_LOCK:
        known = _PACKED.get(key)
        if known is not None and known[0] is cells:
            _PACKED.move_to_end(key)
            return known[1]
    layer: Layer = _pack(cells, width, hexes, cols, rows) or _frozen(cells, width)
    with _PACKED_LOCK:
        _PACKED[key] = (cells, layer)
        while len(_PACKED) > PACKED_KEPT:
            _PACKED.popitem(last=False)
    return layer


def prepare_layers(grid: str, cols: int, rows: int, walls: Sequence[Sequence[int]], terrain: Mapping[str, Any]) -> None:
    """Pack a board's long layers ahead of its first `MapView` (`vtt.web.first_paint` does it in a thread): the
    map then finds them packed. Takes what `MapView` takes (`map_editor.board_props`)."""
    hexes = grid == "hex"
    _layer(walls, 2, hexes, cols, rows)
    for name in TERRAIN_LAYERS:
        if name in terrain:
            _layer(terrain[name], 3 if name == "uneven" else 2, hexes, cols, rows)


def _pack(cells: Sequence[Sequence[int]], width: int, hexes: bool, cols: int, rows: int) -> dict[str, Any] | None:
    """The layer as a bitmap, `bits` bits a space (its tier, or 1), spaces row by row, first bit highest, in
    base64: at most 6,700 characters for a 200 x 200 layer where the list of spaces takes 400,000, and the page's
    text costs the server time for each character on each view (``static/map_view.js`` `unpackCells` reads it).
    None when a space is off the board or named twice (then the list is sent)."""
    values: dict[int, int] = {}
    for c in cells:
        q, r = int(c[0]), int(c[1])
        col = q + (r - (r & 1)) // 2 if hexes else q
        value = int(c[2]) if width == 3 else 1
        index = r * cols + col
        if not (0 <= r < rows and 0 <= col < cols and 0 < value < 128) or index in values:
            return None
        values[index] = value
    bits = max(values.values()).bit_length()
    data = bytearray((cols * rows * bits + 7) // 8)
    for index, value in values.items():
        for b in range(bits):
            if value >> (bits - 1 - b) & 1:
                pos = index * bits + b
                data[pos >> 3] |= 0x80 >> (pos & 7)
    packed = base64.b64encode(bytes(data)).decode("ascii")
    return {"packed": packed, "bits": bits, "width": width, "cols": cols, "rows": rows, "hex": hexes}


def pack_spaces(cells: Sequence[Sequence[int]], hexes: bool, cols: int, rows: int) -> Layer:
    """A set of spaces (each once, on the board) as the browser gets a layer: packed, or a list when empty."""
    if not cells:
        return ()
    return _pack(cells, 2, hexes, cols, rows) or _frozen(cells)


def _same(a: Any, b: Any) -> bool:
    """Whether two JSON-like values serialize alike (unlike ``==``, ``True`` is not ``1`` here)."""
    kind = type(a)
    if kind is type(b) and (kind is str or kind is int or kind is float or a is None):
        return bool(a == b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def token_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``new`` that differ from ``old``, plus ``None`` for each field ``new`` no longer has;
    ``{}`` when nothing changed. The browser merges this into its copy of the token (null clears a field)."""
    changed = {k: v for k, v in new.items() if k not in old or not _same(old[k], v)}
    changed.update({k: None for k in old if k not in new})
    return changed


_DIFFS: PairMemo[Mapping[str, Any], Mapping[str, Any], dict[str, Any]] = PairMemo(token_changes, kept=16)


def shared_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """`token_changes` of two shared tokens (never changed in place), worked out once for every page that shows
    `old` and is given `new`: the pages of one kind of seat share their tokens. Shared: never change it in place."""
    return _DIFFS(old, new)


class MapView(Batched, component="../../static/map_view.js"):
    """Interactive hex/square map with draggable tokens.

    Children created inside ``with map_view:`` are rendered in a 1x1 px anchor that the browser moves to a
    token's centre right before it emits ``token_click``; a ``ui.menu().props('no-parent-event')`` placed
    there and opened from the click handler therefore pops up at the clicked token.
    """

    def __init__(
        self,
        grid: str,
        cols: int,
        rows: int,
        cell: float,
        walls: list[list[int]],
        objects: list[dict[str, Any]],
        tokens: dict[str, dict[str, Any]],
        viewer_can_drag: Callable[[str], bool] | None = None,
        terrain: Mapping[str, Any] | None = None,
        background: Mapping[str, Any] | None = None,
        shared_tokens: bool = False,
        tools: bool = False,
        fog: Mapping[str, Any] | None = None,
    ) -> None:
        """Create the map.

        :param grid: ``"hex"`` (pointy-top axial) or ``"square"``
        :param cols: number of columns
        :param rows: number of rows
        :param cell: pixel radius of a hex, or side of a square (at zoom 1)
        :param walls: ``[q, r]`` cells filled by a wall
        :param objects: ``{id, name, cells: [[q, r], ...], kind}`` dicts
        :param tokens: token id -> token dict (see ``patch_token``)
        :param viewer_can_drag: whether the viewer of this page may drag a token (by id); ``None`` = all.
            Combined with the token's own ``draggable`` flag; also enforced server-side on ``token_move``.
        :param terrain: ``{water: [[q, r], ...], uneven: [[q, r, tier], ...], conductive: [[q, r], ...]}``
        :param background: ``{image, offset: [x, y], cell_px, opacity}`` or ``None`` (see ``set_background``)
        :param shared_tokens: the token dicts are kept as given, not copied (a 500-token page view copies a lot):
            the caller promises each is complete (``id``, ``cells`` as lists, ``draggable``) and never changed in
            place; ignored with ``viewer_can_drag``
        :param tools: show the map's ruler toggle and let it measure (``R``) and ping (Alt-click, a long press)
        :param fog: the fog of war (see ``set_fog``), or ``None``
        """
        self._tokens_held = False
        self._tokens_in_head = False
        super().__init__()
        if grid not in GRIDS:
            raise ValueError(f"grid must be one of {GRIDS}, not {grid!r}")
        self._viewer_can_drag = viewer_can_drag
        self._shared = shared_tokens and viewer_can_drag is None
        # tokens this view's browser moved on a drop that no patch or snap-back has answered yet: their cells in
        # the browser may differ from the stored ones, so their next patch re-sends the cells
        self._dropped: set[str] = set()
        self._handlers: dict[str, list[tuple[EventHandler, bool]]] = {
            "token_move": [],
            "token_refused": [],
            "token_click": [],
            "cell_click": [],
            "cancel": [],
            "paint_stroke": [],
            "drag_start": [],
            "ruler": [],
            "ruler_end": [],
            "ping": [],
            "key": [],
        }
        with self._props.suspend_updates():
            self._props.update(
                grid=grid,
                cols=int(cols),
                rows=int(rows),
                cell=float(cell),
                background=self._prepare_background(background),
                mode=None,
                highlights=[],
                active=None,
                tools=bool(tools),
                fog=None if fog is None else dict(fog),
            )
            self._keep(
                walls=self._board_layer(walls),
                objects=[self._prepare_object(o) for o in objects],
                terrain=self._prepare_terrain(terrain or {}),
                tokens=(
                    dict(tokens)
                    if self._shared
                    else {str(token_id): self._prepare_token(str(token_id), t) for token_id, t in tokens.items()}
                ),
            )
            # Many tokens are left out of the elements' text (`TOKENS_IN_PAGE_MAX`): in the page's head when the
            # page is being built, else sent once its browser connects; sent again on each reconnection.
            self._tokens_held = len(self._tokens()) > TOKENS_IN_PAGE_MAX
            if self._tokens_held:
                if not self.client._response_built:
                    self._tokens_in_head = True
                    script = f"vtt-tokens-{self.id}"
                    self._props["tokens-from"] = script
                    ui.add_head_html(head_json(script, self._tokens()))
                self.client.on_connect(self._send_tokens)
            # Listeners are registered once, here, so adding Python handlers later never changes the
            # client-side listener set (which would force NiceGUI to re-render the element).
            self.on("token_move", self._handle_move)
            self.on("token_refused", lambda e: self._dispatch("token_refused", e))
            self.on("token_click", lambda e: self._dispatch("token_click", e))
            self.on("cell_click", lambda e: self._dispatch("cell_click", e))
            self.on("cancel", lambda e: self._dispatch("cancel", e))
            self.on("paint_stroke", self._handle_stroke)
            self.on("drag_start", lambda e: self._dispatch("drag_start", e))
            for name in ("ruler", "ruler_end", "ping", "key"):
                self.on(name, lambda e, name=name: self._dispatch(name, e))

    def _to_dict(self) -> dict[str, Any]:
        data = super()._to_dict()
        if self._tokens_held:
            data["props"] = {k: v for k, v in data["props"].items() if k != "tokens"}
        return data

    def _send_tokens(self) -> None:
        """Every token, once the browser is connected (again), but on the first connection of a page that had them
        in its head: see `TOKENS_IN_PAGE_MAX`. The changes since the page was built follow as patches."""
        self._tokens_held = False
        if self._tokens_in_head:
            self._tokens_in_head = False
            return
        self.run_method("syncTokens", self._tokens())

    # ---- data preparation ---------------------------------------------------------------------------------

    def _keep(self, **values: Any) -> None:
        """Store the big props (walls, objects, terrain, tokens) as they are: NiceGUI's props dict would wrap every
        list and dict in them in an observer, one by one (seconds for a 200 x 200 map with 500 tokens, on each page
        view), and nothing needs observing: every change to them is sent by a `run_method` patch."""
        dict.update(self._props, values)

    @staticmethod
    def _prepare_object(obj: Mapping[str, Any]) -> dict[str, Any]:
        data = {k: v for k, v in obj.items() if k != "cells"}
        data["cells"] = _frozen(obj.get("cells", []))
        return data

    def _board_layer(self, cells: Iterable[Sequence[int]], width: int = 2) -> Layer:
        spaces = cells if isinstance(cells, Sequence) else list(cells)
        hexes = self._props["grid"] == "hex"
        return _layer(spaces, width, hexes, int(self._props["cols"]), int(self._props["rows"]))

    def _prepare_terrain(self, terrain: Mapping[str, Any]) -> dict[str, Layer]:
        return {
            layer: self._board_layer(terrain[layer], 3 if layer == "uneven" else 2)
            for layer in TERRAIN_LAYERS
            if layer in terrain
        }

    @staticmethod
    def _prepare_background(background: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if background is None or not (background.get("image") or background.get("tiles") is not None):
            return None
        offset = background.get("offset") or (0, 0)
        out: dict[str, Any] = {
            "image": str(background["image"]),
            "offset": [float(offset[0]), float(offset[1])],
            "cell_px": float(background.get("cell_px") or 70),
            "opacity": float(1 if background.get("opacity") is None else background["opacity"]),
        }
        if background.get("tiles") is not None:  # under fog of war: the picture's pieces the seat may see
            out["tiles"] = [[str(t[0]), *map(int, t[1:5])] for t in background["tiles"]]
            out["size"] = [int(v) for v in background["size"]]
        return out

    def _prepare_token(self, token_id: str, token: Mapping[str, Any]) -> dict[str, Any]:
        data = _copied(token)
        data["id"] = token_id
        data["cells"] = _cells(data.get("cells", []))
        allowed = self._viewer_can_drag is None or bool(self._viewer_can_drag(token_id))
        data["draggable"] = bool(data.get("draggable", True)) and allowed
        return data

    def _tokens(self) -> dict[str, Any]:
        tokens: dict[str, Any] = self._props["tokens"]
        return tokens

    # ---- Python -> browser (small patches) ------------------------------------------------------------------

    def patch_token(self, token: Mapping[str, Any]) -> None:
        """Add or replace one token.

        ``token`` is ``{id, name, size, cells: [[q, r], ...] (first = anchor), color, label, grit: [pips, max],
        energy: [pips, max], resolve: [pips, max], ailments: [{name, tier}], draggable, hidden?, dead?,
        prone?}``. The dict is copied (kept as given with ``shared_tokens``); ``draggable`` is combined with
        ``viewer_can_drag``.

        Only what changed goes to the browser: ``{id, ...changed fields}`` (a field the token no longer has is
        sent as ``None``), nothing at all when the token is unchanged, the whole token when it is new. A move
        thus sends ``{id, cells}``.
        """
        token_id = str(token["id"])
        data = token if self._shared else self._prepare_token(token_id, token)
        old = self._tokens().get(token_id)
        dropped = token_id in self._dropped
        self._dropped.discard(token_id)
        self._tokens()[token_id] = data  # a plain dict (`_keep`): nothing observes it
        if old is None:
            self.run_method("patchToken", data)
            return
        changes = shared_changes(old, token) if self._shared else token_changes(old, data)
        if dropped and "cells" not in changes:
            changes = {**changes, "cells": data["cells"]}  # the drop moved the browser's copy: answer it
        if changes:
            self.run_method("patchToken", {"id": token_id, **changes})
            latency_trace.mark("patch", client=self.client.id)

    def remove_token(self, token_id: str) -> None:
        """Remove one token (no-op in the browser if it is unknown)."""
        self._dropped.discard(str(token_id))
        with self._props.suspend_updates():
            self._tokens().pop(str(token_id), None)
            if self._props["active"] == str(token_id):
                self._props["active"] = None
        self.run_method("removeToken", str(token_id))

    def snap_back(self, token_id: str) -> None:
        """Re-send the stored token so that a rejected (optimistic) drop returns to its last accepted cells."""
        token_id = str(token_id)
        self._dropped.discard(token_id)
        stored = self._tokens().get(token_id)
        if stored is None:
            self.run_method("removeToken", token_id)
        else:
            self.run_method("patchToken", copy.deepcopy(dict(stored)))

    def answer_drop(self, token_id: str) -> None:
        """After an accepted drop: `snap_back`, unless a patch since the drop has already sent the token's stored
        cells (a move that went through)."""
        if str(token_id) in self._dropped:
            self.snap_back(token_id)

    def set_highlights(self, highlights: list[dict[str, Any]]) -> None:
        """Replace all highlights; each is ``{cells: [[q, r], ...], kind}`` with kind in
        ``reach | target | space | path | illegal``."""
        data = [{"cells": _cells(h.get("cells", [])), "kind": str(h.get("kind", "reach"))} for h in highlights]
        with self._props.suspend_updates():
            self._props["highlights"] = data
        self.run_method("setHighlights", data)

    def clear_highlights(self) -> None:
        """Remove all highlights."""
        with self._props.suspend_updates():
            self._props["highlights"] = []
        self.run_method("clearHighlights")

    def show_move_preview(self, preview: Mapping[str, Any]) -> None:
        """Send a drag's move preview (`MovePreview.as_json`, as the viewer's seat may see it) to this browser only:
        it draws the reachable spaces, the path and its cost, and a Collision's odds while the drag lasts, and
        forgets the preview when the drag ends. A preview for a token no longer being dragged is ignored."""
        self.run_method("setMovePreview", _copied(preview))

    def set_active(self, token_id: str | None) -> None:
        """Mark one token as active (glowing ring), or none."""
        value = None if token_id is None else str(token_id)
        with self._props.suspend_updates():
            self._props["active"] = value
        self.run_method("setActive", value)

    def set_board(
        self,
        *,
        cols: int | None = None,
        rows: int | None = None,
        walls: Iterable[Sequence[int]] | None = None,
        objects: Iterable[Mapping[str, Any]] | None = None,
        terrain: Mapping[str, Any] | None = None,
    ) -> None:
        """Patch the board: only the parts given (and, of ``terrain``, only the layers given) are sent."""
        patch: dict[str, Any] = {}
        if cols is not None:
            patch["cols"] = int(cols)
        if rows is not None:
            patch["rows"] = int(rows)
        with self._props.suspend_updates():  # the size first: the layers are packed on it
            for key in ("cols", "rows"):
                if key in patch:
                    self._props[key] = patch[key]
        if walls is not None:
            patch["walls"] = self._board_layer(walls)
        if objects is not None:
            patch["objects"] = [self._prepare_object(o) for o in objects]
        if terrain is not None:
            patch["terrain"] = self._prepare_terrain(terrain)
        if not patch:
            return
        with self._props.suspend_updates():
            self._keep(**{key: patch[key] for key in ("walls", "objects") if key in patch})
            if "terrain" in patch:
                self._keep(terrain={**self._props["terrain"], **patch["terrain"]})
        self.run_method("setBoard", patch)

    def set_fog(self, fog: Mapping[str, Any] | None) -> None:
        """Show the fog of war: ``{visible, remembered, preview}`` (spaces as lists or packed, `pack_spaces`): spaces
        in neither are dark, remembered ones dim; ``preview`` draws it lighter and over the tokens (the Soulweaver
        seeing as a player). ``None`` takes it away."""
        data = None if fog is None else dict(fog)
        with self._props.suspend_updates():
            self._props["fog"] = data
        self.run_method("setFog", data)

    def set_background(self, background: Mapping[str, Any] | None) -> None:
        """Show ``{image, offset: [x, y], cell_px, opacity}`` under the grid (``None`` removes it): ``cell_px``
        image pixels make one space (a square's side; for hexes the distance between neighbouring centres), and
        the image pixel ``offset`` lies on the top-left corner of space (0, 0)'s bounding box. Under fog of war
        ``image`` is empty and ``tiles`` (``[[href, left, top, width, height], ...]`` in image pixels) with the
        picture's ``size`` draw only its pieces the seat may see (`vtt.web.fog_tiles`)."""
        data = self._prepare_background(background)
        with self._props.suspend_updates():
            self._props["background"] = data
        self.run_method("setBackground", data)

    def show_ruler(self, ruler: Mapping[str, Any]) -> None:
        """Draw a ruler ``{hand, name, from: [q, r], to: [q, r], distance}`` (replacing the last one of that hand)
        with its distance at the end."""
        self.run_method("showRuler", _copied(ruler))

    def clear_ruler(self, hand: str) -> None:
        """Take a ruler off the map (by its hand, see `show_ruler`)."""
        self.run_method("clearRuler", str(hand))

    def show_ping(self, ping: Mapping[str, Any]) -> None:
        """Ring a space ``{seat, name, space: [q, r], seconds}`` for a few seconds, with the name of who pinged it."""
        self.run_method("showPing", _copied(ping))

    def set_mode(self, mode: str | None) -> None:
        """Switch between play (``None``), ``paint``/``erase`` strokes and ``place`` (see ``MODES``)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        with self._props.suspend_updates():
            self._props["mode"] = mode
        self.run_method("setMode", mode)

    # ---- browser -> Python events ---------------------------------------------------------------------------

    def on_paint(self, handler: EventHandler) -> Self:
        """Register a handler for a finished paint stroke: ``e.args == {'cells': [[q, r], ...], 'erase': bool}``
        (each space once, in stroke order, at most ``MAX_STROKE``; malformed strokes never reach the handler)."""
        self._add_handler("paint_stroke", handler)
        return self

    def on_move(self, handler: EventHandler) -> Self:
        """Register a handler for a drop: ``e.args == {'id': str, 'q': int, 'r': int}`` (the new anchor).

        The browser has already moved the token optimistically. The handler must either accept the move
        (``patch_token`` with the new cells, on every view) or reject it (``snap_back`` on this view at least).
        Drops of tokens this viewer may not drag are snapped back here and never reach the handler.
        """
        self._add_handler("token_move", handler)
        return self

    def on_drag_start(self, handler: EventHandler) -> Self:
        """Register a handler for the start of a drag of a token this viewer may drag: ``e.args == {'id': str}``.
        Sent once per drag, when the pointer first moves the token; the handler may answer with
        ``show_move_preview``."""
        self._add_handler("drag_start", handler)
        return self

    def on_refused(self, handler: EventHandler) -> Self:
        """Register a handler for an attempt to drag a token this viewer may not drag: ``e.args == {'id': str}``.
        The token never moved in the browser; the handler tells the user why."""
        self._add_handler("token_refused", handler)
        return self

    def on_token_click(self, handler: EventHandler) -> Self:
        """Register a handler for a click on a token: ``e.args == {'id': str}``."""
        self._add_handler("token_click", handler)
        return self

    def on_cell_click(self, handler: EventHandler) -> Self:
        """Register a handler for a click on an in-bounds cell without a token: ``e.args == {'q': int, 'r': int}``."""
        self._add_handler("cell_click", handler)
        return self

    def on_ruler(self, handler: EventHandler) -> Self:
        """Register a handler for a ruler held on the map (its tools on): ``e.args == {'from': [q, r], 'to': [q, r]}``,
        sent when its end moves to another space (at most one every 60 ms); spaces are not checked against the
        board."""
        self._add_handler("ruler", handler)
        return self

    def on_ruler_end(self, handler: EventHandler) -> Self:
        """Register a handler for the ruler let go: ``e.args == {}``."""
        self._add_handler("ruler_end", handler)
        return self

    def on_ping(self, handler: EventHandler) -> Self:
        """Register a handler for a ping (Alt-click, or a long press on touch): ``e.args == {'q': int, 'r': int}``."""
        self._add_handler("ping", handler)
        return self

    def on_key(self, handler: EventHandler) -> Self:
        """Register a handler for a key the page acts on (not typed in a text field): ``e.args == {'key': k}`` with
        ``k`` one of ``KEYS``."""
        self._add_handler("key", handler)
        return self

    def on_cancel(self, handler: EventHandler) -> Self:
        """Register a handler for Escape or a click outside the map: ``e.args == {}``."""
        self._add_handler("cancel", handler)
        return self

    def _add_handler(self, name: str, handler: EventHandler) -> None:
        """Keep a handler with whether it takes the event (NiceGUI would read its signature on every event)."""
        self._handlers[name].append((handler, helpers.expects_arguments(handler)))

    def _dispatch(self, name: str, e: events.GenericEventArguments) -> None:
        """Hand a browser event to its handlers, its arguments checked first (`clean_event`)."""
        args = clean_event(name, e.args)
        if args is None:
            return
        e.args = args
        for handler, expects in list(self._handlers[name]):
            events.handle_event(handler, e, expect_args=expects)

    def _handle_stroke(self, e: events.GenericEventArguments) -> None:
        self._dispatch("paint_stroke", e)

    def _handle_move(self, e: events.GenericEventArguments) -> None:
        latency_trace.mark("received", client=self.client.id)
        args = clean_event("token_move", e.args)
        if args is None:
            token_id = _token_id(e.args.get("id")) if isinstance(e.args, dict) else None
            if token_id is not None and token_id in self._tokens():
                self.snap_back(token_id)
            return
        token_id = args["id"]
        stored = self._tokens().get(token_id)
        if stored is None or not stored.get("draggable"):
            self.snap_back(token_id)
            return
        e.args = args
        self._dropped.add(token_id)
        for handler, expects in list(self._handlers["token_move"]):
            events.handle_event(handler, e, expect_args=expects)
