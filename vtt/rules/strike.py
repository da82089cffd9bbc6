"""Strikes (seed-000): with a melee weapon or unarmed, on a creature, a wall or the ground.

- "Attack a target with a melee weapon to cause damage and effects of the weapon, DL 3."
- Size: -half the difference against smaller targets, +half against larger ones, using the size of the
  target's unobstructed part (see `obstruction`). 4 or more sizes larger, you may attack Nimble instead and
  the penalty applies to damage.
- Weapon data: Accurate +1; Devastating +1 damage per 12 rolled; a usage Tier above your skill is a penalty;
  Extend adds Reach and -2 against targets closer than the area it adds (within the unextended Reach);
  Two-handed needs two gripping limbs; gripping with more limbs than needed is +1 physical damage.
- Unarmed: a free limb is a Tier 1 weapon (a penalty above your skill) dealing the table's unarmed damage.
- A wall filling a space is a size 1 object; the ground is -1 on the attack with defense 0.
- Damage: d12 equal to the weapon's damage, changed by the size difference (physical damage, seed-004);
  Injury is the count of faces of 3 or more.
- Tactics (see `tactics`): a Called Shot at a part of the target creature, a Charge.
- A limb kept from use by a Grapple's Called Shot (its `hold_id` set while it is Held) does not grip for a Strike.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vtt.rules import ailments, attacks, objects, plan_kept, positions, tactics
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import attack_modifiers, limb_action_modifiers
from vtt.rules.damage import DAMAGE_FACE, Hit, StrikeType, deal
from vtt.rules.dice import DiceChange, DiceSource, Modifier, Roll, roll
from vtt.rules.events import Event, RuleError, event, new_event
from vtt.rules.fastmodel import construct, shallow_copy
from vtt.rules.grid import Grid, footprint_distance
from vtt.rules.kept_texts import Texts
from vtt.rules.menu_terms import melee_modifiers
from vtt.rules.model import Cell, Creature, Economy, GameState, Limb, Weapon
from vtt.rules.obstruction import Exposure, exposure
from vtt.rules.reach import EXTEND_CLOSE_PENALTY, attack_path, best_limb, effective_extend, reach
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import (
    GROUND_DEFENSE,
    GROUND_PENALTY,
    WALL_SIZE,
    may_attack_nimble,
    physical_damage_size_change,
    strike_size_bonus,
    strike_size_modifier,
)
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.turns import end_turn_after_charge, require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count

STRIKE_DL = 3
UNARMED_TIER = 1
"""reference §4.5: every limb and distal counts as a Tier 1 melee weapon for Unarmed Strikes."""


class Armament(BaseModel):
    """What an attack is made with: a gripped weapon, or a free limb unarmed."""

    model_config = ConfigDict(frozen=True)
    weapon: Weapon | None
    limb: Limb | None
    grips: int = 0

    @property
    def name(self) -> str:
        if self.weapon is not None:
            return self.weapon.name
        return f"unarmed ({self.limb.name})" if self.limb else "unarmed"


class AttackPlan(BaseModel):
    """Everything about an attack that is known before the dice: the preview is exactly the resolution's."""

    label: str
    skill: str
    dice: int
    dice_changes: list[DiceChange] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    dl: int
    defense_skill: str | None
    reach: int
    distance: int
    path: list[Cell]
    target_size: int | None = None
    exposed_size: int | None = None
    damage: int = 0
    damage_changes: list[DiceChange] = Field(default_factory=list)
    surface: Literal["wall", "ground"] | None = None


def armament(state: GameState, c: Creature, weapon_id: str | None, limb_id: str | None, melee: bool = True) -> Armament:
    """The weapon or limb an attack uses (`melee`: a melee attack); RuleError when it cannot be used."""
    if weapon_id is not None:
        weapon = c.weapon(weapon_id)
        if weapon is None:
            raise RuleError(f"{c.name} has no weapon {weapon_id!r}", code="weapon.not_carried")
        if melee and weapon.ranged == "launched":
            raise RuleError(f"{weapon.name} is a launched weapon, not a melee weapon: shoot it (`ranged`)")
        spent = tactics.spent_limbs(state, c.id)
        grips = [lb for lb in c.limbs if lb.holding == weapon_id and lb.hold_id is None and lb.id not in spent]
        need = state.settings.two_handed_grip if weapon.two_handed else 1
        if len(grips) < need:
            raise RuleError(
                f"{c.name} must grip {weapon.name} with {count(need, 'limb')} to use it", code="weapon.not_gripped"
            )
        return _armament(weapon, grips[0] if len(grips) == 1 else best_limb(c, grips), len(grips))
    if limb_id is not None:
        limb = c.limb(limb_id)
        if limb is None:
            raise RuleError(f"{c.name} has no limb {limb_id!r}")
        if not limb.free:
            raise RuleError(f"{c.name}'s {limb.name} is not free")
        if limb.id in tactics.spent_limbs(state, c.id):
            raise RuleError(f"{c.name}'s {limb.name} attacked in a Flurry: it cannot attack again for 1 round")
        return _armament(None, limb, 0)
    spent = tactics.spent_limbs(state, c.id)
    free = [limb for limb in c.limbs if limb.free and limb.id not in spent]
    if not free:
        raise RuleError(f"{c.name} has no free limb to strike with")
    return _armament(None, best_limb(c, free), 0)


def _armament(weapon: Weapon | None, limb: Limb | None, grips: int) -> Armament:
    """The Armament of `weapon` (None: unarmed) with `limb` and `grips`: the one made before of these very objects,
    if any. It holds them, not copies, so it is the same as one made anew in everything but its identity; a Strike's
    plan kept for it (`plan_kept.reads_of`) then finds it the same at once, without comparing it field by field."""
    key = (id(weapon), id(limb), grips)
    found = _ARMAMENTS.get(key)
    if found is None or found.weapon is not weapon or found.limb is not limb:
        if len(_ARMAMENTS) >= _ARMAMENTS_KEPT:
            _ARMAMENTS.clear()
        found = _ARMAMENTS[key] = (
            construct(Armament, weapon=None, limb=limb)
            if weapon is None
            else construct(Armament, weapon=weapon, limb=limb, grips=grips)
        )
    return found


_ARMAMENTS: dict[tuple[int, int, int], Armament] = {}
"""Armaments by the ids of their weapon and limb (held by the Armament: the ids are not reused while kept)."""
_ARMAMENTS_KEPT = 1024


def attack_limbs(state: GameState, c: Creature, arm: Armament) -> list[str]:
    """The limbs an attack with `arm` uses: a weapon's gripping limbs, or the unarmed limb."""
    if arm.weapon is not None:
        return [lb.id for lb in c.gripping_limbs(arm.weapon.id) if lb.hold_id is None]
    return [arm.limb.id] if arm.limb is not None else []


def arm_reach(state: GameState, c: Creature, arm: Armament) -> int:
    return reach(c, arm.limb, arm.weapon, state.settings.strike_skill)


def weapon_modifiers(state: GameState, c: Creature, arm: Armament, distance: int) -> list[Modifier]:
    mods = ailments.wounded_use_modifiers(state, c, attack_limbs(state, c, arm)) if ailments.any_wounded(c) else []
    w = arm.weapon
    skill = state.settings.strike_skill
    if w is None:
        over = UNARMED_TIER - c.skill(skill)
        if over > 0:
            mods.append(
                Modifier(
                    value=-over,
                    reason=f"a limb is a Tier {UNARMED_TIER} weapon, above {skill} {c.skill(skill)}",
                    key="weapon_tier",
                    source=c.id,
                )
            )
        return mods
    if w.accurate:
        mods.append(Modifier(value=1, reason=f"{w.name} is Accurate", key="accurate", source=c.id))
    over = w.tier - c.skill(skill)
    if over > 0:
        why = f"{w.name}'s usage Tier {w.tier} is above {skill} {c.skill(skill)}"
        mods.append(Modifier(value=-over, reason=why, key="weapon_tier", source=c.id))
    ext = effective_extend(c, w, skill) if w.extend else 0
    if ext and distance <= reach(c, arm.limb):  # within the unextended Reach
        mods.append(
            Modifier(
                value=EXTEND_CLOSE_PENALTY,
                reason=f"target closer than the area {w.name}'s Extend {ext} adds",
                key="extend_close",
                source=c.id,
            )
        )
    return mods


def base_damage(state: GameState, c: Creature, arm: Armament) -> tuple[int, list[DiceChange]]:
    flurry = tactics.flurry_damage_changes(state, c)
    if arm.weapon is None:
        return state.settings.unarmed_damage, flurry
    changes: list[DiceChange] = [*flurry]
    need = state.settings.two_handed_grip if arm.weapon.two_handed else 1
    if arm.grips > need:
        changes.append(DiceChange(dice=1, reason=f"{arm.weapon.name} gripped with more limbs than it needs"))
    return arm.weapon.damage, changes


def strike_size_terms(
    state: GameState, c: Creature, target: Creature, exp: Exposure, nimble: bool
) -> tuple[str, list[Modifier], list[DiceChange]]:
    """A Strike's defense skill, size modifier and damage dice from the sizes (of the target's exposed part): the
    size modifier on the attack; or, attacking Nimble (4 or more sizes larger), the size penalty moved to damage."""
    if nimble:
        if not may_attack_nimble(c.size, exp.size):
            raise RuleError(f"{c.name} is not 4 or more sizes larger than {target.name}: it cannot attack Nimble")
        moved = strike_size_bonus(c.size, exp.size)
        reason = "Strike size penalty moved to damage (attacking Nimble)"
        return "Nimble", [], [DiceChange(dice=moved, reason=reason)] if moved else []
    note = f" ({len(exp.exposed)} of {exp.total} spaces unobstructed)" if exp.obstructed else ""
    size_mod = strike_size_modifier(c.size, exp.size, note)
    return state.settings.strike_defense, [size_mod] if size_mod else [], []


def plan_creature_strike(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    arm: Armament,
    nimble: bool,
    filled: AbstractSet[Cell],
    called_shot: bool = False,
    charge: bool = False,
    minor: bool = False,
) -> AttackPlan:
    """The Strike of `c` on `target` with `arm` (with a Called Shot or a Charge declared, or as a Flurry's Minor
    Action); RuleError when it cannot be made."""
    if target.id == c.id:
        raise RuleError(f"{c.name} cannot Strike itself")
    # A plan follows from the state alone: the menu's preview and the Strike chosen from it share one.
    plan_key = (
        "strike_plan",
        c.id,
        target.id,
        arm.weapon.id if arm.weapon is not None else None,
        arm.limb.id if arm.limb is not None else None,
        arm.grips,
        nimble,
        called_shot,
        charge,
        minor,
        id(filled),
    )
    kept_plan: AttackPlan | None = occ.kept.get(plan_key)
    if kept_plan is not None:
        return kept_plan

    def work_out() -> AttackPlan:
        return _plan_creature_strike(state, occ, c, target, arm, nimble, filled, called_shot, charge, minor)

    menu = _menu_reads(state, occ, c, filled)
    if menu is None:  # a command's state, still changing, or a plan that reads more than `plan_reads`: not kept
        plan = work_out()
    else:  # a menu's state, which nothing changes: the plan is kept across states (`plan_kept`)
        plan = plan_kept.kept(("plan", *plan_key[1:-1]), plan_kept.plan_reads(menu, target, arm), work_out)
    occ.kept[plan_key] = plan
    return plan


def _menu_reads(state: GameState, occ: Occupancy, c: Creature, filled: AbstractSet[Cell]) -> plan_kept.MenuReads | None:
    """`plan_kept.menu_reads` of `c` in `state` when `occ` is the occupancy kept for it (a menu's state, which nothing
    changes: read once for all its plans), else None."""
    key = ("menu_reads", c.id)
    found: tuple[GameState, Creature, AbstractSet[Cell], plan_kept.MenuReads | None] | None = occ.kept.get(key)
    if found is not None and found[0] is state and found[1] is c and found[2] is filled:
        return found[3]
    if positions.known(state) is not occ:
        return None
    found = occ.kept[key] = (state, c, filled, plan_kept.menu_reads(state, c, filled))
    return found[3]


def _plan_creature_strike(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    arm: Armament,
    nimble: bool,
    filled: AbstractSet[Cell],
    called_shot: bool,
    charge: bool,
    minor: bool,
) -> AttackPlan:
    rng = arm_reach(state, c, arm)
    key = ("strike", c.id, c.anchor, c.size, target.id, target.anchor, target.size, rng, id(filled))
    found: tuple[int, tuple[Cell, ...] | None, Exposure | None] | None = occ.kept.get(key)
    if found is None:  # a menu asks again for each Strike variant (Called Shot, Charge, Flurry)
        found = _strike_geometry(state, occ, c, target, rng, filled)
        occ.kept[key] = found
    dist, kept_path, exp = found
    if dist > rng:
        raise RuleError(
            f"{target.name} is {dist} spaces away, beyond {c.name}'s Reach {rng} with {arm.name}",
            code="reach.out_of_reach",
        )
    if kept_path is None or exp is None:
        raise RuleError(f"a wall blocks {c.name}'s Strike on {target.name}", code="reach.wall_blocks")
    path = list(kept_path)
    if not exp.attackable:
        raise RuleError(f"{target.name} is wholly obstructed from {c.name}", code="reach.obstructed")
    s = state.settings
    damage, changes = base_damage(state, c, arm)
    defense, mods, moved = strike_size_terms(state, c, target, exp, nimble)
    changes += moved
    mods += weapon_modifiers(state, c, arm, dist)
    mods += melee_modifiers(state, occ, c, target)
    mods += tactics.declared_modifiers(state, c, called_shot, charge)
    return construct(
        AttackPlan,
        label=f"{c.name}: Strike on {target.name} with {arm.name}",
        skill=s.strike_skill,
        dice=c.skill(s.strike_skill),
        dice_changes=[*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(arm.weapon, minor)],
        modifiers=mods,
        dl=STRIKE_DL,
        defense_skill=defense,
        reach=rng,
        distance=dist,
        path=path,
        target_size=target.size,
        exposed_size=exp.size,
        damage=damage,
        damage_changes=changes,
    )


def _strike_geometry(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, rng: int, filled: AbstractSet[Cell]
) -> tuple[int, tuple[Cell, ...] | None, Exposure | None]:
    """The distance from `c` to `target`, then (within `rng`) the attack path, then the target's exposure."""
    grid = grid_of(state)
    mine, theirs = occ.cells[c.id], occ.cells[target.id]
    if state.settings.creatures_obstruct or type(filled) is not frozenset:
        return _geometry(state, occ, grid, c, target, mine, theirs, rng, filled)
    # Without creatures obstructing it depends on these alone: kept across states, by board (the board's `filled`
    # is the same frozenset while its walls and objects are). Found by that frozenset itself, held: two boards of
    # equal walls (two games on one map) would else be compared space by space at every look-up.
    board = _GEOMETRY.get(id(filled))
    if board is None or board[0] is not filled:
        if len(_GEOMETRY) >= _GEOMETRY_BOARDS:
            _GEOMETRY.clear()
        board = _GEOMETRY[id(filled)] = (filled, {})
    kept = board[1]
    key = (grid.kind, mine, theirs, target.size, rng)
    found = kept.get(key)
    if found is None:
        if len(kept) >= _GEOMETRY_PER_BOARD:
            kept.clear()
        found = kept[key] = _geometry(state, occ, grid, c, target, mine, theirs, rng, filled)
    return found


_Geometry = tuple[int, tuple[Cell, ...] | None, Exposure | None]
_GEOMETRY: dict[int, tuple[frozenset[Cell], dict[tuple[Any, ...], _Geometry]]] = {}
"""Strike geometry by the board's filled spaces (by the id of the frozenset, held with it), then by attacker, target
and Reach; a few boards at a time."""
_GEOMETRY_BOARDS = 8
_GEOMETRY_PER_BOARD = 4096


def _geometry(
    state: GameState,
    occ: Occupancy,
    grid: Grid,
    c: Creature,
    target: Creature,
    mine: tuple[Cell, ...],
    theirs: tuple[Cell, ...],
    rng: int,
    filled: AbstractSet[Cell],
) -> tuple[int, tuple[Cell, ...] | None, Exposure | None]:
    dist = footprint_distance(grid, mine, theirs)
    if dist > rng:
        return dist, None, None
    path = attack_path(grid, mine, theirs, filled)
    if path is None:
        return dist, None, None
    others: set[Cell] | None = None
    if state.settings.creatures_obstruct:
        others = {cell for cid, cells in occ.everyone().items() if cid not in (c.id, target.id) for cell in cells}
    return dist, tuple(path), exposure(grid, mine, theirs, target.size, filled, others)


def plan_surface_strike(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    space: Cell,
    surface: Literal["wall", "ground"],
    arm: Armament,
    filled: AbstractSet[Cell],
    charge: bool = False,
    minor: bool = False,
) -> AttackPlan:
    grid = grid_of(state)
    if not grid.in_bounds(space, state.board.cols, state.board.rows):
        raise RuleError(f"{space} is off the map")
    is_wall = space in filled
    if surface == "wall" and not is_wall:
        raise RuleError(f"there is no wall filling {space}")
    if surface == "ground" and is_wall:
        raise RuleError(f"a wall fills {space}: there is no ground to strike")
    mine = occ.cells[c.id]
    rng = arm_reach(state, c, arm)
    dist = footprint_distance(grid, mine, (space,))
    if dist > rng:
        raise RuleError(f"{space} is {dist} spaces away, beyond {c.name}'s Reach {rng}", code="reach.out_of_reach")
    path = attack_path(grid, mine, (space,), filled - {space})
    if path is None:
        raise RuleError(f"a wall blocks {c.name}'s Strike on {space}", code="reach.wall_blocks")
    s = state.settings
    mods: list[Modifier] = []
    target_size: int | None = None
    damage, changes = base_damage(state, c, arm)
    what: str = surface
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
            subject = "a size 1 wall" if obj is None else subject
            changes.append(DiceChange(dice=size_change, reason=f"physical damage against a {rel} subject ({subject})"))
    else:
        mods.append(Modifier(value=GROUND_PENALTY, reason="attacking the ground", key="ground"))
    mods += weapon_modifiers(state, c, arm, dist)
    mods += limb_action_modifiers(state, c)
    mods += attack_modifiers(state, c)
    mods += ailments.attack_against_modifiers(state, c, None)
    mods += tactics.declared_modifiers(state, c, False, charge)
    return AttackPlan(
        label=f"{c.name}: Strike on the {what} at {space} with {arm.name}",
        skill=s.strike_skill,
        dice=c.skill(s.strike_skill),
        dice_changes=[*ailments.attack_dice_changes(state, c), *tactics.flurry_weapon_changes(arm.weapon, minor)],
        modifiers=mods,
        dl=STRIKE_DL,
        defense_skill=None,
        reach=rng,
        distance=dist,
        path=path,
        target_size=target_size,
        exposed_size=target_size,
        damage=damage,
        damage_changes=changes,
        surface=surface,
    )


def strike(
    tx: Tx,
    cmd_creature: str,
    target: str | None,
    space: Cell | None,
    surface: Literal["wall", "ground"] | None,
    weapon: str | None,
    limb: str | None,
    nimble: bool,
    dice: DiceSource,
    strike_type: str | None = None,
    max_dice: int | None = None,
    called_shot: str | None = None,
    charge: bool = False,
    minor: bool = False,
) -> list[Event]:
    state = tx.state
    origin = tx.strike_given
    kept_occ = positions.known(origin) if origin is not None else None
    inputs: _Inputs = (
        cmd_creature,
        target,
        space,
        surface,
        weapon,
        limb,
        nimble,
        strike_type,
        called_shot,
        charge,
        minor,
    )
    unchanged = origin is not None and not tx.changed_creatures()
    """A Strike `apply` was given, whose command changed no creature yet (paying its Major Action changes none)."""
    as_given = kept_occ is None and origin is not None and unchanged and state.board is origin.board
    sealed = as_given and origin is not None and positions.sealed(origin)
    """Given a state `apply` made or a menu was asked of: the objects it holds are never changed in place."""
    if kept_occ is None:
        c, prepared = _prepare(state, None, inputs, as_given, sealed)
    else:  # a Strike chosen from a menu of its state: what the menu worked out is kept on the state's occupancy
        occ = kept_occ
        key = ("strike_prepared", inputs)
        kept: tuple[Creature, _Strike] | None = occ.kept.get(key)
        if kept is None:
            kept = occ.kept[key] = _prepare(state, occ, inputs)
        c, prepared = kept
    arm, plan = prepared.arm, prepared.plan
    if (kept_occ is not None or as_given) and not minor:
        _pay_kept(tx, prepared, c, kept_occ is not None, sealed)
        declared: list[Event] = []
    else:
        limbs = attack_limbs(state, c, arm) if minor else []  # only a Flurry's Minor Action keeps them from attacking
        declared = tactics.pay_attack(tx, c.id, minor, limbs)
    if called_shot is not None or charge:
        declared += tactics.declare(tx, c.id, called_shot is not None, charge)
    if tx.situational:
        attack = attack_roll(tx, dice, c.id, plan.label, plan.dice, plan.modifiers, plan.dice_changes)
    else:  # `attack_roll` with no situational modifier to add
        attack = roll(dice, plan.label, plan.dice, prepared.modifiers, prepared.dice_changes)
    path_event = new_event(Event)  # `event("reach", ...)` without its call
    path_event.kind = "reach"
    path_event.text = prepared.path_text
    path_event.actor = c.id
    path_event.target = target
    path_event.rolls = []
    path_event.data = {"path": list(plan.path), "reach": plan.reach, "exposed_size": plan.exposed_size}
    params = prepared.params if max_dice is None else {**prepared.params, "max_dice": max_dice}
    if target is None:
        assert space is not None  # a Strike without a target was planned on a space
        events = [*declared, path_event, *surface_outcome(tx, c, plan, space, attack, params, dice)]
        return events + end_turn_after_charge(tx, c.id, dice)
    spec = attacks.new_record(
        attacks.AttackSpec, ("strike", c.id, target, plan.dl, prepared.defense_skill, attack, (), True, params)
    )
    kept_defense: attacks.DefenseInputs | None = None
    declared_nothing = not (minor or charge or called_shot is not None)
    if (kept_occ is not None or as_given) and declared_nothing and unchanged:
        # Paying a Major Action changed only the attacker's Economy, which no defense reads: the defense is rolled
        # with what the same defense on the state given would be rolled with, worked out once for that state (on its
        # menu), or kept across states with what it reads when nothing modifies it.
        if kept_occ is not None:
            kept_defense = prepared.defense
            if kept_defense is None:
                kept_defense = prepared.defense = attacks.defense_inputs(state, spec)
        elif prepared.kept_across:
            kept_defense = _plain_defense(state, spec, prepared, sealed)
    return [*declared, path_event, *attacks.resolve(tx, spec, dice, kept_defense)]


def _pay_kept(tx: Tx, prepared: _Strike, c: Creature, on_menu: bool, sealed: bool = False) -> None:
    """The Major Action of a Strike paid on the state it was given, before anything changed: the Economy it leaves
    follows from the creature's Economy and Resolve Pool alone, so it is worked out once for those values and every
    Strike paid from the same shares it (`plan_kept.paid_reads`; `on_menu`: kept too with what the menu of the state
    worked out; `sealed`: the state is `positions.sealed`, and paying from its very Economy and creature `c` again
    pays the same)."""
    creature_id = c.id
    paid: Economy | None = prepared.paid
    if paid is None:
        last = prepared.paid_as_read
        before = tx.state.economy.get(creature_id)
        seen = prepared.paid_seen
        if last is not None and sealed and seen is not None and seen[0] is before and seen[1] is c:
            paid = last[1]
        elif last is not None and plan_kept.reads_as_paid(tx.state, creature_id, last[0]):
            paid = last[1]
            prepared.paid_seen = (before, c) if sealed else None
        else:
            reads = plan_kept.paid_reads(tx.state, creature_id)
            key = ("paid", creature_id)
            paid = plan_kept.found(key, reads)
            if paid is None:
                paid = plan_kept.keep(key, reads, _paid(tx, creature_id))
            if prepared.kept_across:
                prepared.paid_as_read = (plan_kept.snapshot(reads), paid)
                prepared.paid_seen = (before, c) if sealed else None
        if on_menu:
            prepared.paid = paid
    tx.share_economy(creature_id, paid)


def _plain_defense(
    state: GameState, spec: attacks.AttackSpec, prepared: _Strike, sealed: bool
) -> attacks.DefenseInputs:
    """The inputs of the defense against a Strike kept across states (`attacks.plain_defense_inputs`); on a state
    `positions.sealed`, those of the last defense nothing modified when the defender, the effects, the Holds and the
    settings are the very objects it was read from."""
    defender = state.creatures[spec.target]
    plain = prepared.plain_defense
    seen = prepared.defense_seen
    if sealed and plain is not None and seen is not None and seen[0] is defender:  # noqa: SIM102 (short lines)
        if seen[1] is state.effects and seen[2] is state.holds and seen[3] is state.settings:
            return plain[3]
    inputs, prepared.plain_defense = attacks.plain_defense_inputs(state, spec, plain)
    if sealed and prepared.plain_defense is not None:
        prepared.defense_seen = (defender, state.effects, state.holds, state.settings)
    else:
        prepared.defense_seen = None
    return inputs


def _paid(tx: Tx, creature_id: str) -> Economy:
    """A copy of the Economy paying a Strike's Major Action leaves (`tactics.pay_attack`), for other states to share."""
    tactics.pay_attack(tx, creature_id, False, [])
    econ = tx.economy(creature_id)
    return shallow_copy(econ, distractable=list(econ.distractable))


class _Strike:
    """What a Strike command works out of the state it is given before anything changes, but the attacker: its
    armament, the Strike type, the plan, a Called Shot's part offset, the text of the reach event and what the
    rolls are made with. Kept across states as given (`plan_kept`), or for a state when the Strike is chosen from
    its menu; this one alone, once paid and rolled, holds the Economy its Major Action leaves and the inputs of the
    defense roll (`paid`, `defense`: for that state only). One kept across states keeps the Economy its Major
    Action left and the inputs of a defense nothing modifies by what they read (`paid_as_read`, `plain_defense`)."""

    __slots__ = (
        "arm",
        "defense",
        "defense_seen",
        "defense_skill",
        "dice_changes",
        "kept_across",
        "modifiers",
        "offset",
        "paid",
        "paid_as_read",
        "paid_seen",
        "params",
        "path_text",
        "plain_defense",
        "plan",
        "strike_type",
    )

    def __init__(
        self,
        arm: Armament,
        chosen_type: StrikeType | None,
        plan: AttackPlan,
        called_shot: str | None,
        offset: int,
        path_text: str,
        defense: str,
    ) -> None:
        self.arm = arm
        self.strike_type = chosen_type
        self.plan = plan
        self.modifiers = tuple(plan.modifiers)
        self.dice_changes = tuple(plan.dice_changes)
        """The attack roll's modifiers and dice changes, as a roll holds them."""
        self.offset = offset
        self.path_text = path_text
        self.params: dict[str, Any] = {  # models (a pending defense stores them as JSON, `weapon_of`)
            "damage": plan.damage,
            "changes": list(plan.damage_changes),
            "weapon": arm.weapon,
            "strike_type": chosen_type,
            "max_dice": None,
        }
        """The params of its Strikes without a `max_dice` (`AttackSpec.params`), which every one shares: no rule
        changes an attack's params (a rule adding to them copies them first)."""
        if called_shot is not None:
            self.params.update({"called_part": called_shot, "part_offset": offset})
        self.defense_skill = plan.defense_skill or defense
        """The skill the defense rolls (`defense`: the table's `strike_defense`, for a plan that names none)."""
        self.paid: Economy | None = None
        self.defense: attacks.DefenseInputs | None = None
        self.kept_across = False
        """Kept across states (`plan_kept`)."""
        self.paid_as_read: tuple[plan_kept.Reads, Economy] | None = None
        """Kept across states: the Economy its last Major Action paid left, with what paying read."""
        self.plain_defense: attacks.PlainDefense | None = None
        """Kept across states: the inputs of the last defense against it that nothing modified, with what they were
        read from."""
        self.paid_seen: tuple[Economy | None, Creature] | None = None
        """The Economy and creature of a sealed state `paid_as_read` was last read from (`_pay_kept`)."""
        self.defense_seen: tuple[Creature, object, object, object] | None = None
        """The defender, effects, Holds and settings of a sealed state `plain_defense` was last read from."""


_Inputs = tuple[
    str,
    str | None,
    Cell | None,
    Literal["wall", "ground"] | None,
    str | None,
    str | None,
    bool,
    str | None,
    str | None,
    bool,
    bool,
]
"""A Strike command's creature, target, space, surface, weapon, limb, nimble, strike type, Called Shot, Charge and
minor, in this order (`_work_out`'s arguments after the target creature)."""


def _prepare(
    state: GameState, occ: Occupancy | None, inputs: _Inputs, as_given: bool = False, sealed: bool = False
) -> tuple[Creature, _Strike]:
    """The Strike's attacker, and its armament, type, plan and part offset, from the state alone; RuleError when it
    cannot be made (`occ`: the occupancy of `state`, made when needed if None). With `as_given` (the creatures and
    board of `state` are still those of the state the command was given, which nothing changes), what a Strike on a
    creature or a surface works out is kept across states (`plan_kept`) and reused for any later state that holds
    what it reads (`sealed`: `state` is `positions.sealed`, and a plan read from the very objects it holds is found
    by them, `plan_kept.found_seen`)."""
    cmd_creature, target, space, surface, _, _, _, _, called_shot, charge, _ = inputs
    c = require_active(state, cmd_creature)
    t = state.creatures.get(target) if target is not None else None
    reads: plan_kept.Reads | None = None
    seen: plan_kept.Seen | None = None
    found: _Strike | None = None
    if sealed and (t is not None or target is None):
        seen = plan_kept.seen_of(state, c, t)
        found = plan_kept.found_seen(inputs, seen, called_shot is not None)
    if found is None:
        if as_given and t is not None:
            reads = plan_kept.reads_of(state, c, t, None, called_shot is not None)
        elif as_given and target is None and space is not None and surface is not None:
            reads = plan_kept.surface_reads_of(state, c, None, space, surface == "wall")
        if reads is None:
            return c, _work_out(state, occ, c, t, *inputs[1:])
        found = plan_kept.found(inputs, reads, seen)
        if found is None:
            found = _work_out(state, occ, c, t, *inputs[1:])
            found.kept_across = True
            plan_kept.keep(inputs, reads, found, seen)
            return c, found
    if charge:  # the Economy is read for a Charge alone, and not kept (checked by `_work_out` when worked out)
        tactics.require_charge(state, c)
    return c, found


def _work_out(
    state: GameState,
    occ: Occupancy | None,
    c: Creature,
    t: Creature | None,
    target: str | None,
    space: Cell | None,
    surface: Literal["wall", "ground"] | None,
    weapon: str | None,
    limb: str | None,
    nimble: bool,
    strike_type: str | None,
    called_shot: str | None,
    charge: bool,
    minor: bool,
) -> _Strike:
    """`_prepare` after the attacker is found active: everything but the attacker (`t`: the target, if found)."""
    if occ is None:
        occ = Occupancy(state)
    arm = armament(state, c, weapon, limb)
    chosen_type = choose_strike_type(arm.weapon, strike_type)
    filled = state.board.filled()
    if charge:
        tactics.require_charge(state, c)
    offset = 0
    if target is not None:
        if t is None:
            raise RuleError(f"there is no creature {target!r}")
        if called_shot is not None:
            offset = tactics.called_part(t, called_shot).size_offset
        plan = plan_creature_strike(state, occ, c, t, arm, nimble, filled, called_shot is not None, charge, minor)
    elif space is not None and surface is not None:
        if called_shot is not None:
            raise RuleError("a Called Shot aims at a part of a single creature")
        plan = plan_surface_strike(state, occ, c, space, surface, arm, filled, charge, minor)
    else:
        raise RuleError("a Strike needs a target creature, or a space and a surface (wall or ground)")
    path_text = (
        f"{c.name} reaches {count(plan.distance, 'space')} (Reach {plan.reach}) "
        f"through {count(len(plan.path), 'space')}."
    )
    return _Strike(arm, chosen_type, plan, called_shot, offset, path_text, state.settings.strike_defense)


def surface_outcome(
    tx: Tx, c: Creature, plan: AttackPlan, space: Cell, attack: Roll, params: dict[str, Any], dice: DiceSource
) -> list[Event]:
    s = tx.state.settings
    ground = roll(
        dice, "ground defense", 0, [Modifier(value=GROUND_DEFENSE, reason="a surface's defense is 0", key="ground")]
    )
    result = AttackResult(
        attack=attack,
        dl=plan.dl,
        defense_skill="none",
        defense=ground,
        ties_to=s.ties_to,
        fumble_fails=s.fumble_always_fails,
    )
    verdict = "hits" if result.success else "misses"
    events = [
        event(
            kind="attack",
            text=f"{c.name} rolled {attack.result} (DL {plan.dl}, defense 0): the Strike {verdict} the {plan.surface}.",
            actor=c.id,
            rolls=[attack],
            data={"action": "strike", "success": result.success, "surface": plan.surface},
        )
    ]
    if result.success:
        obj = objects.object_at(tx.state.board, space) if plan.surface == "wall" else None
        if obj is None:
            events += surface_damage(tx, c.id, params, attack, dice)
        else:
            weapon = weapon_of(params)
            changes = changes_of(params) + weapon_changes(weapon, attack)
            events += objects.damage_object(
                tx, c, obj, params["damage"], changes, params["strike_type"], attack.faces, params["max_dice"], dice
            )
    return events


def weapon_of(params: dict[str, Any]) -> Weapon | None:
    """The weapon of a Strike's params: the model itself, or its JSON when a pending defense stored it."""
    raw = params.get("weapon")
    if not raw:
        return None
    return raw if type(raw) is Weapon else Weapon.model_validate(raw)


def changes_of(params: dict[str, Any]) -> list[DiceChange]:
    """The damage dice changes of a Strike's params: models, or their JSON when a pending defense stored them."""
    return [ch if type(ch) is DiceChange else DiceChange.model_validate(ch) for ch in params["changes"]]


def weapon_changes(weapon: Weapon | None, attack: Roll) -> list[DiceChange]:
    """reference §6.3 Devastating: +1 damage for each 12 on the attack roll."""
    if weapon is None or not weapon.devastating:
        return []
    twelves = attack.faces.count(12)
    if not twelves:
        return []
    return [DiceChange(dice=twelves, reason=f"{weapon.name} is Devastating: {count(twelves, 'twelve')} rolled")]


def choose_strike_type(weapon: Weapon | None, wanted: str | None) -> StrikeType | None:
    """reference §6.2: with several Strike types, choose one as you declare the attack. An unarmed limb and a
    weapon without a listed type have none."""
    types = weapon.strike_types if weapon is not None else ()
    if wanted is None:
        return types[0] if types else None
    if wanted not in types:
        raise RuleError(f"{weapon.name if weapon else 'an unarmed Strike'} cannot make a {wanted} Strike")
    return wanted


def strike_hit(attacker: str, target: str, params: dict[str, Any], attack: Roll, label: str) -> Hit:
    raw = params.get("weapon")
    weapon = (raw if type(raw) is Weapon else Weapon.model_validate(raw)) if raw else None  # `weapon_of`
    given: list[Any] = params["changes"]
    for ch in given:
        if type(ch) is not DiceChange:
            changes = tuple(changes_of(params))
            break
    else:  # models already, as a Strike whose defense is rolled at once carries them
        changes = tuple(given)
    element = None
    if weapon is not None:
        element = weapon.element
        if weapon.devastating:
            changes += tuple(weapon_changes(weapon, attack))
    return attacks.new_record(
        Hit,
        (
            target,
            params["damage"],
            attacker,
            label,
            changes,
            True,  # physical
            element,
            params.get("strike_type"),
            False,  # from_spell
            True,  # apply_size
            attack.faces,
            True,  # targeted
            params.get("part"),
            bool(params.get("called_shot")),
            params.get("max_dice"),
            *_HIT_DEFAULTS_AFTER_MAX_DICE,
        ),
    )


_HIT_DEFAULTS_AFTER_MAX_DICE = tuple(Hit._field_defaults[f] for f in Hit._fields[Hit._fields.index("max_dice") + 1 :])
"""A Strike's Hit is built as `Hit(...)` of every field up to `max_dice`, the rest left to their defaults, without
the Python frame of the named tuple's `__new__` (`attacks.new_record`)."""


def surface_damage(tx: Tx, attacker: str, params: dict[str, Any], attack: Roll, dice: DiceSource) -> list[Event]:
    """Damage to a wall or the ground: counted like any damage; surfaces keep no Pips."""
    weapon = weapon_of(params)
    changes = changes_of(params) + weapon_changes(weapon, attack)
    dmg = roll(dice, f"{tx.get(attacker).name}: damage to the surface", params["damage"], dice_changes=changes)
    inj = dmg.count_at_least(DAMAGE_FACE)
    return [
        event(
            kind="damage",
            text=f"Damage {dmg.dice}d12, needing {DAMAGE_FACE}+: {inj} Injury to the surface.",
            actor=attacker,
            rolls=[dmg],
            data={"injury": inj, "needed": DAMAGE_FACE},
        )
    ]


def called_shot_params(tx: Tx, spec: attacks.AttackSpec, result: AttackResult) -> tuple[dict[str, Any], list[Event]]:
    """seed-000 Called Shot: the part is struck only if the attack exceeds the defense by the part's offset."""
    part_id = spec.params.get("called_part")
    if part_id is None:
        return spec.params, []
    offset = int(spec.params["part_offset"])
    target = tx.get(spec.target)
    part = target.part(part_id)
    name = part.name if part else part_id
    if tactics.part_struck(result, offset):
        params = {**spec.params, "part": part_id, "called_shot": True}
        text = f"The Called Shot beats the defense by {result.margin} (needs {offset}): it strikes the {name}."
    else:
        params = spec.params
        text = (
            f"The Called Shot beats the defense by {result.margin}, not the {offset} the {name} needs: an ordinary hit."
        )
    shot = event(
        kind="called_shot",
        text=text,
        actor=spec.attacker,
        target=spec.target,
        data={"part": part_id, "needed": offset, "margin": result.margin, "struck": params is not spec.params},
    )
    return params, [shot]


def _strike_label(attacker_name: str) -> str:
    return f"{attacker_name}'s Strike"


_STRIKE_LABELS = Texts(_strike_label)


@attacks.on_hit("strike")
def _strike_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    _, attacker, target, _, _, attack, _, _, params = spec  # by name, each field is a look-up
    if "called_part" in params:
        params, events = called_shot_params(tx, spec, result)
    else:
        events = []
    try:  # `tx.get`, without its call
        attacker_name = tx.state.creatures[attacker].name
    except KeyError:
        attacker_name = tx.get(attacker).name
    dealt = deal(tx, strike_hit(attacker, target, params, attack, _STRIKE_LABELS[attacker_name,]), dice)
    return events + dealt if events else dealt  # `deal`'s own list when nothing comes before it
