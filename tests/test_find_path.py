"""A move's path (`movement.find_path`, the search that stops at its goal, and its shortcut for a goal next to the
mover) is the path the whole search (`movement.reachable` without a goal) finds to that space, and a move the whole
search cannot reach is refused; a path costs the sum of its steps' costs (`terrain.path_cost`), and each step enters
the highest Tier of Uneven Ground among the spaces its footprint newly covers (`terrain.entered_tier`). On random
fights (creatures of every size, Prone ones) with and without Uneven Ground, for 0 to 4 Movement."""

from __future__ import annotations

import random

from test_menu_build import played, random_fight

from vtt.rules import movement, terrain
from vtt.rules.events import RuleError
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import footprint, grid_of

SEEDS = range(4)
LEFT = (0, 1, 2, 4)


def _with_uneven(s: GameState, seed: int) -> GameState:
    """`s` with Uneven Ground of Tier 1 to 3 on about a fifth of its spaces (none on a wall)."""
    rng = random.Random(seed)
    grid = grid_of(s)
    cells = [grid.from_offset(col, row) for col in range(s.board.cols) for row in range(s.board.rows)]
    uneven = {cell: rng.randint(1, 3) for cell in cells if rng.random() < 0.2 and cell not in s.board.walls}
    return s.model_copy(update={"board": s.board.model_copy(update={"uneven": uneven})})


def _plain_tier(s: GameState, c: Creature, prev: Cell, nxt: Cell) -> int:
    before = set(footprint(s, c, prev))
    return max((s.board.uneven.get(cell, 0) for cell in footprint(s, c, nxt) if cell not in before), default=0)


def test_the_path_of_a_move_is_the_whole_searchs_path_to_its_goal() -> None:
    found = refused = adjacent = 0
    for seed in SEEDS:
        fights = played(seed, random_fight(seed), 2)
        for s in [*fights, *(_with_uneven(f, seed) for f in fights)]:
            grid = grid_of(s)
            filled = s.board.filled()
            for c in s.creatures.values():
                if c.swallowed_by is not None:
                    continue
                for left in LEFT:
                    whole = movement.reachable(s, c, left, filled)
                    for goal in grid.within(c.anchor, left + 1):
                        try:
                            path = movement.find_path(s, c, goal, left, filled)
                        except RuleError:
                            assert goal not in whole
                            refused += 1
                            continue
                        assert path == whole[goal]
                        steps = list(zip([c.anchor, *path], path, strict=False))
                        assert terrain.path_cost(s, c, path) == sum(terrain.step_cost(s, c, a, b) for a, b in steps)
                        steps.append((goal, goal))  # a step that stays enters nothing
                        assert [terrain.entered_tier(s, c, a, b) for a, b in steps] == [
                            _plain_tier(s, c, a, b) for a, b in steps
                        ]
                        found += 1
                        adjacent += grid.distance(c.anchor, goal) == 1
    assert found > 500 and refused > 100 and adjacent > 100
