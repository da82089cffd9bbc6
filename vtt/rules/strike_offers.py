"""The menu's Strikes (seed-000, reference §6): a Strike with each weapon or unarmed on a creature, a space, the
ground or a wall; a Called Shot and a Charge with each; Grab; and the Charge's Grab and attacks on a space.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import filterfalse
from typing import Any

from vtt.rules import (
    ailments,
    board_kept,
    hold,
    strike,
    tactics,
)
from vtt.rules.dice import DiceChange, Modifier
from vtt.rules.events import RuleError
from vtt.rules.frozen import NO_DICT, NO_LIST, FrozenDict, FrozenList
from vtt.rules.menu_terms import lines_clear, unreached
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.near import on_map_within
from vtt.rules.offers import (
    MAJOR,
    ActionOption,
    RollPreview,
    TargetOption,
    _built,
    arm_params,
    arm_variant,
    arms,
    charged,
    make_option,
    make_target,
    plan_preview,
    preview_of,
)
from vtt.rules.reach import attack_path
from vtt.rules.sizes import may_attack_nimble
from vtt.rules.space import Occupancy, grid_of

STRIKE_CHOICES = ("nimble", "strike_type", "max_dice")
REFINEMENTS = FrozenList(["strike_type", "max_dice"])
"""Choices a menu may leave at their first value without asking; attacking Nimble and suffocating are asked for."""
STRIKE_ROW = "Strike"
SPACE_ROW = "Strike a space"
GROUND_ROW = "Strike the ground"
WALL_ROW = "Strike a wall"
"""The menu rows of a Strike and of the attacks on a space, the ground and a wall (each weapon a variant)."""


def melee_options(
    state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament, area: AbstractSet[Cell], in_reach: list[str]
) -> list[ActionOption]:
    """A Strike with `arm` on each creature in its Reach, and on a space, the ground or a wall in it (seed-000: a
    targeted attack on a space; "To target the ground ... treat its defense as 0"; a wall is an object)."""
    filled = state.board.filled()
    rng = _arm_reach(state, occ, c, arm)
    name = arm.name
    variant = arm_variant(arm)
    types, most = _weapon_choices(state, arm)
    targets: list[TargetOption] = []
    some_nimble = False
    for oid in in_reach:
        try:
            plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled)
        except RuleError:
            continue
        nimble = _may_attack_nimble(c, plan)
        some_nimble = some_nimble or nimble
        choices = _strike_choices(nimble, types, most)
        targets.append(_target(oid, plan_preview(plan), plan.path, choices))
    label = f"Strike with {name}" if arm.weapon else "Unarmed Strike"
    params = arm_params(arm)
    choose = _open_choices(some_nimble, types, most) if targets else []
    out = [
        _option(
            "strike",
            "Strike",
            label,
            params,
            rng,
            targets=targets,
            choose=choose,
            optional=REFINEMENTS,
            row=STRIKE_ROW,
            variant=variant,
        )
    ]
    spaces, ground, walls = reach_spaces(state, occ, c, rng, area, filled)
    label = f"Strike a space ({name})"
    out.append(
        _option("strike_space", "Strike", label, params, rng, spaces=list(spaces), row=SPACE_ROW, variant=variant)
    )
    if ground:
        label = f"Strike the ground ({name})"
        params_ground = {**params, "surface": "ground"}
        spaces_ground = list(ground)
        out.append(
            _option(
                "strike_ground",
                "Strike",
                label,
                params_ground,
                rng,
                command="strike",
                spaces=spaces_ground,
                row=GROUND_ROW,
                variant=variant,
            )
        )
    if walls:
        label = f"Strike a wall ({name})"
        params_wall = {**params, "surface": "wall"}
        out.append(
            _option(
                "strike_wall",
                "Strike",
                label,
                params_wall,
                rng,
                command="strike",
                spaces=list(walls),
                row=WALL_ROW,
                variant=variant,
            )
        )
    return out


def _option(
    action: str,
    group: str,
    label: str,
    params: dict[str, Any],
    reach: int,
    *,
    command: str | None = None,
    targets: list[TargetOption] = NO_LIST,
    spaces: list[Cell] = NO_LIST,
    choose: list[str] = NO_LIST,
    optional: list[str] = NO_LIST,
    row: str = "",
    variant: str = "",
) -> ActionOption:
    """`make_option` of a Strike here (a Major Action): a copy of `_MAJOR_OPTION` with these fields set, no defaults
    merged with the values given (a menu makes several for each weapon)."""
    data = _MAJOR_OPTION.copy()
    data["action"] = action
    data["group"] = group
    data["label"] = label
    data["params"] = params
    data["targets"] = targets
    data["spaces"] = spaces
    data["reach"] = reach
    data["choose"] = choose
    data["command"] = command
    data["optional"] = optional
    data["row"] = row
    data["variant"] = variant
    return _built(ActionOption, data)


_MAJOR_OPTION = make_option(cost=MAJOR).__dict__
"""The fields of an option (`make_option`) that costs a Major Action, each other at its default, in the model's
order."""


def _target(
    oid: str,
    preview: RollPreview,
    path: list[Cell],
    choices: dict[str, list[Any]] = NO_DICT,
    margins: dict[str, int] = NO_DICT,
    params: dict[str, Any] = NO_DICT,
) -> TargetOption:
    """`make_target` of a creature: a copy of `_TARGET` with these fields set (one for each target of each weapon's
    Strikes)."""
    data = _TARGET.copy()
    data["target"] = oid
    data["preview"] = preview
    data["path"] = path
    data["choices"] = choices
    data["margins"] = margins
    data["params"] = params
    return _built(TargetOption, data)


_TARGET = make_target().__dict__
"""The fields of a target (`make_target`), each at its default, in the model's order."""


def _arm_reach(state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament) -> int:
    """`strike.arm_reach` of `c` with `arm` in the state of `occ` (a menu's), worked out once for its Strikes, Called
    Shots and Charges."""
    key = ("arm_reach", c.id, id(arm))
    found: tuple[Creature, strike.Armament, int] | None = occ.kept.get(key)
    if found is None or found[0] is not c or found[1] is not arm:
        found = occ.kept[key] = (c, arm, strike.arm_reach(state, c, arm))
    return found[2]


def _open_choices(nimble: bool, types: tuple[str, ...], most: int) -> list[str]:
    """The fields of `STRIKE_CHOICES` with more than one value (`_strike_choices`) against some target: Nimble when
    some target may be attacked Nimble, the Strike Type and the damage dice when the weapon gives more than one."""
    return [field for field, wide in zip(STRIKE_CHOICES, (nimble, len(types) > 1, most > 0), strict=True) if wide]


def reach_spaces(
    state: GameState, occ: Occupancy, c: Creature, rng: int, area: AbstractSet[Cell], filled: AbstractSet[Cell]
) -> tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]]:
    """The spaces in `area` (the Reach `rng` around `c`) that an attack can reach past the walls, sorted: open ones,
    the open ones no creature stands in (the ground), and walls. Worked out once for each Reach of a state; the open
    ones and the walls, which depend on the board and `c`'s spaces alone, once for the board."""
    mine = occ.cells[c.id]
    key = ("reach_spaces", mine, rng, id(filled))
    found: tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]] | None = occ.kept.get(key)
    if found is None:
        board = state.board
        if type(filled) is frozenset:
            on_board = ("reach_spaces", state.settings.grid, board.cols, board.rows, mine, rng)
            spaces, walls = board_kept.kept(filled, on_board, lambda: _open_and_walls(state, mine, rng, area, filled))
        else:
            spaces, walls = _open_and_walls(state, mine, rng, area, filled)
        by_cell = occ.by_cell
        ground = tuple(filterfalse(by_cell.get, spaces))  # no creature stands there
        found = occ.kept[key] = (spaces, ground, walls)
    return found


def _open_and_walls(
    state: GameState, mine: tuple[Cell, ...], rng: int, area: AbstractSet[Cell], filled: AbstractSet[Cell]
) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    grid = grid_of(state)
    cols, rows = state.board.cols, state.board.rows
    if len(mine) == 1:  # `area` is the Reach `rng` around `mine`: all of it is reached but what a wall hides
        shut = unreached(grid, mine[0], rng, filled)  # empty (at once) where `lines_clear` holds
        walls_reached = tuple(sorted((filled & area) - shut))
        if on_map_within(grid, mine, rng, cols, rows):
            return tuple(sorted(area - filled - shut)), walls_reached
        in_bounds = grid.in_bounds
        return tuple(sorted(c for c in area - filled - shut if in_bounds(c, cols, rows))), walls_reached
    if lines_clear(grid, mine, rng, filled):
        in_reach = tuple(sorted(filled & area))
        if on_map_within(grid, mine, rng, cols, rows):
            return tuple(sorted(area - filled)), in_reach
        in_bounds = grid.in_bounds
        return tuple(sorted(cell for cell in area if cell not in filled and in_bounds(cell, cols, rows))), in_reach
    spaces = sorted(
        cell
        for cell in area
        if cell not in filled
        and grid.in_bounds(cell, cols, rows)
        and attack_path(grid, mine, (cell,), filled) is not None
    )
    walls = sorted(
        cell
        for cell in area
        if cell in filled and attack_path(grid, mine, (cell,), filled) is not None  # the ends are never blocked
    )
    return tuple(spaces), tuple(walls)


def strike_choices(state: GameState, c: Creature, arm: strike.Armament, plan: strike.AttackPlan) -> FrozenDict:
    """A Strike's open choices on the target of `plan` (the Strike with `arm`, not Nimble): attacking Nimble (when 4
    or more sizes larger than the part exposed, seed-000), the Strike Type of a weapon with several (reference §6.2),
    and rolling fewer damage dice (seed-004: "you may reduce your dice rolled by any amount"). Shared by every
    target with the same choices: not to be changed."""
    return _strike_choices(_may_attack_nimble(c, plan), *_weapon_choices(state, arm))


def _may_attack_nimble(c: Creature, plan: strike.AttackPlan) -> bool:
    # The Nimble Strike is the same Strike with the size terms changed (`strike.strike_size_terms`): it can be made
    # exactly when the plain one can and the attacker is large enough against the exposed part.
    return plan.exposed_size is not None and may_attack_nimble(c.size, plan.exposed_size)


def _weapon_choices(state: GameState, arm: strike.Armament) -> tuple[tuple[str, ...], int]:
    """The Strike Types of `arm`'s weapon and the most damage dice it rolls."""
    if arm.weapon is None:
        return (), state.settings.unarmed_damage
    return arm.weapon.strike_types, arm.weapon.damage


@lru_cache(maxsize=256)
def _strike_choices(nimble: bool, types: tuple[str, ...], most: int) -> FrozenDict:
    return FrozenDict(
        nimble=FrozenList([False, True] if nimble else [False]),
        strike_type=FrozenList(types if len(types) > 1 else [None]),
        max_dice=FrozenList([None, *range(most)]),
    )


def strike_targets(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    arm: strike.Armament,
    ids: Iterable[str],
    filled: AbstractSet[Cell],
    charge: bool = False,
    minor: bool = False,
) -> list[TargetOption]:
    """The creatures of `ids` that `c` can Strike with `arm` (as a Charge, or a Flurry's Minor Action), each with the
    attack's preview and path."""
    mods = tactics.declared_modifiers(state, c, False, charge)
    extra = tactics.flurry_weapon_changes(arm.weapon, minor)
    out: list[TargetOption] = []
    for oid in ids:
        try:
            plan = strike.plan_creature_strike(state, occ, c, state.creatures[oid], arm, False, filled)
        except RuleError:
            continue
        out.append(_target(oid, declared_preview(plan, mods, extra), plan.path))
    return out


def declared_preview(plan: strike.AttackPlan, mods: list[Modifier], extra: list[DiceChange]) -> RollPreview:
    """The preview of `strike.plan_creature_strike` of a Strike (not Nimble) with a Called Shot or a Charge declared
    (`mods`, `tactics.declared_modifiers`), or as a Flurry's Minor Action (`extra`, `tactics.flurry_weapon_changes`),
    made from the plain Strike's `plan` (the menu's Strike has made it already): declaring adds its modifiers last and
    a Minor Action its weapon's dice changes last; nothing else differs, the path neither."""
    return preview_of(
        plan.label,
        plan.skill,
        plan.dice,
        [*plan.dice_changes, *extra] if extra else plan.dice_changes,
        [*plan.modifiers, *mods] if mods else plan.modifiers,
        plan.dl,
        plan.defense_skill,
        plan.damage,
        plan.damage_changes,
    )


def called_target(oid: str, t: Creature, plan: strike.AttackPlan, params: dict[str, Any] | None = None) -> TargetOption:
    """A Called Shot's target: the attack's preview and path, each unsevered part to choose, and by how much the
    attack must beat the defense to strike it (seed-000)."""
    choices, margins = aimed_parts(t)
    return _target(oid, plan_preview(plan), plan.path, choices, margins, params or {})


def aimed_parts(t: Creature) -> tuple[dict[str, list[str]], dict[str, int]]:
    """A Called Shot's choice of `t`'s parts (each unsevered one) and the margin by which the attack must beat the
    defense to strike each (its size offset, seed-000)."""
    parts = [p for p in t.parts if not p.severed]
    return {"called_shot": [p.id for p in parts]}, {p.id: p.size_offset for p in parts}


def _menu_aimed_parts(occ: Occupancy, t: Creature) -> tuple[dict[str, list[str]], dict[str, int]]:
    """`aimed_parts` of `t` in the state of `occ`, worked out once for its menus (each weapon's Called Shot asks):
    frozen, shared by their targets."""
    key = ("aimed_parts", t.id)
    found: tuple[dict[str, list[str]], dict[str, int]] | None = occ.kept.get(key)
    if found is None:
        choices, margins = aimed_parts(t)
        found = occ.kept[key] = (FrozenDict(called_shot=FrozenList(choices["called_shot"])), FrozenDict(margins))
    return found


def called_shot_option(
    name: str, params: dict[str, Any], targets: list[TargetOption], reach: int, variant: str
) -> ActionOption:
    """The Called Shot row's entry for one weapon (melee or ranged), its part chosen once the target is."""
    label = f"Called Shot: {name}"
    return _option(
        "called_shot",
        "Tactics",
        label,
        params,
        reach,
        command="strike",
        targets=targets,
        choose=["called_shot"],
        row=CALLED_ROW,
        variant=variant,
    )


CALLED_ROW = f"Called Shot: {STRIKE_ROW}"
CHARGE_ROW = f"Charge: {STRIKE_ROW}"


def called_and_charged(
    state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament, area: list[str], charge_ok: bool
) -> list[ActionOption]:
    """Called Shot and Charge Strikes with `arm` on the creatures in `area`, when they have a target."""
    filled = state.board.filled()
    rng = _arm_reach(state, occ, c, arm)
    out: list[ActionOption] = []
    called: list[TargetOption] = []
    mods = tactics.declared_modifiers(state, c, True, False)
    for oid in area:
        t = state.creatures[oid]
        try:
            plan = strike.plan_creature_strike(state, occ, c, t, arm, False, filled)
        except RuleError:
            continue
        choices, margins = _menu_aimed_parts(occ, t)
        called.append(_target(oid, declared_preview(plan, mods, NO_LIST), plan.path, choices, margins, {}))
    if not called and not charge_ok:
        return out
    name = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
    variant = arm_variant(arm)
    if called:
        out.append(called_shot_option(name, arm_params(arm), called, rng, variant))
    if charge_ok:
        charging = strike_targets(state, occ, c, arm, area, filled, charge=True)
        if charging:
            label = f"Charge: {name}"
            params = {**arm_params(arm), "charge": True}
            out.append(
                _option(
                    "charge",
                    "Tactics",
                    label,
                    params,
                    rng,
                    command="strike",
                    targets=charging,
                    row=CHARGE_ROW,
                    variant=variant,
                )
            )
    return out


def grab_option(state: GameState, occ: Occupancy, c: Creature, charge: bool = False) -> ActionOption | None:
    """Grab (a Strike): every target in its Reach - 1, with the roll's preview; None with no limb to Grab with."""
    spent = tactics.spent_limbs(state, c.id)
    limbs = [lb for lb in hold.grab_limbs(c) if lb.id not in spent]
    if not limbs:
        return None
    s = state.settings
    filled = state.board.filled()
    rng = max(hold.grab_reach(c, lb) for lb in limbs)
    targets: list[TargetOption] = []
    for oid in occ.occupants(list(grid_of(state).area_within(occ.cells[c.id], max(rng, 0))), exclude=c.id):
        try:
            gp = hold.plan_grab(state, occ, c, state.creatures[oid], None, filled, charge)
        except RuleError:
            continue
        preview = preview_of(
            f"{c.name}: Grab",
            s.grab_skill,
            c.skill(s.grab_skill),
            ailments.attack_dice_changes(state, c),
            gp.modifiers,
            s.grab_dl,
            s.grab_defense,
        )
        targets.append(_target(oid, preview, gp.path))
    return _option("grab", "Strike", "Grab", NO_DICT, rng, targets=targets)


def space_option(state: GameState, occ: Occupancy, c: Creature, arm: strike.Armament) -> ActionOption | None:
    """A targeted attack on a space with `arm`: every open space in its Reach."""
    grid = grid_of(state)
    filled = state.board.filled()
    rng = strike.arm_reach(state, c, arm)
    area = grid.area_within(occ.cells[c.id], rng)
    spaces = sorted(
        cell for cell in area if cell not in filled and grid.in_bounds(cell, state.board.cols, state.board.rows)
    )
    if not spaces:
        return None
    label = f"Strike a space ({arm.name})"
    return _option(
        "strike_space", "Strike", label, arm_params(arm), rng, spaces=spaces, row=SPACE_ROW, variant=arm_variant(arm)
    )


def charged_more(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """seed-000 Charge with a Grab or a targeted attack on a space (both Strikes)."""
    out: list[ActionOption] = []
    grab = grab_option(state, occ, c, charge=True)
    if grab is not None and grab.targets:
        out.append(charged(grab))
    for arm in arms(state, c):
        option = space_option(state, occ, c, arm)
        if option is not None:
            out.append(charged(option))
    return out
