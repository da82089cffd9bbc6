"""The menu of a swallowed creature (seed-000)."""

from __future__ import annotations

from vtt.rules import (
    focus_offers,
    menu_shared,
    stance,
    strike,
    swallow,
    tactic_offers,
    tactics,
    turns,
)
from vtt.rules.model import Creature, Economy, GameState
from vtt.rules.offers import (
    ActionOption,
    arm_params,
    arm_variant,
    arms,
    flurried,
    make_option,
    make_preview,
    make_target,
)
from vtt.rules.space import Occupancy


def swallowed_options(state: GameState, c: Creature, econ: Economy) -> list[ActionOption]:
    """seed-000: a swallowed creature can attack the stomach it is in (as a Major Action, or a Flurry's Minor
    Action), declare a Flurry, drop its Focus, use Recovery or the Zeal roll on a full Resolve Pool, and end its
    turn. (Dismiss stays a command: the menu's Dismiss is built with the board in mind.)"""
    full = turns.resolve_blocks(state, c.id)
    major_ok = econ.major > 0 and (not full or econ.major_unlocked)
    minor_ok = econ.minor > 0 and not full
    end = menu_shared.finished(c.id, "end_turn", "Turn", "End turn")
    sw = state.creatures.get(c.swallowed_by or "")
    if sw is None:
        return [end]
    stomach = swallow.has_stomach(sw)
    out: list[ActionOption] = []
    if full and econ.minor > 0 and not econ.major_unlocked:
        out.append(
            make_option(action="zeal_for_major", group="Turn", label="Zeal roll to act (DL 12)", cost={"minor": 1})
        )
    if full and econ.major > 0:
        out.append(make_option(action="recover", group="Turn", label="Recovery", cost={"major": 1}))
    skill = state.settings.strike_skill
    can_attack = not stance.in_stance(state, c.id)
    for arm in arms(state, c) if can_attack and stomach else []:
        for minor in (False, True):
            if not (minor_ok and tactics.flurry_uses(state, c.id) > 0) if minor else not major_ok:
                continue
            mods, changes = swallow.stomach_plan(state, c, sw, arm, minor)
            preview = make_preview(
                label=f"{c.name}: Strike on {sw.name}'s stomach with {arm.name}",
                skill=skill,
                dice=c.skill(skill),
                dice_changes=changes,
                modifiers=mods,
                dl=strike.STRIKE_DL,
            )
            option = make_option(
                action="strike_stomach",
                group="Strike",
                label=f"Strike {sw.name}'s stomach ({arm.name})",
                pick="none",
                row=f"Strike {sw.name}'s stomach",
                variant=arm_variant(arm),
                cost={"major": 1},
                params=arm_params(arm),
                targets=[make_target(target=sw.id, preview=preview, note="an unattended object, Durability 2")],
            )
            out.append(flurried(option) if minor else option)
    if can_attack:
        out += tactic_offers.flurry_declaration(state, c, major_ok, minor_ok)
    out += [
        o
        for o in focus_offers.focus_options(state, Occupancy(state), c, major_ok, minor_ok)
        if o.action == "drop_focus"
    ]
    return [*out, end]
