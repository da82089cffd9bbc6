"""Grab and the Hold (seed-000).

- Grab: "Attack a target who is not Held with a Free Limb to cause you both to be in a Hold, with you being a
  Holder and the target being Held. Have -1 Reach with this attack." It is one of the Strikes in the seed, so
  the Strike size rule (half the difference) applies; the seed names no DL (table setting `grab_dl`).
- While in a Hold: 2 Tiers of Encumbered, less your size advantage (see `conditions`); the Bulk of the other
  members counts as carried.
- Moving a member out: the effect attacks Athletics of each other member with d12 equal to the spaces it
  tries to move; failing against any, the member is not moved; succeeding against all, it leaves the Hold.
- Being a Holder can be Dropped; a creature stops being a Holder when it can no longer touch the other with
  the parts it used (beyond the Reach of the limbs it holds with); with no Holder or no Held left the Hold ends.
- The Hold keeps the Encumbered Tiers each Holder causes each Held (`Hold.caused`: 2 from a Grab, +1 per
  Grapple, lowered by Break Hold) and the parts Grapples keep from use (`Hold.locks`, see `overpower`); a lock ends
  with its Holder's part in the Hold, or when the Held leaves, and takes its Strangled Tiers with it.
- A Hold read from the state is shared with the state the command started from: every change goes to the
  transaction's own copy (`Tx.hold`, `Tx.lock`), which the helpers here take by the Hold's id.
- Grab is a Strike, so it may be declared as a Charge (`charge`: +1 on the roll, see `tactics`) or made as a
  Flurry's Minor Action (`minor`); a limb that attacked in a Flurry cannot Grab for 1 round.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from vtt.rules import ailments, attacks, tactics
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import (
    HOLD_ENCUMBERED,
    holds_of,
)
from vtt.rules.damage import on_sever
from vtt.rules.dice import DiceSource, Modifier, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.menu_terms import melee_modifiers, touch
from vtt.rules.model import Cell, Creature, GameState, Hold, Limb, PartLock
from vtt.rules.reach import reach
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import strike_size_modifier
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.turns import refuse_on_full_resolve, require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count


def is_held(state: GameState, creature_id: str) -> bool:
    return any(creature_id in h.held for h in state.holds.values())


def grab_limbs(c: Creature) -> list[Limb]:
    return [limb for limb in c.limbs if limb.free and limb.can_grip]


def grab_reach(c: Creature, limb: Limb) -> int:
    return reach(c, limb) - 1


class GrabPlan:
    def __init__(self, limb: Limb, rng: int, dist: int, path: list[Cell], mods: list[Modifier], exposed: int):
        self.limb, self.reach, self.distance, self.path, self.modifiers, self.exposed_size = (
            limb,
            rng,
            dist,
            path,
            mods,
            exposed,
        )


def plan_grab(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    limb_id: str | None,
    filled: AbstractSet[Cell],
    charge: bool = False,
) -> GrabPlan:
    if target.id == c.id:
        raise RuleError(f"{c.name} cannot Grab itself")
    if is_held(state, target.id):
        raise RuleError(f"{target.name} is already Held")
    spent = tactics.spent_limbs(state, c.id)
    limbs = [lb for lb in grab_limbs(c) if lb.id not in spent]
    if limb_id is not None:
        limbs = [limb for limb in limbs if limb.id == limb_id]
        if not limbs:
            raise RuleError(f"{c.name}'s {limb_id} is not a Free Limb that can grab")
    if not limbs:
        raise RuleError(f"{c.name} has no Free Limb to Grab with")
    limb = max(limbs, key=lambda lb: grab_reach(c, lb))
    grid = grid_of(state)
    mine, theirs = occ.cells[c.id], occ.cells[target.id]
    rng = grab_reach(c, limb)
    dist = footprint_distance(grid, mine, theirs)
    if dist > rng:
        raise RuleError(
            f"{target.name} is {dist} spaces away, beyond {c.name}'s Grab Reach {rng} (Reach - 1)",
            code="reach.out_of_reach",
        )
    path, exp = touch(state, occ, c, target, filled)
    if path is None or exp is None:
        raise RuleError(f"a wall blocks {c.name}'s Grab", code="reach.wall_blocks")
    if not exp.attackable:
        raise RuleError(f"{target.name} is wholly obstructed from {c.name}")
    mods: list[Modifier] = []
    size_mod = strike_size_modifier(c.size, exp.size)
    if size_mod:
        mods.append(size_mod)
    mods += melee_modifiers(state, occ, c, target)
    mods += ailments.wounded_use_modifiers(state, c, [limb.id])
    mods += tactics.declared_modifiers(state, c, False, charge)
    return GrabPlan(limb, rng, dist, list(path), mods, exp.size)


def grab(
    tx: Tx,
    creature: str,
    target: str,
    limb_id: str | None,
    dice: DiceSource,
    charge: bool = False,
    minor: bool = False,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    t = tx.get(target)
    if charge:
        tactics.require_charge(state, c)
    plan = plan_grab(state, Occupancy(state), c, t, limb_id, state.board.filled(), charge)
    paid = tactics.pay_attack(tx, c.id, minor, [plan.limb.id])
    declared = [*paid, *tactics.declare(tx, c.id, False, charge)]
    s = state.settings
    changes = ailments.attack_dice_changes(state, c)
    label = f"{c.name}: Grab {t.name} with {plan.limb.name}"
    attack = attack_roll(tx, dice, c.id, label, c.skill(s.grab_skill), plan.modifiers, changes)
    spec = attacks.AttackSpec(
        action="grab",
        attacker=c.id,
        target=target,
        dl=s.grab_dl,
        defense_skill=s.grab_defense,
        attack=attack,
        params={"limb": plan.limb.id},
    )
    return declared + attacks.resolve(tx, spec, dice)


@attacks.on_result("grab")
def _grab_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    limb_id = spec.params["limb"]
    holder = tx.creature(spec.attacker)
    limb = tx.limb(holder.id, limb_id)
    hold = Hold(
        id=tx.state.new_id("h"),
        holders={holder.id: [limb_id]},
        held=[spec.target],
        caused={holder.id: {spec.target: HOLD_ENCUMBERED}},
    )
    tx.add_hold(hold)
    if limb is not None:
        limb.hold_id = hold.id
    target = tx.get(spec.target)
    return [
        Event(
            kind="hold",
            text=f"{holder.name} holds {target.name}: both are in a Hold ({holder.name} Holder, {target.name} Held).",
            actor=holder.id,
            target=target.id,
            data={"hold": hold.id},
        )
    ]


def caused_by(hold: Hold, holder: str, held: str) -> int:
    """The Encumbered Tiers `holder` causes `held` (a Holder the Hold keeps no count for causes a Grab's 2)."""
    mine = hold.caused.get(holder, {})
    if held in mine:
        return mine[held]
    return HOLD_ENCUMBERED if holder in hold.holders else 0


def unlock(tx: Tx, hold: Hold, locks: list[PartLock]) -> None:
    """End these part locks: the part may be used again and the Strangled it caused ends."""
    hold = tx.state.holds[hold.id]
    if not any(lock in hold.locks for lock in locks):
        return  # nothing to change: the Hold stays shared
    hold = tx.hold(hold.id)
    for lock in locks:
        if lock not in hold.locks:
            continue
        hold.locks.remove(lock)
        if lock.held not in tx.state.creatures:
            continue
        c = tx.creature(lock.held)
        limb = c.limb(lock.part)
        still = any(x.held == lock.held and x.part == lock.part for x in hold.locks)
        if limb is not None and limb.hold_id == hold.id and not still:
            tx.own(lock.held, limb).hold_id = None
        if lock.strangled:
            left = c.ailments.get("Strangled", 0) - lock.strangled
            if left > 0:
                c.ailments["Strangled"] = left
            else:
                c.ailments.pop("Strangled", None)


def release_limb(tx: Tx, hold: Hold, creature_id: str, limb_id: str) -> None:
    """The Holder's limb leaves the Hold, with the locks it holds; with no limb left it is no longer a Holder."""
    hold = tx.state.holds[hold.id]
    unlock(tx, hold, [x for x in hold.locks if x.holder == creature_id and x.limb == limb_id])
    hold = tx.hold(hold.id)
    limbs = hold.holders.get(creature_id, [])
    if limb_id in limbs:
        limbs.remove(limb_id)
    limb = tx.creature(creature_id).limb(limb_id)
    if limb is not None and limb.hold_id == hold.id:
        tx.own(creature_id, limb).hold_id = None
    if not limbs:
        _release_holder(tx, hold, creature_id)


def _release_holder(tx: Tx, hold: Hold, creature_id: str) -> None:
    hold = tx.state.holds[hold.id]
    unlock(tx, hold, [x for x in hold.locks if x.holder == creature_id])
    hold = tx.hold(hold.id)
    limbs = hold.holders.pop(creature_id, [])
    c = tx.creature(creature_id)
    for limb in c.limbs:
        if limb.id in limbs and limb.hold_id == hold.id:
            tx.own(creature_id, limb).hold_id = None


def remove_held(tx: Tx, hold: Hold, creature_id: str) -> None:
    """The Held creature leaves this Hold, and every lock on its parts ends."""
    hold = tx.state.holds[hold.id]
    unlock(tx, hold, [x for x in hold.locks if x.held == creature_id])
    if creature_id in hold.held:
        tx.hold(hold.id).held.remove(creature_id)


def end_empty_holds(tx: Tx) -> list[Event]:
    """seed-000: if there is no Holder or no Held creature in a Hold, the Hold ends."""
    events: list[Event] = []
    for hid, found in list(tx.state.holds.items()):
        if not found.holders or not found.held:
            hold = tx.hold(hid)
            unlock(tx, hold, list(hold.locks))
            for cid in list(hold.holders):
                _release_holder(tx, hold, cid)
            tx.remove_hold(hid)
            events.append(Event(kind="hold_ended", text="The Hold ends.", data={"hold": hid}))
    return events


def drop_hold(tx: Tx, creature: str) -> list[Event]:
    c = tx.get(creature)
    mine = [h for h in tx.state.holds.values() if creature in h.holders]
    if not mine:
        raise RuleError(f"{c.name} is not a Holder")
    refuse_on_full_resolve(tx.state, creature, "stop holding")
    for hold in mine:
        _release_holder(tx, hold, creature)
    return [
        Event(kind="hold_dropped", text=f"{c.name} stops being a Holder.", actor=creature),
        *end_empty_holds(tx),
    ]


@on_sever
def _let_go_of_severed(tx: Tx, creature_id: str, part_id: str) -> list[Event]:
    """seed-000: "A creature stops being a Holder if they can no longer touch the other creature with parts they used
    for the Hold": a severed part leaves every Hold at once, as a Holder's limb or as a Held creature's locked part."""
    events: list[Event] = []
    name = tx.get(creature_id).name
    for hid in list(tx.state.holds):
        hold = tx.state.holds[hid]
        unlock(tx, hold, [x for x in hold.locks if x.held == creature_id and x.part == part_id])
        if part_id not in hold.holders.get(creature_id, []):
            continue
        release_limb(tx, hold, creature_id, part_id)
        if creature_id not in tx.state.holds[hid].holders:
            events.append(
                Event(
                    kind="hold_dropped",
                    text=f"{name} can no longer touch the Held creature with its severed part: it stops being a "
                    "Holder.",
                    actor=creature_id,
                )
            )
    return events + end_empty_holds(tx)


def check_touch(tx: Tx) -> list[Event]:
    """seed-000: a creature stops being a Holder if it can no longer touch the other creature with the parts
    it used for the Hold."""
    state = tx.state
    if not state.holds:
        return []
    occ = Occupancy(state)
    grid = grid_of(state)
    events: list[Event] = []
    for hold in list(state.holds.values()):
        for hid, limb_ids in list(hold.holders.items()):  # `hold` may be copied as a Holder leaves: held stays
            c = state.creatures[hid]
            limbs = [lb for lb in c.limbs if lb.id in limb_ids]
            rng = max((reach(c, lb) for lb in limbs), default=-1)
            if any(footprint_distance(grid, occ.cells[hid], occ.cells[h]) > rng for h in hold.held):
                _release_holder(tx, hold, hid)
                events.append(
                    Event(
                        kind="hold_dropped",
                        text=f"{c.name} can no longer touch the Held creature and stops being a Holder.",
                        actor=hid,
                    )
                )
    return events + end_empty_holds(tx)


def escape_roll_spec(
    tx: Tx, mover: str, spaces: int, dice: DiceSource, params: dict[str, object]
) -> list[attacks.AttackSpec]:
    """The attack that tries to move a Hold member `spaces` spaces, once against each other member."""
    state = tx.state
    c = tx.get(mover)
    others: list[str] = []
    for hold in holds_of(state, mover):
        others += [m for m in hold.members if m != mover and m not in others]
    skill = state.settings.hold_escape_skill
    attack = roll(dice, f"{c.name}: moving {count(spaces, 'space')} out of the Hold", spaces)
    return [
        attacks.AttackSpec(
            action="hold_move",
            attacker=mover,
            target=o,
            dl=0,
            defense_skill=skill,
            attack=attack,
            params={**params, "remaining": others[i + 1 :]},
        )
        for i, o in enumerate(others[:1])
    ]


def leave_holds(tx: Tx, creature_id: str) -> list[Event]:
    events: list[Event] = []
    for hold in holds_of(tx.state, creature_id):
        if creature_id in hold.holders:
            _release_holder(tx, hold, creature_id)
        remove_held(tx, hold, creature_id)
    name = tx.get(creature_id).name
    events.append(Event(kind="hold_left", text=f"{name} is removed from the Hold.", actor=creature_id))
    return events + end_empty_holds(tx)
