"""The JSON API of a seat, for programs (bots, other front ends, load tests) rather than browsers.

The seat's secret in the path is the only credential: the role and the creatures a seat may act for come from the
seat in the database, never from the request, and every command goes through `Table.submit`, with the same
permission and legality checks as the table page.

- `GET  /api/seat/{secret}/state`: what the seat may see (`seat_view`).
- `POST /api/seat/{secret}/commands` with `{"command": {...}, "seen": {creature id: version}}` (`seen` optional):
  `{"ok", "error", "seq"}`. A command the table refuses is a 200 answer with `ok: false` and the reason; a
  malformed body is a 400 (a too big one a 413) with the reason in `error`. Under the `physical_dice` setting a
  command waits for its sender's dice: the answer has `need` (`{"count", "purpose", "typed"}`, the next roll to
  type), and the command is sent again with `"typed": [[faces of the first roll], ...]`, until it is played.
- `WS   /api/seat/{secret}/events`: first `{"kind": "state", ...}` (as `GET state`), then one `{"kind": "change",
  ...}` per change of the table (`change_message`). A message `{"command", "seen", "id"}` sent on it is
  answered with `{"kind": "outcome", "id", "ok", "error", "seq"}`, after the change it caused. An unknown
  secret closes the socket with code 1008 and the reason.
- `POST /api/seat/{secret}/background`: the Soulweaver's map background: the bytes of a PNG, JPEG or WebP image
  as the body, with its `Content-Type`, at most `MAX_UPLOAD_BYTES`.
- The same four under `/api/game/{game}/seat/{secret}/…`: the game's number in the path lets a proxy in front
  of several processes send every client of a game to one process (`deploy/nginx-vtt.conf`). It is checked
  against the seat (a secret of another game's seat is refused as an unknown one), never trusted.
- `GET  /api/games/{game_id}/background`: that image, with its content type; refused (403) while the game has fog
  of war on: then each page gets it through its seat's pass, whole for the Soulweaver and cut to what the seat may
  see for anyone else (`vtt.web.fog_tiles`), and the state sent to a player has no background.

Hidden creatures exist only for the Soulweaver: for a player they are left out of everything sent (the state, the
turn order, holds, effects, decisions, events, refusals), and so are the Soulweaver's notes. With fog of war on, so
are the creatures the seat's creatures do not perceive; the state then has `fog` (`SeatView.fog_json`: the spaces
`visible` now and `remembered`, and `heard` creatures as `{"id": <opaque>, "heard": true, "cells"}`), a change
message has it too, and the board holds only the remembered spaces' walls, objects and terrain. `SeatView` decides
what each seat may see; this module only renders it as JSON.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.status import WS_1008_POLICY_VIOLATION, WS_1013_TRY_AGAIN_LATER

from vtt.rules.limits import COMMAND_BYTES_MAX
from vtt.rules.model import Creature, GameState
from vtt.store import db
from vtt.store.db import Seat
from vtt.store.images import BACKGROUND, IMAGE_TYPES, MAX_UPLOAD_BYTES, background_path, image_problem, image_type
from vtt.store.pictures import load_picture
from vtt.table import latency_trace
from vtt.table.registry import Games, parse_game_id, viewer_for
from vtt.table.seat_view import SeatView
from vtt.table.table import Change, Table, Viewer
from vtt.web.fog_tiles import make_fog_router

Json = dict[str, Any]

MAX_COMMAND_BYTES = COMMAND_BYTES_MAX
QUEUE_LIMIT = 1000
"""Messages a websocket may have waiting; a client further behind is disconnected (it can reconnect)."""
NO_SEAT = "no seat has this secret"
NO_SEAT_HERE = "no seat of this game has this secret"
SEAT_PATHS = ("/api/seat/{secret}", "/api/game/{game}/seat/{secret}")
"""Where a seat's API is: the second names the seat's game, for the proxy to route on."""
TOO_FAR_BEHIND = "too far behind: reconnect and start from the state"
SEAT_REPLACED = "this seat link was replaced: ask the Soulweaver for the new one"
BODY_KEYS = frozenset({"command", "seen", "id", "typed"})


# ---- what a seat may see (decided by `SeatView`; rendered here as JSON) -------------------------------------


def hidden_from(state: GameState, viewer: Viewer) -> frozenset[str]:
    """The creatures `viewer` may not know of."""
    return SeatView(state, viewer).hidden


def creature_json(c: Creature, viewer: Viewer, state: GameState) -> Json:
    return SeatView(state, viewer).creature_json(c)


def scrub(data: Json, state: GameState, viewer: Viewer) -> Json:
    """A (partial) dump of `state` without its creatures, as `viewer` may see it (changed in place)."""
    return SeatView(state, viewer).scrub(data)


def state_json(state: GameState, viewer: Viewer) -> Json:
    return SeatView(state, viewer).state_json()


def seat_view(table: Table, seat: Seat) -> Json:
    """Everything the seat may know of its game: its state, each creature's version (to send as `seen`) and how
    long the log is."""
    state = table.seat_view(viewer_for(seat)).state_json()
    return {
        "game": {"id": seat.game_id, "name": table.name},
        "seat": {"role": seat.role, "key": seat.key, "name": seat.name},
        "state": state,
        "versions": {cid: table.version(cid) for cid in state["creatures"]},
        "log_length": len(table.log),
    }


OTHER_FIELDS = tuple(name for name in GameState.model_fields if name != "creatures")
NAMING_FIELDS = frozenset({"turn", "economy", "holds", "effects", "pending", "reactions"})


def _differs(a: object, b: object) -> bool:
    return a is not b and a != b


def seat_message(table: Table, change: Change, viewer: Viewer) -> Json | None:
    """`change_message`, or None when the seat may not know of the change at all (a whisper not for it): then
    nothing is sent to it."""
    if not table.seat_view(viewer, change.after).sees_record(change.record):
        return None
    return change_message(table, change, viewer)


def change_message(table: Table, change: Change, viewer: Viewer) -> Json:
    """One change of the table as `viewer` may see it: who sent what, the events, the creatures that changed
    (with their new versions), those it can no longer see (`gone`), and the other parts of the state that changed.
    A command naming a hidden creature shows as `type` and `command` null, with only the events worded for the
    seat whose creature they happen to. A whisper not for the seat says nothing of who sent it, to whom or what
    (`seat_message` sends it no message at all)."""
    record, before, after = change.record, change.before, change.after
    seat = table.seat_view(viewer, after)
    if not seat.sees_record(record):
        return {"kind": "change", "seq": record.seq, "sender": None, "type": None, "command": None, "events": [],
                "creatures": {}, "gone": [], "versions": {}, "state": {}, "log_length": len(table.log)}  # fmt: skip
    was = table.seat_view(viewer, before)
    creatures: Json = {}
    gone: list[str] = []
    for cid in sorted(change.changed_creatures | (seat.hidden ^ was.hidden)):  # changed, or came into or left sight
        c = seat.creature(cid)
        if c is not None:
            creatures[cid] = seat.creature_json(c)
        elif was.sees(cid):
            gone.append(cid)
    others = {name for name in OTHER_FIELDS if _differs(getattr(before, name), getattr(after, name))}
    if seat.hidden != was.hidden:  # a creature hidden or shown: every part that names creatures is sent again
        others |= NAMING_FIELDS
    fog = seat.fog_json()
    now, then = seat.vision, was.vision
    if (now is None) != (then is None) or (now and then and now.remembered != then.remembered):
        others.add("board")  # spaces seen for the first time show their walls (or fog of war turned on or off)
    command = seat.command_json(record.command)
    message = {
        "kind": "change",
        "seq": record.seq,
        "sender": record.sender,
        "type": record.kind if command is not None else None,
        "command": command,
        "events": seat.events(record, table.log),
        "creatures": creatures,
        "gone": gone,
        "versions": {cid: table.version(cid) for cid in creatures},
        "state": seat.scrub(after.model_dump(mode="json", include=others)) if others else {},
        "log_length": len(table.log),
    }
    if seat.vision is not None or was.vision is not None:
        message["fog"] = fog  # the spaces seen and remembered, the creatures heard (None: fog of war is off)
    return message


# ---- request bodies -------------------------------------------------------------------------------------------


class BadBody(ValueError):
    def __init__(self, message: str, ident: str | int | None = None) -> None:
        super().__init__(message)
        self.ident = ident


@dataclass(frozen=True)
class CommandBody:
    command: Json
    seen: dict[str, int] | None
    ident: str | int | None
    typed: list[list[int]] | None = None
    """The faces of the rolls typed so far, checked by the table (`vtt.table.typed_dice`)."""


def utf8_text(data: object) -> bool:
    """Whether every string in decoded JSON can be sent on as UTF-8: JSON's `\\ud800` escape decodes to half of a
    UTF-16 pair, which no page, database or websocket message can carry."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_body(raw: str | bytes) -> CommandBody:
    """`{"command": {...}, "seen": {creature id: version}, "id": ...}`; anything else is a `BadBody` saying why.
    Only the shape is checked here: the command itself is checked by the table."""
    if len(raw) > MAX_COMMAND_BYTES:
        raise BadBody(f"the message is longer than {MAX_COMMAND_BYTES} bytes")
    try:
        data = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise BadBody("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadBody('the body must be a JSON object: {"command": {...}, "seen": {...}}')
    if not utf8_text(data):
        raise BadBody("the body holds a broken character (half of a UTF-16 surrogate pair); send whole characters")
    raw_ident = data.get("id")
    ident = raw_ident if isinstance(raw_ident, str | int) and not isinstance(raw_ident, bool) else None
    if isinstance(ident, str) and len(ident) > 200:
        ident = None
    unknown = sorted(str(k) for k in data if k not in BODY_KEYS)
    if unknown:
        raise BadBody(f"unknown key {unknown[0]!r}; the body has command, seen, typed and id", ident)
    command = data.get("command")
    if not isinstance(command, dict):
        raise BadBody('"command" must be a JSON object with a "type"', ident)
    seen = data.get("seen")
    if seen is not None and (
        not isinstance(seen, dict)
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in seen.values())
    ):
        raise BadBody('"seen" must map creature ids to the versions seen (whole numbers)', ident)
    typed = data.get("typed")
    if typed is not None and not (isinstance(typed, list) and all(isinstance(r, list) for r in typed)):
        raise BadBody('"typed" must be a list of rolls, each a list of the faces typed', ident)
    return CommandBody(command, seen, ident, typed)


def _megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB"


class TooBig(Exception):
    pass


async def _read_at_most(request: Request, limit: int) -> bytes:
    """The body, read no further than `limit` bytes (`TooBig` past that, whatever Content-Length claims)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooBig
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooBig
        chunks.append(chunk)
    return b"".join(chunks)


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message, **extra}, status_code=status)


# ---- websockets ---------------------------------------------------------------------------------------------


class _Client:
    def __init__(self, websocket: WebSocket, viewer: Viewer, secret: str) -> None:
        self.websocket = websocket
        self.viewer = viewer
        self.secret = secret
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.lagging = False
        self.replaced = False
        """The seat's link was replaced: nothing more is sent or accepted, and the socket is closed."""

    def close_replaced(self) -> None:
        self.replaced = self.lagging = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    def push(self, text: str) -> None:
        if self.lagging:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.lagging = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def write(self) -> None:
        """Send the queued messages in order; `None` means the client fell too far behind."""
        try:
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)
            if self.replaced:
                await self.websocket.close(WS_1008_POLICY_VIOLATION, SEAT_REPLACED)
            else:
                await self.websocket.close(
                    WS_1013_TRY_AGAIN_LATER, "too far behind: reconnect and start from the state"
                )
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the connection is gone; the receiving side ends the session


class _Hub:
    """The websockets open on one game. A change is made into a message once per kind of view and queued to each
    socket."""

    def __init__(self, table: Table, games: Games) -> None:
        self.table = table
        self.games = games
        self.clients: set[_Client] = set()
        table.subscribe(self)

    def seats_changed(self) -> None:
        """A seat's link may have been replaced: its sockets are closed."""
        for client in list(self.clients):
            if not client.replaced and self.games.seat(client.secret) is None:
                client.close_replaced()

    def table_changed(self, change: Change) -> None:
        texts: dict[Viewer | bool, str | None] = {}
        secrets = bool(self.table.gone_hidden) or any(
            c.hidden for s in (change.before, change.after) for c in s.creatures.values()
        )
        whisper = change.record.is_chat and change.record.command.get("to") is not None
        for client in list(self.clients):
            # With hidden creatures about, each seat gets its own (a decision or a defense roll is worded for the
            # seat it concerns); without, every player sees the same. A whisper reaches only the seats it is for.
            personal = (secrets or whisper) and not client.viewer.is_soulweaver
            key = client.viewer if personal else client.viewer.is_soulweaver
            if key not in texts:
                message = seat_message(self.table, change, client.viewer)
                texts[key] = None if message is None else json.dumps(message)
            text = texts[key]
            if text is not None:
                client.push(text)
        latency_trace.mark("queued", game=self.table.game_id, seq=change.record.seq)


# ---- the router -----------------------------------------------------------------------------------------------


def make_router(games: Games, max_upload: int = MAX_UPLOAD_BYTES) -> APIRouter:
    router = APIRouter()
    hubs: dict[int, _Hub] = {}

    async def find(secret: str) -> Seat | None:
        return await run_in_threadpool(games.seat, secret)

    async def find_at(secret: str, path: dict[str, Any]) -> tuple[Seat | None, str]:
        """The seat of `secret`, when the game the path names (if it names one) is the seat's, with the reason to
        give when it is not."""
        game = path.get("game")
        if game is None:
            return await find(secret), NO_SEAT
        number = parse_game_id(game)
        seat = None if number is None else await find(secret)
        return (seat if seat is not None and seat.game_id == number else None), NO_SEAT_HERE

    async def submit(table: Table, viewer: Viewer, raw: str | bytes) -> tuple[int, Json]:
        try:
            body = parse_body(raw)
        except BadBody as exc:
            return 400, {"id": exc.ident, "ok": False, "error": str(exc), "seq": None}
        seen = body.seen
        if seen is not None:  # a version of a creature the seat cannot see would tell its name in the refusal
            seen = {cid: v for cid, v in seen.items() if table.visible_to(viewer, cid)}
        received = time.time() if latency_trace.on() else 0.0
        outcome = await table.submit(viewer, body.command, seen, body.typed)
        seq = outcome.record.seq if outcome.record is not None else None
        if received:
            latency_trace.mark("api command", game=table.game_id, seq=seq, received=received)
        answer: Json = {"id": body.ident, "ok": outcome.ok, "error": outcome.error, "seq": seq}
        if outcome.need is not None:
            answer["need"] = {"count": outcome.need.count, "purpose": outcome.need.purpose, "typed": outcome.need.typed}
        return 200, answer

    async def get_state(secret: str, request: Request) -> JSONResponse:
        seat, why = await find_at(secret, request.path_params)
        if seat is None:
            return _error(404, why)
        return JSONResponse(seat_view(await games.load_table(seat.game_id), seat))

    async def post_command(secret: str, request: Request) -> JSONResponse:
        seat, why = await find_at(secret, request.path_params)
        if seat is None:
            return _error(404, why, seq=None)
        try:
            raw = await _read_at_most(request, MAX_COMMAND_BYTES)
        except TooBig:
            return _error(413, f"the body is longer than {MAX_COMMAND_BYTES} bytes", seq=None)
        status, answer = await submit(await games.load_table(seat.game_id), viewer_for(seat), raw)
        answer.pop("id")
        return JSONResponse(answer, status_code=status)

    async def events(websocket: WebSocket, secret: str) -> None:
        await websocket.accept()
        seat, why = await find_at(secret, websocket.path_params)
        if seat is None:
            await websocket.close(WS_1008_POLICY_VIOLATION, why)
            return
        table = await games.load_table(seat.game_id)
        client = _Client(websocket, viewer_for(seat), secret)
        client.push(json.dumps({"kind": "state", **seat_view(table, seat)}))
        hub = hubs.get(seat.game_id)
        if hub is None:
            hub = hubs[seat.game_id] = _Hub(table, games)
        hub.clients.add(client)
        writer = asyncio.create_task(client.write())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if client.replaced:
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                _, answer = await submit(table, client.viewer, raw)
                client.push(json.dumps({"kind": "outcome", **answer}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.clients.discard(client)
            if not hub.clients:
                table.unsubscribe(hub)
                hubs.pop(seat.game_id, None)
            writer.cancel()

    async def post_background(secret: str, request: Request) -> JSONResponse:
        seat, why = await find_at(secret, request.path_params)
        if seat is None:
            return _error(404, why)
        if seat.role != "soulweaver":
            return _error(403, "only the Soulweaver can change the map's background")
        declared = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if declared not in IMAGE_TYPES:
            return _error(415, f"send a PNG, JPEG or WebP image (Content-Type {', '.join(IMAGE_TYPES)})")
        try:
            data = await _read_at_most(request, max_upload)
        except TooBig:
            return _error(413, f"the image is bigger than the limit of {_megabytes(max_upload)}")
        if not data:
            return _error(400, "the body is empty: send the image's bytes")
        found = image_type(data)
        if found is None:
            return _error(415, "the file is not a PNG, JPEG or WebP image")
        if found != declared:
            return _error(415, f"the file is {found}, not {declared} as its Content-Type says")
        problem = image_problem(data)
        if problem is not None:
            return _error(422, problem)
        await run_in_threadpool(db.save_upload, games.engine, seat.game_id, BACKGROUND, found, data)
        url = background_path(seat.game_id)
        return JSONResponse({"ok": True, "error": None, "content_type": found, "size": len(data), "url": url})

    for base in SEAT_PATHS:
        router.add_api_route(f"{base}/state", get_state, methods=["GET"])
        router.add_api_route(f"{base}/commands", post_command, methods=["POST"])
        router.add_api_websocket_route(f"{base}/events", events)
        router.add_api_route(f"{base}/background", post_background, methods=["POST"])

    async def fogged(game_id: int) -> bool:
        try:
            return (await games.load_table(game_id)).state.settings.fog_of_war
        except KeyError:
            return False

    @router.get("/api/games/{game_id}/background")
    async def get_background(game_id: str) -> Response:
        upload = None
        number = parse_game_id(game_id)
        if number is not None:
            upload = await run_in_threadpool(db.load_upload, games.engine, number, BACKGROUND)
        if upload is None:
            return _error(404, "this game has no background image")
        if number is not None and await fogged(number):
            return _error(403, "this map is under fog of war: each seat's page gets only what it may see")
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
        return Response(upload.data, media_type=upload.content_type, headers=headers)

    @router.get("/api/pictures/{digest}")
    async def get_picture(digest: str) -> Response:
        found = await run_in_threadpool(load_picture, games.engine, digest)
        if found is None:
            return _error(404, "there is no such picture")
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=31536000, immutable"}
        return Response(found[1], media_type=found[0], headers=headers)

    router.include_router(make_fog_router(games))
    return router
