"""Tests of vtt.rules.grid: hex and square geometry, lines, ranges and footprints."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtt.rules.grid import (
    HEX_FOOTPRINTS,
    SQUARE_FOOTPRINTS,
    Cell,
    Grid,
    GridKind,
    HexGrid,
    SquareGrid,
    footprint_cell_count,
    footprint_distance,
    make_grid,
)

HEX = HexGrid()
SQUARE = SquareGrid()

coords = st.integers(min_value=-50, max_value=50)
cells = st.tuples(coords, coords)
grids = st.sampled_from([HEX, SQUARE])
radii = st.integers(min_value=0, max_value=8)
sizes = st.integers(min_value=-3, max_value=7)

# Hex steps that run exactly along the edge between two hexes (a line in these directions ties at its
# half-way points).
HEX_EDGE_DIRECTIONS: list[Cell] = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)]


def assert_valid_line(grid: Grid, line: Sequence[Cell], a: Cell, b: Cell) -> None:
    """Assert ``line`` starts at a, ends at b, is contiguous and has distance + 1 cells."""
    assert line[0] == a
    assert line[-1] == b
    assert len(line) == grid.distance(a, b) + 1
    for here, there in pairwise(line):
        assert grid.distance(here, there) == 1


def is_connected(grid: Grid, cells_: Sequence[Cell]) -> bool:
    """Whether every cell is reachable from the first through the given cells."""
    members = set(cells_)
    seen = {cells_[0]}
    todo = deque([cells_[0]])
    while todo:
        for n in grid.neighbours(todo.popleft()):
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == members


# --------------------------------------------------------------------------------------------------------
# Hand-worked examples
# --------------------------------------------------------------------------------------------------------


def test_hex_distance_examples() -> None:
    """Hex distance on a few hand-computed pairs."""
    assert HEX.distance((0, 0), (3, -1)) == 3
    assert HEX.distance((0, 0), (1, 1)) == 2
    assert HEX.distance((0, 0), (2, -1)) == 2
    assert HEX.distance((-2, 3), (4, -5)) == 8
    assert HEX.distance((5, 5), (5, 5)) == 0


def test_square_distance_examples() -> None:
    """Square distance is Chebyshev: a diagonal step costs 1."""
    assert SQUARE.distance((0, 0), (3, 3)) == 3
    assert SQUARE.distance((0, 0), (3, -1)) == 3
    assert SQUARE.distance((2, 7), (-1, 1)) == 6


def test_neighbour_order_is_documented() -> None:
    """Neighbours come in the documented order (hex E, NE, NW, W, SW, SE; square E, NE, N, ...)."""
    assert HEX.neighbours((0, 0)) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert SQUARE.neighbours((0, 0)) == [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]


def test_hex_straight_line() -> None:
    """A hex line along a row is the row itself, with no alternatives."""
    assert HEX.line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert HEX.lines((0, 0), (3, 0)) == [[(0, 0), (1, 0), (2, 0), (3, 0)]]


def test_hex_line_without_tie() -> None:
    """(0,0)→(2,1) passes through the middle of (1,0) and (1,1): one line only."""
    assert HEX.lines((0, 0), (2, 1)) == [[(0, 0), (1, 0), (1, 1), (2, 1)]]


def test_hex_line_tie_between_two_hexes() -> None:
    """(0,0)→(1,1) runs along the edge between (0,1) and (1,0): two lines, one through each."""
    variants = HEX.lines((0, 0), (1, 1))
    assert sorted(variants) == [[(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (1, 1)]]
    assert HEX.line((0, 0), (1, 1)) == variants[0]


def test_hex_line_tie_other_direction() -> None:
    """(0,0)→(2,-1) runs along the edge between (1,0) and (1,-1): two lines."""
    variants = HEX.lines((0, 0), (2, -1))
    assert sorted(variants) == [[(0, 0), (1, -1), (2, -1)], [(0, 0), (1, 0), (2, -1)]]


def test_square_line_tie() -> None:
    """Square (0,0)→(2,1) passes through a corner half-way: two lines."""
    variants = SQUARE.lines((0, 0), (2, 1))
    assert sorted(variants) == [[(0, 0), (1, 0), (2, 1)], [(0, 0), (1, 1), (2, 1)]]
    assert SQUARE.line((0, 0), (3, 3)) == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_single_cell_line() -> None:
    """A line from a cell to itself is that cell."""
    for grid in (HEX, SQUARE):
        assert grid.line((4, -2), (4, -2)) == [(4, -2)]
        assert grid.lines((4, -2), (4, -2)) == [[(4, -2)]]


def test_ring_and_within_examples() -> None:
    """Hand-checked rings and ranges around the origin."""
    assert HEX.ring((0, 0), 0) == [(0, 0)]
    assert sorted(HEX.ring((0, 0), 1)) == sorted(HEX.neighbours((0, 0)))
    assert len(HEX.within((0, 0), 2)) == 19
    assert SQUARE.ring((0, 0), 1) == [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    assert len(SQUARE.within((3, 3), 2)) == 25


def test_negative_radius_rejected() -> None:
    """ring, within and area_within refuse a negative radius."""
    for grid in (HEX, SQUARE):
        with pytest.raises(ValueError):
            grid.ring((0, 0), -1)
        with pytest.raises(ValueError):
            grid.within((0, 0), -1)
        with pytest.raises(ValueError):
            grid.area_within([(0, 0)], -1)


def test_hex_offset_examples() -> None:
    """Odd-r layout: odd rows are shifted half a hex right, so their axial q is smaller."""
    assert HEX.to_offset((0, 0)) == (0, 0)
    assert HEX.to_offset((0, 1)) == (0, 1)
    assert HEX.to_offset((0, 2)) == (1, 2)
    assert HEX.to_offset((-1, 3)) == (0, 3)
    assert HEX.from_offset(0, 2) == (-1, 2)
    assert HEX.from_offset(5, 5) == (3, 5)


@pytest.mark.parametrize("grid", [HEX, SQUARE])
def test_in_bounds_corners_30x20(grid: Grid) -> None:
    """The four corners of a 30×20 map are in bounds; one step outside each edge is not."""
    for col, row in [(0, 0), (29, 0), (0, 19), (29, 19)]:
        assert grid.in_bounds(grid.from_offset(col, row), 30, 20)
    for col, row in [(-1, 0), (30, 0), (0, -1), (0, 20), (29, 20), (30, 19)]:
        assert not grid.in_bounds(grid.from_offset(col, row), 30, 20)


# --------------------------------------------------------------------------------------------------------
# make_grid and GridKind
# --------------------------------------------------------------------------------------------------------


def test_make_grid() -> None:
    """make_grid accepts kinds and their string values, and rejects unknown kinds clearly."""
    assert isinstance(make_grid(GridKind.HEX), HexGrid)
    assert isinstance(make_grid("square"), SquareGrid)
    assert isinstance(make_grid("HEX"), HexGrid)
    assert make_grid("hex") == HEX
    assert make_grid("hex").kind is GridKind.HEX
    assert make_grid("square").kind is GridKind.SQUARE
    with pytest.raises(ValueError, match="unknown grid kind 'octagon'"):
        make_grid("octagon")


# --------------------------------------------------------------------------------------------------------
# Footprints
# --------------------------------------------------------------------------------------------------------


def test_hex_footprint_sizes() -> None:
    """Hex footprints for sizes −3..6 fill 1,1,1,1,1,2,4,7,19,37 hexes; above 6 one radius per size."""
    counts = [footprint_cell_count(GridKind.HEX, size) for size in range(-3, 7)]
    assert counts == [1, 1, 1, 1, 1, 2, 4, 7, 19, 37]
    assert footprint_cell_count("hex", 7) == 61
    assert footprint_cell_count("hex", 8) == 91
    assert {size: len(cells_) for size, cells_ in HEX_FOOTPRINTS.items()} == {
        1: 1,
        2: 2,
        3: 4,
        4: 7,
        5: 19,
        6: 37,
    }


def test_square_footprint_sizes() -> None:
    """Square footprints: 1×1, 1×1, 2×1, 2×2, 3×3, 4×4, 6×6, then the side grows by 2 per size."""
    counts = [footprint_cell_count(GridKind.SQUARE, size) for size in range(0, 9)]
    assert counts == [1, 1, 2, 4, 9, 16, 36, 64, 100]
    assert SQUARE_FOOTPRINTS[2] == ((0, 0), (1, 0))
    assert SQUARE_FOOTPRINTS[3] == ((0, 0), (1, 0), (0, 1), (1, 1))


def test_hex_footprint_shapes() -> None:
    """The small hex shapes are the documented domino and rhombus; size 4 is the anchor and its ring."""
    assert HEX_FOOTPRINTS[1] == ((0, 0),)
    assert HEX_FOOTPRINTS[2] == ((0, 0), (1, 0))
    assert HEX_FOOTPRINTS[3] == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert HEX_FOOTPRINTS[4][0] == (0, 0)
    assert set(HEX_FOOTPRINTS[4]) == {(0, 0), *HEX.neighbours((0, 0))}
    assert set(HEX.footprint_offsets(6)) == set(HEX.within((0, 0), 3))


def test_footprint_translates_offsets() -> None:
    """footprint is anchor + offset, anchor first."""
    assert HEX.footprint((5, -2), 3) == ((5, -2), (6, -2), (5, -1), (6, -1))
    assert SQUARE.footprint((10, 10), 2) == ((10, 10), (11, 10))


def test_footprint_override() -> None:
    """A shapes mapping overrides the default for its sizes only."""
    shapes = {2: [(0, 0), (0, 1)]}
    assert HEX.footprint((1, 1), 2, shapes) == ((1, 1), (1, 2))
    assert HEX.footprint((1, 1), 3, shapes) == HEX.footprint((1, 1), 3)
    assert SQUARE.footprint_offsets(2, shapes) == ((0, 0), (0, 1))
    with pytest.raises(ValueError):
        HEX.footprint_offsets(2, {2: []})


@given(grid=grids, size=sizes, anchor=cells)
def test_footprints_connected_and_anchored(grid: Grid, size: int, anchor: Cell) -> None:
    """Every footprint starts with its anchor, has no duplicates and is connected."""
    fp = grid.footprint(anchor, size)
    assert fp[0] == anchor
    assert len(set(fp)) == len(fp) == footprint_cell_count(grid.kind, size)
    assert is_connected(grid, fp)


def test_area_within_examples() -> None:
    """area_within is the union of ranges around each cell."""
    assert HEX.area_within([(0, 0)], 1) == set(HEX.within((0, 0), 1))
    assert len(HEX.area_within([(0, 0), (1, 0)], 1)) == 10
    assert SQUARE.area_within([(0, 0), (1, 0)], 1) == {(x, y) for x in range(-1, 3) for y in range(-1, 2)}
    assert HEX.area_within([], 3) == set()


@given(grid=grids, size=st.integers(min_value=1, max_value=5), anchor=cells, radius=st.integers(0, 3))
def test_area_within_matches_brute_force(grid: Grid, size: int, anchor: Cell, radius: int) -> None:
    """area_within equals the cells whose footprint distance to the footprint is ≤ radius."""
    fp = grid.footprint(anchor, size)
    area = grid.area_within(fp, radius)
    box = grid.within(anchor, radius + 6)
    assert area == {c for c in box if footprint_distance(grid, [c], fp) <= radius}


# --------------------------------------------------------------------------------------------------------
# footprint_distance
# --------------------------------------------------------------------------------------------------------


def test_footprint_distance_examples() -> None:
    """Hand-checked distances between footprints."""
    assert footprint_distance(HEX, [(0, 0)], [(3, -1)]) == 3
    assert footprint_distance(HEX, HEX.footprint((0, 0), 4), HEX.footprint((5, 0), 4)) == 3
    assert footprint_distance(HEX, HEX.footprint((0, 0), 4), [(0, 0)]) == 0
    assert footprint_distance(SQUARE, SQUARE.footprint((0, 0), 3), SQUARE.footprint((4, 4), 1)) == 3
    assert footprint_distance(SQUARE, {(0, 0)}, {(2, 1)}) == 2
    with pytest.raises(ValueError):
        footprint_distance(HEX, [], [(0, 0)])


class _SlowHex(HexGrid):
    """A Grid subclass unknown to footprint_distance's fast paths (exercises the generic loop)."""


@given(
    grid=st.sampled_from([HEX, SQUARE, _SlowHex()]),
    a=cells,
    b=cells,
    size_a=sizes,
    size_b=sizes,
)
def test_footprint_distance_brute_force(grid: Grid, a: Cell, b: Cell, size_a: int, size_b: int) -> None:
    """footprint_distance equals the brute-force minimum and is symmetric."""
    fa = grid.footprint(a, size_a)
    fb = grid.footprint(b, size_b)
    expected = min(grid.distance(x, y) for x in fa for y in fb)
    assert footprint_distance(grid, fa, fb) == expected
    assert footprint_distance(grid, fb, fa) == expected


@given(grid=grids, a=cells, size=sizes)
def test_footprint_distance_overlap_is_zero(grid: Grid, a: Cell, size: int) -> None:
    """Footprints sharing a cell are at distance 0."""
    fa = grid.footprint(a, size)
    assert footprint_distance(grid, fa, [fa[-1]]) == 0


# --------------------------------------------------------------------------------------------------------
# Distance and neighbour properties
# --------------------------------------------------------------------------------------------------------


@given(grid=grids, a=cells, b=cells)
def test_distance_symmetric(grid: Grid, a: Cell, b: Cell) -> None:
    """distance(a, b) == distance(b, a)."""
    assert grid.distance(a, b) == grid.distance(b, a)


@given(grid=grids, a=cells, b=cells, c=cells)
def test_distance_triangle_inequality(grid: Grid, a: Cell, b: Cell, c: Cell) -> None:
    """distance(a, c) ≤ distance(a, b) + distance(b, c)."""
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(grid=grids, a=cells, b=cells)
def test_distance_zero_only_on_self(grid: Grid, a: Cell, b: Cell) -> None:
    """distance(a, a) == 0 and distance is positive between different cells."""
    assert grid.distance(a, a) == 0
    if a != b:
        assert grid.distance(a, b) > 0


@given(grid=grids, c=cells)
def test_neighbours_at_distance_one(grid: Grid, c: Cell) -> None:
    """There are 6 (hex) / 8 (square) distinct neighbours, all at distance 1."""
    ns = grid.neighbours(c)
    assert len(set(ns)) == len(ns) == (6 if grid.kind is GridKind.HEX else 8)
    assert all(grid.distance(c, n) == 1 for n in ns)


# --------------------------------------------------------------------------------------------------------
# Line properties
# --------------------------------------------------------------------------------------------------------


@given(grid=grids, a=cells, b=cells)
def test_line_is_contiguous(grid: Grid, a: Cell, b: Cell) -> None:
    """line starts at a, ends at b, is contiguous and has distance + 1 cells."""
    assert_valid_line(grid, grid.line(a, b), a, b)


@given(grid=grids, a=cells, b=cells)
def test_every_lines_variant_is_contiguous(grid: Grid, a: Cell, b: Cell) -> None:
    """Every lines variant is a valid line; the first is line(); there are 1 or 2 distinct ones."""
    variants = grid.lines(a, b)
    assert 1 <= len(variants) <= 2
    assert variants[0] == grid.line(a, b)
    assert len({tuple(v) for v in variants}) == len(variants)
    for v in variants:
        assert_valid_line(grid, v, a, b)


@given(a=cells, direction=st.sampled_from(HEX_EDGE_DIRECTIONS), k=st.integers(min_value=1, max_value=20))
def test_hex_edge_lines_have_two_variants(a: Cell, direction: Cell, k: int) -> None:
    """A hex line running along hex edges has exactly two valid variants."""
    b = (a[0] + k * direction[0], a[1] + k * direction[1])
    variants = HEX.lines(a, b)
    assert len(variants) == 2
    for v in variants:
        assert_valid_line(HEX, v, a, b)


@given(a=cells, direction=st.sampled_from(list(HexGrid().neighbours((0, 0)))), k=st.integers(0, 20))
def test_hex_axis_lines_are_unique(a: Cell, direction: Cell, k: int) -> None:
    """A hex line along one of the 6 axes is the straight run of hexes, with no alternative."""
    b = (a[0] + k * direction[0], a[1] + k * direction[1])
    expected = [(a[0] + i * direction[0], a[1] + i * direction[1]) for i in range(k + 1)]
    assert HEX.lines(a, b) == [expected]


# --------------------------------------------------------------------------------------------------------
# Ring, range and offset properties
# --------------------------------------------------------------------------------------------------------


@given(grid=grids, c=cells, radius=radii)
def test_ring_size_and_distance(grid: Grid, c: Cell, radius: int) -> None:
    """A ring has 1 / 6r (hex) / 8r (square) distinct cells, all at distance r."""
    ring = grid.ring(c, radius)
    per_step = 6 if grid.kind is GridKind.HEX else 8
    assert len(set(ring)) == len(ring) == (1 if radius == 0 else per_step * radius)
    assert all(grid.distance(c, x) == radius for x in ring)


@given(grid=grids, c=cells, radius=radii)
def test_within_size_and_distance(grid: Grid, c: Cell, radius: int) -> None:
    """within(c, n) has 1 + 3n(n+1) (hex) / (2n+1)² (square) distinct cells, all at distance ≤ n."""
    area = grid.within(c, radius)
    expected = 1 + 3 * radius * (radius + 1) if grid.kind is GridKind.HEX else (2 * radius + 1) ** 2
    assert len(set(area)) == len(area) == expected
    assert all(grid.distance(c, x) <= radius for x in area)
    assert set(area) == {x for r in range(radius + 1) for x in grid.ring(c, r)}


@given(grid=grids, c=cells)
def test_offset_round_trip_from_cell(grid: Grid, c: Cell) -> None:
    """from_offset(to_offset(c)) == c."""
    assert grid.from_offset(*grid.to_offset(c)) == c


@given(grid=grids, col=coords, row=coords)
def test_offset_round_trip_from_offset(grid: Grid, col: int, row: int) -> None:
    """to_offset(from_offset(col, row)) == (col, row)."""
    assert grid.to_offset(grid.from_offset(col, row)) == (col, row)


@given(col=st.integers(0, 29), row=st.integers(0, 18))
def test_hex_offset_rows_adjacent(col: int, row: int) -> None:
    """In odd-r layout a hex and the one below it in the same column are neighbours."""
    here = HEX.from_offset(col, row)
    below = HEX.from_offset(col, row + 1)
    assert HEX.distance(here, below) == 1
