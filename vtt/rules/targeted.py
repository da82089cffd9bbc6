"""Targeted attacks on a space (seed-000).

"Targeted attacks can target a space instead of a creature or object. For each occupant in the space, the
Soulweaver rolls 3d12. On doubles, this roll becomes the attack roll and is not modified by Concealment or
size. On doubles against multiple targets, attack them each in order of the highest face value of doubles or
until an attack succeeds. On a tie, the Soulweaver determines the order of the attacks."

The number of d12 changes (each change is kept with its reason):
- a melee weapon made for a creature above size 0: +1d12 per 2 sizes over; below size 0: -1d12 per 2 sizes
  under; Two-handed counts as 1 size larger, Lightweight as 1 size smaller;
- an Unarmed Strike: half your size;
- half the target's size.
Halves round toward zero. The attack is a Strike (DL 3, a Major Action) with its weapon's other modifiers.

As the roll becomes the attack roll, the attacker's d12 on attack rolls change it too (Prone: -1d12; a Flurry),
and so do the modifiers that are neither Concealment nor size, per occupant: +1 against a Prone one, the
attacker's Frightened of one. Blinded's Concealment is not applied (see `senses`).

Being a Strike, it may be a Charge (`charge`: +1 on the roll, -1 on physical defenses for 1 round, the turn ends
after the attack -- or after the rolls, when no occupant rolled doubles) or a Flurry's Minor Action (`minor`). The
Soulweaver's 3d12 "becomes the attack roll", so a Flurry's lost d12 (and, as a Minor Action with a weapon that is
not Lightweight, 1d12 more) are lost from it; a Flurry's lost damage dice come off the damage.

A ranged weapon may be shot or thrown at a space (`ranged`): the space is within its range (with `long_shot`
increments, -1 each) on a line no wall interrupts (see `ranged.reach_space`); the weapon's size changes no dice
(they are for "your melee weapon"), only half the occupant's size does; a Prone occupant gives the ranged penalty;
no Charge; a thrown weapon lands in the space.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from vtt.rules import ailments, attacks, gear, tactics
from vtt.rules import ranged as ranged_mod
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import attack_modifiers, limb_action_modifiers
from vtt.rules.damage import deal
from vtt.rules.dice import DiceChange, DiceSource, Roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import SOULWEAVER, Cell, Creature, Decision, GameState, Weapon
from vtt.rules.reach import attack_path
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import half
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.strike import (
    STRIKE_DL,
    Armament,
    arm_reach,
    armament,
    attack_limbs,
    base_damage,
    choose_strike_type,
    strike_hit,
    weapon_modifiers,
)
from vtt.rules.turns import end_turn_after_charge, require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count

SPACE_DICE = 3


def weapon_size_dice(weapon: Weapon) -> DiceChange | None:
    size = weapon.made_for_size + (1 if weapon.two_handed else 0) - (1 if weapon.lightweight else 0)
    n = half(size)
    if n == 0:
        return None
    parts = [f"made for size {weapon.made_for_size}"]
    if weapon.two_handed:
        parts.append("Two-handed counts 1 larger")
    if weapon.lightweight:
        parts.append("Lightweight counts 1 smaller")
    return DiceChange(dice=n, reason=f"{weapon.name} {', '.join(parts)}: {'+' if n > 0 else ''}{n}d12")


def space_dice_changes(attacker: Creature, arm: Armament, target: Creature, ranged: bool = False) -> list[DiceChange]:
    """The d12 changes of the Soulweaver's roll for `target`; a shot or throw is made with no melee weapon and no
    Unarmed Strike, so only the target's size counts."""
    changes: list[DiceChange] = []
    if not ranged and arm.weapon is not None:
        w = weapon_size_dice(arm.weapon)
        if w:
            changes.append(w)
    elif not ranged and half(attacker.size):
        changes.append(DiceChange(dice=half(attacker.size), reason=f"Unarmed Strike: half your size {attacker.size}"))
    if half(target.size):
        changes.append(DiceChange(dice=half(target.size), reason=f"half the target's size {target.size}"))
    return changes


def flurry_dice(state: GameState, c: Creature, arm: Armament, minor: bool) -> list[DiceChange]:
    """The attacker's d12 changes on attack rolls (Prone, a Flurry's lost d12), and a Flurry's Minor Action with a
    weapon that is not Lightweight: 1d12 more (seed-000 Flurry)."""
    return [*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(arm.weapon, minor)]


def plan_space(
    state: GameState, occ: Occupancy, c: Creature, space: Cell, arm: Armament, filled: AbstractSet[Cell]
) -> tuple[int, list[Cell], list[str]]:
    grid = grid_of(state)
    if not grid.in_bounds(space, state.board.cols, state.board.rows):
        raise RuleError(f"{space} is off the map")
    if space in filled:
        raise RuleError(f"a wall fills {space}: strike the wall instead")
    rng = arm_reach(state, c, arm)
    dist = footprint_distance(grid, occ.cells[c.id], (space,))
    if dist > rng:
        raise RuleError(f"{space} is {dist} spaces away, beyond {c.name}'s Reach {rng}", code="reach.out_of_reach")
    path = attack_path(grid, occ.cells[c.id], (space,), filled)
    if path is None:
        raise RuleError(f"a wall blocks {c.name}'s attack on {space}", code="reach.wall_blocks")
    return dist, path, [o for o in occ.at(space) if o != c.id]


def strike_space(
    tx: Tx,
    creature: str,
    space: Cell,
    weapon: str | None,
    limb: str | None,
    dice: DiceSource,
    strike_type: str | None = None,
    charge: bool = False,
    minor: bool = False,
    ranged: bool = False,
    long_shot: int = 0,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    occ = Occupancy(state)
    filled = state.board.filled()
    if ranged:
        if charge:
            raise RuleError("a Charge is made with a melee Strike or Overpower, not with a ranged attack")
        if limb is not None:
            raise RuleError("a ranged Strike is made with a gripped ranged weapon, not with a limb")
        arm = ranged_mod.ranged_armament(state, c, weapon)
        assert arm.weapon is not None
        if space in filled:
            raise RuleError(f"a wall fills {space}: shoot the wall instead")
        shot = ranged_mod.reach_space(state, occ, c, arm.weapon, space, long_shot, filled)
        path, occupants = shot.path, [o for o in occ.at(space) if o != c.id]
        own_mods = ranged_mod.ranged_weapon_modifiers(state, c, arm.weapon)
        if long_shot:
            own_mods.append(ranged_mod.long_shot_modifier(long_shot, shot.range))
    else:
        if long_shot:
            raise RuleError("Long Shot extends a ranged attack: shoot or throw (`ranged`) to use it")
        arm = armament(state, c, weapon, limb)
        if charge:
            tactics.require_charge(state, c)
        dist, path, occupants = plan_space(state, occ, c, space, arm, filled)
        own_mods = weapon_modifiers(state, c, arm, dist)
    declared_mods = tactics.declared_modifiers(state, c, False, charge)
    flurry = flurry_dice(state, c, arm, minor)
    paid = tactics.pay_attack(tx, c.id, minor, attack_limbs(state, c, arm))
    how = (
        f"{ranged_mod.verb(arm.weapon)}s {arm.name} at the space {space}"
        if ranged and arm.weapon
        else f"attacks the space {space} with {arm.name}"
    )
    events = [
        *paid,
        *(gear.spend_ammo(tx, c.id, arm.weapon) if ranged and arm.weapon is not None else []),
        *tactics.declare(tx, c.id, False, charge),
        Event(
            kind="reach",
            text=f"{c.name} {how}: {count(len(occupants), 'occupant')}.",
            actor=c.id,
            data={"path": path, "space": space},
        ),
    ]
    if ranged and arm.weapon is not None and arm.weapon.ranged == "thrown" and state.settings.thrown_weapon_drops:
        events.append(ranged_mod.let_go(tx, c.id, arm.weapon, space))
    mods = [
        *own_mods,
        *limb_action_modifiers(state, c),
        *attack_modifiers(state, c),
        *declared_mods,
    ]
    hits: list[tuple[str, Roll]] = []
    for oid in occupants:
        t = tx.get(oid)
        r = attack_roll(
            tx,
            dice,
            c.id,
            f"Soulweaver's roll for {t.name} in the space",
            SPACE_DICE,
            [
                *mods,
                *ailments.against_target_modifiers(state, t, melee=not ranged),
                *ailments.frightened_modifiers(state, c, t),
            ],
            [*space_dice_changes(c, arm, t, ranged), *flurry],
        )
        doubled = r.highest_double
        events.append(
            Event(
                kind="space_roll",
                text=f"For {t.name}: "
                + (f"doubles of {doubled}: this roll is the attack." if doubled else "no doubles: not attacked."),
                actor=c.id,
                target=oid,
                rolls=[r],
                data={"doubles": doubled},
            )
        )
        if doubled is not None:
            hits.append((oid, r))
    if not hits:
        events.append(Event(kind="space_miss", text=f"No occupant of {space} is attacked.", actor=c.id))
        return events + end_turn_after_charge(tx, c.id, dice)
    hits.sort(key=lambda h: -(h[1].highest_double or 0))
    damage, changes = base_damage(state, c, arm)
    base = {
        "damage": damage,
        "weapon": arm.weapon.model_dump() if arm.weapon else None,
        "base_changes": [ch.model_dump() for ch in changes],
        "space": space,
        "strike_type": choose_strike_type(arm.weapon, strike_type),
        "ranged": ranged,
    }
    queue = [{"target": oid, "roll": r.model_dump(mode="json")} for oid, r in hits]
    faces = [r.highest_double for _, r in hits]
    if len(set(faces)) < len(faces):
        groups: dict[int, list[str]] = {}
        for oid, r in hits:
            groups.setdefault(r.highest_double or 0, []).append(oid)
        decision = Decision(
            id=state.new_id("d"),
            kind="order",
            to=SOULWEAVER,
            creature=None,
            prompt="Doubles tie: choose the order of the attacks among "
            + "; ".join(", ".join(tx.get(o).name for o in g) for g in groups.values() if len(g) > 1),
            options=[oid for oid, _ in hits],
            payload={
                "attacker": c.id,
                "queue": queue,
                "params": base,
                "groups": [g for _, g in sorted(groups.items(), reverse=True)],
            },
        )
        tx.pending().append(decision)
        return [
            *events,
            Event(
                kind="decision",
                text="Waiting for the Soulweaver to order the tied attacks.",
                data={"decision": decision.id, "to": SOULWEAVER},
            ),
        ]
    return events + _next_attack(tx, c.id, queue, base, dice)


def choose_order(tx: Tx, decision: Decision, order: list[str], dice: DiceSource) -> list[Event]:
    groups: list[list[str]] = decision.payload["groups"]
    if sorted(order) != sorted(o for g in groups for o in g):
        raise RuleError("the order must name every attacked occupant exactly once")
    pos = {oid: i for i, oid in enumerate(order)}
    flat = [oid for g in groups for oid in sorted(g, key=lambda o: pos[o])]
    if flat != order:
        raise RuleError("only occupants whose doubles tie can be reordered")
    tx.state.pending = [d for d in tx.state.pending if d.id != decision.id]
    by_id = {item["target"]: item for item in decision.payload["queue"]}
    queue = [by_id[o] for o in order]
    return [
        Event(
            kind="order",
            text="The Soulweaver orders the attacks: " + ", ".join(tx.get(o).name for o in order) + ".",
        ),
        *_next_attack(tx, decision.payload["attacker"], queue, decision.payload["params"], dice),
    ]


def _next_attack(
    tx: Tx, attacker: str, queue: list[dict[str, Any]], base: dict[str, Any], dice: DiceSource
) -> list[Event]:
    item, rest = queue[0], queue[1:]
    target = tx.get(item["target"])
    r = Roll.model_validate(item["roll"])
    spec = attacks.AttackSpec(
        action="strike_space",
        attacker=attacker,
        target=target.id,
        dl=STRIKE_DL,
        defense_skill=tx.state.settings.strike_defense,
        attack=r,
        params={**base, "queue": rest},
    )
    return attacks.resolve(tx, spec, dice)


@attacks.on_result("strike_space")
def _space_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if result.success:
        params = {**spec.params, "changes": spec.params["base_changes"]}
        hit = strike_hit(spec.attacker, spec.target, params, spec.attack, f"{tx.get(spec.attacker).name}'s Strike")
        return deal(tx, hit, dice)
    rest = spec.params.get("queue", [])
    if rest:
        base = {k: v for k, v in spec.params.items() if k != "queue"}
        return _next_attack(tx, spec.attacker, rest, base, dice)
    return [Event(kind="space_miss", text="Every attack on the space failed.", actor=spec.attacker)]
