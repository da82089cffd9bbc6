"""The background's fog tiles line up with the grid (`vtt/web/fog_tiles.py` cuts them, `static/map_view.js` draws
them), on a square and a hex map made here: 18 x 14 spaces over a picture of 700 x 520 pixels, 30 pixels a space
(a hex's spacing: the distance between neighbouring centres), the grid's origin at pixel (13, 7), so the picture is
larger than the board and its corner is not the grid's. Each space of the picture is painted its own colour
(one of five, `(q + 2 r) mod 5`, which differs between any two neighbours on either grid).

Ayla (alice) sees the whole map (no walls, daylight): her page gets all six tiles, 8 x 8 spaces each. On screen:
- each tile's box starts on the grid line of its first space and is 8 spaces (or, cut at the picture's edge, the
  rest of the picture) wide and high, and a margin of 2 pixels of the picture past each side that has more
  picture, within a pixel and a half;
- inside a few spaces on each side of tile edges, the picture shows that space's colour (a tile half a space off
  shows a neighbour's colour there).

Then, on a square map where a wall shuts Ayla in, the part of a tile past the spaces she knows does not show through
the fog: an unseen space in her tile looks like an unseen space in no tile.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Browser, Page, ViewportSize, expect

from e2e.conftest import NewGame, TableGame, open_seat, wait_until
from e2e.helpers import cell_xy, wait_map_steady

pytestmark = pytest.mark.usefixtures("table_timeouts")

Cell = tuple[int, int]
RGB = tuple[int, int, int]
COLS, ROWS = 18, 14
WIDTH, HEIGHT = 700, 520
OFFSET = (13, 7)
CELL_PX = 30
TILE_SPACES = 8
MARGIN_PX = 2
"""A tile is cut with a margin of a sixteenth of a space round it (30 / 16, rounded up), so that neighbours overlap."""
SQRT3 = math.sqrt(3)
PALETTE: list[RGB] = [(200, 40, 40), (40, 160, 60), (40, 70, 200), (230, 200, 40), (150, 60, 170)]
OUTSIDE: RGB = (128, 128, 128)
TILE = re.compile(r"/tile/(-?\d+)/(-?\d+)")
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def colour(cell: Cell) -> RGB:
    return PALETTE[(cell[0] + 2 * cell[1]) % 5]


def space_polygon(grid: str, cell: Cell) -> list[tuple[float, float]]:
    """A space's outline in the picture's pixels (as the map draws it, in spacings from the grid's origin)."""
    q, r = cell
    ox, oy = OFFSET
    c = CELL_PX
    if grid == "square":
        return [(ox + x * c, oy + y * c) for x, y in ((q, r), (q + 1, r), (q + 1, r + 1), (q, r + 1))]
    radius = 1 / SQRT3  # centre to corner, in spacings
    cx, cy = q + r / 2 + 0.5, 1.5 * r * radius + radius
    corners = [
        (0.5, -radius / 2),
        (0.5, radius / 2),
        (0, radius),
        (-0.5, radius / 2),
        (-0.5, -radius / 2),
        (0, -radius),
    ]
    return [(ox + (cx + dx) * c, oy + (cy + dy) * c) for dx, dy in corners]


def picture(grid: str, cells: list[Cell]) -> str:
    image = Image.new("RGB", (WIDTH, HEIGHT), OUTSIDE)
    pen = ImageDraw.Draw(image)
    for cell in cells:
        pen.polygon(space_polygon(grid, cell), fill=colour(cell))
    out = io.BytesIO()
    image.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def board_cells(grid: str) -> list[Cell]:
    """Every space of the board and a ring round it (the picture goes past the board)."""
    rows = range(-1, ROWS + 2)
    if grid == "square":
        return [(q, r) for r in rows for q in range(-1, COLS + 2)]
    return [(col - (r - (r & 1)) // 2, r) for r in rows for col in range(-1, COLS + 2)]


def space(grid: str, col: int, row: int) -> Cell:
    """The space in column `col` of row `row` (on a hex grid, q shifts half a column a row)."""
    return (col, row) if grid == "square" else (col - (row - (row & 1)) // 2, row)


def game(grid: str, walls: list[list[int]]) -> dict[str, Any]:
    bg = {"image": picture(grid, board_cells(grid)), "offset": list(OFFSET), "cell_px": CELL_PX, "opacity": 1}
    return {
        "version": 1, "name": "Fog tiles", "description": "e2e: a painted picture under fog of war.",
        "settings": {"grid": grid, "fog_of_war": True, "reactions": False},
        "board": {"cols": COLS, "rows": ROWS, "walls": walls, "background": bg},
        "weapons": [{"id": "sword", "name": "Sword", "damage": 2}],
        "creatures": [
            {"id": "ayla", "name": "Ayla", "anchor": [2, 2], "controller": "alice", "color": "#2f6db5",
             "weapons": ["sword"], "grip": {"right_arm": "sword"}},
        ],
    }  # fmt: skip


def serve(new_game: NewGame, tmp_path: Path, grid: str, walls: list[list[int]]) -> TableGame:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(game(grid, walls)))
    return new_game(path, seed=3)


def open_alice(browser: Browser, server: TableGame, tiles: int) -> Page:
    page = open_seat(browser, server, "alice", ready='[data-token-id="ayla"]')
    page.set_viewport_size(LAPTOP)
    expect(page.locator(".vtt-bg-tile")).to_have_count(tiles)
    wait_map_steady(page)  # the map fits itself to the smaller window a frame or more after the resize
    return page


def grid_frame(page: Page, grid: str) -> tuple[float, float, float]:
    """The screen position of the grid's origin (the top-left corner of space (0, 0)'s box) and of a spacing."""
    x0, y0 = cell_xy(page, (0, 0))
    x1, _ = cell_xy(page, (1, 0))
    spacing = x1 - x0
    return x0 - spacing / 2, y0 - (spacing / 2 if grid == "square" else spacing / SQRT3), spacing


def sample_points(page: Page, cell: Cell, spacing: float) -> list[tuple[float, float]]:
    """Four points inside a space, 0.2 spacings from its centre each way (well inside a square or a hex)."""
    x, y = cell_xy(page, cell)
    d = 0.2 * spacing
    return [(x - d, y - d), (x + d, y - d), (x - d, y + d), (x + d, y + d)]


def near(a: tuple[int, ...], b: RGB, tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def off_colour(page: Page, points: list[tuple[Cell, tuple[float, float]]]) -> list[Any]:
    """The points (with the pixels next to them) whose colour on screen is not their space's colour."""
    image = shot(page)
    wrong = []
    for cell, (x, y) in points:
        for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            xy = (round(x) + dx, round(y) + dy)
            pixel = image.getpixel(xy)
            assert isinstance(pixel, tuple)
            if not near(pixel, colour(cell), 24):
                wrong.append((cell, xy, pixel, colour(cell)))
    return wrong


TILES_DECODED = """async () => {
  await Promise.all([...document.querySelectorAll(".vtt-bg-tile")].map((tile) => tile.decode()));
  await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
}"""
"""Every tile's picture loaded and decoded (it fails if one cannot be), then two frames drawn."""


def shot(page: Page) -> Image.Image:
    return Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("RGB")


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_each_tile_lies_on_the_spaces_it_covers(browser: Browser, tmp_path: Path, grid: str, new_game: NewGame) -> None:
    with serve(new_game, tmp_path, grid, []) as server:
        page = open_alice(browser, server, tiles=6)
        ox, oy, spacing = grid_frame(page, grid)
        boxes: list[list[Any]] = page.evaluate(
            "[...document.querySelectorAll('.vtt-bg-tile')].map(t => { const b = t.getBoundingClientRect();"
            " return [t.getAttribute('href'), b.left, b.top, b.right, b.bottom]; })"
        )
        seen = set()
        for href, left, top, right, bottom in boxes:
            m = TILE.search(href)
            assert m is not None, href
            i, j = int(m[1]), int(m[2])
            seen.add((i, j))
            # in spacings from the grid's origin: the tile's grid lines, the margin past them, the picture's edges
            margin = MARGIN_PX / CELL_PX
            start_x, start_y = -OFFSET[0] / CELL_PX, -OFFSET[1] / CELL_PX
            end_x, end_y = (WIDTH - OFFSET[0]) / CELL_PX, (HEIGHT - OFFSET[1]) / CELL_PX
            want = (
                ox + max(TILE_SPACES * i - margin, start_x) * spacing,
                oy + max(TILE_SPACES * j - margin, start_y) * spacing,
                ox + min(TILE_SPACES * (i + 1) + margin, end_x) * spacing,
                oy + min(TILE_SPACES * (j + 1) + margin, end_y) * spacing,
            )
            got = (left, top, right, bottom)
            assert all(abs(g - w) <= 1.5 for g, w in zip(got, want, strict=True)), (grid, (i, j), got, want)
        assert seen == {(i, j) for i in range(3) for j in range(2)}

        # spaces on both sides of the tiles' edges (columns 7 | 8 and 15 | 16, rows 7 | 8), away from Ayla
        samples = [space(grid, col, row) for col in (6, 7, 8, 9, 15, 16) for row in (5, 7, 8, 11)]
        points = [(cell, xy) for cell in samples for xy in sample_points(page, cell, spacing)]
        if grid == "hex":
            # where two tiles meet inside a space: the middle of an odd row's space in columns 7 and 15 (its box
            # spans 7.5 to 8.5 spacings) and a line through row 9's spaces (7.79 to 8.95 spacings down)
            for row in (5, 7, 11):
                points += [(space(grid, col, row), cell_xy(page, space(grid, col, row))) for col in (7, 15)]
            for col in (3, 10):
                cell = space(grid, col, 9)
                points.append((cell, (cell_xy(page, cell)[0], oy + TILE_SPACES * spacing)))
        page.evaluate(TILES_DECODED)  # the tiles load and paint a moment after they are placed
        wrong = off_colour(page, points)
        frame = (ox, oy, spacing), grid_frame(page, grid)
        cells = sorted({cell for cell, *_ in wrong})
        assert not wrong, (
            f"the picture is not painted in line with the spaces ({grid}): {len(wrong)} of {5 * len(points)} pixels "
            f"in spaces {cells}, e.g. {wrong[:6]}; the grid's origin and spacing when measured, then after: {frame}"
        )


def test_a_tile_does_not_show_through_the_fog_past_the_known_spaces(
    browser: Browser, tmp_path: Path, new_game: NewGame
) -> None:
    """A wall down column 5 and along row 5 shuts Ayla at (2, 2) in columns and rows 0 to 5 (the wall's spaces
    seen): all in tile (0, 0), which reaches to column and row 7. Space (6, 2) (in tile (0, 0), unseen) and space
    (9, 2) (in no tile sent, unseen) look alike under the fog; (6, 2) would show its colour dimly through it."""
    walls = [[5, row] for row in range(6)] + [[col, 5] for col in range(5)]
    with serve(new_game, tmp_path, "square", walls) as server:
        page = open_alice(browser, server, tiles=1)
        expect(page.locator('[data-role="fog"]')).to_have_attribute("data-visible", re.compile(r"[1-9]"))
        _, _, spacing = grid_frame(page, "square")
        inside, outside, known = (
            sample_points(page, (6, 2), spacing),
            sample_points(page, (9, 2), spacing),
            sample_points(page, (3, 3), spacing),
        )
        found: list[Any] = []

        def settled() -> bool:
            image = shot(page)
            found.clear()
            found.extend(image.getpixel((round(x), round(y))) for x, y in [*inside, *outside, *known])
            return all(near(p, colour((3, 3)), 24) for p in found[8:])  # the tile is painted on a known space

        wait_until(page, settled, "the tile painted on the spaces Ayla knows")
        for a, b in zip(found[:4], found[4:8], strict=True):
            assert near(a, b, 4), (a, b)
