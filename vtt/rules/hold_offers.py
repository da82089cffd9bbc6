"""The menu's Holds (seed-000): Grapple (plain, with a Called Shot, dealing Distal damage, to swallow) and Break
Hold, each as a Charge too.
"""

from __future__ import annotations

from typing import Any

from vtt.rules import (
    menu_shared,
    overpower,
)
from vtt.rules.events import RuleError
from vtt.rules.model import Creature, GameState
from vtt.rules.offers import (
    ActionOption,
    TargetOption,
    charged,
    make_option,
    make_target,
    plan_preview,
)
from vtt.rules.space import Occupancy


def hold_options(state: GameState, occ: Occupancy, c: Creature, charge: bool) -> list[ActionOption]:
    """Grapple (plain and with a Called Shot) and Break Hold, each when it has a target."""
    filled = state.board.filled()
    out: list[ActionOption] = []
    grapple: list[TargetOption] = []
    called: list[TargetOption] = []
    with_distal: list[TargetOption] = []
    swallowing: list[TargetOption] = []
    seen: set[str] = set()
    for h in state.holds.values():
        for oid in h.members:
            if oid == c.id or oid not in state.creatures or oid in seen:
                continue
            seen.add(oid)
            t = state.creatures[oid]
            try:
                lp = overpower.plan_grapple(state, occ, c, t, None, filled, charge=charge)
            except RuleError:
                pass
            else:
                heads = any(x.holder == c.id and x.held == oid and x.part == overpower.HEAD for x in h.locks)
                grapple.append(
                    make_target(
                        target=oid,
                        preview=plan_preview(lp.plan),
                        path=lp.plan.path,
                        choices={"suffocate": [False, True] if heads else [False]},
                    )
                )
            with_distal += grapple_variant(state, occ, c, t, charge, with_distal=True)
            swallowing += grapple_variant(state, occ, c, t, charge, swallowing=True)
            parts: list[str] = []
            first: overpower.LimbPlan | None = None
            for p in [] if charge else t.parts:
                try:
                    cp = overpower.plan_grapple(state, occ, c, t, None, filled, called_shot=p.id)
                except RuleError:
                    continue
                first = first or cp
                parts.append(p.id)
            if first is not None:
                margins = {pid: part.size_offset for pid in parts if (part := t.part(pid)) is not None}
                called.append(
                    make_target(
                        target=oid,
                        preview=plan_preview(first.plan),
                        path=first.plan.path,
                        choices={"called_shot": parts},
                        margins=margins,
                    )
                )
    breaks: list[TargetOption] = []
    holders = sorted({hid for h in state.holds.values() for hid in h.holders if hid != c.id})
    for hid in holders:
        holder = state.creatures[hid]
        plans: list[overpower.LimbPlan] = []
        for h in state.holds.values():
            for gid in h.held if hid in h.holders else []:
                try:
                    plans.append(overpower.plan_break_hold(state, occ, c, holder, gid, None, filled, charge=charge))
                except RuleError:
                    continue
        if plans:
            # a part to free must be locked on every creature offered as `held`, so any pair of choices is allowed
            locked = [{x.part for x in lp.hold.locks if x.holder == hid and x.held == lp.held} for lp in plans]
            free: list[Any] = [None, *sorted(set.intersection(*locked))]
            choices: dict[str, list[Any]] = {"held": [lp.held for lp in plans], "free_part": free}
            breaks.append(
                make_target(target=hid, preview=plan_preview(plans[0].plan), path=plans[0].plan.path, choices=choices)
            )
    if grapple:
        suffocate = ["suffocate"] if any(len(t.choices["suffocate"]) > 1 for t in grapple) else []
        option = make_option(
            action="grapple",
            group="Overpower",
            label="Grapple",
            cost={"major": 1},
            targets=grapple,
            choose=suffocate,
        )
        out.append(charged(option) if charge else option)
    out += grapple_variant_options(with_distal, swallowing, charge)
    if called and not charge:
        out.append(
            make_option(
                action="called_shot",
                command="grapple",
                group="Tactics",
                label="Called Shot: Grapple",
                cost={"major": 1},
                targets=called,
                choose=["called_shot"],
            )
        )
    if breaks:
        open_choices = [f for f in ("held", "free_part") if any(len(t.choices[f]) > 1 for t in breaks)]
        option = make_option(
            action="break_hold",
            group="Overpower",
            label="Break Hold",
            cost={"major": 1},
            targets=breaks,
            choose=open_choices,
        )
        out.append(charged(option) if charge else option)
    return out


def grapple_variant(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    t: Creature,
    charge: bool,
    with_distal: bool = False,
    swallowing: bool = False,
) -> list[TargetOption]:
    """The target of a Grapple dealing Distal damage, or of a Grapple to swallow, when it can be made."""
    filled = state.board.filled()
    try:
        lp = overpower.plan_grapple(
            state, occ, c, t, None, filled, charge=charge, with_distal=with_distal, swallowing=swallowing
        )
    except RuleError:
        return []
    choices: dict[str, list[Any]] = {}
    if with_distal and lp.limb.distal is not None and len(lp.limb.distal.strike_types) > 1:
        choices["strike_type"] = list(lp.limb.distal.strike_types)
    note = f"with {lp.limb.distal.name}" if with_distal and lp.limb.distal is not None else ""
    return [make_target(target=t.id, preview=plan_preview(lp.plan), path=lp.plan.path, note=note, choices=choices)]


def grapple_variant_options(
    with_distal: list[TargetOption], swallowing: list[TargetOption], charge: bool
) -> list[ActionOption]:
    out: list[ActionOption] = []
    if with_distal:
        option = make_option(
            action="grapple_distal",
            command="grapple",
            group="Overpower",
            label="Grapple, dealing Distal damage",
            cost={"major": 1},
            params={"distal": True},
            targets=with_distal,
            choose=["strike_type"] if all("strike_type" in t.choices for t in with_distal) else [],
        )
        out.append(charged(option) if charge else option)
    if swallowing:
        option = make_option(
            action="swallow",
            command="grapple",
            group="Overpower",
            label="Grapple: swallow",
            cost={"major": 1},
            params={"swallow": True},
            targets=swallowing,
        )
        out.append(charged(option) if charge else option)
    return out


def drop_hold_option(state: GameState, c: Creature, full_resolve: bool) -> list[ActionOption]:
    """Letting go of every creature it holds (no Action), while it is a Holder."""
    if any(c.id in h.holders for h in state.holds.values()) and not full_resolve:
        return [menu_shared.finished(c.id, "drop_hold", "Overpower", "Stop holding")]
    return []
