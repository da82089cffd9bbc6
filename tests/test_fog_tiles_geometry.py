"""Where a fog tile lies (`vtt/web/fog_tiles.py`): the picture's pixels a tile covers are those of the spaces it is
sent for, on square and hex grids, with the grid's origin away from the picture's corner and a picture larger than
the board (the map draws a tile at the same place: `static/map_view.js`, checked in `e2e/test_fog_tiles_align.py`).

The picture here is 700 x 520 pixels, 30 pixels a space (a hex's spacing: the distance between neighbouring
centres), with the grid's origin (the top-left corner of space (0, 0)'s box) at pixel (13, 7). A tile is 8 spaces,
240 pixels a side: tile (i, j) starts at pixel (13 + 240 i, 7 + 240 j), cut to the picture.
"""

from __future__ import annotations

import itertools
import math

import pytest

from vtt.rules.grid import GridKind
from vtt.rules.model import Background, Cell
from vtt.web.fog_tiles import BLEED, Rect, cut_rect, space_box, tile_rect, tiles_of

BG = Background(image="/api/games/1/background", offset=(13, 7), cell_px=30)
WIDTH, HEIGHT = 700, 520
SQRT3 = math.sqrt(3)


def rect(tile: tuple[int, int]) -> Rect:
    found = tile_rect(BG, WIDTH, HEIGHT, tile)
    assert found is not None
    return found


def test_a_tile_starts_on_the_grid_line_of_its_first_space_and_is_cut_to_the_picture() -> None:
    """Tile (1, 1): x 13 + 240 = 253, y 7 + 240 = 247, 240 a side. Tile (2, 1): x 493, cut at the picture's right
    edge 700 (207 wide). Tile (2, 2): y 487, cut at the bottom 520 (33 high). Tile (3, 0) starts at 733: none."""
    assert rect((0, 0)) == (13, 7, 240, 240)
    assert rect((1, 1)) == (253, 247, 240, 240)
    assert rect((2, 1)) == (493, 247, 207, 240)
    assert rect((2, 2)) == (493, 487, 207, 33)
    assert tile_rect(BG, WIDTH, HEIGHT, (3, 0)) is None


def test_a_tile_is_cut_with_a_margin_so_that_neighbours_overlap() -> None:
    """The margin is a sixteenth of a space, rounded up to whole pixels: 30 / 16 = 1.9, 2 pixels. Tile (0, 0):
    (13 - 2, 7 - 2), 240 + 4 a side. Tile (2, 2): from (491, 485) to the picture's corner (700, 520). A grid whose
    origin is the picture's corner: tile (0, 0) starts at pixel (0, 0), the margin cut off."""
    assert BLEED == 1 / 16
    assert cut_rect(BG, WIDTH, HEIGHT, (0, 0)) == (11, 5, 244, 244)
    assert cut_rect(BG, WIDTH, HEIGHT, (1, 1)) == (251, 245, 244, 244)
    assert cut_rect(BG, WIDTH, HEIGHT, (2, 2)) == (491, 485, 209, 35)
    assert cut_rect(BG, WIDTH, HEIGHT, (3, 0)) is None
    corner = Background(image="/api/games/1/background", offset=(0, 0), cell_px=8)
    assert cut_rect(corner, 100, 100, (0, 0)) == (0, 0, 65, 65)


def test_a_hex_space_across_a_tile_edge_is_sent_both_tiles_and_lies_in_them() -> None:
    """Hex (7, 1), an odd row: its box spans x 7 + 1/2 = 7.5 to 8.5 spacings, pixels 13 + 225 = 238 to 268, across
    the edge 253 between tiles (0, 0) and (1, 0); y 1.5 / sqrt(3) = 0.87 to 3.5 / sqrt(3) = 2.02 spacings, pixels
    33.0 to 67.6, inside tile row 0 (7 to 247). Hex (6, 2), an even row: x 6 + 1 = 7 to 8 spacings, pixels 223 to
    253, ends on the edge: tile (0, 0) only."""
    assert space_box(GridKind.HEX, (7, 1)) == pytest.approx((7.5, 1.5 / SQRT3, 8.5, 3.5 / SQRT3))
    assert tiles_of(GridKind.HEX, [(7, 1)]) == {(0, 0), (1, 0)}
    left, _, width, _ = rect((0, 0))
    right_left, _, _, _ = rect((1, 0))
    assert left + width == right_left == 253
    assert 13 + 7.5 * 30 < 253 < 13 + 8.5 * 30
    assert tiles_of(GridKind.HEX, [(6, 2)]) == {(0, 0)}
    assert left + width == 13 + 8 * 30


def _pixels(kind: GridKind, cell: Cell) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = space_box(kind, cell)
    ox, oy = BG.offset
    c = BG.cell_px
    return ox + x0 * c, oy + y0 * c, ox + x1 * c, oy + y1 * c


CELLS = [(0, 0), (7, 0), (8, 0), (7, 7), (8, 8), (15, 9), (16, 8), (17, 13)]
HEX_CELLS = [(0, 0), (7, 0), (7, 1), (3, 8), (2, 9), (-4, 9), (4, 10), (12, 13), (10, 13), (-3, 7)]


@pytest.mark.parametrize(("kind", "cells"), [(GridKind.SQUARE, CELLS), (GridKind.HEX, HEX_CELLS)])
def test_every_pixel_of_a_space_in_the_picture_lies_in_a_tile_sent_for_it(kind: GridKind, cells: list[Cell]) -> None:
    """Each space's box, in the picture's pixels and cut to the picture, is covered by the tiles `tiles_of` gives for
    it, and each of those tiles overlaps the box by more than a pixel (no tile sent for nothing)."""
    for cell in cells:
        x0, y0, x1, y1 = _pixels(kind, cell)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, WIDTH), min(y1, HEIGHT)
        rects = [rect(t) for t in tiles_of(kind, [cell])]
        xs = sorted({x0, x1, *(r[0] for r in rects), *(r[0] + r[2] for r in rects)})
        ys = sorted({y0, y1, *(r[1] for r in rects), *(r[1] + r[3] for r in rects)})
        for xa, xb in itertools.pairwise(xs):
            for ya, yb in itertools.pairwise(ys):
                mx, my = (xa + xb) / 2, (ya + yb) / 2
                if x0 < mx < x1 and y0 < my < y1:
                    assert any(x <= mx <= x + w and y <= my <= y + h for x, y, w, h in rects), (cell, mx, my)
        for x, y, w, h in rects:
            assert min(x1, x + w) - max(x0, x) > 1 and min(y1, y + h) - max(y0, y) > 1, (cell, (x, y, w, h))
