"""The menu's ranged attacks (seed-000): Shoot or Throw at a creature (and its Called Shot), and at a targeted
space, at the ground and at a wall (an object), with each gripped ranged weapon, at the spaces within its range that
a line reaches (see `ranged`). Each is a variant of the melee row it shares (`strike_offers`' rows).

The options on spaces reuse the melee ones' actions (`strike_space`, `strike_ground`, `strike_wall`) with `ranged`
set, so a menu sends them the same way. Only spaces within the weapon's own range are offered; a command may still
add Long Shot increments (`long_shot`) to reach farther.
"""

from __future__ import annotations

from vtt.rules import ranged
from vtt.rules.events import RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import Cell, Creature, GameState, Weapon
from vtt.rules.offers import ActionOption, TargetOption, make_option, make_target, plan_preview
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.strike_offers import (
    GROUND_ROW,
    SPACE_ROW,
    STRIKE_ROW,
    WALL_ROW,
    called_shot_option,
    called_target,
)


def variant(w: Weapon) -> str:
    """A ranged weapon as a variant of its row, beside the melee ones: "Shortbow (shoot)", "Javelin (throw)"."""
    return f"{w.name} ({ranged.verb(w).lower()})"


def offer_ranged_spaces(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """For each gripped ranged weapon: a targeted space, the ground and a wall, each where one is in its range."""
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
            ("strike_space", None, f"{act} at a space ({w.name})", params, open_spaces, SPACE_ROW),
            (
                "strike_ground",
                "strike",
                f"{act} at the ground ({w.name})",
                {**params, "surface": "ground"},
                [cell for cell in open_spaces if not occ.at(cell)],
                GROUND_ROW,
            ),
            ("strike_wall", "strike", f"{act} at a wall ({w.name})", {**params, "surface": "wall"}, walls, WALL_ROW),
        ]
        for action, command, label, sent, spaces, row in offers:
            if spaces:
                out.append(
                    make_option(
                        action=action,
                        command=command,
                        group="Strike",
                        label=label,
                        cost={"major": 1},
                        params=sent,
                        spaces=spaces,
                        reach=rng,
                        row=row,
                        variant=variant(w),
                    )
                )
    return out


def ranged_options(state: GameState, occ: Occupancy, c: Creature, minor: bool = False) -> list[ActionOption]:
    """Shoot or Throw with each gripped ranged weapon, and its Called Shot unless `minor` (a Flurry's Minor
    Action): every target in range or Long Shot range, with the fewest increments it needs (seed-000)."""
    filled = state.board.filled()
    grid = grid_of(state)
    mine = occ.cells[c.id]
    out: list[ActionOption] = []
    for w in c.weapons:
        if w.ranged is None:
            continue
        try:
            arm = ranged.ranged_armament(state, c, w.id)
        except RuleError:
            continue
        rng = ranged.weapon_range(state, w)
        farthest = rng * (1 + ranged.LONG_SHOT_MAX[w.ranged])
        plain: list[TargetOption] = []
        called: list[TargetOption] = []
        for oid, cells in occ.everyone().items():
            dist = footprint_distance(grid, mine, cells)
            if oid == c.id or dist > farthest:
                continue
            t = state.creatures[oid]
            n = ranged.long_shot_needed(dist, rng)
            extra = {"long_shot": n} if n else {}
            try:
                plan = ranged.plan_ranged_strike(state, occ, c, t, arm, n, filled, minor=minor)
            except RuleError:
                continue
            plain.append(make_target(target=oid, preview=plan_preview(plan), path=plan.path, params=extra))
            if minor:
                continue
            aimed = ranged.plan_ranged_strike(state, occ, c, t, arm, n, filled, called_shot=True)
            called.append(called_target(oid, t, aimed, extra))
        label = f"{ranged.verb(w)} ({w.name})"
        params = {"weapon": w.id, "ranged": True}
        if plain:
            out.append(
                make_option(
                    action=ranged.verb(w).lower(),
                    command="strike",
                    group="Strike",
                    label=label,
                    cost={"major": 1},
                    params=params,
                    targets=plain,
                    reach=rng,
                    row=STRIKE_ROW,
                    variant=variant(w),
                )
            )
        if called:
            out.append(called_shot_option(label, params, called, rng, variant(w)))
    return out
