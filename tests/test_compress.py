"""NiceGUI's own files are compressed once and kept (off the event loop); every other response is compressed for
each request, as before; a file is never kept compressed when it was not a whole, plain 200 response."""

from __future__ import annotations

import gzip

import httpx
from starlette.types import Receive, Scope, Send

from vtt.web.compress import ASSETS, NOT_ASSETS, Compress

SCRIPT = ("export default {};\n" * 4000).encode()  # bigger than the inline limit: compressed in a thread


class Files:
    """A tiny ASGI app serving `SCRIPT` at every path, in 3 chunks (as a file response does), counting requests;
    `/missing` paths answer 404."""

    def __init__(self) -> None:
        self.served = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.served += 1
        missing = "missing" in scope["path"]
        body = b"not found " * 100 if missing else SCRIPT
        headers = [(b"content-type", b"text/javascript"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 404 if missing else 200, "headers": headers})
        third = len(body) // 3
        for i, piece in enumerate((body[:third], body[third : 2 * third], body[2 * third :])):
            await send({"type": "http.response.body", "body": piece, "more_body": i < 2})


async def get(app: Compress, path: str, gzip_ok: bool = True) -> httpx.Response:
    headers = {"accept-encoding": "gzip" if gzip_ok else "identity"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://vtt") as client:
        return await client.get(path, headers=headers)


async def test_a_nicegui_file_is_compressed_once_and_then_sent_from_memory() -> None:
    files = Files()
    app = Compress(files)
    path = f"{ASSETS}static/vue.js"
    first, second = await get(app, path), await get(app, path)
    assert files.served == 1
    for response in (first, second):
        assert response.status_code == 200 and response.content == SCRIPT  # httpx undoes the gzip
        assert response.headers["content-encoding"] == "gzip" and "Accept-Encoding" in response.headers["vary"]
        assert int(response.headers["content-length"]) == len(gzip.compress(SCRIPT, 9, mtime=0))
    plain = await get(app, path, gzip_ok=False)
    assert plain.content == SCRIPT and "content-encoding" not in plain.headers and files.served == 2


async def test_pages_and_changing_files_are_compressed_for_each_request() -> None:
    files = Files()
    app = Compress(files)
    for path in ("/watch/1", "/watch/1", f"{NOT_ASSETS}abc/x.js", f"{NOT_ASSETS}abc/x.js"):
        response = await get(app, path)
        assert response.content == SCRIPT and response.headers["content-encoding"] == "gzip"
    assert files.served == 4


async def test_a_missing_file_is_sent_as_it_is_and_not_kept() -> None:
    files = Files()
    app = Compress(files)
    for _ in range(2):
        response = await get(app, f"{ASSETS}static/missing.js")
        assert response.status_code == 404 and response.content.startswith(b"not found")
        assert "content-encoding" not in response.headers
    assert files.served == 2
