"""The spaces a menu's Move reaches, with the way to each, in the form the menu reads them.

`movement.reachable` gives a cheapest path to every space reached, each path its own list. The menu needs the
spaces (to offer them), how many steps each takes (a Charge's Collision needs 2) and a path only for the few spaces
a Collision enters, so `Moves` holds each space's step before it instead, and a path is followed back on demand.

For a creature of one space on even ground the breadth-first search of `terrain.reachable` is made here over the
spaces within its reach numbered once per kind of grid and number of steps (`_Disc`): the same spaces reached in
the same order by the same paths, each space tested once for a wall or the map's edge.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from vtt.rules.grid import Grid, GridKind
from vtt.rules.model import Cell
from vtt.rules.near import on_map_within


@dataclass(frozen=True, slots=True)
class Moves:
    """Every anchor space reached (the start first, then in the order the search reaches them), with the space
    before each on its path and the number of steps to it."""

    order: list[Cell]
    before: dict[Cell, Cell]
    steps: dict[Cell, int]

    def path(self, cell: Cell) -> list[Cell]:
        """The path to `cell`, as `movement.reachable` gives it (the start left out)."""
        out: list[Cell] = []
        before = self.before
        while cell in before:
            out.append(cell)
            cell = before[cell]
        out.reverse()
        return out

    def paths(self) -> dict[Cell, list[Cell]]:
        """Every path, as `movement.reachable` gives them."""
        return {cell: self.path(cell) for cell in self.order}


def from_paths(paths: dict[Cell, list[Cell]]) -> Moves:
    """The `Moves` of what `movement.reachable` found (each path extends the path of the space before it)."""
    order = list(paths)
    start = order[0]
    before: dict[Cell, Cell] = {}
    steps: dict[Cell, int] = {}
    for cell, p in paths.items():
        steps[cell] = len(p)
        if p:
            before[cell] = p[-2] if len(p) > 1 else start
    return Moves(order, before, steps)


@dataclass(frozen=True, slots=True)
class _Disc:
    """The offsets `levels` steps or fewer from (0, 0), (0, 0) first, with the index of each one's neighbours in the
    grid's order (-1: farther, a neighbour of the farthest only, which the search does not go on from)."""

    offsets: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]
    index: dict[Cell, int]
    """The index of each offset in `offsets`."""


_DISCS: dict[tuple[GridKind, int], _Disc] = {}


def _disc(grid: Grid, levels: int) -> _Disc:
    key = (grid.kind, levels)
    found = _DISCS.get(key)
    if found is None:
        steps = grid.neighbours((0, 0))
        reach: dict[Cell, None] = {(0, 0): None}  # every offset `levels` steps or fewer away, nearest first
        frontier = [(0, 0)]
        for _ in range(levels):
            ahead = dict.fromkeys(
                nxt for q, r in frontier for dq, dr in steps if (nxt := (q + dq, r + dr)) not in reach
            )
            reach.update(ahead)
            frontier = list(ahead)
        offsets = tuple(reach)
        index = {off: i for i, off in enumerate(offsets)}
        neighbours = tuple(tuple(index.get((q + dq, r + dr), -1) for dq, dr in steps) for q, r in offsets)
        found = _Disc(offsets, neighbours, index)
        if len(_DISCS) < 64:
            _DISCS[key] = found
    return found


def search_one_space(grid: Grid, start: Cell, levels: int, filled: AbstractSet[Cell], cols: int, rows: int) -> Moves:
    """`terrain.reachable` of a creature of one space on even ground that nothing keeps away from a space: `levels`
    steps from `start`, passing every space on the map without a wall or object."""
    disc = _disc(grid, levels)
    sq, sr = start
    cells = [(sq + dq, sr + dr) for dq, dr in disc.offsets]
    in_bounds = grid.in_bounds
    # a space that cannot be passed counts as seen from the start: the search never enters it
    if on_map_within(grid, (start,), levels, cols, rows):
        seen = [False] * len(cells)
        # the few walls and objects in reach, each found by its offset (no call per space)
        index = disc.index
        for fq, fr in (
            filled.intersection(cells) if isinstance(filled, frozenset | set) else filter(filled.__contains__, cells)
        ):
            seen[index[fq - sq, fr - sr]] = True
    else:
        seen = [cell in filled or not in_bounds(cell, cols, rows) for cell in cells]
    seen[0] = True
    neighbours = disc.neighbours
    # the index of each space reached and of the space before it, level by level; the `Moves` made from them at once
    entered: list[int] = []
    came_from: list[int] = []
    ends = [0]  # where each level's spaces end in `entered`
    frontier = [0]
    for _ in range(levels):
        for i in frontier:
            for j in neighbours[i]:
                if not seen[j]:
                    seen[j] = True
                    entered.append(j)
                    came_from.append(i)
        if len(entered) == ends[-1]:
            break
        frontier = entered[ends[-1] :]
        ends.append(len(entered))
    order = [start, *map(cells.__getitem__, entered)]
    before = dict(zip(map(cells.__getitem__, entered), map(cells.__getitem__, came_from), strict=True))
    steps: dict[Cell, int] = {start: 0}
    for level in range(1, len(ends)):
        steps.update(dict.fromkeys(order[ends[level - 1] + 1 : ends[level] + 1], level))
    return Moves(order, before, steps)
