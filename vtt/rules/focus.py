"""Choosing and dropping Focus (reference §5.3; seed-000 Distract).

- reference §5.3: "Focus is a Minor Action in which you choose a creature, object or space as your Focus; the
  details are truncated." The `focus` command sets the creature's Focus on another creature (`target`) or on a
  space, within the table's `focus_range` (the truncated page names no limit; gap), replacing any Focus it had.
  Objects are not chosen here: a space of the object stands for it.
- seed-000 Distract: a Distracted creature "cannot drop Focus until their next turn" (`Creature.focus_locked`):
  while it holds, neither `drop_focus` nor choosing another Focus (which drops the old one) is allowed.
- Dropping Focus: the sources name no cost (table setting `drop_focus_cost`, no action by default).
- What Focus gives is `conditions.focus_modifiers` (table setting `focus_bonus`).
"""

from __future__ import annotations

from vtt.rules import near
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import Occupancy, area_on_map, grid_of
from vtt.rules.turns import refuse_on_full_resolve, require_active, spend
from vtt.rules.txn import Tx

LOCKED = "cannot drop Focus until its next turn (Distract)"


def has_focus(c: Creature) -> bool:
    return c.focus is not None or c.focus_space is not None


def why_not_focus(state: GameState, occ: Occupancy, c: Creature, target: str | None, space: Cell | None) -> str | None:
    """Why `c` cannot choose this creature or space as its Focus now (its Minor Action aside); None when it can."""
    if (target is None) == (space is None):
        return "Focus on one creature or one space"
    if c.focus_locked:
        return f"{c.name} {LOCKED}"
    grid = grid_of(state)
    rng = state.settings.focus_range
    if target is not None:
        t = state.creatures.get(target)
        if t is None:
            return f"there is no creature {target!r}"
        if (why := why_not_focus_on(c, t)) is not None:
            return why
        dist = footprint_distance(grid, occ.cells[c.id], occ.cells[t.id])
        if dist > rng:
            return f"{t.name} is {dist} spaces away, beyond the Focus range {rng}"
        return None
    assert space is not None
    if not grid.in_bounds(space, state.board.cols, state.board.rows):
        return f"{space} is off the map"
    if c.focus_space == space:
        return f"{c.name} is already Focused on {space}"
    dist = footprint_distance(grid, occ.cells[c.id], (space,))
    if dist > rng:
        return f"{space} is {dist} spaces away, beyond the Focus range {rng}"
    return None


def why_not_focus_on(c: Creature, t: Creature) -> str | None:
    """Why `c` cannot Focus on the creature `t` wherever it stands (`why_not_focus` adds the range)."""
    if t.id == c.id:
        return f"{c.name} cannot Focus on itself"
    if t.swallowed_by is not None:
        return f"{t.name} has been swallowed: it is off the board"
    if c.focus == t.id:
        return f"{c.name} is already Focused on {t.name}"
    return None


def focus_targets(state: GameState, occ: Occupancy, c: Creature) -> list[str]:
    """The creatures `why_not_focus` allows: those with a space within range (all within it), found from the index
    of spaces."""
    found = near.around(occ, grid_of(state), occ.cells[c.id], state.settings.focus_range)
    creatures = state.creatures
    return [cid for cid in found if cid != c.id and why_not_focus_on(c, creatures[cid]) is None]


def focus_spaces(state: GameState, occ: Occupancy, c: Creature) -> list[Cell]:
    """The spaces `why_not_focus` allows, found directly (every space within range of the footprint, on the map)."""
    if c.focus_locked:
        return []
    board = state.board
    area = area_on_map(grid_of(state), occ.cells[c.id], state.settings.focus_range, board.cols, board.rows)
    if c.focus_space is None:
        return list(area)
    return [cell for cell in area if cell != c.focus_space]


def set_focus(tx: Tx, creature: str, target: str | None, space: Cell | None) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    if (why := why_not_focus(state, Occupancy(state), c, target, space)) is not None:
        raise RuleError(why)
    spend(tx, c.id, minor=1)
    m = tx.creature(c.id)
    m.focus, m.focus_space = target, space
    what = tx.get(target).name if target is not None else f"the space {space}"
    return [
        Event(
            kind="focused",
            text=f"{c.name} Focuses on {what} (a Minor Action).",
            actor=c.id,
            target=target,
            data={"focus": target, "focus_space": space},
        )
    ]


def why_not_drop(c: Creature) -> str | None:
    if not has_focus(c):
        return f"{c.name} has no Focus to drop"
    if c.focus_locked:
        return f"{c.name} {LOCKED}"
    return None


def drop_focus(tx: Tx, creature: str) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    if (why := why_not_drop(c)) is not None:
        raise RuleError(why)
    cost = state.settings.drop_focus_cost
    if cost == "none":
        refuse_on_full_resolve(state, c.id, "drop its Focus")
    else:
        spend(tx, c.id, major=1 if cost == "major" else 0, minor=1 if cost == "minor" else 0)
    m = tx.creature(c.id)
    m.focus, m.focus_space = None, None
    return [Event(kind="focus_dropped", text=f"{c.name} drops its Focus.", actor=c.id)]
