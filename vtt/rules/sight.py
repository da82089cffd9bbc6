"""Line of sight for Spells and Talents (table setting `manifest_needs_sight`; the sources say nothing of it).

A creature is in sight when at least one of its spaces is exposed to one of the viewer's spaces by the obstruction
test (`obstruction.exposure`): a straight line of spaces with no wall or object strictly between, and no other
creature either when the table's `creatures_obstruct` is on. The target's own spaces hide its far side only; a
creature is always in sight of itself.
"""

from __future__ import annotations

from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.obstruction import exposure
from vtt.rules.space import Occupancy, grid_of


def in_sight(state: GameState, occ: Occupancy, viewer: Creature, target: Creature) -> bool:
    if viewer.id == target.id:
        return True
    others: set[Cell] | None = None
    if state.settings.creatures_obstruct:
        others = {cell for cid, cells in occ.everyone().items() if cid not in (viewer.id, target.id) for cell in cells}
    grid = grid_of(state)
    filled = state.board.filled()
    return exposure(grid, occ.cells[viewer.id], occ.cells[target.id], target.size, filled, others).attackable
