"""`move_search.search_one_space` against the plain breadth-first search (`movement.reachable`) around walls that
delay spaces: spaces behind a wall, reached later than on open ground (if at all) and from any side, which the
search's shortcut (trying from a space only the neighbours one step farther from the start) must still find by the
same paths in the same order; and the steps and spaces before, looked up when asked, for spaces reached or not."""

from __future__ import annotations

import random

from factories import creature, state

from vtt.rules import movement
from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.move_search import Moves, search_one_space
from vtt.rules.settings import TableSettings
from vtt.rules.space import grid_of

SEEDS = range(40)
SIDE = 30


def _walls_around(seed: int, kind: GridKind) -> GameState:
    """A creature of one space in the middle of a 30 x 30 map of `kind`, with walls scattered on 2 to 30 % of it and
    a few straight walls of 2 to 6 spaces near it (which delay every space behind them)."""
    rng = random.Random(seed)
    settings = TableSettings(defense_prompts="nobody", reactions=False, grid=kind)
    grid = grid_of(state(settings=settings))
    anchor = grid.from_offset(SIDE // 2, SIDE // 2)
    share = rng.choice([0.02, 0.08, 0.3])
    walls = {grid.from_offset(col, row) for col in range(SIDE) for row in range(SIDE) if rng.random() < share}
    steps = grid.neighbours((0, 0))
    for _ in range(rng.randint(1, 4)):
        q, r = rng.choice(grid.within(anchor, 4))
        dq, dr = rng.choice(steps)
        walls.update((q + k * dq, r + k * dr) for k in range(rng.randint(2, 6)))
    return state(creature("mover", anchor), cols=SIDE, rows=SIDE, walls=walls - {anchor}, settings=settings)


def _plain_and_searched(s: GameState, movement_left: int) -> tuple[dict[Cell, list[Cell]], Moves]:
    c = s.creatures["mover"]
    filled = s.board.filled()
    plain = movement.reachable(s, c, movement_left, filled)
    return plain, search_one_space(grid_of(s), c.anchor, movement_left, filled, s.board.cols, s.board.rows)


def test_the_search_finds_the_spaces_walls_delay_by_the_plain_search_paths_in_its_order() -> None:
    """Every space `movement.reachable` reaches, by the same path, in the same order, with its steps, on hex and
    square maps whose walls delay many spaces (counted: the test is about them), 1 to 8 spaces of movement."""
    delayed = 0
    for seed in SEEDS:
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s = _walls_around(seed, kind)
            grid = grid_of(s)
            anchor = s.creatures["mover"].anchor
            for movement_left in (1, 2, 3, 5, 8):
                plain, moves = _plain_and_searched(s, movement_left)
                assert moves.order == list(plain)
                assert list(moves.paths().items()) == list(plain.items())
                assert list(moves.steps.items()) == [(cell, len(p)) for cell, p in plain.items()]
                delayed += sum(len(p) > grid.distance(anchor, cell) for cell, p in plain.items())
    assert delayed > 2000


def test_the_steps_and_spaces_before_are_those_of_the_spaces_reached_alone() -> None:
    """The steps to a space and the space before it are there for the spaces reached alone (the start has no space
    before it): not for walls, spaces past the movement or spaces walled off, near or far."""
    for seed in SEEDS[::4]:
        for kind in (GridKind.HEX, GridKind.SQUARE):
            s = _walls_around(seed, kind)
            grid = grid_of(s)
            anchor = s.creatures["mover"].anchor
            plain, moves = _plain_and_searched(s, 4)
            before = {cell: p[-2] if len(p) > 1 else anchor for cell, p in plain.items() if p}
            assert dict(moves.before) == before
            assert len(moves.before) == len(before)
            assert len(moves.steps) == len(plain)
            for cell in grid.within(anchor, 6):
                assert (cell in moves.steps) == (cell in plain)
                assert (cell in moves.before) == (cell in before)
                assert moves.steps.get(cell) == (len(plain[cell]) if cell in plain else None)
                assert moves.before.get(cell) == before.get(cell)
