"""The headers every response of the server carries, page, API, file or NiceGUI's own, as an ASGI middleware.

- `Referrer-Policy: no-referrer`: seat and invitation secrets live in URLs; no link or picture may pass them on.
- `X-Content-Type-Options: nosniff`: a file is what its Content-Type says (an uploaded picture never runs as a
  script).
- `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`: no other site shows the table in
  a frame (to trick a Soulweaver into clicking).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS: dict[str, str] = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
}


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every HTTP response (a header the response already has is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
