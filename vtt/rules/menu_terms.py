"""What several of a menu's attacks on one target share, worked out once for a state.

A creature's menu plans a Strike, a Called Shot, a Disarm, an Impair, a Reposition and a Grab on each creature in
its Reach (with each weapon, with and without a Charge): every one of them adds the same melee attack modifiers of
the attacker against the target. They follow from the state alone, so they are kept with its occupancy
(`Occupancy.kept`, the state's own, as the Strike plans are).

An attack reaches a space past the walls when a line from the attacker to it is clear (`reach.attack_path`). Every
space inside such a line is nearer the attacker than the end is (a line of `n` steps is contiguous and `n + 1`
long, so its `i`-th space is `i` steps away): with no wall or object anywhere within the Reach, every space and
creature within the Reach is reached, and no line need be drawn (`clear_within`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from vtt.rules.conditions import melee_attack_modifiers
from vtt.rules.dice import Modifier
from vtt.rules.grid import Grid
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import Occupancy


def melee_modifiers(state: GameState, occ: Occupancy, c: Creature, target: Creature) -> list[Modifier]:
    """`conditions.melee_attack_modifiers(state, c, target)`, made once for the state of `occ` (a new list each
    time: the modifiers themselves are shared)."""
    key = ("melee_modifiers", c.id, target.id)
    found: list[Modifier] | None = occ.kept.get(key)
    if found is None:
        found = occ.kept[key] = melee_attack_modifiers(state, c, target)
    return list(found)


def clear_within(grid: Grid, cells: Iterable[Cell], radius: int, filled: AbstractSet[Cell]) -> bool:
    """Whether no filled space (wall or object) lies within `radius` of any of `cells`: then an attack from `cells`
    reaches every space within `radius` of them past the walls (`attack_path` finds a line to each)."""
    if not filled:
        return True
    return filled.isdisjoint(grid.area_within(cells, radius))
