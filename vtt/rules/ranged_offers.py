"""The menu's ranged attacks on spaces (seed-000): shoot or throw at a targeted space, at the ground and at a wall
(an object), with each gripped ranged weapon, at the spaces within its range that a line reaches (see `ranged`).

The options reuse the melee ones' actions (`strike_space`, `strike_ground`, `strike_wall`) with `ranged` set, so a
menu sends them the same way. Only spaces within the weapon's own range are offered; a command may still add Long
Shot increments (`long_shot`) to reach farther.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtt.rules import ranged
from vtt.rules.events import RuleError
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.space import Occupancy, grid_of

if TYPE_CHECKING:
    from vtt.rules.engine import ActionOption


def offer_ranged_spaces(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """For each gripped ranged weapon: a targeted space, the ground and a wall, each where one is in its range."""
    from vtt.rules.engine import ActionOption  # the option models live in `engine` with the other menu builders

    filled = state.board.filled()
    grid = grid_of(state)
    out: list[ActionOption] = []
    for w in c.weapons:
        if w.ranged is None:
            continue
        try:
            ranged.ranged_armament(state, c, w.id)
        except RuleError:
            continue
        rng = ranged.weapon_range(state, w)
        open_spaces: list[Cell] = []
        walls: list[Cell] = []
        for cell in sorted(grid.area_within(occ.cells[c.id], rng)):
            if cell in occ.cells[c.id]:
                continue
            try:
                ranged.reach_space(state, occ, c, w, cell, 0, filled)
            except RuleError:
                continue
            (walls if cell in filled else open_spaces).append(cell)
        params = {"weapon": w.id, "ranged": True}
        act = ranged.verb(w)
        offers = [
            ("strike_space", None, f"{act} at a space ({w.name})", params, open_spaces),
            (
                "strike_ground",
                "strike",
                f"{act} at the ground ({w.name})",
                {**params, "surface": "ground"},
                [cell for cell in open_spaces if not occ.at(cell)],
            ),
            ("strike_wall", "strike", f"{act} at a wall ({w.name})", params, walls),
        ]
        for action, command, label, sent, spaces in offers:
            if spaces:
                out.append(
                    ActionOption(
                        action=action,
                        command=command,
                        group="Strike",
                        label=label,
                        cost={"major": 1},
                        params=sent,
                        spaces=spaces,
                        reach=rng,
                    )
                )
    return out
