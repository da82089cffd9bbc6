"""The project's own style sheets (`static/*.css`), served under a name that holds a hash of their content and
cached by browsers for a year: a page links them instead of carrying them in its text, so a second page view
fetches nothing, and a changed sheet gets a new name (no stale copy is ever used)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import HTTPException
from fastapi.responses import Response
from nicegui import app, ui

STATIC = Path(__file__).resolve().parents[2] / "static"
SHEETS = ("utility.css", "table.css")
PREFIX = "/static/css"
CACHE_CONTROL = "public, max-age=31536000, immutable"


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:16]


def _read() -> dict[str, tuple[str, bytes]]:
    out: dict[str, tuple[str, bytes]] = {}
    for name in SHEETS:
        content = (STATIC / name).read_bytes()
        out[name] = (_digest(content), content)
    return out


_SHEETS = _read()


def url(name: str) -> str:
    """Where the page finds the style sheet `name` (one of `SHEETS`)."""
    return f"{PREFIX}/{_SHEETS[name][0]}/{name}"


@app.get(PREFIX + "/{digest}/{name}", include_in_schema=False)
def _sheet(digest: str, name: str) -> Response:
    found = _SHEETS.get(name)
    if found is None or found[0] != digest:
        raise HTTPException(status_code=404)
    return Response(found[1], media_type="text/css", headers={"Cache-Control": CACHE_CONTROL})


def link() -> None:
    """Link the page to the style sheets, in order (the utility classes first)."""
    ui.add_head_html("".join(f'<link rel="stylesheet" href="{url(name)}">' for name in SHEETS))
