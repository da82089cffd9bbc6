"""A lean websocket client for the load generator of `bench/scale.py`: an asyncio protocol that reads the server's
frames itself and hands each whole text message to a callback, in the event loop's call that read it.

The `websockets` client spent about 0.1 ms of processor time on each message received (its frame parser's
generators, the message assembler, a future and a task step for each `recv`): with 6 receivers a command, most of
what the load generator paid a command, on the cores the servers under test share. Here a message costs a slice of
the read buffer, an inflate when it is compressed, and the callback.

It speaks what the load needs of RFC 6455 and RFC 7692: it offers permessage-deflate as the `websockets` client does
(`client_max_window_bits`), inflates the messages the server compressed, sends its own text frames uncompressed
and masked, answers pings and the closing handshake. It is not a general client: no binary messages to the
callback, no limit on a message's size (the server is the project's own).
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
import zlib
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the wheels have it
    from websockets.utils import apply_mask

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
DEFLATE_TAIL = b"\x00\x00\xff\xff"
OFFER = "permessage-deflate; client_max_window_bits"

OnText = Callable[[bytes, float], None]
"""Called with a text message's UTF-8 bytes and the `time.perf_counter()` of the read that completed it."""


class LeanSocket(asyncio.Protocol):
    """One connection. `connect` makes it; `send` and `close` as on a `websockets` connection; every text message
    goes to `on_text`, and `on_closed` is called once when the connection ends."""

    def __init__(self, on_text: OnText, on_closed: Callable[[], None]) -> None:
        self.on_text, self.on_closed = on_text, on_closed
        self.transport: asyncio.Transport | None = None
        self.headers: dict[str, str] = {}
        """The handshake answer's headers (names in lower case)."""
        self.handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buffer = bytearray()
        self.parts: list[bytes] = []
        self.compressed = False
        self.inflater: zlib._Decompress | None = None
        self.reset_inflater = False
        self.closed = False

    # ---- asyncio.Protocol ----------------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is one without deriving from the class

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.handshake.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = bytes(self.buffer[:end]).decode("latin-1"), self.buffer[end + 4 :]
            self._answered(head)
        if self.buffer:
            self._frames(time.perf_counter())

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.handshake.done():
            self.handshake.set_exception(exc or ConnectionResetError("closed during the handshake"))
        if not self.closed:
            self.closed = True
            self.on_closed()

    # ---- the connection ---------------------------------------------------------------------------------------

    async def send(self, message: str) -> None:
        self._write(TEXT, message.encode())

    async def close(self) -> None:
        if not self.closed and self.transport is not None:
            self._write(CLOSE, struct.pack("!H", 1000))
            self.closed = True
            self.transport.close()

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.closed or self.transport is None or self.transport.is_closing():
            raise ConnectionClosed(None, None)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        mask = os.urandom(4)
        self.transport.write(head + mask + apply_mask(payload, mask))

    def _answered(self, head: str) -> None:
        status, *lines = head.split("\r\n")
        for line in lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        if status.split()[1:2] != ["101"]:
            self.handshake.set_exception(InvalidHandshake(f"the server answered {status!r}"))
            return
        extensions = self.headers.get("sec-websocket-extensions", "")
        if "permessage-deflate" in extensions:
            self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            self.reset_inflater = "server_no_context_takeover" in extensions
        self.handshake.set_result(None)

    def _frames(self, now: float) -> None:
        """Take every whole frame from the buffer."""
        buffer, at = self.buffer, 0
        while len(buffer) - at >= 2 and not self.closed:
            first, second = buffer[at], buffer[at + 1]
            size, start = second & 0x7F, at + 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, start = struct.unpack_from("!H", buffer, at + 2)[0], at + 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, start = struct.unpack_from("!Q", buffer, at + 2)[0], at + 10
            if len(buffer) - start < size:
                break
            payload = bytes(buffer[start : start + size])
            at = start + size
            self._frame(first, payload, now)
        del buffer[:at]

    def _frame(self, first: int, payload: bytes, now: float) -> None:
        opcode = first & 0x0F
        if opcode == PING:
            self._write(PONG, payload)
            return
        if opcode == CLOSE:
            if not self.closed and self.transport is not None:
                self._write(CLOSE, payload[:2])
                self.closed = True
                self.transport.close()
                self.on_closed()
            return
        if opcode == PONG:
            return
        if opcode != CONTINUATION:
            self.compressed = bool(first & 0x40)
            self.parts = []
        self.parts.append(payload)
        if not first & 0x80:
            return  # more frames of this message follow
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        self.parts = []
        if self.compressed:
            assert self.inflater is not None, "a compressed message without permessage-deflate"
            data = self.inflater.decompress(data + DEFLATE_TAIL)
            if self.reset_inflater:
                self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        if opcode in (TEXT, CONTINUATION):
            self.on_text(data, now)


async def connect(url: str, on_text: OnText, on_closed: Callable[[], None], deflate: bool = True) -> LeanSocket:
    """Open a websocket to `url` (`ws://host:port/path`)."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _, socket = await loop.create_connection(lambda: LeanSocket(on_text, on_closed), host, port)
    key = base64.b64encode(os.urandom(16)).decode()
    request = [
        f"GET {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if deflate:
        request.append(f"Sec-WebSocket-Extensions: {OFFER}")
    assert socket.transport is not None
    socket.transport.write(("\r\n".join(request) + "\r\n\r\n").encode())
    try:
        await socket.handshake
    except BaseException:
        socket.closed = True
        socket.transport.close()
        raise
    return socket
