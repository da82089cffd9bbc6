"""Token pictures (issue 12 item 5): the Soulweaver uploads a picture on a creature's sheet, both pages draw it
clipped into the token's body (an SVG `<image>` served by the picture's hash), a file that is not an image is
refused in plain words, and "Remove picture" brings the initials back."""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from e2e.conftest import ROOT, NewGame, TableGame, open_as

ARENA = ROOT / "e2e" / "maps" / "arena.json"
pytestmark = pytest.mark.usefixtures("table_timeouts")


def _png(width: int = 8, height: int = 8) -> bytes:
    """A small PNG in two colours, made here."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(
        b"\x00" + b"".join(bytes((30, 120, 200) if (x + y) % 2 else (240, 200, 40)) for x in range(width))
        for y in range(height)
    )
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture
def arena(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    data: dict[str, Any] = json.loads(ARENA.read_text())
    data["settings"] = {**data.get("settings", {}), "reactions": False}
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data))
    with new_game(path, seed=7) as server:
        yield server


def _select(gm: Page, token: str) -> None:
    gm.locator(f'[data-token-id="{token}"] .vtt-body').click()
    gm.keyboard.press("Escape")  # close the token menu; the sheet stays


def _upload(gm: Page, name: str, mime: str, data: bytes) -> None:
    gm.locator(".sheet [data-field=picture-upload] input[type=file]").set_input_files(
        files=[FilePayload(name=name, mimeType=mime, buffer=data)]
    )


def test_the_soulweaver_gives_a_token_a_picture_and_removes_it(browser: Browser, arena: TableGame) -> None:
    gm = open_as(browser, arena, "as=soulweaver", ready="[data-token-id]")
    alice = open_as(browser, arena, "as=player&name=alice", ready="[data-token-id]")
    gm.set_viewport_size({"width": 1280, "height": 800})
    picture = _png()
    href = f"/api/pictures/{hashlib.sha256(picture).hexdigest()}"

    _select(gm, "orc")
    expect(gm.locator(".sheet [data-action=remove-picture]")).to_have_count(0)
    # a file that only calls itself a PNG is refused, and nothing changes
    _upload(gm, "face.png", "image/png", b"<svg onload=alert(1)></svg>")
    expect(gm.get_by_text("That file is not a PNG, JPEG or WebP image.")).to_be_visible()
    expect(gm.locator('[data-token-id="orc"] image')).to_have_count(0)

    _upload(gm, "orc.png", "image/png", picture)
    expect(gm.locator(".roll-log")).to_contain_text("The Soulweaver edits Orc: picture.")
    for page in (gm, alice):
        image = page.locator('[data-token-id="orc"] image[data-role=picture]')
        expect(image).to_have_count(1)
        expect(image).to_have_attribute("href", href)
        expect(page.locator('[data-token-id="orc"] .vtt-label')).to_have_count(0)
        expect(page.locator('[data-token-id="ayla"] .vtt-label')).to_have_text("Ay")
    served = alice.request.get(arena.url + href)
    assert served.status == 200 and served.body() == picture
    assert served.headers["content-type"] == "image/png"
    gm.locator(".sheet [data-action=remove-picture]").scroll_into_view_if_needed()

    gm.locator(".sheet [data-action=remove-picture]").click()
    for page in (gm, alice):
        expect(page.locator('[data-token-id="orc"] image')).to_have_count(0)
        expect(page.locator('[data-token-id="orc"] .vtt-label')).to_have_text("Or")
    expect(gm.locator(".sheet [data-action=remove-picture]")).to_have_count(0)
