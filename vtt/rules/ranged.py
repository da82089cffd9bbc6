"""Ranged Strikes: shooting a launched weapon or throwing a thrown one (reference §2.4, §4.1, §5.3, §6.1, §6.3;
seed-000 Long Shot, Strikes, Called Shot, Flurry).

- Weapon data (`Weapon.ranged`, `Weapon.range`): "thrown" or "launched", and a range in spaces. A weapon without
  a range uses the table settings `thrown_range_default` (3) or `launched_range_default` (10) (reference §6.3
  ASSUMPTION). A thrown weapon may be a melee weapon too (a spear, a dagger); a launched weapon (a bow, a sling)
  is not one, so melee Strikes and Overpowers with it are refused (`strike.armament`).
- The attack is a `strike` command with `ranged` set: a Major Action (or a Flurry's Minor Action) rolling
  `ranged_skill` (Nimble: "ranged weapons are tied to Nimble", §4.1) at DL 3 against the Strike's defense
  (`strike_defense`, the same defense decision as any Strike), dealing the weapon's damage with its Strike types,
  Devastating and Element. Accurate is +1; a usage Tier above the Nimble Tier is a penalty (§6.1). The +1 damage
  for gripping with more limbs than needed is a melee weapon's (§6.1), and Extend is Reach, so neither applies.
- Range: the distance between the footprints must not exceed the range. The target must be exposed (see
  `obstruction`: a line from one of the attacker's spaces to one of the target's that no wall or object, nor with
  `creatures_obstruct` another creature, interrupts); its size for the Strike size modifier is that of its
  unobstructed part, and the 4-sizes-larger attack against Nimble is open, as for a melee Strike (seed-000).
- Long Shot (seed-000): "When making a ranged attack, you can increase your range by the range of your weapon by
  taking -1 on your attack roll for each time you do. You can increase range of a thrown attack up to 5 times and
  launched attack up to 15 times." The command's `long_shot` is the number of increments: range r becomes
  r x (1 + long_shot), and the roll takes -long_shot. `legal_actions` offers each target with the fewest it needs.
- A Prone target gives ranged attackers `prone_ranged_against` (-1, reference §5.3 ASSUMPTION); Encumbered,
  ailments, effects on physical attacks (Called Shot) and Focus count as for melee
  (`conditions.ranged_attack_modifiers`), and so do a Prone attacker's lost d12 and a Flurry's.
- Tactics: a Called Shot ("a physical attack that has a single target") and a Flurry's Minor Action work as for
  a melee Strike, and so does Hinder Attack by a creature with the attacker in its Reach. A Charge is made in
  melee ("Strike or Overpower" after a Dash) and is refused here.
- Throwing: the weapon leaves the hand as it is thrown, hit or miss. The gripping limbs let go and it lies as a
  loose item in the space it was aimed at, the target's exposed space nearest the thrower (table setting
  `thrown_weapon_drops`; off, it stays in hand).
- At a wall (an object) or the ground (`space` and `surface`, seed-000): as a melee Strike on it (see `strike`,
  `objects`): a wall is a size 1 object, an object has its own size, the ground is -1 with defense 0; the space
  must be within range (Long Shot counts) and a line must reach it that no other wall or object interrupts. A
  thrown weapon lands on the ground it hit, or in the space before the wall on that line.
- At a targeted space (`strike_space` with `ranged`, see `targeted`): the Soulweaver's 3d12 per occupant, changed
  only by half the occupant's size (the other changes are for "your melee weapon" and an Unarmed Strike); Long
  Shot and the ranged weapon's modifiers go on the roll; a thrown weapon lands in the space.
- Ammunition (`Weapon.ammo`, see `gear`): a launched weapon that counts it spends 1 per attack and cannot be shot
  at 0. A thrown weapon is picked up again from where it lies (`pick_up`, see `gear`).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any, Literal

from pydantic import BaseModel

from vtt.rules import ailments, attacks, gear, objects, tactics
from vtt.rules.commands import Strike
from vtt.rules.conditions import attack_modifiers, limb_action_modifiers, ranged_attack_modifiers
from vtt.rules.damage import StrikeType
from vtt.rules.dice import DiceChange, DiceSource, Modifier, Roll
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import Grid, footprint_distance
from vtt.rules.model import Cell, Creature, GameState, Weapon
from vtt.rules.obstruction import exposure
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import GROUND_PENALTY, WALL_SIZE, physical_damage_size_change, strike_size_modifier
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.strike import (
    STRIKE_DL,
    Armament,
    AttackPlan,
    armament,
    attack_limbs,
    choose_strike_type,
    strike_size_terms,
    surface_outcome,
)
from vtt.rules.turns import end_turn_after_charge, require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count

LONG_SHOT_MAX: dict[str, int] = {"thrown": 5, "launched": 15}
"""seed-000 Long Shot: "up to 5 times" for a thrown attack, "up to 15 times" for a launched one."""
VERBS: dict[str, str] = {"thrown": "Throw", "launched": "Shoot"}


class RangedPlan(AttackPlan):
    """A ranged Strike before the dice: `reach` is the range with Long Shot, `range` the weapon's own."""

    range: int
    long_shot: int
    aimed: Cell


def weapon_range(state: GameState, weapon: Weapon) -> int:
    """The weapon's range in spaces, or the table's default for its kind."""
    if weapon.range is not None:
        return weapon.range
    s = state.settings
    return s.thrown_range_default if weapon.ranged == "thrown" else s.launched_range_default


def long_shot_needed(distance: int, rng: int) -> int:
    """The fewest Long Shot increments that bring a target `distance` spaces away within `rng` x (1 + n)."""
    return max(0, -(-distance // rng) - 1)


def verb(weapon: Weapon) -> str:
    return VERBS[weapon.ranged or "launched"]


def ranged_armament(state: GameState, c: Creature, weapon_id: str | None) -> Armament:
    """The gripped ranged weapon a ranged Strike uses; RuleError when there is none."""
    if weapon_id is None:
        raise RuleError(f"{c.name} needs a ranged weapon to shoot or throw: name it (`weapon`)")
    arm = armament(state, c, weapon_id, None, melee=False)
    if arm.weapon is None or arm.weapon.ranged is None:
        raise RuleError(f"{arm.name} is not a ranged weapon: it cannot be shot or thrown")
    why = gear.ammo_error(arm.weapon)
    if why is not None:
        raise RuleError(why, code="weapon.no_ammo")
    return arm


def ranged_weapon_modifiers(state: GameState, c: Creature, weapon: Weapon) -> list[Modifier]:
    """The gripping limbs' Wounded, Accurate, and a usage Tier above the ranged skill's Tier (§6.1)."""
    mods = ailments.wounded_use_modifiers(state, c, [lb.id for lb in c.gripping_limbs(weapon.id)])
    skill = state.settings.ranged_skill
    if weapon.accurate:
        mods.append(Modifier(value=1, reason=f"{weapon.name} is Accurate", key="accurate", source=c.id))
    over = weapon.tier - c.skill(skill)
    if over > 0:
        mods.append(
            Modifier(
                value=-over,
                reason=f"{weapon.name}'s usage Tier {weapon.tier} is above {skill} {c.skill(skill)}",
                key="weapon_tier",
                source=c.id,
            )
        )
    return mods


def long_shot_modifier(increments: int, rng: int) -> Modifier:
    return Modifier(
        value=-increments,
        reason=f"Long Shot: range {rng} increased {count(increments, 'time')} to {rng * (1 + increments)}, -1 each",
        key="long_shot",
    )


def line_to(grid: Grid, mine: tuple[Cell, ...], aimed: Cell, filled: AbstractSet[Cell]) -> list[Cell] | None:
    """A line from the attacker to the space aimed at with no wall or object between them, or None."""
    for a in sorted(mine, key=lambda cell: grid.distance(cell, aimed)):
        for line in grid.lines(a, aimed):
            if not any(cell in filled for cell in line[1:-1]):
                return line
    return None


def _sight_line(grid: Grid, mine: tuple[Cell, ...], aimed: Cell, filled: AbstractSet[Cell]) -> list[Cell]:
    """A line from the attacker to the space aimed at with no wall or object between them."""
    line = line_to(grid, mine, aimed, filled)
    if line is None:
        raise RuleError("no line of sight")  # exposure found one, so this is never reached
    return line


class SpaceShot(BaseModel):
    """How a ranged attack reaches a space: the distance, the weapon's range, the range with Long Shot, the line."""

    distance: int
    range: int
    extended: int
    long_shot: int
    path: list[Cell]


def reach_space(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    weapon: Weapon,
    space: Cell,
    long_shot: int,
    filled: AbstractSet[Cell],
) -> SpaceShot:
    """A ranged attack of `c` with `weapon` at `space` (a wall's or the ground's, or a targeted space): within
    range with `long_shot` increments (seed-000 Long Shot), with a line to it that no other wall or object
    interrupts; RuleError otherwise."""
    assert weapon.ranged is not None
    grid = grid_of(state)
    if not grid.in_bounds(space, state.board.cols, state.board.rows):
        raise RuleError(f"{space} is off the map")
    most = LONG_SHOT_MAX[weapon.ranged]
    if long_shot > most:
        raise RuleError(
            f"Long Shot increases the range of a {weapon.ranged} attack up to {most} times, not {long_shot}"
        )
    mine = occ.cells[c.id]
    rng = weapon_range(state, weapon)
    extended = rng * (1 + long_shot)
    dist = footprint_distance(grid, mine, (space,))
    if dist > extended:
        needed = long_shot_needed(dist, rng)
        hint = f"Long Shot {needed} would reach it" if needed <= most else f"beyond even Long Shot {most}"
        raise RuleError(
            f"{space} is {dist} spaces away, beyond the range {extended} of {weapon.name} (Long Shot {long_shot}): "
            f"{hint}",
            code="range.out_of_range",
        )
    path = line_to(grid, mine, space, filled)  # only the spaces between count: the wall aimed at does not block
    if path is None:
        raise RuleError(f"a wall blocks {c.name}'s line to {space}", code="reach.wall_blocks")
    return SpaceShot(distance=dist, range=rng, extended=extended, long_shot=long_shot, path=path)


def plan_ranged_surface(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    arm: Armament,
    space: Cell,
    surface: Literal["wall", "ground"],
    long_shot: int,
    filled: AbstractSet[Cell],
    minor: bool = False,
) -> RangedPlan:
    """A shot or throw at the wall or the ground at `space` (seed-000: a wall "a size 1 object", an object at its
    own size, see `objects`; the ground "-1 on your attack roll and treat its defense as 0")."""
    weapon = arm.weapon
    if weapon is None or weapon.ranged is None:
        raise RuleError(f"{arm.name} is not a ranged weapon")
    is_wall = space in filled
    if surface == "wall" and not is_wall:
        raise RuleError(f"there is no wall filling {space}")
    if surface == "ground" and is_wall:
        raise RuleError(f"a wall fills {space}: there is no ground to strike")
    shot = reach_space(state, occ, c, weapon, space, long_shot, filled)
    mods: list[Modifier] = []
    changes: list[DiceChange] = tactics.flurry_damage_changes(state, c)
    target_size: int | None = None
    what = "ground"
    if surface == "wall":
        obj = objects.object_at(state.board, space)
        target_size = WALL_SIZE if obj is None else obj.size
        subject = "a wall filling a space" if obj is None else f"the {obj.name}, size {obj.size}"
        what = "wall" if obj is None else obj.name
        size_mod = strike_size_modifier(c.size, target_size, f" ({subject})")
        if size_mod:
            mods.append(size_mod)
        size_change = physical_damage_size_change(c.size, target_size)
        if size_change:
            rel = "smaller" if size_change > 0 else "larger"
            changes.append(DiceChange(dice=size_change, reason=f"physical damage against a {rel} subject ({subject})"))
    else:
        mods.append(Modifier(value=GROUND_PENALTY, reason="attacking the ground", key="ground"))
    mods += ranged_weapon_modifiers(state, c, weapon)
    if long_shot:
        mods.append(long_shot_modifier(long_shot, shot.range))
    mods += limb_action_modifiers(state, c)
    mods += attack_modifiers(state, c)
    mods += ailments.attack_against_modifiers(state, c, None)
    s = state.settings
    aimed = space if surface == "ground" else shot.path[-2] if len(shot.path) > 1 else shot.path[0]
    return RangedPlan(
        label=f"{c.name}: {verb(weapon)} {weapon.name} at the {what} at {space}",
        skill=s.ranged_skill,
        dice=c.skill(s.ranged_skill),
        dice_changes=[*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(weapon, minor)],
        modifiers=mods,
        dl=STRIKE_DL,
        defense_skill=None,
        reach=shot.extended,
        distance=shot.distance,
        path=shot.path,
        target_size=target_size,
        exposed_size=target_size,
        damage=weapon.damage,
        damage_changes=changes,
        surface=surface,
        range=shot.range,
        long_shot=long_shot,
        aimed=aimed,
    )


def ranged_surface(tx: Tx, cmd: Strike, c: Creature, arm: Armament, dice: DiceSource) -> list[Event]:
    """A shot or throw at a wall (an object) or the ground: defense 0, damage as a melee Strike's on it."""
    state = tx.state
    weapon = arm.weapon
    assert weapon is not None and cmd.space is not None and cmd.surface is not None
    if cmd.called_shot is not None:
        raise RuleError("a Called Shot aims at a part of a single creature")
    chosen_type = choose_strike_type(weapon, cmd.strike_type)
    space: Cell = (cmd.space[0], cmd.space[1])
    plan = plan_ranged_surface(
        state, Occupancy(state), c, arm, space, cmd.surface, cmd.long_shot, state.board.filled(), cmd.minor
    )
    events, attack, params = _loose(tx, cmd, c, arm, plan, chosen_type, f"the {cmd.surface} at {space}", None, dice)
    events += surface_outcome(tx, c, plan, space, attack, params, dice)
    return events + end_turn_after_charge(tx, c.id, dice)


def _range_event(c: Creature, what: str, target: str | None, plan: RangedPlan) -> Event:
    long_shot = f", Long Shot {plan.long_shot}" if plan.long_shot else ""
    return Event(
        kind="range",
        text=f"{c.name} aims at {what} {count(plan.distance, 'space')} away "
        f"(range {plan.range}{long_shot}: {plan.reach}).",
        actor=c.id,
        target=target,
        data={
            "path": plan.path,
            "range": plan.range,
            "long_shot": plan.long_shot,
            "reach": plan.reach,
            "exposed_size": plan.exposed_size,
        },
    )


def _loose(
    tx: Tx,
    cmd: Strike,
    c: Creature,
    arm: Armament,
    plan: RangedPlan,
    strike_type: StrikeType | None,
    what: str,
    target: str | None,
    dice: DiceSource,
) -> tuple[list[Event], Roll, dict[str, Any]]:
    """What every shot or throw does before it hits or misses: pay for it, spend the ammunition, declare it, roll
    it, say how far it flies, let a thrown weapon go; and the damage its hit would roll."""
    state = tx.state
    weapon = arm.weapon
    assert weapon is not None
    paid = tactics.pay_attack(tx, c.id, cmd.minor, attack_limbs(state, c, arm))
    events = [*paid, *gear.spend_ammo(tx, c.id, weapon), *tactics.declare(tx, c.id, cmd.called_shot is not None, False)]
    attack = attack_roll(tx, dice, c.id, plan.label, plan.dice, plan.modifiers, plan.dice_changes)
    events.append(_range_event(c, what, target, plan))
    if weapon.ranged == "thrown" and state.settings.thrown_weapon_drops:
        events.append(let_go(tx, c.id, weapon, plan.aimed))
    params: dict[str, Any] = {
        "damage": plan.damage,
        "changes": [ch.model_dump() for ch in plan.damage_changes],
        "weapon": weapon.model_dump(),
        "strike_type": strike_type,
        "max_dice": cmd.max_dice,
        "ranged": True,
    }
    return events, attack, params


def plan_ranged_strike(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    arm: Armament,
    long_shot: int,
    filled: AbstractSet[Cell],
    nimble: bool = False,
    called_shot: bool = False,
    minor: bool = False,
) -> RangedPlan:
    """The ranged Strike of `c` on `target` with the ranged weapon of `arm` and `long_shot` increments (with a
    Called Shot declared, or as a Flurry's Minor Action); RuleError when it cannot be made."""
    weapon = arm.weapon
    if weapon is None or weapon.ranged is None:
        raise RuleError(f"{arm.name} is not a ranged weapon")
    if target.id == c.id:
        raise RuleError(f"{c.name} cannot shoot or throw at itself")
    most = LONG_SHOT_MAX[weapon.ranged]
    if long_shot > most:
        raise RuleError(
            f"Long Shot increases the range of a {weapon.ranged} attack up to {most} times, not {long_shot}"
        )
    grid = grid_of(state)
    mine, theirs = occ.cells[c.id], occ.cells[target.id]
    rng = weapon_range(state, weapon)
    extended = rng * (1 + long_shot)
    dist = footprint_distance(grid, mine, theirs)
    if dist > extended:
        needed = long_shot_needed(dist, rng)
        hint = f"Long Shot {needed} would reach it" if needed <= most else f"beyond even Long Shot {most}"
        raise RuleError(
            f"{target.name} is {dist} spaces away, beyond the range {extended} of {weapon.name} "
            f"(Long Shot {long_shot}): {hint}",
            code="range.out_of_range",
        )
    others: set[Cell] | None = None
    if state.settings.creatures_obstruct:
        others = {cell for cid, cells in occ.everyone().items() if cid not in (c.id, target.id) for cell in cells}
    exp = exposure(grid, mine, theirs, target.size, filled, others)
    if not exp.attackable:
        raise RuleError(f"{target.name} is wholly obstructed from {c.name}: no line of sight")
    aimed = min(exp.exposed, key=lambda t: (min(grid.distance(a, t) for a in mine), t))
    s = state.settings
    changes: list[DiceChange] = tactics.flurry_damage_changes(state, c)
    defense, mods, moved = strike_size_terms(state, c, target, exp, nimble)
    changes += moved
    mods += ranged_weapon_modifiers(state, c, weapon)
    if long_shot:
        mods.append(long_shot_modifier(long_shot, rng))
    mods += ranged_attack_modifiers(state, c, target)
    mods += tactics.declared_modifiers(state, c, called_shot, False)
    return RangedPlan(
        label=f"{c.name}: {verb(weapon)} {weapon.name} at {target.name}",
        skill=s.ranged_skill,
        dice=c.skill(s.ranged_skill),
        dice_changes=[*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(weapon, minor)],
        modifiers=mods,
        dl=STRIKE_DL,
        defense_skill=defense,
        reach=extended,
        distance=dist,
        path=_sight_line(grid, mine, aimed, filled),
        target_size=target.size,
        exposed_size=exp.size,
        damage=weapon.damage,
        damage_changes=changes,
        range=rng,
        long_shot=long_shot,
        aimed=aimed,
    )


def let_go(tx: Tx, creature_id: str, weapon: Weapon, cell: Cell) -> Event:
    c = tx.creature(creature_id)
    for limb in c.limbs:
        if limb.holding == weapon.id:
            tx.own(creature_id, limb).holding = None
    tx.drop(c.id, weapon, cell)
    return Event(
        kind="thrown",
        text=f"{c.name}'s {weapon.name} leaves the hand and lands in {cell}.",
        actor=c.id,
        data={"item": weapon.id, "to": cell},
    )


def ranged_strike(tx: Tx, cmd: Strike, dice: DiceSource) -> list[Event]:
    """A `strike` command with `ranged` set: shoot or throw `cmd.weapon` at `cmd.target`."""
    state = tx.state
    c = require_active(state, cmd.creature)
    if not cmd.ranged:
        raise RuleError("Long Shot extends a ranged attack: shoot or throw (`ranged`) to use it")
    if cmd.charge:
        raise RuleError("a Charge is made with a melee Strike or Overpower, not with a ranged attack")
    if cmd.limb is not None:
        raise RuleError("a ranged Strike is made with a gripped ranged weapon, not with a limb")
    arm = ranged_armament(state, c, cmd.weapon)
    weapon = arm.weapon
    assert weapon is not None
    if cmd.target is None:
        if cmd.space is None or cmd.surface is None:
            raise RuleError("a ranged Strike needs a target creature, or a space and a surface (wall or ground)")
        return ranged_surface(tx, cmd, c, arm, dice)
    chosen_type = choose_strike_type(weapon, cmd.strike_type)
    target = tx.get(cmd.target)
    offset = tactics.called_part(target, cmd.called_shot).size_offset if cmd.called_shot is not None else 0
    plan = plan_ranged_strike(
        state,
        Occupancy(state),
        c,
        target,
        arm,
        cmd.long_shot,
        state.board.filled(),
        cmd.nimble,
        cmd.called_shot is not None,
        cmd.minor,
    )
    events, attack, params = _loose(tx, cmd, c, arm, plan, chosen_type, target.name, target.id, dice)
    if cmd.called_shot is not None:
        params.update({"called_part": cmd.called_shot, "part_offset": offset})
    spec = attacks.AttackSpec(
        action="strike",
        attacker=c.id,
        target=target.id,
        dl=plan.dl,
        defense_skill=plan.defense_skill or state.settings.strike_defense,
        attack=attack,
        params=params,
    )
    return events + attacks.resolve(tx, spec, dice)
