"""Compressed responses that cost the event loop little: NiceGUI's own files (Vue, Quasar, the components) are
compressed once, in a thread, and kept; every other response as Starlette's `GZipMiddleware` does.

Starlette compresses each response on the event loop as it is sent, at its highest level: a browser opening its
first page here fetches about 1.5 MB of scripts, over 100 ms of compressing on the loop, in which no game's moves are
answered; and again for the next browser. NiceGUI's files under its versioned path never change while the server
runs (their addresses name NiceGUI's version and a hash, and browsers keep them for a year), so each is compressed
once, off the loop (zlib lets other threads run meanwhile), and the compressed bytes are kept.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections import OrderedDict

from nicegui import __version__ as nicegui_version
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ASSETS = f"/_nicegui/{nicegui_version}/"
"""NiceGUI's versioned files, unchanged while the server runs (as NiceGUI's `SetCacheControlMiddleware` has it)."""
NOT_ASSETS = f"/_nicegui/{nicegui_version}/dynamic_resources/"
MIN_SIZE = 500
"""Bytes below which a response is sent as it is (as Starlette's default)."""
PAGE_LEVEL = 6
"""Compression level of the responses made for each request (pages, API): nearly the size of level 9 in about half
the time."""
ASSET_LEVEL = 9
"""Compression level of a kept file: it is compressed once."""
INLINE_MAX = 16 * 1024
"""A file up to this size is compressed on the loop (well under a millisecond); a bigger one in a thread."""
BODY_MAX = 32 * 1024 * 1024
"""A file bigger than this is sent as it is, not held in memory to be compressed."""
KEPT_MAX = 64 * 1024 * 1024
"""Most bytes of compressed files kept (the least recently sent go first)."""

Kept = tuple[int, list[tuple[bytes, bytes]], bytes]
"""A kept response: status, raw headers, compressed body."""


def accepts_gzip(scope: Scope) -> bool:
    return "gzip" in Headers(scope=scope).get("accept-encoding", "")


def is_asset(scope: Scope) -> bool:
    path = str(scope.get("path", ""))
    return path.startswith(ASSETS) and not path.startswith(NOT_ASSETS)


class Compress(GZipMiddleware):
    """ASGI middleware, for `ui.run`'s `gzip_middleware_factory`: Starlette's for every response but NiceGUI's
    files."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, minimum_size=MIN_SIZE, compresslevel=PAGE_LEVEL)
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._kept_bytes = 0
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET" or not is_asset(scope) or not accepts_gzip(scope):
            await super().__call__(scope, receive, send)
            return
        key = f"{scope['path']}?{scope.get('query_string', b'').decode('latin-1')}"
        kept = self._get(key)
        if kept is None:
            kept = await self._compress(key, scope, receive, send)
            if kept is None:
                return  # sent as it was
        status, headers, body = kept
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def _compress(self, key: str, scope: Scope, receive: Receive, send: Send) -> Kept | None:
        """The file's response, compressed and kept; None when it was sent on as it is (not a whole 200 response
        under `BODY_MAX`, already encoded, or small)."""
        start: Message | None = None
        chunks: list[bytes] = []
        size = 0
        passing = False

        async def hold(message: Message) -> None:
            nonlocal start, size, passing
            if passing:
                await send(message)
            elif message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                size += len(chunks[-1])
                if size > BODY_MAX and message.get("more_body", False):
                    passing = True
                    assert start is not None
                    await send(start)
                    await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": True})
            else:
                await send(message)

        await self.app(scope, receive, hold)
        if passing or start is None:
            return None
        body = b"".join(chunks)
        headers = MutableHeaders(raw=list(start.get("headers", [])))
        if start["status"] != 200 or "content-encoding" in headers or len(body) < MIN_SIZE:
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})
            return None
        if len(body) <= INLINE_MAX:
            compressed = gzip.compress(body, ASSET_LEVEL, mtime=0)
        else:
            compressed = await asyncio.to_thread(gzip.compress, body, ASSET_LEVEL, mtime=0)
        headers["Content-Encoding"] = "gzip"
        headers["Content-Length"] = str(len(compressed))
        headers.add_vary_header("Accept-Encoding")
        kept: Kept = (int(start["status"]), headers.raw, compressed)
        self._keep(key, kept)
        return kept

    def _get(self, key: str) -> Kept | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
            return kept

    def _keep(self, key: str, kept: Kept) -> None:
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._kept_bytes -= len(old[2])
            self._kept[key] = kept
            self._kept_bytes += len(kept[2])
            while self._kept_bytes > KEPT_MAX and len(self._kept) > 1:
                _, dropped = self._kept.popitem(last=False)
                self._kept_bytes -= len(dropped[2])
