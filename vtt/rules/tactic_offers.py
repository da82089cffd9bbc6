"""The menu's Tactics (seed-000): declaring a Flurry, Distract, and the Minor Action attacks of a Flurry."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from vtt.rules import (
    ailments,
    hold_offers,
    overpower_offers,
    positions,
    ranged_offers,
    strike,
    strike_offers,
    tactics,
    turns,
)
from vtt.rules.frozen import NO_DICT, FrozenDict, FrozenList
from vtt.rules.model import Cell, Creature, GameState
from vtt.rules.offers import (
    MAJOR,
    MINOR,
    ActionOption,
    arm_params,
    arm_variant,
    arms,
    flurried,
    make_option,
    make_target,
    preview_of,
)
from vtt.rules.space import Occupancy, area_on_map, grid_of


def tactic_options(state: GameState, occ: Occupancy, c: Creature, major_ok: bool, minor_ok: bool) -> list[ActionOption]:
    """Declaring a Flurry, Distract, and the Minor Action Strikes and Overpowers of a Flurry (seed-000)."""
    out: list[ActionOption] = []
    s = state.settings
    out += flurry_declaration(state, c, major_ok, minor_ok)
    full_resolve = turns.resolve_blocks(state, c.id)
    actions = tactics.distract_actions(state, c.id) if not full_resolve else []
    aware = (
        list(positions.kept(occ, ("distract_targets", c.id), lambda: tactics.distract_targets(state, c, occ, actions)))
        if actions
        else []
    )
    if aware:
        preview = preview_of(
            f"{c.name}: {tactics.DISTRACT}",
            s.distract_skill,
            c.skill(s.distract_skill),
            ailments.attack_dice_changes(state, c, physical=False),
            [*tactics.distract_modifiers(actions[0]), *ailments.attack_roll_modifiers(state, c)],
            s.distract_dl,
            s.distract_defense,
        )
        board = state.board
        sounds: list[Cell | None] = [None]
        sounds += area_on_map(grid_of(state), occ.cells[c.id], s.distract_range, board.cols, board.rows)
        choices: dict[str, list[Any]] = {"action": actions, "targets": aware, "expects": aware, "sound_at": sounds}
        out.append(
            make_option(
                action="distract",
                group="Tactics",
                label="Distract",
                targets=[make_target(target=oid, preview=preview, choices=choices) for oid in aware],
                reach=s.distract_range,
                choose=["action", "targets", "expects", "sound_at"],
                pick="none",
                several=["targets", "expects"],
                optional=["action", "expects", "sound_at"],
            )
        )
    if not minor_ok or tactics.flurry_uses(state, c.id) <= 0:
        return out
    filled = state.board.filled()
    grid = grid_of(state)
    for arm in arms(state, c):
        rng = strike.arm_reach(state, c, arm)
        area = grid.area_within(occ.cells[c.id], rng)
        in_reach = occ.occupants(list(area), exclude=c.id)
        targets = strike_offers.strike_targets(state, occ, c, arm, in_reach, filled, minor=True)
        if targets:
            label = f"Strike with {arm.name}" if arm.weapon else "Unarmed Strike"
            option = make_option(
                action="strike",
                group="Strike",
                label=label,
                params=arm_params(arm),
                targets=targets,
                reach=rng,
                row=strike_offers.STRIKE_ROW,
                variant=arm_variant(arm),
            )
            out.append(flurried(option))
        out += [
            flurried(o)
            for o in overpower_offers.weapon_overpower_options(state, occ, c, arm, area, in_reach, False, minor=True)
        ]
    out += [flurried(o) for o in ranged_offers.ranged_options(state, occ, c, minor=True)]
    return out + flurried_more(state, occ, c)


def flurry_declaration(state: GameState, c: Creature, major_ok: bool, minor_ok: bool) -> list[ActionOption]:
    """Declaring a Flurry, offered only while a Minor Action is left to use it with."""
    s = state.settings
    if tactics.flurry_effect(state, c.id) is not None or not minor_ok or (s.flurry_cost == "major" and not major_ok):
        return []
    return [
        make_option(
            action="flurry",
            group="Tactics",
            label="Flurry",
            cost=FLURRY_COST[s.flurry_cost],
            targets=[make_target(target=c.id, choices=flurry_numbers(s.flurry_max))],
            choose=["number"],
        )
    ]


FLURRY_COST: dict[str, FrozenDict] = {"none": NO_DICT, "minor": MINOR, "major": MAJOR}
"""A Flurry's declaration cost by the table's `flurry_cost`: the shared dict of every option with that cost."""


@lru_cache(maxsize=16)
def flurry_numbers(flurry_max: int) -> FrozenDict:
    """The choices of a Flurry's declaration: each number of uses from 1 to `flurry_max`, shared by every menu."""
    return FrozenDict(number=FrozenList(range(1, flurry_max + 1)))


def flurried_more(state: GameState, occ: Occupancy, c: Creature) -> list[ActionOption]:
    """seed-000 Flurry: a Grab or a targeted attack on a space (Strikes), a Grapple or a Break Hold (Overpowers) as
    a Minor Action."""
    out: list[ActionOption] = []
    grab = strike_offers.grab_option(state, occ, c)
    if grab is not None and grab.targets:
        out.append(flurried(grab))
    for arm in arms(state, c):
        option = strike_offers.space_option(state, occ, c, arm)
        if option is not None:
            out.append(flurried(option))
    return out + [flurried(o) for o in hold_offers.hold_options(state, occ, c, False)]
