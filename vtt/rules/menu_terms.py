"""What several of a menu's attacks on one target share, worked out once for a state.

A creature's menu plans a Strike, a Called Shot, a Disarm, an Impair, a Reposition and a Grab on each creature in
its Reach (with each weapon, with and without a Charge): every one of them adds the same melee attack modifiers of
the attacker against the target, and the Overpowers and the Grab test the same attack path and exposure. They
follow from the state alone, so they are kept with its occupancy (`Occupancy.kept`, the state's own, as the Strike
plans are).

An attack reaches a space past the walls when a line from the attacker to it is clear (`reach.attack_path`): no
wall or object on the spaces between its ends. A line of `n` steps is contiguous and `n + 1` long, so its `i`-th
space is `i` steps from where it starts: the spaces between the ends of a line to a space within Reach `r` are
within `r - 1` of the attacker. With no wall or object that near, every space and creature within the Reach is
reached, and no line need be drawn (`lines_clear`). Otherwise, from a space of its own, only the spaces within
`r - 1` that are filled can block a line: the spaces whose every line passes one of them are found from the lines'
shapes, worked out once for each kind of grid and Reach (`unreached`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from vtt.rules.conditions import melee_attack_modifiers
from vtt.rules.dice import Modifier
from vtt.rules.grid import Grid
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.obstruction import Exposure, exposure
from vtt.rules.reach import attack_path
from vtt.rules.space import Occupancy, grid_of


def melee_modifiers(state: GameState, occ: Occupancy, c: Creature, target: Creature) -> list[Modifier]:
    """`conditions.melee_attack_modifiers(state, c, target)`, made once for the state of `occ` (a new list each
    time: the modifiers themselves are shared)."""
    key = ("melee_modifiers", c.id, target.id)
    found: list[Modifier] | None = occ.kept.get(key)
    if found is None:
        found = occ.kept[key] = melee_attack_modifiers(state, c, target)
    return list(found)


def touch(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, filled: AbstractSet[Cell]
) -> tuple[tuple[Cell, ...] | None, Exposure | None]:
    """The attack path from `c` to `target` past the walls (None when every line is blocked) and, with one, how much
    of `target` is exposed to `c` with no creature obstructing (an Overpower's and a Grab's test), made once for the
    state of `occ`: each Overpower with each weapon or limb, and the Grab, ask the same (each with its own Reach)."""
    key = ("touch", c.id, c.anchor, c.size, target.id, target.anchor, target.size, id(filled))
    found: tuple[tuple[Cell, ...] | None, Exposure | None] | None = occ.kept.get(key)
    if found is None:
        grid = grid_of(state)
        mine, theirs = occ.cells[c.id], occ.cells[target.id]
        path = attack_path(grid, mine, theirs, filled)
        if path is None:
            found = occ.kept[key] = (None, None)
        else:
            found = occ.kept[key] = (tuple(path), exposure(grid, mine, theirs, target.size, filled))
    return found


def lines_clear(grid: Grid, cells: Iterable[Cell], reach: int, filled: AbstractSet[Cell]) -> bool:
    """Whether every line from `cells` to a space within `reach` of them passes no filled space (wall or object)
    between its ends: then `attack_path` finds one to every space and every creature within `reach`."""
    if reach <= 1 or not filled:
        return True
    return filled.isdisjoint(grid.area_within(cells, reach - 1))


def unreached(grid: Grid, cell: Cell, reach: int, filled: AbstractSet[Cell]) -> set[Cell]:
    """The spaces within `reach` of `cell` that an attack from `cell` does not reach past the walls
    (`reach.attack_path` from `cell` finds no line to them): those every line to which passes a filled space
    between its ends."""
    if reach <= 1 or not filled:
        return set()
    q, r = cell
    near = {(fq - q, fr - r) for fq, fr in grid.area_within((cell,), reach - 1) & filled}
    if not near:
        return set()
    shadows = _shadows(grid, reach)
    out: set[Cell] = set()
    for wall in near:
        for (dq, dr), betweens in shadows.get(wall, ()):
            if all(not near.isdisjoint(between) for between in betweens):
                out.add((q + dq, r + dr))
    return out


@lru_cache(maxsize=64)
def _shadows(grid: Grid, reach: int) -> dict[Cell, tuple[tuple[Cell, tuple[frozenset[Cell], ...]], ...]]:
    """For each space (as an offset from an attacker's space) between the ends of a line to a space within `reach`:
    the spaces some line to which passes it, each with the spaces between the ends of each of its lines."""
    found: dict[Cell, list[tuple[Cell, tuple[frozenset[Cell], ...]]]] = {}
    origin = (0, 0)
    for end in grid.within(origin, reach):
        if grid.distance(origin, end) < 2:  # no space lies between
            continue
        betweens = tuple(frozenset(line[1:-1]) for line in grid.lines(origin, end))
        for between in frozenset().union(*betweens):
            found.setdefault(between, []).append((end, betweens))
    return {between: tuple(ends) for between, ends in found.items()}
