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
from vtt.rules.space import Occupancy, grid_for, grid_of

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


def _random_footprint(rng: random.Random, kind: GridKind) -> tuple[Cell, ...]:
    """A grid's footprint of a random size, or a random connected shape of 2 to 5 spaces (the anchor first)."""
    grid = grid_for(kind)
    if rng.random() < 0.5:
        return grid.footprint_offsets(rng.randint(0, 4))
    shape = [(0, 0)]
    while len(shape) < rng.randint(2, 5):
        step = rng.choice(grid.neighbours(rng.choice(shape)))
        if step not in shape:
            shape.append(step)
    return tuple(shape)


def test_reposition_anchors_around_a_one_space_attacker_from_kept_shapes_are_those_found_ring_by_ring() -> None:
    """The anchors Reposition may move a target to around an attacker of one space (but for where it may stand),
    found from the anchors around (0, 0) kept for a grid, Reach and footprint, are those `_reached_anchors` finds
    ring by ring around the attacker and the spaces a step farther, for random footprints, Reach 1 to 3, targets
    anywhere within the Reach and any part of the Reach reached."""
    compared = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        kind = rng.choice([GridKind.HEX, GridKind.SQUARE])
        grid = grid_for(kind)
        s = state(settings=TableSettings(defense_prompts="nobody", reactions=False, grid=kind))
        for _ in range(10):
            offsets = _random_footprint(rng, kind)
            reach = rng.randint(1, 3)
            me = (rng.randint(-20, 20), rng.randint(-20, 20))
            area = sorted(grid.area_within((me,), reach))
            reached = [cell for cell in area if rng.random() < rng.choice([0.3, 0.8, 1.0])]
            anchors = {(q - dq, r - dr) for q, r in area for dq, dr in offsets}
            for anchor in sorted(anchors):
                now = min(grid.distance(me, (anchor[0] + dq, anchor[1] + dr)) for dq, dr in offsets)
                target = creature("target", anchor, footprint=list(offsets))
                expected = overpower._anchors_near(s, grid, (me,), target, now, reach, offsets, set(reached))
                found = overpower._anchors_near_one(grid, (me,), anchor, now, reach, offsets, reached)
                assert found == expected, (seed, offsets, reach, me, anchor)
                compared += len(expected)
    assert compared > 10000
