"""What the Overpowers keep across states, or work out from kept shapes, is what the full computation gives: a
Disarm's drop spaces (kept by the target's spaces, the walls and the map) on boards that change around a target
that stays, and the exposure's clear lines (from each line's shape, kept by the step between its ends) against the
lines drawn."""

from __future__ import annotations

import random

from factories import creature, state

from vtt.rules import obstruction, overpower
from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.settings import TableSettings
from vtt.rules.space import Occupancy, grid_of

SEEDS = range(40)


def _plain_drop_spaces(s: GameState, target: str) -> list[Cell]:
    grid = grid_of(s)
    mine = Occupancy(s).cells[target]
    filled = s.board.filled()
    return sorted(
        cell
        for cell in grid.area_within(mine, 1)
        if cell not in mine and cell not in filled and grid.in_bounds(cell, s.board.cols, s.board.rows)
    )


def test_drop_spaces_kept_across_states_follow_the_walls_the_map_and_the_target() -> None:
    """A target standing still while the walls next to it, the map's size, the grid and its size change (and back
    again, as a table returns to a board): each state's drop spaces are those worked out plainly for it."""
    compared = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        kind = rng.choice([GridKind.HEX, GridKind.SQUARE])
        anchor = (rng.randint(0, 3), rng.randint(0, 3))
        boards: list[tuple[int, int, set[Cell], int]] = []
        for _ in range(4):
            near = [(anchor[0] + dq, anchor[1] + dr) for dq in range(-3, 4) for dr in range(-3, 4)]
            walls = {cell for cell in near if rng.random() < 0.3}
            boards.append((rng.randint(3, 8), rng.randint(3, 8), walls, rng.choice([0, 1, 2])))
        for cols, rows, walls, size in [*boards, *boards]:
            for grid_kind in (kind, GridKind.SQUARE if kind == GridKind.HEX else GridKind.HEX):
                settings = TableSettings(defense_prompts="nobody", reactions=False, grid=grid_kind)
                target = creature("target", anchor, size=size)
                own = Occupancy(state(target, settings=settings)).cells["target"]
                s = state(target, cols=cols, rows=rows, walls=walls - set(own), settings=settings)
                assert overpower.drop_spaces(s, Occupancy(s), s.creatures["target"]) == _plain_drop_spaces(s, "target")
                compared += 1
    assert compared > 500


def _clear_drawn(kind: GridKind, a: Cell, t: Cell, filled: set[Cell], blocking: set[Cell]) -> bool:
    grid = grid_of(state(settings=TableSettings(grid=kind)))
    return any(blocking.isdisjoint(line[1:-1]) and filled.isdisjoint(line[1:-1]) for line in grid.lines(a, t))


def test_exposure_lines_from_kept_shapes_are_the_lines_drawn() -> None:
    """`obstruction._clear` (each line's spaces between its ends from its shape, kept) tells what drawing every line
    from one space to another and reading the walls and the blocking spaces on it tells, on hex and square grids,
    for spaces up to 6 apart among random walls."""
    agreed = {True: 0, False: 0}
    for seed in SEEDS:
        rng = random.Random(seed)
        for kind in (GridKind.HEX, GridKind.SQUARE):
            grid = grid_of(state(settings=TableSettings(grid=kind)))
            a = (rng.randint(-5, 5), rng.randint(-5, 5))
            near = grid.area_within((a,), 6)
            filled = {cell for cell in near if rng.random() < 0.15}
            blocking = {cell for cell in near if rng.random() < 0.1}
            for t in rng.sample(sorted(near), 25):
                for walls, others in ((filled, blocking), (filled, set()), (set(), blocking)):
                    expected = _clear_drawn(kind, a, t, walls, others)
                    assert obstruction._clear(grid, a, t, frozenset(walls), others) == expected
                    agreed[expected] += 1
    assert agreed[True] > 100 and agreed[False] > 100
