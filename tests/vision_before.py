"""Line of sight as it was worked out before the compact walk (`vision.line_of_sight` at 7ffb263, one walk per
space of the viewer, merged): the oracle tests/test_vision_same.py compares today's walk with. The rest of vision.py
did not change with the walk and is not kept here (the ray tree and the reach are vision.py's own); it is not used
by the application."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.space import grid_for
from vtt.rules.vision import _ray_tree, _reach  # unchanged by the compact walk


@dataclass(frozen=True)
class _Layout:
    """A map's spaces numbered for the walk: space (q, r) is `(r + pad) * stride + q + pad`, with room around the
    map for every ray of the tree; `inside` marks the map's own spaces and `cells` names each number's space."""

    pad: int
    stride: int
    inside: bytes
    cells: tuple[Cell | None, ...]
    deltas: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]

    def index(self, cell: Cell) -> int:
        return (cell[1] + self.pad) * self.stride + cell[0] + self.pad


@lru_cache(maxsize=8)
def _layout(kind: GridKind, cols: int, rows: int, radius: int) -> _Layout:
    grid = grid_for(kind)
    order, kids = _ray_tree(kind, radius)
    pad = radius + rows + 1
    stride = cols + rows + 2 * pad + 1
    size = stride * (rows + 2 * pad + 1)
    inside = bytearray(size)
    cells: list[Cell | None] = [None] * size
    for row in range(rows):
        for col in range(cols):
            q, r = grid.from_offset(col, row)
            i = (r + pad) * stride + q + pad
            inside[i] = 1
            cells[i] = (q, r)
    node = {offset: n for n, offset in enumerate(order)}
    deltas = tuple(dr * stride + dq for dq, dr in order)
    children = tuple(tuple(node[c] for c in kids.get(offset, ())) for offset in order)
    return _Layout(pad, stride, bytes(inside), tuple(cells), deltas, children)


@lru_cache(maxsize=4096)
def _line_of_sight(
    kind: GridKind, origin: Cell, cols: int, rows: int, blocking: frozenset[Cell], radius: int
) -> frozenset[Cell]:
    layout = _layout(kind, cols, rows, radius if radius else _reach(grid_for(kind), cols, rows))
    inside, deltas, children = layout.inside, layout.deltas, layout.children
    block = bytearray(len(inside))
    for cell in blocking:
        i = layout.index(cell)
        if 0 <= i < len(block):
            block[i] = 1
    seen = bytearray(len(inside))
    base = layout.index(origin)
    seen[base] = 1
    out = [base]
    stack = list(children[0])
    pop, extend, add = stack.pop, stack.extend, out.append
    while stack:
        node = pop()
        i = base + deltas[node]
        if seen[i] or not inside[i]:
            continue  # a line that leaves the rectangular map does not come back onto it
        seen[i] = 1
        add(i)
        if not block[i]:
            extend(children[node])
    cells = layout.cells
    return frozenset(spot for i in out if (spot := cells[i]) is not None)  # a viewer off the map: not its space


def line_of_sight(
    state: GameState, cells: Iterable[Cell], blocking: frozenset[Cell] | None = None, radius: int = 0
) -> frozenset[Cell]:
    """The spaces in line of sight of any of `cells` (walls and objects block, or `blocking`), within `radius`
    (0: the whole map)."""
    board = state.board
    block = board.filled() if blocking is None else blocking
    kind = state.settings.grid
    out: set[Cell] = set()
    for cell in cells:
        out |= _line_of_sight(kind, cell, board.cols, board.rows, block, radius)
    return frozenset(out)
