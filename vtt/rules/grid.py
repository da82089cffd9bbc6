"""Game geometry: spaces, distances, lines, ranges and creature footprints.

A space (a cell) is a pair of ints, ``Cell = tuple[int, int]``. Two grids are supported:

Hex grid (the default)
    Pointy-top hexes in **axial coordinates** ``(q, r)``; the implicit third cube coordinate is
    ``s = -q - r``. A rectangular map of ``cols × rows`` is laid out "odd-r" (odd rows are pushed half a
    hex to the right): ``col = q + (r - (r & 1)) // 2``, ``row = r``. Rows grow downwards, so "north" is
    a smaller ``r``. Neighbours are listed counter-clockwise starting East::

        E (1, 0), NE (1, -1), NW (0, -1), W (-1, 0), SW (-1, 1), SE (0, 1)

    Distance is the cube distance ``(|dq| + |dr| + |dq + dr|) / 2``.

Square grid (a table setting)
    ``(x, y)`` is ``(col, row)``, ``y`` growing downwards. Eight neighbours, listed counter-clockwise
    starting East: E, NE, N, NW, W, SW, S, SE. Distance is Chebyshev (a diagonal step costs 1).

Lines are contiguous runs of spaces from one end to the other, inclusive, one space per step of distance.
Where the ideal straight line runs exactly along the edge between two spaces, :meth:`Grid.lines` returns
both ways of resolving the tie; the obstruction rule treats a line of sight as clear if any of them is.

Footprints
    A creature of size ``s`` has an area of ``2 ** (s - 1)`` spaces: a size-1 creature fills one space
    and each +1 size doubles the area. The default shapes approximate that with compact, connected
    clusters (see :data:`HEX_FOOTPRINTS` and :data:`SQUARE_FOOTPRINTS`). Sizes below 1 use a single
    space (several such creatures may share it); sizes above 6 keep growing as documented below. A
    table can override the shape of any size (``shapes`` arguments; exact size keys only).

Everything here is pure and deterministic: standard library only, no randomness, no I/O.
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import ClassVar, TypeAlias

__all__ = [
    "HEX_DIRECTIONS",
    "HEX_FOOTPRINTS",
    "SQUARE_DIRECTIONS",
    "SQUARE_FOOTPRINTS",
    "Cell",
    "Grid",
    "GridKind",
    "HexGrid",
    "SquareGrid",
    "footprint_cell_count",
    "footprint_distance",
    "make_grid",
]

Cell: TypeAlias = tuple[int, int]


class GridKind(StrEnum):
    """The shape of the spaces of a map."""

    HEX = "hex"
    SQUARE = "square"


HEX_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial hex steps in neighbour order: E, NE, NW, W, SW, SE."""

SQUARE_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))
"""Square steps in neighbour order: E, NE, N, NW, W, SW, S, SE (``y`` grows downwards)."""

# Nudge added to the cube coordinates of a hex line so that points lying exactly on the edge between two
# hexes round deterministically. It sums to 0 (stays on the q + r + s = 0 plane) and is not parallel to any
# edge, so it always picks one side; the negated nudge picks the other side.
_HEX_NUDGE: tuple[float, float, float] = (1e-6, 2e-6, -3e-6)


# --------------------------------------------------------------------------------------------------------
# Footprint shapes
# --------------------------------------------------------------------------------------------------------


def _hex_ring_offsets(radius: int) -> list[Cell]:
    """Offsets at hex distance exactly ``radius`` from (0, 0), in ring order (see ``HexGrid.ring``)."""
    if radius == 0:
        return [(0, 0)]
    q, r = -radius, radius  # start SW of the centre
    out: list[Cell] = []
    for dq, dr in HEX_DIRECTIONS:
        for _ in range(radius):
            out.append((q, r))
            q += dq
            r += dr
    return out


def _hex_blob(radius: int) -> tuple[Cell, ...]:
    """The anchor (0, 0) followed by its rings 1..radius."""
    cells: list[Cell] = [(0, 0)]
    for k in range(1, radius + 1):
        cells.extend(_hex_ring_offsets(k))
    return tuple(cells)


def _rectangle(width: int, height: int) -> tuple[Cell, ...]:
    """A ``width × height`` block in reading order; the anchor (0, 0) is its top-left cell."""
    return tuple((x, y) for y in range(height) for x in range(width))


@lru_cache(maxsize=64)
def _hex_default_offsets(size: int) -> tuple[Cell, ...]:
    """Default hex shape: 1, 1, 2 (domino), 4 (rhombus), then hexagons of radius ``size - 3``."""
    if size <= 1:
        return ((0, 0),)
    if size == 2:
        return ((0, 0), (1, 0))
    if size == 3:
        return ((0, 0), (1, 0), (0, 1), (1, 1))
    return _hex_blob(size - 3)


@lru_cache(maxsize=64)
def _square_default_offsets(size: int) -> tuple[Cell, ...]:
    """Default square shape: 1×1, 2×1, 2×2, 3×3, 4×4, 6×6, then the side grows by 2 per size."""
    if size <= 1:
        return _rectangle(1, 1)
    if size == 2:
        return _rectangle(2, 1)
    side = {3: 2, 4: 3, 5: 4, 6: 6}.get(size, 6 + 2 * (size - 6))
    return _rectangle(side, side)


HEX_FOOTPRINTS: dict[int, tuple[Cell, ...]] = {size: _hex_default_offsets(size) for size in range(1, 7)}
"""Default hex footprints (offsets from the anchor, the anchor (0, 0) first) for sizes 1..6.

Each +1 size doubles a creature's area and a size-1 creature fills one space, so the ideal area is
``2 ** (size - 1)`` spaces (1, 2, 4, 8, 16, 32 for sizes 1..6). Hexes only form compact connected clusters
of certain counts, so the table approximates it: size ≤ 1 → 1 hex; 2 → 2 (a domino (0,0),(1,0));
3 → 4 (a rhombus (0,0),(1,0),(0,1),(1,1)); 4 → 7 (the anchor and its 6 neighbours: radius 1, the anchor is
the centre); 5 → 19 (radius 2); 6 → 37 (radius 3). Sizes above 6 add one radius per size: size 7 →
radius 4 (61 hexes), size 8 → radius 5 (91), i.e. radius ``size - 3`` for every size ≥ 4. Sizes below 1
use the single hex (such creatures may share it). So the counts for sizes 0..6 are 1, 1, 2, 4, 7, 19, 37.
"""

SQUARE_FOOTPRINTS: dict[int, tuple[Cell, ...]] = {size: _square_default_offsets(size) for size in range(1, 7)}
"""Default square footprints for sizes 1..6, anchor (0, 0) first and the top-left cell.

Approximating an area of ``2 ** (size - 1)`` spaces: size ≤ 1 → 1×1; 2 → 2×1; 3 → 2×2; 4 → 3×3;
5 → 4×4; 6 → 6×6. Above 6 the side grows by 2 per size (7 → 8×8, 8 → 10×10, ...).
"""


# --------------------------------------------------------------------------------------------------------
# Grids
# --------------------------------------------------------------------------------------------------------


def _check_radius(radius: int) -> None:
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")


@dataclass(frozen=True)
class Grid(ABC):
    """The geometry of one kind of map. Instances are stateless, immutable and compare equal by kind."""

    kind: ClassVar[GridKind]

    # -- per-kind geometry ------------------------------------------------------------------------------

    @abstractmethod
    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between two spaces."""

    @abstractmethod
    def neighbours(self, c: Cell) -> list[Cell]:
        """The adjacent spaces, in the documented neighbour order."""

    @abstractmethod
    def ring(self, center: Cell, radius: int) -> list[Cell]:
        """The spaces at distance exactly ``radius`` (``[center]`` for radius 0)."""

    @abstractmethod
    def within(self, center: Cell, radius: int) -> list[Cell]:
        """Every space at distance ≤ ``radius`` ("range"), in a fixed order."""

    @abstractmethod
    def to_offset(self, c: Cell) -> tuple[int, int]:
        """Map coordinates ``(col, row)`` of a space."""

    @abstractmethod
    def from_offset(self, col: int, row: int) -> Cell:
        """The space at map coordinates ``(col, row)``."""

    @abstractmethod
    def _line(self, a: Cell, b: Cell, positive: bool) -> list[Cell]:
        """The line from ``a`` to ``b`` with ties resolved one way (``positive``) or the other."""

    @abstractmethod
    def _default_offsets(self, size: int) -> tuple[Cell, ...]:
        """The default footprint shape of ``size``."""

    # -- shared behaviour -------------------------------------------------------------------------------

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Spaces from ``a`` to ``b`` inclusive: contiguous, ``distance(a, b) + 1`` long, deterministic."""
        return self._line(a, b, True)

    def lines(self, a: Cell, b: Cell) -> list[list[Cell]]:
        """The distinct lines from ``a`` to ``b``: one, or two where the straight line runs along a tie.

        The first entry is :meth:`line`. Each entry is contiguous and includes both ends. A line of sight
        is clear if ANY of them is clear. A line's shape depends only on ``b - a`` (see `_line_shapes`), so
        each shape is worked out once and moved to ``a``.
        """
        aq, ar = a
        dq, dr = b[0] - aq, b[1] - ar
        shapes = _LINE_SHAPES.get((self.kind, dq, dr))
        if shapes is None:
            shapes = _line_shapes(self, dq, dr)
        return [[(aq + q, ar + r) for q, r in shape] for shape in shapes]

    def before_end(self, a: Cell, b: Cell) -> set[Cell]:
        """The spaces right before ``b`` on the :meth:`lines` from ``a`` (``b != a``), in constant time."""
        n = self.distance(a, b)
        return {self._point(a, b, n - 1, True), self._point(a, b, n - 1, False)}

    @abstractmethod
    def _point(self, a: Cell, b: Cell, i: int, positive: bool) -> Cell:
        """Space ``i`` of the line from ``a`` to ``b`` with ties resolved one way or the other (``0 < i < n``)."""

    def in_bounds(self, c: Cell, cols: int, rows: int) -> bool:
        """Whether ``c`` lies on a ``cols × rows`` map (``0 ≤ col < cols`` and ``0 ≤ row < rows``)."""
        col, row = self.to_offset(c)
        return 0 <= col < cols and 0 <= row < rows

    def footprint_offsets(self, size: int, shapes: Mapping[int, Sequence[Cell]] | None = None) -> tuple[Cell, ...]:
        """Offsets (from the anchor) of the spaces a creature of ``size`` fills.

        ``shapes`` overrides the default shape for the sizes it has as keys (exact keys only).
        """
        if shapes is not None and size in shapes:
            shape = tuple((dq, dr) for dq, dr in shapes[size])
            if not shape:
                raise ValueError(f"footprint shape for size {size} is empty")
            return shape
        return self._default_offsets(size)

    def footprint(
        self, anchor: Cell, size: int, shapes: Mapping[int, Sequence[Cell]] | None = None
    ) -> tuple[Cell, ...]:
        """The spaces a creature of ``size`` fills with its anchor at ``anchor`` (``anchor + offset``)."""
        aq, ar = anchor
        return tuple((aq + dq, ar + dr) for dq, dr in self.footprint_offsets(size, shapes))

    def area_within(self, cells: Iterable[Cell], radius: int) -> set[Cell]:
        """Every space within ``radius`` of ANY of ``cells`` (e.g. a Reach area around a footprint)."""
        offsets = _within_offsets(self, radius)
        if type(cells) is tuple and len(cells) == 1:  # one space (most creatures): the set made at once
            ((cq, cr),) = cells
            return {(cq + dq, cr + dr) for dq, dr in offsets}
        area: set[Cell] = set()
        for cq, cr in cells:
            area.update({(cq + dq, cr + dr) for dq, dr in offsets})
        return area


@dataclass(frozen=True)
class HexGrid(Grid):
    """Pointy-top hexes, axial ``(q, r)`` coordinates, odd-r offset map layout."""

    kind: ClassVar[GridKind] = GridKind.HEX

    def distance(self, a: Cell, b: Cell) -> int:
        """Cube distance ``(|dq| + |dr| + |dq + dr|) / 2``."""
        dq = a[0] - b[0]
        dr = a[1] - b[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbours(self, c: Cell) -> list[Cell]:
        """The 6 adjacent hexes in the order E, NE, NW, W, SW, SE."""
        q, r = c
        return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS]

    def ring(self, center: Cell, radius: int) -> list[Cell]:
        """The ``6 · radius`` hexes at distance ``radius``.

        Starts at the SW corner (``center + radius · SW``) and walks E, NE, NW, W, SW, SE, ``radius`` steps
        each (counter-clockwise on screen).
        """
        _check_radius(radius)
        cq, cr = center
        return [(cq + dq, cr + dr) for dq, dr in _hex_ring_offsets(radius)]

    def within(self, center: Cell, radius: int) -> list[Cell]:
        """The ``1 + 3·radius·(radius + 1)`` hexes at distance ≤ ``radius``, row by row (r, then q)."""
        _check_radius(radius)
        cq, cr = center
        out: list[Cell] = []
        for dr in range(-radius, radius + 1):
            for dq in range(max(-radius, -dr - radius), min(radius, radius - dr) + 1):
                out.append((cq + dq, cr + dr))
        return out

    def to_offset(self, c: Cell) -> tuple[int, int]:
        """Odd-r offset ``(col, row)`` of an axial hex."""
        q, r = c
        return q + (r - (r & 1)) // 2, r

    def in_bounds(self, c: Cell, cols: int, rows: int) -> bool:
        """Whether ``c`` lies on a ``cols × rows`` map (its odd-r offset worked out inline: a hot path)."""
        q, r = c
        return 0 <= r < rows and 0 <= q + (r - (r & 1)) // 2 < cols

    def from_offset(self, col: int, row: int) -> Cell:
        """Axial hex at odd-r offset ``(col, row)``."""
        return col - (row - (row & 1)) // 2, row

    def _line(self, a: Cell, b: Cell, positive: bool) -> list[Cell]:
        n = self.distance(a, b)
        if n == 0:
            return [a]
        sign = 1.0 if positive else -1.0
        eq, er, es = (sign * e for e in _HEX_NUDGE)
        aq, ar = a
        a_s = -aq - ar
        dq = b[0] - aq
        dr = b[1] - ar
        ds = -dq - dr
        out: list[Cell] = [a]
        for i in range(1, n):
            t = i / n
            out.append(_cube_round(aq + dq * t + eq, ar + dr * t + er, a_s + ds * t + es))
        out.append(b)
        return out

    def _point(self, a: Cell, b: Cell, i: int, positive: bool) -> Cell:
        n = self.distance(a, b)
        sign = 1.0 if positive else -1.0
        t = i / n
        aq, ar = a
        dq, dr = b[0] - aq, b[1] - ar
        return _cube_round(
            aq + dq * t + sign * _HEX_NUDGE[0],
            ar + dr * t + sign * _HEX_NUDGE[1],
            -aq - ar + (-dq - dr) * t + sign * _HEX_NUDGE[2],
        )

    def _default_offsets(self, size: int) -> tuple[Cell, ...]:
        return _hex_default_offsets(size)


@dataclass(frozen=True)
class SquareGrid(Grid):
    """Square spaces, ``(x, y) = (col, row)``, 8 neighbours, Chebyshev distance."""

    kind: ClassVar[GridKind] = GridKind.SQUARE

    def distance(self, a: Cell, b: Cell) -> int:
        """Chebyshev distance: a diagonal step costs 1."""
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def neighbours(self, c: Cell) -> list[Cell]:
        """The 8 adjacent squares in the order E, NE, N, NW, W, SW, S, SE."""
        x, y = c
        return [(x + dx, y + dy) for dx, dy in SQUARE_DIRECTIONS]

    def ring(self, center: Cell, radius: int) -> list[Cell]:
        """The ``8 · radius`` squares at distance ``radius``.

        Starts at the top-left corner and walks clockwise on screen: E, S, W, N, ``2 · radius`` steps each.
        """
        _check_radius(radius)
        if radius == 0:
            return [center]
        x, y = center[0] - radius, center[1] - radius
        out: list[Cell] = []
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            for _ in range(2 * radius):
                out.append((x, y))
                x += dx
                y += dy
        return out

    def within(self, center: Cell, radius: int) -> list[Cell]:
        """The ``(2·radius + 1)²`` squares at distance ≤ ``radius``, row by row."""
        _check_radius(radius)
        cx, cy = center
        span = range(-radius, radius + 1)
        return [(cx + dx, cy + dy) for dy in span for dx in span]

    def to_offset(self, c: Cell) -> tuple[int, int]:
        """Square coordinates are already ``(col, row)``."""
        return c[0], c[1]

    def from_offset(self, col: int, row: int) -> Cell:
        """Square coordinates are already ``(col, row)``."""
        return col, row

    def _line(self, a: Cell, b: Cell, positive: bool) -> list[Cell]:
        # Exact integer interpolation: the major axis moves 1 per step, the minor axis by the rounded
        # fraction. Exact halves are ties, rounded up (positive) or down (negative).
        ax, ay = a
        dx = b[0] - ax
        dy = b[1] - ay
        n = max(abs(dx), abs(dy))
        if n == 0:
            return [a]
        return [(ax + _div_round(dx * i, n, positive), ay + _div_round(dy * i, n, positive)) for i in range(n + 1)]

    def _point(self, a: Cell, b: Cell, i: int, positive: bool) -> Cell:
        n = self.distance(a, b)
        return a[0] + _div_round((b[0] - a[0]) * i, n, positive), a[1] + _div_round((b[1] - a[1]) * i, n, positive)

    def _default_offsets(self, size: int) -> tuple[Cell, ...]:
        return _square_default_offsets(size)


def _cube_round(q: float, r: float, s: float) -> Cell:
    """The hex containing the fractional cube point ``(q, r, s)`` (with ``q + r + s == 0``)."""
    rq = math.floor(q + 0.5)
    rr = math.floor(r + 0.5)
    rs = math.floor(s + 0.5)
    eq = abs(rq - q)
    er = abs(rr - r)
    es = abs(rs - s)
    # Rounding each coordinate independently may leave rq + rr + rs != 0: recompute the one that moved most.
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    return rq, rr


def _div_round(num: int, den: int, half_up: bool) -> int:
    """``num / den`` (``den > 0``) rounded to the nearest int, exact halves up or down."""
    if half_up:
        return (2 * num + den) // (2 * den)
    return -((den - 2 * num) // (2 * den))


# --------------------------------------------------------------------------------------------------------
# Module functions
# --------------------------------------------------------------------------------------------------------

_WITHIN_OFFSETS: dict[tuple[GridKind, int], tuple[Cell, ...]] = {}


def _within_offsets(grid: Grid, radius: int) -> tuple[Cell, ...]:
    """`grid.within((0, 0), radius)`, kept per kind of grid and radius."""
    key = (grid.kind, radius)
    offsets = _WITHIN_OFFSETS.get(key)
    if offsets is None:
        offsets = tuple(grid.within((0, 0), radius))
        if len(_WITHIN_OFFSETS) < 1024:
            _WITHIN_OFFSETS[key] = offsets
    return offsets


_LINE_SHAPES: dict[tuple[GridKind, int, int], tuple[tuple[Cell, ...], ...]] = {}
"""The distinct lines from (0, 0) to (dq, dr) on each kind of grid: `Grid.lines` moved to (0, 0)."""
_LINE_SHAPES_MAX = 1 << 15


def _line_shapes(grid: Grid, dq: int, dr: int) -> tuple[tuple[Cell, ...], ...]:
    """The lines from (0, 0) to (dq, dr), kept. Moving a line moves its spaces by whole steps: the square line
    is integer arithmetic, and a hex line's rounding never lies near a tie (the nudge keeps it 1e-6 away, far
    beyond the error of adding whole map coordinates), so the shape is the same wherever the line starts."""
    first = tuple(grid._line((0, 0), (dq, dr), True))
    second = tuple(grid._line((0, 0), (dq, dr), False))
    shapes = (first,) if first == second else (first, second)
    if len(_LINE_SHAPES) >= _LINE_SHAPES_MAX:
        _LINE_SHAPES.clear()
    _LINE_SHAPES[(grid.kind, dq, dr)] = shapes
    return shapes


def make_grid(kind: GridKind | str) -> Grid:
    """The grid for ``kind`` (a :class:`GridKind` or its value, case-insensitive)."""
    try:
        grid_kind = GridKind(kind.strip().lower())
    except ValueError:
        valid = ", ".join(repr(k.value) for k in GridKind)
        raise ValueError(f"unknown grid kind {kind!r}; expected one of {valid}") from None
    if grid_kind is GridKind.HEX:
        return HexGrid()
    return SquareGrid()


def footprint_cell_count(kind: GridKind | str, size: int) -> int:
    """How many spaces the default footprint of ``size`` fills on a ``kind`` grid."""
    return len(make_grid(kind).footprint_offsets(size))


def footprint_distance(grid: Grid, a_cells: Collection[Cell], b_cells: Collection[Cell]) -> int:
    """Minimum distance between any space of ``a_cells`` and any space of ``b_cells`` (0 if they share one).

    Hot path of legal-move generation: single-cell footprints cost one distance call, and the hex and
    square cases are inlined without allocating.
    """
    if len(a_cells) == 1 and len(b_cells) == 1:
        (a,) = a_cells
        (b,) = b_cells
        return grid.distance(a, b)
    if not a_cells or not b_cells:
        raise ValueError("footprint_distance needs at least one cell on each side")
    best = sys.maxsize
    if isinstance(grid, HexGrid):
        for aq, ar in a_cells:
            for bq, br in b_cells:
                dq = aq - bq
                dr = ar - br
                d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if d < best:
                    if d == 0:
                        return 0
                    best = d
    elif isinstance(grid, SquareGrid):
        for ax, ay in a_cells:
            for bx, by in b_cells:
                d = max(abs(ax - bx), abs(ay - by))
                if d < best:
                    if d == 0:
                        return 0
                    best = d
    else:
        distance = grid.distance
        for a in a_cells:
            for b in b_cells:
                d = distance(a, b)
                if d < best:
                    if d == 0:
                        return 0
                    best = d
    return best
