"""The creatures near a creature, found from the index of who stands where (`Occupancy.by_cell`) rather than by a pass
over every creature of the state: a menu asks who is within a few spaces, on a board of hundreds.

What these give is listed in the order of `state.creatures`, as a pass over them lists it. `on_map_within` tells
whether a range lies on the map.
"""

from __future__ import annotations

from functools import lru_cache

from vtt.rules.grid import Grid
from vtt.rules.model import Cell
from vtt.rules.space import Occupancy


@lru_cache(maxsize=4096)
def sorted_area(grid: Grid, cells: tuple[Cell, ...], radius: int) -> tuple[Cell, ...]:
    """`sorted(grid.area_within(cells, radius))`, kept: a creature's menu asks for the same ranges around it after
    every change, and the spaces off the map are left in (a creature may stand there after the map shrank)."""
    return tuple(sorted(grid.area_within(cells, radius)))


def on_map_within(grid: Grid, cells: tuple[Cell, ...], radius: int, cols: int, rows: int) -> bool:
    """Whether every space within `radius` of `cells` lies on a `cols` x `rows` map, told without asking each: a step
    moves a space's column and row (`Grid.to_offset`) by one at most, so it holds when each of `cells` is `radius` or
    more from every edge (False near an edge, where each space must be asked)."""
    for cell in cells:
        col, row = grid.to_offset(cell)
        if not (radius <= col < cols - radius and radius <= row < rows - radius):
            return False
    return True


def around(occ: Occupancy, grid: Grid, cells: tuple[Cell, ...], radius: int) -> list[str]:
    """The creatures standing in a space within `radius` of any of `cells` (those creatures themselves too), in the
    order of those spaces (`sorted_area`). Found once for the state of `occ` (a menu's Focus and Distract ask the same
    range): shared, not to be changed."""
    key = ("around", cells, radius)
    found: list[str] | None = occ.kept.get(key)
    if found is None:
        # the spaces of the area that hold a creature, in the area's order (`sorted_area` is sorted)
        found = occ.kept[key] = occ.occupants(sorted(occ.by_cell.keys() & sorted_area(grid, cells, radius)))
    return found


def within(occ: Occupancy, grid: Grid, cells: tuple[Cell, ...], radius: int) -> list[str]:
    """The creatures standing in a space within `radius` of any of `cells` (those creatures themselves too), in the
    order of the state's creatures."""
    found = list(around(occ, grid, cells, radius))
    if len(found) > 1:
        found.sort(key=occ.rank().__getitem__)
    return found
