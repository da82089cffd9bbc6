"""The menu's Overpowers with a weapon or limb (seed-000): Disarm, Impair and Reposition, and the Collision of a move
(plain, or as a Charge after a Dash).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from vtt.rules import (
    overpower,
    strike,
    strike_offers,
    tactics,
)
from vtt.rules.frozen import FrozenDict, FrozenList
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.move_search import Moves
from vtt.rules.offers import (
    MAJOR,
    ActionOption,
    RollPreview,
    TargetOption,
    arm_params,
    arm_variant,
    charged,
    make_option,
    make_target,
    preview_of,
)
from vtt.rules.sizes import can_overpower
from vtt.rules.space import Occupancy, footprint_offsets


def weapon_overpower_options(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    arm: strike.Armament,
    area: AbstractSet[Cell],
    in_reach: list[str],
    charge: bool,
    minor: bool = False,
) -> list[ActionOption]:
    """Disarm, Impair and Reposition with `arm` on the creatures `in_reach` (those in `area`, its Reach around `c`),
    each when it has a target."""
    filled = state.board.filled()
    rng = strike.arm_reach(state, c, arm)
    found: dict[overpower.WeaponAction, list[TargetOption]] = {action: [] for action in ACTIONS}
    for oid in in_reach:
        t = state.creatures[oid]
        terms = overpower.arm_terms(state, c, arm, rng, overpower.target_terms(state, occ, c, t, filled, charge), minor)
        if terms is None:
            continue
        for action, choices in target_choices(state, occ, c, t, rng, area, filled):
            preview = weapon_preview(state, c, t, action, arm, terms)
            found[action].append(make_target(target=oid, preview=preview, path=terms.path, choices=choices))
    out: list[ActionOption] = []
    params = arm_params(arm)
    variant = arm_variant(arm)
    for action, targets in found.items():
        if not targets:
            continue
        name = overpower.NAMES[action]
        option = make_option(
            action=action,
            group="Overpower",
            label=f"{name} with {arm.name}",
            row=name,
            variant=variant,
            cost=MAJOR,
            params=params,
            targets=targets,
            reach=rng,
            choose=CHOICES[action],
        )
        out.append(charged(option) if charge else option)
    return out


def target_choices(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    t: Creature,
    rng: int,
    area: AbstractSet[Cell],
    filled: AbstractSet[Cell],
) -> tuple[tuple[overpower.WeaponAction, FrozenDict], ...]:
    """The Overpowers with a weapon or limb of Reach `rng` that have something to choose on `t` (a target `c`
    touches), each with its choices: made once for the state of `occ` (every weapon and limb of that Reach, with a
    Charge or not, offers the same), shared and frozen."""
    key = ("overpower_choices", c.id, t.id, rng, id(filled))
    kept: tuple[tuple[overpower.WeaponAction, FrozenDict], ...] | None = occ.kept.get(key)
    if kept is not None:
        return kept
    out: list[tuple[overpower.WeaponAction, FrozenDict]] = []
    held = overpower.held_items(t)
    # a target holding nothing cannot be Disarmed: its Disarm is not asked
    if held and (spaces := overpower.shared_drop_spaces(state, occ, t)):
        out.append(("disarm", FrozenDict(item=FrozenList([w.id for w in held]), to=FrozenList(spaces))))
    out.append(("impair", IMPAIR_CHOICES))
    reached = strike_offers.reach_spaces(state, occ, c, rng, area, filled)[0]
    if dests := overpower.shared_destinations(state, occ, c, t, rng, filled, reached):
        out.append(("reposition", FrozenDict(to=FrozenList(dests))))
    found = occ.kept[key] = tuple(out)
    return found


IMPAIR_CHOICES = FrozenDict(ailment=FrozenList(overpower.IMPAIR_AILMENTS))
"""An Impair's choices on any target."""


def weapon_preview(
    state: GameState,
    c: Creature,
    t: Creature,
    action: overpower.WeaponAction,
    arm: strike.Armament,
    terms: overpower.WeaponTerms,
) -> RollPreview:
    """The preview of `action` on `t` with `arm` (the `plan_preview` of its `overpower.plan_weapon_overpowers`),
    made from what the plan is made of (its lists shared by the previews of every action on `t`)."""
    label, skill, dice, dl, defense = overpower.roll_of(state, c, t, action, arm.name)
    return preview_of(label, skill, dice, terms.dice_changes, terms.modifiers, dl, defense)


ACTIONS: tuple[overpower.WeaponAction, ...] = ("disarm", "impair", "reposition")
CHOICES: dict[str, FrozenList[str]] = {
    "disarm": FrozenList(["item", "to"]),
    "impair": FrozenList(["ailment"]),
    "reposition": FrozenList(["to"]),
}
"""The command fields each Overpower with a weapon leaves to choose once its target is (shared by every option)."""


def charged_collisions(state: GameState, occ: Occupancy, c: Creature, moves: Moves) -> list[ActionOption]:
    """seed-000 Charge with a Collision: after Dash, a move that makes 2 consecutive spaces as it enters the space."""
    econ = state.economy[c.id]
    if not econ.dashed:
        return []
    targets = collision_targets(state, occ, c, moves, max(1, tactics.CHARGE_SPACES - econ.consecutive_spaces))
    if not targets:
        return []
    option = make_option(
        action="collision",
        command="move",
        group="Overpower",
        label="Collision (move into them)",
        cost={"movement": econ.movement_left},
        targets=targets,
    )
    return [charged(option)]


def collision_targets(state: GameState, occ: Occupancy, c: Creature, moves: Moves, fewest: int) -> list[TargetOption]:
    """A Collision with each creature `c` may Overpower that a move of `moves` (of `fewest` spaces or more)
    enters, by the first such path (kept for the state, shared by the targets: not to be changed)."""
    key = ("collisions", c.id, id(moves), fewest)
    kept: tuple[Moves, list[tuple[str, Cell, list[Cell]]]] | None = occ.kept.get(key)
    if kept is None or kept[0] is not moves:  # the moves are held with it, so their id is not reused meanwhile
        kept = occ.kept[key] = (moves, _collisions(state, occ, c, moves, fewest))
    return [collision_target(oid, cell, p) for oid, cell, p in kept[1]]


def _collisions(
    state: GameState, occ: Occupancy, c: Creature, moves: Moves, fewest: int
) -> list[tuple[str, Cell, list[Cell]]]:
    by_cell = occ.by_cell
    creatures = state.creatures
    offsets = footprint_offsets(state, c)
    steps = moves.steps
    cells: Iterable[Cell] = moves.order
    if offsets == ((0, 0),):  # the spaces it enters are those it reaches: only those with a creature are read
        cells = filter(by_cell.__contains__, cells)
    start = moves.order[0] if moves.order else None
    found: set[str] = {c.id}
    out: list[tuple[str, Cell, list[Cell]]] = []
    for cell in cells:
        # every space but the start is a step or more away: only the start, or a Charge's `fewest`, asks the steps
        if (fewest > 1 or cell == start) and steps[cell] < fewest:
            continue
        q, r = cell
        for dq, dr in offsets:
            here = by_cell.get((q + dq, r + dr))
            if not here:
                continue
            for oid in here:
                if oid not in found and can_overpower(c.size, creatures[oid].size):
                    found.add(oid)
                    out.append((oid, cell, moves.path(cell)))
    return out


def collision_target(oid: str, cell: Cell, path: list[Cell]) -> TargetOption:
    """A Collision with `oid`: a move to `cell` along `path` that enters its space (the `move` command's fields)."""
    return make_target(target=oid, space=cell, path=path, params={"to": cell, "path": path, "collide_with": oid})
