"""The spaces a menu's Move reaches, with the way to each, in the form the menu reads them.

`movement.reachable` gives a cheapest path to every space reached, each path its own list. The menu needs the
spaces (to offer them), how many steps each takes (a Charge's Collision needs 2) and a path only for the few spaces
a Collision enters, so `Moves` holds each space's step before it instead, and a path is followed back on demand.

For a creature of one space on even ground the breadth-first search of `terrain.reachable` is made here over the
spaces within its reach numbered once per kind of grid and number of steps (`_Disc`): the same spaces reached in
the same order by the same paths, each space tested once for a wall or the map's edge. What it finds is kept in
lists by the spaces' numbers: the steps to a space and the space before it are looked up there when asked
(`_Found`), not made into a mapping of every space reached.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import compress, islice, repeat
from operator import is_, itemgetter

from vtt.rules.grid import Grid, GridKind
from vtt.rules.model import Cell
from vtt.rules.near import on_map_within


@dataclass(frozen=True, slots=True)
class Moves:
    """Every anchor space reached (the start first, then in the order the search reaches them), with the space
    before each on its path and the number of steps to it."""

    order: list[Cell]
    before: Mapping[Cell, Cell]
    steps: Mapping[Cell, int]

    def path(self, cell: Cell) -> list[Cell]:
        """The path to `cell`, as `movement.reachable` gives it (the start left out)."""
        before = self.before
        if type(before) is _Found:
            return before.path(cell)
        out: list[Cell] = []
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
    """The offsets `levels` steps or fewer from (0, 0), (0, 0) first and nearest first, with the index of each one's
    neighbours in the grid's order (-1: farther, a neighbour of the farthest only, which the search does not go on
    from), and of those one step farther from (0, 0) alone (`ahead`)."""

    offsets: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]
    ahead: tuple[tuple[int, ...], ...]
    not_behind: tuple[tuple[int, ...], ...]
    """Each offset itself and its neighbours as far from (0, 0) or farther."""
    rings: tuple[int, ...]
    """Where the offsets of each number of steps begin in `offsets` (and, last, where they end)."""
    index: dict[Cell, int]
    """The index of each offset in `offsets`."""


_DISCS: dict[tuple[GridKind, int], _Disc] = {}


def _disc(grid: Grid, levels: int) -> _Disc:
    key = (grid.kind, levels)
    found = _DISCS.get(key)
    if found is None:
        steps = grid.neighbours((0, 0))
        level: dict[Cell, int] = {(0, 0): 0}  # every offset `levels` steps or fewer away, nearest first
        rings = [0]
        frontier = [(0, 0)]
        for n in range(1, levels + 1):
            rings.append(len(level))
            ahead = dict.fromkeys(
                nxt for q, r in frontier for dq, dr in steps if (nxt := (q + dq, r + dr)) not in level
            )
            level.update(dict.fromkeys(ahead, n))
            frontier = list(ahead)
        rings.append(len(level))
        offsets = tuple(level)
        index = {off: i for i, off in enumerate(offsets)}
        neighbours = tuple(tuple(index.get((q + dq, r + dr), -1) for dq, dr in steps) for q, r in offsets)
        steps_to = tuple(level.values())
        farther = tuple(
            tuple(j for j in around if j >= 0 and steps_to[j] == steps_to[i] + 1) for i, around in enumerate(neighbours)
        )
        not_behind = tuple(
            (i, *(j for j in around if j >= 0 and steps_to[j] >= steps_to[i])) for i, around in enumerate(neighbours)
        )
        found = _Disc(offsets, neighbours, farther, not_behind, tuple(rings), index)
        if len(_DISCS) < 64:
            _DISCS[key] = found
    return found


def search_one_space(grid: Grid, start: Cell, levels: int, filled: AbstractSet[Cell], cols: int, rows: int) -> Moves:
    """`terrain.reachable` of a creature of one space on even ground that nothing keeps away from a space: `levels`
    steps from `start`, passing every space on the map without a wall or object.

    A space is reached in as many steps as on open ground unless every way that short passes a space that cannot
    be passed (then it is "delayed"). The search tries from a space only the neighbours one step farther from the
    start than it on open ground (`_Disc.ahead`): the others are reached before it or cannot be passed, but next to
    a delayed space, which may be reached later from any side: there and from it, every neighbour is tried."""
    disc = _disc(grid, levels)
    sq, sr = start
    cells = [(sq + dq, sr + dr) for dq, dr in disc.offsets]
    blocked = _blocked(grid, cells, levels, disc.index, filled, cols, rows)
    # the index of the space before each space once it is reached; a space that cannot be passed counts as reached
    # (from the start) during the search: it never enters it
    came_from: list[int | None] = [None] * len(cells)
    for i in blocked:
        came_from[i] = 0
    came_from[0] = 0
    tried: Sequence[tuple[int, ...]] = disc.ahead
    rings = disc.rings
    entered: list[int] = []  # the index of each space reached, level by level
    enter = entered.append
    ends = [0]  # where each level's spaces end in `entered`
    frontier = [0]
    for level in range(1, levels + 1):
        for i in frontier:
            for j in tried[i]:
                if came_from[j] is None:
                    came_from[j] = i
                    enter(j)
        if len(entered) == ends[-1]:
            break
        frontier = entered[ends[-1] :]
        ends.append(len(entered))
        # the spaces `level` steps away on open ground not reached now are delayed
        if level < levels and None in came_from[rings[level] : rings[level + 1]]:
            tried = _try_all_around(disc, tried, came_from, level)
    for i in blocked:
        came_from[i] = None
    order = [start, *_picked(cells, entered)]
    found = _Found(order, disc.index, cells, came_from, entered, ends)
    return Moves(order, found, found.steps)


def _picked(cells: list[Cell], indices: list[int]) -> tuple[Cell, ...]:
    """The cells of `indices`, in their order."""
    if len(indices) > 1:
        picked: tuple[Cell, ...] = itemgetter(*indices)(cells)
        return picked
    return tuple(cells[i] for i in indices)


class _Found(Mapping[Cell, Cell]):
    """What `search_one_space` found, by the index of each space in its disc: the space before each space reached
    (this mapping), and the steps to each (`steps`)."""

    __slots__ = ("_came_from", "_cells", "_ends", "_entered", "_index", "_start", "order", "steps")

    def __init__(
        self,
        order: list[Cell],
        index: dict[Cell, int],
        cells: list[Cell],
        came_from: list[int | None],
        entered: list[int],
        ends: list[int],
    ) -> None:
        self.order = order
        self._start = order[0]
        self._index = index
        self._cells = cells
        self._came_from = came_from
        self._entered = entered
        self._ends = ends
        self.steps = _Steps(self)

    def number(self, cell: Cell) -> int | None:
        """The index of `cell` in the search's disc when it was reached (0: the start), else None."""
        i = self._index.get((cell[0] - self._start[0], cell[1] - self._start[1]))
        if i is None or (i and self._came_from[i] is None):
            return None
        return i

    def path(self, cell: Cell) -> list[Cell]:
        """The path to `cell` (reached, else none), followed back by the spaces' indices."""
        i = self.number(cell)
        out: list[Cell] = []
        came_from, cells = self._came_from, self._cells
        while i:
            out.append(cells[i])
            i = came_from[i]
        out.reverse()
        return out

    def steps_to(self, i: int) -> int:
        """The steps to the space of index `i` (reached): the level of `entered` it is in."""
        return bisect_right(self._ends, self._entered.index(i)) if i else 0

    def __getitem__(self, cell: Cell) -> Cell:
        i = self.number(cell)
        if not i:
            raise KeyError(cell)
        return self._cells[self._came_from[i]]  # type: ignore[index]

    def __contains__(self, cell: object) -> bool:
        return type(cell) is tuple and bool(self.number(cell))

    def __iter__(self) -> Iterator[Cell]:
        return islice(self.order, 1, None)

    def __len__(self) -> int:
        return len(self._entered)


class _Steps(Mapping[Cell, int]):
    """The steps to each space `search_one_space` reached (the start first), looked up when asked."""

    __slots__ = ("_found",)

    def __init__(self, found: _Found) -> None:
        self._found = found

    def __getitem__(self, cell: Cell) -> int:
        i = self._found.number(cell)
        if i is None:
            raise KeyError(cell)
        return self._found.steps_to(i)

    def __contains__(self, cell: object) -> bool:
        return type(cell) is tuple and self._found.number(cell) is not None

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._found.order)

    def __len__(self) -> int:
        return len(self._found) + 1


def _blocked(
    grid: Grid, cells: list[Cell], levels: int, index: dict[Cell, int], filled: AbstractSet[Cell], cols: int, rows: int
) -> list[int]:
    """The index of each of `cells` (a disc of `levels` steps around the start, the first) off the map, or filled
    but the start."""
    if on_map_within(grid, (cells[0],), levels, cols, rows):
        # the few walls and objects in reach, each found by its offset (no call per space)
        sq, sr = cells[0]
        found = (
            filled.intersection(cells) if isinstance(filled, frozenset | set) else filter(filled.__contains__, cells)
        )
        return [i for fq, fr in found if (i := index[fq - sq, fr - sr])]
    in_bounds = grid.in_bounds
    return [i for i, cell in enumerate(cells) if i and (cell in filled or not in_bounds(cell, cols, rows))]


def _try_all_around(
    disc: _Disc, tried: Sequence[tuple[int, ...]], came_from: list[int | None], level: int
) -> list[tuple[int, ...]]:
    """`tried` with every neighbour tried from each space `level` steps away on open ground not reached (delayed),
    and from each of its neighbours that may yet reach it (not those nearer the start, done)."""
    out = tried if isinstance(tried, list) else list(tried)
    neighbours = disc.neighbours
    first, end = disc.rings[level], disc.rings[level + 1]
    for x in compress(range(first, end), map(is_, came_from[first:end], repeat(None))):
        for y in disc.not_behind[x]:
            out[y] = neighbours[y]
    return out
