"""`bench/lean_socket.py`, the load generator's websocket client, against the `websockets` server: every message
whole and in order, compressed or not, in one frame or several; pings answered; the closing handshake."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from bench.lean_socket import connect

BIG = "z" * 70_000  # a length of 8 bytes in the frame's header


async def server_side(ws: ServerConnection) -> None:
    await ws.send(json.dumps({"kind": "state", "text": "y" * 3000}))
    await ws.send(["part 1, ", "part 2"])  # one message in several frames
    pong = await ws.ping()
    await asyncio.wait_for(pong, 5)
    await ws.send("pong came")
    async for message in ws:
        assert isinstance(message, str)
        await ws.send(f"echo {message}")
        if message == "bye":
            await ws.close()


@pytest.mark.parametrize("compression", ["deflate", None])
async def test_messages_pings_and_closing(compression: str | None) -> None:
    got: list[bytes] = []
    closed = asyncio.Event()
    async with serve(server_side, "127.0.0.1", 0, compression=compression) as server:
        port = server.sockets[0].getsockname()[1]
        socket = await connect(
            f"ws://127.0.0.1:{port}/api/x?y=1", lambda data, _t: got.append(data), closed.set, compression is not None
        )
        assert ("permessage-deflate" in socket.headers.get("sec-websocket-extensions", "")) == (compression is not None)
        for text in ("hello", BIG, "bye"):
            await socket.send(text)
        await asyncio.wait_for(closed.wait(), 10)
    assert got[0] == json.dumps({"kind": "state", "text": "y" * 3000}).encode()
    assert got[1:] == [b"part 1, part 2", b"pong came", b"echo hello", f"echo {BIG}".encode(), b"echo bye"]
    assert socket.closed


async def test_refused_handshake() -> None:
    async def refuse(_ws: ServerConnection) -> None:
        return None

    def no_upgrade(connection: ServerConnection, _request: Request) -> Response:
        return connection.respond(404, "no such seat\n")

    async with serve(refuse, "127.0.0.1", 0, process_request=no_upgrade) as server:
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(Exception, match="404"):
            await connect(f"ws://127.0.0.1:{port}/", lambda _d, _t: None, lambda: None)
