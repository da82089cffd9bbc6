"""The Soulweaver's fog tools and the background under fog of war (`vtt/web/fog_brush.py`, `vtt/web/fog_tiles.py`),
on a square map made here: 24 x 16 spaces over a picture of 40 pixels a space (so 3 x 2 tiles of 8 x 8 spaces).
Ayla (alice) stands at (1, 1) in a room walled by column 6 (rows 0 to 6) and row 6 (columns 0 to 6): all she
perceives and remembers lies in columns and rows 0 to 6, tile (0, 0). Grukk the Orc stands at (18, 10), tile (2, 1).

The Soulweaver reveals the rectangle (16, 8)-(20, 12) with the Reveal tool: alice sees it and Grukk, and her page
fetches tile (2, 1) besides (0, 0); no other tile, never the whole picture, and the picture's data never reaches her
page. Then the Soulweaver hides Grukk's space: Grukk goes from alice's map although the area stays revealed.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Browser, Page, Request, WebSocket, expect

from e2e.conftest import LOAD_TIMEOUT, NewGame, TableGame, open_seat, user_context, wait_ready
from e2e.helpers import cell_xy, drag

pytestmark = pytest.mark.usefixtures("table_timeouts")

ORC = "grukk"
CELL_PX = 40
COLS, ROWS = 24, 16
TILE = re.compile(r"/api/fog/[0-9a-f]+/tile/(-?\d+)/(-?\d+)")


def picture() -> str:
    """A picture with a colour per tile filling it, its spaces in a checker of two shades of it, so that a
    look at the page shows which tiles were sent and that they lie on the grid's spaces."""
    image = Image.new("RGB", (COLS * CELL_PX, ROWS * CELL_PX))
    pen = ImageDraw.Draw(image)
    colours = [(170, 120, 80), (90, 140, 90), (80, 110, 160), (160, 90, 140), (190, 170, 70), (110, 90, 70)]
    for q in range(COLS):
        for r in range(ROWS):
            red, green, blue = colours[(r // 8) * 3 + q // 8]
            lift = 30 if (q + r) % 2 else 0
            box = (q * CELL_PX, r * CELL_PX, (q + 1) * CELL_PX - 1, (r + 1) * CELL_PX - 1)
            pen.rectangle(box, fill=(red + lift, green + lift, blue + lift))
    out = io.BytesIO()
    image.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def room_map() -> dict[str, Any]:
    walls = [[6, row] for row in range(7)] + [[col, 6] for col in range(6)]
    return {
        "version": 1,
        "name": "Fog tools",
        "description": "e2e: a walled room, an orc far away, a background picture.",
        "settings": {"grid": "square", "fog_of_war": True, "reactions": False},
        "board": {"cols": COLS, "rows": ROWS, "walls": walls,
                  "background": {"image": picture(), "offset": [0, 0], "cell_px": CELL_PX, "opacity": 1}},
        "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
        "creatures": [
            {"id": "ayla", "name": "Ayla", "anchor": [1, 1], "controller": "alice", "color": "#2f6db5",
             "weapons": ["sword"], "grip": {"right_arm": "sword"}},
            {"id": ORC, "name": "Grukk the Orc", "anchor": [18, 10], "color": "#7b3f2a"},
        ],
    }  # fmt: skip


@pytest.fixture
def server(tmp_path: Path, new_game: NewGame) -> Iterator[TableGame]:
    path = tmp_path / "room.json"
    path.write_text(json.dumps(room_map()))
    with new_game(path, seed=3) as server:
        yield server


def open_player(browser: Browser, server: TableGame, urls: list[str], frames: list[str]) -> tuple[Page, str]:
    """Alice's page, with every request it makes and every websocket frame it receives recorded from the start."""
    page = user_context(browser).new_page()

    def record(ws: WebSocket) -> None:
        ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode(errors="replace")))

    def requested(request: Request) -> None:
        urls.append(request.url)

    page.on("websocket", record)
    page.on("request", requested)
    response = page.goto(server.url + server.seat("alice"), timeout=LOAD_TIMEOUT)
    assert response is not None
    wait_ready(page, timeout=LOAD_TIMEOUT)
    page.wait_for_selector('[data-token-id="ayla"]')
    return page, response.text()


def tiles_asked(urls: list[str]) -> set[tuple[int, int]]:
    return {(int(m[1]), int(m[2])) for u in urls if (m := TILE.search(u))}


def choose_tool(gm: Page, label: str) -> None:
    gm.locator('[data-field="fog-tool"] button').filter(has_text=label).click()


def test_the_soulweaver_reveals_an_area_and_the_player_gets_only_its_tiles(browser: Browser, server: TableGame) -> None:
    urls: list[str] = []
    frames: list[str] = []
    alice, html = open_player(browser, server, urls, frames)
    expect(alice.locator(".vtt-bg-tile")).to_have_count(1)  # tile (0, 0), her room
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(0)
    assert tiles_asked(urls) == {(0, 0)}
    assert "base64" not in html and not [f for f in frames if "data:image" in f]

    gm = open_seat(browser, server, "soulweaver")
    expect(gm.locator(".vtt-bg-image")).to_have_count(1)  # the whole picture for the Soulweaver
    choose_tool(gm, "Reveal")
    expect(gm.locator('[data-role="fog"][data-preview="1"]')).to_have_count(1)  # the marks shown
    drag(gm, cell_xy(gm, (16, 8)), cell_xy(gm, (20, 12)))
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(1)
    expect(alice.locator(".vtt-bg-tile")).to_have_count(2)
    alice.wait_for_function("[...document.querySelectorAll('.vtt-bg-tile')].every(t => t.getBBox().width > 0)")
    gm_fog = gm.locator('[data-role="fog"]')
    expect(gm_fog).not_to_have_attribute("data-visible", "0")

    choose_tool(gm, "Hide")
    drag(gm, cell_xy(gm, (18, 10)), cell_xy(gm, (18, 10)), steps=2)
    expect(alice.locator(f'[data-token-id="{ORC}"]')).to_have_count(0)
    gm.locator("[data-action=edit-map]").click()  # the map editor takes the map's strokes: the fog tools go away
    expect(gm.locator('[data-role="fog"]')).to_have_count(0)
    expect(gm.locator("svg.vtt-svg.vtt-painting")).to_have_count(1)
    choose_tool(gm, "Reveal")  # and a fog tool closes the editor
    expect(gm.locator("[data-action=edit-map]")).to_contain_text("Edit map")
    expect(gm.locator('[data-role="fog"][data-preview="1"]')).to_have_count(1)
    choose_tool(gm, "Off")
    expect(gm.locator('[data-role="fog"]')).to_have_count(0)
    expect(gm.locator("svg.vtt-svg.vtt-painting")).to_have_count(0)

    asked = tiles_asked(urls)
    assert asked <= {(0, 0), (2, 1)} and (2, 1) in asked, asked
    assert not [u for u in urls if "/background" in u or "/whole" in u], "the whole picture is never asked for"
    assert not [f for f in frames if "data:image" in f or '"hidden": [[' in f]
