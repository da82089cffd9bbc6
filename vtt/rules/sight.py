"""Line of sight for Spells and Talents (table setting `manifest_needs_sight`; the sources say nothing of it).

A creature is in sight when at least one of its spaces is exposed to one of the viewer's spaces by the obstruction
test (`obstruction.exposure`): a straight line of spaces with no wall or object strictly between, and no other
creature either when the table's `creatures_obstruct` is on. The target's own spaces hide its far side only; a
creature is always in sight of itself. It must also be seen by light: one of those spaces not dark, lit by a carried
light or within the viewer's dark sight (`vision.sees_by_light`).
"""

from __future__ import annotations

from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.obstruction import exposure
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.vision import sees_by_light


def in_sight(state: GameState, occ: Occupancy, viewer: Creature, target: Creature) -> bool:
    return why_not_in_sight(state, occ, viewer, target) is None


def why_not_in_sight(state: GameState, occ: Occupancy, viewer: Creature, target: Creature) -> str | None:
    """Why `viewer` cannot see `target` now, or None when it can."""
    if viewer.id == target.id:
        return None
    others: set[Cell] | None = None
    if state.settings.creatures_obstruct:
        others = {cell for cid, cells in occ.everyone().items() if cid not in (viewer.id, target.id) for cell in cells}
    grid = grid_of(state)
    filled = state.board.filled()
    exposed = exposure(grid, occ.cells[viewer.id], occ.cells[target.id], target.size, filled, others).exposed
    if not exposed:
        return f"{viewer.name} has no line of sight to {target.name}"
    mine = occ.cells[viewer.id]
    if not any(sees_by_light(state, viewer, mine, cell) for cell in exposed):
        return f"{viewer.name} cannot see {target.name}: it stands in darkness"
    return None
