"""What the Overpowers keep across states, or work out from kept shapes, is what the full computation gives: a
Disarm's drop spaces (kept by the target's spaces, the walls and the map) on boards that change around a target
that stays, the exposure's clear lines (from each line's shape, kept by the step between its ends) against the
lines drawn, Reposition's anchors around an attacker of one space (from the anchors around (0, 0) kept per grid,
Reach and footprint) against those found ring by ring, and the Collisions (the steps asked of the start alone)
against a pass asking every space."""

from __future__ import annotations

import random

from factories import creature, state
from test_menu_build import played, random_fight

from vtt.rules import move_offers, movement, obstruction, overpower, overpower_offers, strike
from vtt.rules.grid import GridKind
from vtt.rules.model import Cell, GameState
from vtt.rules.move_search import Moves, from_paths
from vtt.rules.offers import arms
from vtt.rules.settings import TableSettings
from vtt.rules.sizes import can_overpower
from vtt.rules.space import Occupancy, footprint, grid_for, grid_of

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


def _plain_collisions(
    s: GameState, occ: Occupancy, c_id: str, moves: Moves, fewest: int
) -> list[tuple[str, Cell, list[Cell]]]:
    """The creatures a move of `moves` enters first, each by the first space of `fewest` steps or more where it
    does (as `overpower_offers._collisions` lists them), every space's steps asked."""
    c = s.creatures[c_id]
    found = {c.id}
    out: list[tuple[str, Cell, list[Cell]]] = []
    for cell in moves.order:
        if moves.steps[cell] < fewest:
            continue
        for space in footprint(s, c, cell):
            for oid in occ.by_cell.get(space, []):
                if oid not in found and can_overpower(c.size, s.creatures[oid].size):
                    found.add(oid)
                    out.append((oid, cell, moves.path(cell)))
    return out


def test_collisions_are_those_of_a_pass_asking_every_space_its_steps() -> None:
    """The Collisions of every creature of random fights, for moves of 1 to 6 spaces (searched as a menu does and as
    `movement.reachable` does) and 1 to 3 spaces needed before the creature entered, are those a plain pass finds
    asking every space reached its steps (the start is the one space fewer than a step away)."""
    compared = 0
    for seed in SEEDS[::4]:
        s0 = random_fight(seed)
        for s in played(seed, s0, 3):
            occ = Occupancy(s)
            filled = s.board.filled()
            for c in s.creatures.values():
                if c.swallowed_by is not None:
                    continue
                for movement_left in (1, 3, 6):
                    searched = move_offers.move_reach(s, occ, c, movement_left, filled)[0]
                    plain = from_paths(movement.reachable(s, c, movement_left, filled))
                    for moves in (searched, plain):
                        for fewest in (1, 2, 3):
                            expected = _plain_collisions(s, occ, c.id, moves, fewest)
                            assert overpower_offers._collisions(s, occ, c, moves, fewest) == expected
                            compared += len(expected)
    assert compared > 100


def test_overpower_options_with_every_weapon_on_one_occupancy_are_those_offered_on_an_occupancy_of_each_own() -> None:
    """The Disarm, Impair and Reposition a menu offers with each weapon and limb (in either order, with a Charge or
    not, as a Flurry's Minor Action or not) on one occupancy, where each target's choices are kept for the state,
    are those offered on an occupancy of their own: the same targets, previews, paths and choices."""
    offered = 0
    for seed in SEEDS[::4]:
        for s in played(seed, random_fight(seed), 3):
            grid = grid_of(s)
            for c in s.creatures.values():
                if c.swallowed_by is not None:
                    continue
                for order in (arms(s, c), arms(s, c)[::-1]):
                    shared = Occupancy(s)
                    for arm in order:
                        area = grid.area_within(shared.cells[c.id], strike.arm_reach(s, c, arm))
                        in_reach = shared.occupants(sorted(area), exclude=c.id)
                        for charge, minor in ((False, False), (True, False), (False, True)):
                            found = [
                                overpower_offers.weapon_overpower_options(
                                    s, occ, c, arm, area, in_reach, charge, minor
                                ).copy()
                                for occ in (shared, Occupancy(s))
                            ]
                            assert found[0] == found[1]
                            offered += sum(len(o.targets) for o in found[0])
    assert offered > 100
