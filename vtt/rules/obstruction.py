"""Physical obstruction: a target's size for an attack comes from its parts that are not obstructed.

seed-000: "When your target has physical obstruction, determine their size by the portions that are not
obstructed. For targets that occupy multiple spaces, some spaces may cause obstruction against their other
spaces."

The algorithm (also in the README):
1. Blocking spaces are the spaces filled by walls and objects, every space of the target itself, and, when the
   table setting `creatures_obstruct` is on, the spaces of every other creature except the attacker.
2. A space t of the target is *exposed* when, from some space a of the attacker, some straight line of spaces
   from a to t (both lines are tried where the line runs along a tie between two spaces) has no blocking space
   strictly between a and t. The target's own other spaces block, so the far side of a big creature is hidden
   behind its near side. A space the attacker shares with the target is always exposed.
3. With e of the target's n spaces exposed, its area for the attack is e/n of its whole area. Each size step
   doubles area (reference §2.2), so each whole halving of the area is one size less: its size for the attack
   is `size - floor(log2(n / e))`, the number of halvings rounded down (the rules always round down). All or
   more than half exposed keeps its size, half down to a quarter is one size smaller, a quarter down to an
   eighth two sizes smaller. Single-space targets are either wholly exposed or wholly obstructed.
4. With no exposed space the target cannot be attacked from there.
"""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from vtt.rules.fastmodel import construct
from vtt.rules.grid import Grid
from vtt.rules.model import Cell


class Exposure(BaseModel):
    model_config = ConfigDict(frozen=True)
    size: int
    exposed: tuple[Cell, ...]
    total: int

    @property
    def attackable(self) -> bool:
        return bool(self.exposed)

    @property
    def obstructed(self) -> bool:
        return len(self.exposed) < self.total


def exposed_size(size: int, exposed: int, total: int) -> int:
    """Size of a target of which `exposed` of `total` spaces can be attacked (step 3 above)."""
    if exposed <= 0:
        raise ValueError("a wholly obstructed target has no size for the attack")
    if exposed >= total:
        return size
    return size - math.floor(math.log2(total / exposed))


_NOTHING: frozenset[Cell] = frozenset()


def _clear(grid: Grid, a: Cell, t: Cell, filled: AbstractSet[Cell], blocking: AbstractSet[Cell]) -> bool:
    """Whether some line from `a` to `t` passes no space of `filled` or `blocking` strictly between them."""
    aq, ar = a
    for offsets in _between_offsets(grid, t[0] - aq, t[1] - ar):
        if not offsets:  # `t` is next to `a` (or is `a`)
            return True
        between = [(aq + dq, ar + dr) for dq, dr in offsets]
        if (not blocking or blocking.isdisjoint(between)) and filled.isdisjoint(between):
            return True
    return False


@lru_cache(maxsize=4096)
def _between_offsets(grid: Grid, dq: int, dr: int) -> tuple[tuple[Cell, ...], ...]:
    """The spaces strictly between the ends of each of `grid.lines` from (0, 0) to (dq, dr), in its order (a
    line's shape depends on the step between its ends alone)."""
    return tuple(tuple(line[1:-1]) for line in grid.lines((0, 0), (dq, dr)))


def exposure(
    grid: Grid,
    attacker_cells: tuple[Cell, ...],
    target_cells: tuple[Cell, ...],
    target_size: int,
    filled: AbstractSet[Cell],
    other_creature_cells: set[Cell] | None = None,
) -> Exposure:
    """Which of the target's spaces the attacker can reach unobstructed, and the size that leaves."""
    # the blocking spaces of step 1 beside the walls and objects (`filled`, read as it is: a board's are many)
    blocking: AbstractSet[Cell]
    if other_creature_cells:
        blocking = set(target_cells) | (other_creature_cells - set(attacker_cells))
    elif len(target_cells) == 1:
        blocking = _NOTHING
    else:
        blocking = set(target_cells)
    exposed: list[Cell] = []
    for t in target_cells:
        if t in attacker_cells:
            exposed.append(t)
            continue
        nearest = (
            attacker_cells if len(attacker_cells) == 1 else sorted(attacker_cells, key=lambda c: grid.distance(c, t))
        )
        for a in nearest:
            if _clear(grid, a, t, filled, blocking):
                exposed.append(t)
                break
    n = len(target_cells)
    size = exposed_size(target_size, len(exposed), n) if exposed else target_size
    return construct(Exposure, size=size, exposed=tuple(exposed), total=n)
