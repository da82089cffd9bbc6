"""Overpower (seed-000): Disarm, Impair, Reposition, Grapple and Break Hold.

"Overpower is a collection of physical actions that allow you to cause an assortment of effects to change the tide
of battle, often without causing direct harm. Against a larger target, suffer a penalty on your roll equal to the
size difference. Against a smaller target, gain a bonus instead. You cannot affect targets 3 or more sizes larger
than you."

Every one is a Major Action (reference §3) and an attack: the roll carries the Overpower size modifier (the
target's whole size; the obstruction rule belongs to Strikes), Encumbered (an action using limbs), effects on
physical attacks (Called Shot), a declared Called Shot or Charge (see `tactics`), and Hinder Attack. Which skills
roll and defend are table settings (Athletics against Athletics by default).

- Disarm, Impair and Reposition are made "with a melee weapon": a gripped weapon, or unarmed a free limb (a Tier
  1 weapon, as for Strikes), at its Reach, with its attack-roll properties (Accurate, usage Tier, Extend's -2).
- Disarm: "Attack target creature with a melee weapon to cause them to drop target object they are holding into
  target space adjacent to them, DL 3. If the object is Gripped by multiple limbs, they gain +1 on their defenses
  for each limb beyond the first. If the targeted object is a weapon, the creature instead rolls defense of the
  skill used to attack with it." Every held object here is a weapon, so the defense is the skill it attacks with:
  `ranged_skill` (Nimble) for a launched weapon, `strike_skill` (Martial) for any other (`disarm_defense`). The
  item lies in the space as a loose item.
- Impair: "Attack target creature with a melee weapon to cause Tier 1 of your choice of Blinded, Dazzled,
  Deafened, Muted, Slowed, or Unstable, DL 3." Tiers add to any the target has.
- Reposition: "Attack a target with a melee weapon to move the target one space farther from you, DL 3. If not
  being done as the result of another attack succeeding against a target in your Reach, you may move the target
  to any space in your Reach." Here it is never the result of another attack, so the target may go one space
  farther or to any space in Reach the attack reaches (no wall between), where it fits. A target in a Hold is
  moved only as the Hold says: the effect attacks Athletics of each other member with d12 equal to the spaces
  moved; failing against any, the target is not moved; succeeding against all, it leaves the Hold and moves. The
  creature making the Reposition does not resist its own effect (ASSUMPTION); with nobody else in the Hold the
  target moves and stays in it (the Holders then lose it if they can no longer touch it).
- Grapple: "Attack target creature in a Hold with a Free Limb or a part used in the Hold to increase the Tier of
  Encumbered they suffer from Hold by 1 and join the Hold as a Holder." The target is any creature in a Hold, Held
  or Holder (a Grabbed creature can Grapple its Grabber; a third creature can pile on a Holder); a Free
  Limb that joins must be able to grip (as for Grab); no Reach change (Grab's -1 is Grab's). With a Called Shot on
  a part that succeeds by the part's offset, "the creature cannot use the targeted part while in the Hold" (a limb
  of that id is kept from use: not free and gripping nothing usable). "If you already affect as many parts this
  way as the Free Limbs you used for the Hold, you must use a Free Limb for this attack." "While you have a head
  affected in this way, you can use Grapple to attempt to suffocate the subject. On success, cause Tier 1
  Strangled until the head is no longer affected." (setting `suffocate_also_grapples`: the suffocating Grapple
  also adds its Encumbered Tier.) "If the part you use to Grapple has a Distal, you may have the attack also deal
  damage from that Distal": the `distal` flag (see `distal`). Swallowing a creature 6 or more sizes smaller: the
  `swallow` flag (see `swallow`); that Grapple adds no Encumbered Tier, as the creature leaves the Hold.
- Grapple and Break Hold are Overpowers, so a Flurry may make them Minor Actions (`minor`); a limb that attacked in
  a Flurry cannot be used for them for 1 round (seed-000 Flurry: "limbs used to attack cannot be used to attack
  again for 1 round").
- Break Hold: "Attack target Holder with a Free Limb or part you are using in the Hold to reduce the Tier of
  Encumbered they suffer and are causing to target Grabbed creature by 2. If this removes all Encumbered from the
  Grabbed creature, they are removed from the Grab. If the Holder has targeted a specific part, you can remove the
  affected part and part used to attack it from the Hold. If you do, only reduce the Encumbered Tier by 1." What a
  Holder causes is the Hold's count (`Hold.caused`: 2 from the Grab, 1 per Grapple); the Holder's own Tiers from
  the Hold fall by as much, never below 0.
- The seed names no DL for Grapple and Break Hold (settings `grapple_dl`, `break_hold_dl`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat
from typing import Any, Literal, NamedTuple

from vtt.rules import ailments, attacks, distal, swallow, tactics
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import (
    hold_encumbered,
    holds_of,
    melee_attack_modifiers,
)
from vtt.rules.damage import deal
from vtt.rules.dice import DiceChange, DiceSource, Modifier, roll
from vtt.rules.events import Event, RuleError
from vtt.rules.fastmodel import construct
from vtt.rules.grid import Grid, GridKind, footprint_distance
from vtt.rules.hold import caused_by, check_touch, end_empty_holds, leave_holds, release_limb, remove_held
from vtt.rules.menu_terms import lines_clear, melee_modifiers, touch
from vtt.rules.model import Cell, Creature, GameState, Hold, Limb, PartLock, Weapon
from vtt.rules.near import on_map_within
from vtt.rules.reach import attack_path, best_limb, reach
from vtt.rules.situational import attack_roll
from vtt.rules.sizes import can_overpower, overpower_size_modifier
from vtt.rules.space import (
    Occupancy,
    fill,
    footprint,
    footprint_offsets,
    grid_for,
    grid_of,
    standable,
    why_cannot_stand,
)
from vtt.rules.strike import Armament, AttackPlan, arm_reach, armament, attack_limbs, weapon_modifiers
from vtt.rules.turns import require_active
from vtt.rules.txn import Tx
from vtt.rules.words import count

OverpowerAction = Literal["disarm", "impair", "reposition", "grapple", "break_hold"]
WeaponAction = Literal["disarm", "impair", "reposition"]
LimbAction = Literal["grapple", "break_hold"]

DISARM_DL = 3
IMPAIR_DL = 3
REPOSITION_DL = 3
IMPAIR_AILMENTS = ("Blinded", "Dazzled", "Deafened", "Muted", "Slowed", "Unstable")
HEAD = "head"
BREAK_HOLD_REDUCTION = 2
BREAK_HOLD_FREEING_REDUCTION = 1
NAMES: dict[str, str] = {
    "disarm": "Disarm",
    "impair": "Impair",
    "reposition": "Reposition",
    "grapple": "Grapple",
    "break_hold": "Break Hold",
}


def roll_terms(state: GameState, action: OverpowerAction) -> tuple[str, str, int]:
    """(skill rolled, skill attacked, DL) of an Overpower action."""
    s = state.settings
    match action:
        case "disarm":
            return s.disarm_skill, s.strike_skill, DISARM_DL
        case "impair":
            return s.impair_skill, s.impair_defense, IMPAIR_DL
        case "reposition":
            return s.reposition_skill, s.reposition_defense, REPOSITION_DL
        case "grapple":
            return s.grapple_skill, s.grapple_defense, s.grapple_dl
        case "break_hold":
            return s.break_hold_skill, s.break_hold_defense, s.break_hold_dl


def _touch(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, rng: int, filled: AbstractSet[Cell], name: str
) -> tuple[int, list[Cell]]:
    """The distance and attack path from `c` to `target` within Reach `rng`; RuleError when out of reach."""
    if target.id == c.id:
        raise RuleError(f"{c.name} cannot {name} itself")
    if not can_overpower(c.size, target.size):
        raise RuleError(f"{target.name} is 3 or more sizes larger than {c.name}: Overpower cannot affect it")
    grid = grid_of(state)
    mine, theirs = occ.cells[c.id], occ.cells[target.id]
    dist = footprint_distance(grid, mine, theirs)
    if dist > rng:
        raise RuleError(
            f"{target.name} is {dist} spaces away, beyond {c.name}'s Reach {rng}", code="reach.out_of_reach"
        )
    path, exp = touch(state, occ, c, target, filled)
    if path is None or exp is None:
        raise RuleError(f"a wall blocks {c.name}'s {name} on {target.name}", code="reach.wall_blocks")
    if not exp.attackable:
        raise RuleError(f"{target.name} is wholly obstructed from {c.name}")
    return dist, list(path)


def roll_of(
    state: GameState, c: Creature, target: Creature, action: OverpowerAction, with_what: str
) -> tuple[str, str, int, int, str]:
    """The label, skill, dice, DL and defense skill of `c`'s roll for `action` on `target` with `with_what`."""
    skill, defense, dl = roll_terms(state, action)
    return f"{c.name}: {NAMES[action]} on {target.name} with {with_what}", skill, c.skill(skill), dl, defense


def _plan(
    state: GameState,
    c: Creature,
    target: Creature,
    action: OverpowerAction,
    rng: int,
    dist: int,
    path: list[Cell],
    with_what: str,
    terms: tuple[list[Modifier], list[DiceChange]],
) -> AttackPlan:
    """The plan of `action`, its modifiers and dice changes (`terms`, see `_shared_terms`) worked out."""
    label, skill, dice, dl, defense = roll_of(state, c, target, action, with_what)
    mods, dice_changes = terms
    return construct(
        AttackPlan,
        label=label,
        skill=skill,
        dice=dice,
        dice_changes=list(dice_changes),
        modifiers=list(mods),
        dl=dl,
        defense_skill=defense,
        reach=rng,
        distance=dist,
        path=path,
        target_size=target.size,
        exposed_size=target.size,
    )


def _shared_terms(
    state: GameState,
    c: Creature,
    target: Creature,
    mods: list[Modifier],
    called_shot: bool,
    charge: bool,
) -> tuple[list[Modifier], list[DiceChange]]:
    """A Grapple's or a Break Hold's modifiers and dice changes."""
    size_mod = overpower_size_modifier(c.size, target.size)
    all_mods = [*([size_mod] if size_mod else []), *mods]
    all_mods += melee_attack_modifiers(state, c, target)
    all_mods += tactics.declared_modifiers(state, c, called_shot, charge)
    return all_mods, ailments.attack_dice_changes(state, c)


class WeaponTerms(NamedTuple):
    """What Disarm, Impair and Reposition of a creature on one target with one weapon or limb share."""

    reach: int
    distance: int
    path: list[Cell]
    modifiers: list[Modifier]
    dice_changes: list[DiceChange]


def weapon_terms(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    arm: Armament,
    filled: AbstractSet[Cell],
    charge: bool = False,
    minor: bool = False,
    name: str = NAMES["disarm"],
) -> WeaponTerms:
    """The Reach, distance, attack path, modifiers and dice changes of every Overpower with `arm` of `c` on `target`
    (`minor`: as a Flurry's Minor Action; each action adds its own skills and DL, `roll_of`); RuleError when they
    cannot be made (each needs the same touch: the error names the action `name`)."""
    rng = arm_reach(state, c, arm)
    terms = _target_terms(state, occ, c, target, filled, charge)
    if not terms.touched or terms.distance > rng:
        _touch(state, occ, c, target, rng, filled, name)  # raises the RuleError that says why
        raise AssertionError(f"_touch and _target_terms disagree on {c.id} touching {target.id}")
    return _with_arm(state, c, arm, rng, terms, minor)


class TargetTerms(NamedTuple):
    """What Disarm, Impair and Reposition of a creature on one target share whatever weapon or limb makes them:
    whether the touch can be made within some Reach, its distance and path, and the terms of the roll other than
    the weapon's (the size modifier, the melee attack and declared modifiers, and the dice changes)."""

    touched: bool
    distance: int
    path: tuple[Cell, ...]
    size: list[Modifier]
    modifiers: list[Modifier]
    dice_changes: list[DiceChange]


def target_terms(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, filled: AbstractSet[Cell], charge: bool
) -> TargetTerms:
    """The `TargetTerms` of `c` on `target` (a Charge or not), made once for the state of `occ`: a menu asks them
    for each weapon and limb (`arm_terms`). Shared: not to be changed."""
    key = ("target_terms", c.id, target.id, charge, id(filled))
    found: TargetTerms | None = occ.kept.get(key)
    if found is None:
        found = occ.kept[key] = _target_terms(state, occ, c, target, filled, charge)
    return found


def _target_terms(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, filled: AbstractSet[Cell], charge: bool
) -> TargetTerms:
    if target.id == c.id or not can_overpower(c.size, target.size):
        return TargetTerms(False, 0, (), [], [], [])
    dist = footprint_distance(grid_of(state), occ.cells[c.id], occ.cells[target.id])
    path, exp = touch(state, occ, c, target, filled)
    if path is None or exp is None or not exp.attackable:
        return TargetTerms(False, dist, (), [], [], [])
    size_mod = overpower_size_modifier(c.size, target.size)
    mods = [*melee_modifiers(state, occ, c, target), *tactics.declared_modifiers(state, c, False, charge)]
    return TargetTerms(True, dist, path, [size_mod] if size_mod else [], mods, ailments.attack_dice_changes(state, c))


def arm_terms(
    state: GameState, c: Creature, arm: Armament, rng: int, terms: TargetTerms, minor: bool = False
) -> WeaponTerms | None:
    """`weapon_terms` with `arm` (of Reach `rng`) made from the `TargetTerms` on its target; None where it raises."""
    if not terms.touched or terms.distance > rng:
        return None
    try:
        return _with_arm(state, c, arm, rng, terms, minor)
    except RuleError:  # a limb too Wounded to use
        return None


def _with_arm(state: GameState, c: Creature, arm: Armament, rng: int, terms: TargetTerms, minor: bool) -> WeaponTerms:
    """The `WeaponTerms` of `arm` (of Reach `rng`) on a target `c` touches within it (`terms`); RuleError when the
    limb is too Wounded to use."""
    own = weapon_modifiers(state, c, arm, terms.distance)
    changes = [*terms.dice_changes, *tactics.flurry_weapon_changes(arm.weapon, minor)]
    return WeaponTerms(rng, terms.distance, list(terms.path), [*terms.size, *own, *terms.modifiers], changes)


def plan_weapon_overpower(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    action: WeaponAction,
    arm: Armament,
    filled: AbstractSet[Cell],
    charge: bool = False,
    minor: bool = False,
) -> AttackPlan:
    """Disarm, Impair or Reposition of `c` on `target` with `arm` (`minor`: as a Flurry's Minor Action);
    RuleError when it cannot be made."""
    return plan_weapon_overpowers(state, occ, c, target, (action,), arm, filled, charge, minor)[0]


def plan_weapon_overpowers(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    actions: Sequence[WeaponAction],
    arm: Armament,
    filled: AbstractSet[Cell],
    charge: bool = False,
    minor: bool = False,
) -> list[AttackPlan]:
    """`plan_weapon_overpower` of each of `actions` on the same target with the same `arm`, what they share worked
    out once (`weapon_terms`); RuleError when they cannot be made (the error names the first action)."""
    terms = weapon_terms(state, occ, c, target, arm, filled, charge, minor, NAMES[actions[0]])
    shared = (terms.modifiers, terms.dice_changes)
    path = terms.path
    return [
        _plan(state, c, target, action, terms.reach, terms.distance, path if i == 0 else list(path), arm.name, shared)
        for i, action in enumerate(actions)
    ]


# --------------------------------------------------------------------------------------------------------
# Disarm
# --------------------------------------------------------------------------------------------------------


def held_items(c: Creature) -> list[Weapon]:
    """The weapons the creature holds, each once."""
    out: list[Weapon] = []
    for limb in c.limbs:
        if limb.holding and not any(w.id == limb.holding for w in out):
            w = c.weapon(limb.holding)
            if w is not None:
                out.append(w)
    return out


def drop_spaces(state: GameState, occ: Occupancy, target: Creature) -> list[Cell]:
    """seed-000 Disarm: the spaces adjacent to the target (not its own, not filled, on the map)."""
    return list(shared_drop_spaces(state, occ, target))


def shared_drop_spaces(state: GameState, occ: Occupancy, target: Creature) -> list[Cell]:
    """`drop_spaces`, shared: not to be changed."""
    board = state.board
    return _drop_spaces(state.settings.grid, occ.cells[target.id], board.filled(), board.cols, board.rows)


@lru_cache(maxsize=1024)
def _drop_spaces(kind: GridKind, mine: tuple[Cell, ...], filled: frozenset[Cell], cols: int, rows: int) -> list[Cell]:
    """`drop_spaces` of a target filling `mine`, kept by all it reads (a target that has not moved and walls that
    have not changed since give the same, whoever else moved): not to be changed."""
    grid = grid_for(kind)
    around = grid.area_within(mine, 1)
    around.difference_update(mine)
    around.difference_update(filled)
    if on_map_within(grid, mine, 1, cols, rows):
        return sorted(around)
    in_bounds = grid.in_bounds
    return sorted(cell for cell in around if in_bounds(cell, cols, rows))


def disarm_defense(state: GameState, item: Weapon) -> str:
    """seed-000 Disarm: "If the targeted object is a weapon, the creature instead rolls defense of the skill used to
    attack with it": a launched weapon (a bow, a sling: no melee weapon) attacks with `ranged_skill` (Nimble), any
    other with `strike_skill` (Martial; a thrown weapon is a melee weapon too)."""
    s = state.settings
    return s.ranged_skill if item.ranged == "launched" else s.strike_skill


def grip_bonus(target: Creature, item: Weapon) -> list[Modifier]:
    """seed-000 Disarm: "+1 on their defenses for each limb beyond the first"."""
    extra = len(target.gripping_limbs(item.id)) - 1
    if extra <= 0:
        return []
    why = f"{item.name} is Gripped by {extra + 1} limbs: +1 per limb beyond the first"
    return [Modifier(value=extra, reason=why, key="grip", source=target.id)]


def disarm(
    tx: Tx,
    creature: str,
    target: str,
    item: str,
    to: Cell,
    weapon: str | None,
    limb: str | None,
    charge: bool,
    minor: bool,
    dice: DiceSource,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    t = tx.get(target)
    held = next((w for w in held_items(t) if w.id == item), None)
    if held is None:
        raise RuleError(f"{t.name} holds no {item!r}")
    occ = Occupancy(state)
    if to not in drop_spaces(state, occ, t):
        raise RuleError(f"{to} is not a space adjacent to {t.name} where {held.name} can fall")
    arm = armament(state, c, weapon, limb)
    if charge:
        tactics.require_charge(state, c)
    plan = plan_weapon_overpower(state, occ, c, t, "disarm", arm, state.board.filled(), charge, minor)
    plan = plan.model_copy(update={"defense_skill": disarm_defense(state, held)})
    params = {"item": item, "to": list(to)}
    limbs = attack_limbs(state, c, arm)
    return _attack(
        tx, c, t, "disarm", plan, params, dice, charge=charge, defense_mods=grip_bonus(t, held), flurry=(minor, limbs)
    )


@attacks.on_result("disarm")
def _disarm_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    t = tx.creature(spec.target)
    item = t.weapon(spec.params["item"])
    if item is None:
        return []
    to: Cell = (int(spec.params["to"][0]), int(spec.params["to"][1]))
    for limb in t.limbs:
        if limb.holding == item.id:
            tx.own(t.id, limb).holding = None
    tx.drop(t.id, item, to)
    return [
        Event(
            kind="disarm",
            text=f"{t.name} drops {item.name} into {to}.",
            actor=spec.attacker,
            target=t.id,
            data={"item": item.id, "to": to},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# Impair
# --------------------------------------------------------------------------------------------------------


def impair(
    tx: Tx,
    creature: str,
    target: str,
    ailment: str,
    weapon: str | None,
    limb: str | None,
    charge: bool,
    minor: bool,
    dice: DiceSource,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    if ailment not in IMPAIR_AILMENTS:
        raise RuleError(f"Impair causes one of {', '.join(IMPAIR_AILMENTS)}, not {ailment}")
    t = tx.get(target)
    arm = armament(state, c, weapon, limb)
    if charge:
        tactics.require_charge(state, c)
    plan = plan_weapon_overpower(state, Occupancy(state), c, t, "impair", arm, state.board.filled(), charge, minor)
    flurry = (minor, attack_limbs(state, c, arm))
    return _attack(tx, c, t, "impair", plan, {"ailment": ailment}, dice, charge=charge, flurry=flurry)


@attacks.on_result("impair")
def _impair_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    ailment = spec.params["ailment"]
    immunity = ailments.immunity_to(tx.get(spec.target), ailment, "physical" if spec.physical else "magical")
    if immunity is not None:
        return [ailments.immune_event(tx.get(spec.target), ailment, immunity, spec.attacker)]
    t = tx.creature(spec.target)
    t.ailments[ailment] = t.ailments.get(ailment, 0) + 1
    return [
        Event(
            kind="ailment",
            text=f"{t.name} suffers Tier 1 {ailment} (now Tier {t.ailments[ailment]}).",
            actor=spec.attacker,
            target=t.id,
            data={"ailment": ailment, "tier": t.ailments[ailment]},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# Reposition
# --------------------------------------------------------------------------------------------------------


def why_not_destination(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, rng: int, to: Cell, filled: AbstractSet[Cell]
) -> str | None:
    """Why Reposition cannot put the target's anchor at `to` (one space farther, or anywhere in Reach)."""
    if to == target.anchor:
        return f"{target.name} is already at {to}"
    if (why := why_cannot_stand(state, target, to, occ, filled)) is not None:
        return why
    if _farther_or_in_reach(state, occ, c, target, rng, filled)(to):
        return None
    return f"{to} is neither one space farther from {c.name} nor a space in its Reach {rng}"


def _farther_or_in_reach(
    state: GameState, occ: Occupancy, c: Creature, target: Creature, rng: int, filled: AbstractSet[Cell]
) -> Callable[[Cell], bool]:
    """Whether the target's anchor at a space is one space farther from `c` or in its Reach past the walls (what
    `why_not_destination` asks once the target may stand there), what every space shares worked out once."""
    grid = grid_of(state)
    mine = occ.cells[c.id]
    now = footprint_distance(grid, mine, occ.cells[target.id])
    anchor = target.anchor
    clear = lines_clear(grid, mine, rng, filled)  # then every space in the Reach is reached past the walls

    def allowed(to: Cell) -> bool:
        cells = footprint(state, target, to)
        then = footprint_distance(grid, mine, cells)
        if grid.distance(anchor, to) == 1 and then > now:
            return True
        if then > rng:
            return False
        # a space a step away is always reached: no space lies between
        return clear or then <= 1 or attack_path(grid, mine, cells, filled) is not None

    return allowed


def destinations(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    rng: int,
    filled: AbstractSet[Cell],
    reached: Collection[Cell] | None = None,
) -> list[Cell]:
    """Every anchor space Reposition may move the target to: the spaces `why_not_destination` allows, with the test
    of where the target may stand made for them all at once (`standable`). `reached`: the open spaces within `rng`
    of `c` that an attack reaches past the walls (a menu has them, `strike_offers.reach_spaces`): no line is drawn
    (`_reached_anchors`)."""
    return list(shared_destinations(state, occ, c, target, rng, filled, reached))


def shared_destinations(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    rng: int,
    filled: AbstractSet[Cell],
    reached: Collection[Cell] | None = None,
) -> list[Cell]:
    """`destinations`, made once for the state of `occ`: shared, not to be changed."""
    key = ("reposition", c.id, c.anchor, target.id, target.anchor, rng, id(filled))
    kept: list[Cell] | None = occ.kept.get(key)
    if kept is not None:
        return kept
    grid = grid_of(state)
    offsets = footprint_offsets(state, target)
    if reached is not None:
        found = sorted(_reached_destinations(state, occ, c, target, rng, offsets, filled, reached))
    else:
        spread = max((grid.distance((0, 0), off) for off in offsets), default=0)
        candidates = grid.area_within(occ.cells[c.id], rng + spread) | set(grid.neighbours(target.anchor))
        candidates.discard(target.anchor)
        allowed = _farther_or_in_reach(state, occ, c, target, rng, filled)
        found = sorted(cell for cell in standable(state, target, candidates, occ, filled) if allowed(cell))
    occ.kept[key] = found
    return found


def _reached_destinations(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    rng: int,
    offsets: tuple[Cell, ...],
    filled: AbstractSet[Cell],
    reached: Collection[Cell],
) -> set[Cell]:
    """`destinations` given the open spaces `reached` within `rng` of `c` that an attack reaches (unsorted)."""
    grid = grid_of(state)
    mine = occ.cells[c.id]
    now = footprint_distance(grid, mine, occ.cells[target.id])
    one = offsets == ((0, 0),)
    if one:
        on_map = False  # the spaces not reached are a few next to the target: each is asked
    else:
        spread = max(grid.distance((0, 0), off) for off in offsets)
        cols, rows = state.board.cols, state.board.rows
        # each space filled at an anchor in the Reach is within the Reach and the footprint's spread twice over
        on_map = on_map_within(grid, mine, rng + 2 * spread, cols, rows) and on_map_within(
            grid, (target.anchor,), 1 + spread, cols, rows
        )
    candidates = _anchors_near_one(grid, mine, target.anchor, now, rng, offsets, reached) if len(mine) == 1 else None
    if candidates is None:
        candidates = _anchors_near(state, grid, mine, target, now, rng, offsets, set(reached))
    return _fitting(state, occ, target, offsets, candidates, reached, filled, on_map)


def _anchors_near(
    state: GameState,
    grid: Grid,
    mine: tuple[Cell, ...],
    target: Creature,
    now: int,
    rng: int,
    offsets: tuple[Cell, ...],
    open_reached: set[Cell],
) -> set[Cell]:
    """The anchors Reposition may move `target` (now `now` from `mine`) to, but for where it may stand: those
    `_reached_anchors` finds (every open space reached, for a footprint of one space) and those a step farther."""
    farther: Iterable[Cell]
    if offsets == ((0, 0),):
        candidates = set(open_reached)
        farther = (cell for cell in grid.neighbours(target.anchor) if footprint_distance(grid, mine, (cell,)) > now)
    else:
        candidates, nearest = _reached_anchors(grid, mine, rng, offsets, open_reached)
        if now <= rng:  # an anchor not within the Reach is farther
            farther = (cell for cell in grid.neighbours(target.anchor) if nearest.get(cell, rng + 1) > now)
        else:
            farther = (
                cell
                for cell in grid.neighbours(target.anchor)
                if footprint_distance(grid, mine, footprint(state, target, cell)) > now
            )
    candidates.update(farther)
    candidates.discard(target.anchor)
    return candidates


def _anchors_near_one(
    grid: Grid,
    mine: tuple[Cell, ...],
    anchor: Cell,
    now: int,
    rng: int,
    offsets: tuple[Cell, ...],
    reached: Iterable[Cell],
) -> set[Cell] | None:
    """`_anchors_near` for an attacker of one space (`mine`) and a target within its Reach, from what is worked out
    once for every such attacker (`_around`); None when the target is not within the Reach."""
    around = _around(grid, rng, offsets)
    ((aq, ar),) = mine
    here = (anchor[0] - aq, anchor[1] - ar)
    if around.nearest.get(here) != now:
        return None
    if offsets == ((0, 0),):
        candidates = set(reached)
        candidates.update([(aq + q, ar + r) for q, r in around.farther[here]])
        candidates.discard(anchor)
        return candidates
    found = set(chain.from_iterable(map(around.by_near.get, [(q - aq, r - ar) for q, r in reached], repeat(()))))
    found.update(around.farther[here])
    found.discard(here)
    return {(aq + q, ar + r) for q, r in found}


class _Around(NamedTuple):
    """The anchors of a footprint around an attacker of one space at (0, 0) whose nearest space is within a Reach."""

    nearest: dict[Cell, int]
    """Each such anchor: the distance of its footprint's nearest space."""
    by_near: dict[Cell, tuple[Cell, ...]]
    """Each space within the Reach: the anchors it is a nearest space of (an attack reaching it reaches them)."""
    farther: dict[Cell, tuple[Cell, ...]]
    """Each such anchor: its neighbours farther from (0, 0) (those not within the Reach are)."""


@lru_cache(maxsize=256)
def _around(grid: Grid, rng: int, offsets: tuple[Cell, ...]) -> _Around:
    """The `_Around` of a footprint of `offsets` and Reach `rng`, found ring by ring from (0, 0) outwards."""
    nearest: dict[Cell, int] = {}
    by_near: dict[Cell, tuple[Cell, ...]] = {}
    for d, ring in enumerate(_offset_rings(grid, rng)):
        for q, r in ring:
            met = [(q - dq, r - dr) for dq, dr in offsets]
            by_near[(q, r)] = tuple(a for a in met if nearest.setdefault(a, d) == d)
    farther = {a: tuple(n for n in grid.neighbours(a) if nearest.get(n, rng + 1) > d) for a, d in nearest.items()}
    return _Around(nearest, by_near, farther)


def _fitting(
    state: GameState,
    occ: Occupancy,
    target: Creature,
    offsets: tuple[Cell, ...],
    anchors: set[Cell],
    known_open: Iterable[Cell],
    filled: AbstractSet[Cell],
    on_map: bool,
) -> set[Cell]:
    """The `anchors` where `target` (its footprint `offsets`) may stand, as `standable` finds them: an anchor is
    refused when a space its footprint fills is refused (a wall or object, off the map, or too full with the others
    there). Each space is asked once whatever anchors share it, walls and the map's edge only of those not in
    `known_open` (open spaces on the map), fullness only of those a creature stands in. `on_map`: the caller knows
    every space filled at every anchor lies on the map."""
    one = offsets == ((0, 0),)
    cells = anchors if one else {(q + dq, r + dr) for q, r in anchors for dq, dr in offsets}
    unknown = cells.difference(known_open)
    if on_map:
        refused = unknown.intersection(filled)
    else:
        cols, rows = state.board.cols, state.board.rows
        in_bounds = grid_of(state).in_bounds
        refused = {cell for cell in unknown if cell in filled or not in_bounds(cell, cols, rows)}
    by_cell = occ.by_cell
    creatures = state.creatures
    me = target.id
    mine = fill(target)
    capacity = state.settings.space_capacity + 1e-9
    for cell in by_cell.keys() & cells:
        here = by_cell[cell]
        if here and mine + sum(fill(creatures[o]) for o in here if o != me) > capacity:
            refused.add(cell)
    if not refused:
        return anchors
    if one:
        return anchors - refused
    return anchors - {(q - dq, r - dr) for q, r in refused for dq, dr in offsets}


def _reached_anchors(
    grid: Grid, mine: tuple[Cell, ...], rng: int, offsets: tuple[Cell, ...], reached: set[Cell]
) -> tuple[set[Cell], dict[Cell, int]]:
    """The anchors at which a footprint of `offsets` is within Reach `rng` of `mine` and reached past the walls
    (`attack_path` to it finds a line), for the anchors where every space of the footprint is open and on the map:
    `reached` holds those of the open spaces within the Reach an attack reaches. A line is tried to the footprint's
    nearest spaces alone, so it is reached when one of its nearest spaces is. With them, the distance of each anchor
    within the Reach (of its footprint's nearest space), found ring by ring from `mine` outwards."""
    nearest: dict[Cell, int] = {}
    found: set[Cell] = set()
    for d, ring in enumerate(_rings(grid, mine, rng)):
        met: set[Cell] = set()
        good: set[Cell] = set()
        for dq, dr in offsets:
            met.update([(q - dq, r - dr) for q, r in ring])
        met.difference_update(nearest)
        if reached.issuperset(ring):  # every anchor met here has a nearest space reached
            found |= met
        else:
            hit = [cell for cell in ring if cell in reached]
            for dq, dr in offsets:
                good.update([(q - dq, r - dr) for q, r in hit])
            found |= good & met
        nearest.update(dict.fromkeys(met, d))
    return found, nearest


def _rings(grid: Grid, mine: tuple[Cell, ...], rng: int) -> list[list[Cell]]:
    """The spaces 0, 1, ... `rng` from `mine` (the nearest of its spaces)."""
    if len(mine) == 1:
        ((q, r),) = mine
        return [[(q + dq, r + dr) for dq, dr in ring] for ring in _offset_rings(grid, rng)]
    rings: list[list[Cell]] = [[] for _ in range(rng + 1)]
    for cell in grid.area_within(mine, rng):
        rings[footprint_distance(grid, mine, (cell,))].append(cell)
    return rings


@lru_cache(maxsize=64)
def _offset_rings(grid: Grid, rng: int) -> tuple[tuple[Cell, ...], ...]:
    origin = (0, 0)
    return tuple(tuple(c for c in grid.within(origin, rng) if grid.distance(origin, c) == d) for d in range(rng + 1))


def reposition(
    tx: Tx,
    creature: str,
    target: str,
    to: Cell,
    weapon: str | None,
    limb: str | None,
    charge: bool,
    minor: bool,
    dice: DiceSource,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    t = tx.get(target)
    arm = armament(state, c, weapon, limb)
    if charge:
        tactics.require_charge(state, c)
    occ = Occupancy(state)
    filled = state.board.filled()
    plan = plan_weapon_overpower(state, occ, c, t, "reposition", arm, filled, charge, minor)
    if (why := why_not_destination(state, occ, c, t, plan.reach, to, filled)) is not None:
        raise RuleError(why)
    flurry = (minor, attack_limbs(state, c, arm))
    return _attack(tx, c, t, "reposition", plan, {"to": list(to)}, dice, charge=charge, flurry=flurry)


def _cell(value: Any) -> Cell:
    return (int(value[0]), int(value[1]))


def _move_target(tx: Tx, mover: str, target: str, to: Cell) -> list[Event]:
    t = tx.creature(target)
    start = t.anchor
    t.anchor = to
    return [
        Event(
            kind="repositioned",
            text=f"{tx.get(mover).name} moves {t.name} from {start} to {to}.",
            actor=mover,
            target=target,
            data={"from": start, "to": to},
        ),
        *check_touch(tx),
    ]


@attacks.on_result("reposition")
def _reposition_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    to = _cell(spec.params["to"])
    state = tx.state
    t = tx.get(spec.target)
    others: list[str] = []
    for hold in holds_of(state, t.id):
        others += [m for m in hold.members if m not in (t.id, spec.attacker) and m not in others]
    if not others:
        return _move_target(tx, spec.attacker, t.id, to)
    spaces = grid_of(state).distance(t.anchor, to)
    attack = roll(
        dice, f"{tx.get(spec.attacker).name}: moving {t.name} {count(spaces, 'space')} out of the Hold", spaces
    )
    nxt = attacks.AttackSpec(
        action="reposition_hold",
        attacker=spec.attacker,
        target=others[0],
        dl=0,
        defense_skill=state.settings.hold_escape_skill,
        attack=attack,
        params={"moved": t.id, "to": list(to), "remaining": others[1:]},
    )
    return attacks.resolve(tx, nxt, dice)


@attacks.on_result("reposition_hold")
def _reposition_hold_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    moved = spec.params["moved"]
    if not result.success:
        return [
            Event(
                kind="move_blocked",
                text=f"{tx.get(moved).name} is not moved out of the Hold.",
                actor=spec.attacker,
                target=moved,
            )
        ]
    remaining: list[str] = list(spec.params.get("remaining", []))
    if remaining:
        nxt = spec._replace(target=remaining[0], params={**spec.params, "remaining": remaining[1:]})
        return attacks.resolve(tx, nxt, dice)
    return [*leave_holds(tx, moved), *_move_target(tx, spec.attacker, moved, _cell(spec.params["to"]))]


# --------------------------------------------------------------------------------------------------------
# Grapple and Break Hold
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LimbPlan:
    """A Grapple or Break Hold: the Hold, the Held creature, the limb it uses, and the attack plan."""

    hold: Hold
    held: str
    limb: Limb
    plan: AttackPlan


def hold_limbs(c: Creature, hold: Hold) -> list[Limb]:
    """The creature's parts used in the Hold."""
    used = hold.holders.get(c.id, [])
    return [lb for lb in c.limbs if lb.id in used]


def _choose_limb(c: Creature, limb_id: str | None, options: list[Limb], what: str) -> Limb:
    if limb_id is not None:
        found = next((lb for lb in options if lb.id == limb_id), None)
        if found is None:
            raise RuleError(f"{c.name}'s {limb_id} is not {what}")
        return found
    if not options:
        raise RuleError(f"{c.name} has no {what}")
    best = best_limb(c, options)
    assert best is not None
    return best


def grapple_hold(state: GameState, c: Creature, target: Creature) -> Hold:
    """The Hold a Grapple on `target` joins: "target creature in a Hold" is a Held creature or a Holder. Of several,
    the one `c` is already in, else the one `target` is Held in."""
    holds = [h for h in state.holds.values() if target.id in h.members]
    if not holds:
        raise RuleError(f"{target.name} is in no Hold: Grapple needs a creature in a Hold")
    return next((h for h in holds if c.id in h.members), next((h for h in holds if target.id in h.held), holds[0]))


def plan_grapple(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    target: Creature,
    limb_id: str | None,
    filled: AbstractSet[Cell],
    called_shot: str | None = None,
    suffocate: bool = False,
    charge: bool = False,
    with_distal: bool = False,
    swallowing: bool = False,
) -> LimbPlan:
    if target.id == c.id:
        raise RuleError(f"{c.name} cannot Grapple itself")
    hold = grapple_hold(state, c, target)
    mine = [x for x in hold.locks if x.holder == c.id]
    in_hold = hold_limbs(c, hold)
    spent = tactics.spent_limbs(state, c.id)
    free = [lb for lb in c.limbs if lb.free and lb.can_grip and lb.id not in spent]
    if called_shot is not None:
        part = tactics.called_part(target, called_shot)
        if any(x.held == target.id and x.part == part.id for x in hold.locks):
            raise RuleError(f"{target.name}'s {part.name} is already kept from use in the Hold")
        if len(mine) >= len(in_hold):
            in_hold = []
    in_hold = [lb for lb in in_hold if lb.id not in spent]
    if suffocate and not any(x.held == target.id and x.part == HEAD for x in mine):
        raise RuleError(f"{c.name} does not keep {target.name}'s head from use: it cannot suffocate it")
    if swallowing:
        if called_shot is not None or suffocate:
            raise RuleError("a Grapple to swallow goes with no Called Shot and no suffocating")
        if (why := swallow.why_not_swallow(state, c, target)) is not None:
            raise RuleError(why)
    if with_distal and limb_id is None:
        armed = distal.with_distal([*in_hold, *free])
        if not armed:
            raise RuleError(f"{c.name} has no Distal on a Free Limb or a part used in the Hold")
        limb = armed[0]
    elif limb_id is None and in_hold:
        limb = in_hold[0]
    else:
        what = "a Free Limb" if called_shot is not None and not in_hold else "a Free Limb or a part used in the Hold"
        limb = _choose_limb(c, limb_id, [*in_hold, *free], what)
    if with_distal and limb.distal is None:
        raise RuleError(f"{c.name}'s {limb.name} has no Distal")
    rng = reach(c, limb)
    dist, path = _touch(state, occ, c, target, rng, filled, "Grapple")
    wounded = ailments.wounded_use_modifiers(state, c, [limb.id])
    terms = _shared_terms(state, c, target, wounded, called_shot is not None, charge)
    plan = _plan(state, c, target, "grapple", rng, dist, path, limb.name, terms)
    return LimbPlan(hold=hold, held=target.id, limb=limb, plan=plan)


def grapple(
    tx: Tx,
    creature: str,
    target: str,
    limb_id: str | None,
    called_shot: str | None,
    suffocate: bool,
    charge: bool,
    dice: DiceSource,
    with_distal: bool = False,
    strike_type: str | None = None,
    swallowing: bool = False,
    minor: bool = False,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    t = tx.get(target)
    if charge:
        tactics.require_charge(state, c)
    if strike_type is not None and not with_distal:
        raise RuleError("a Strike type is chosen only for the damage of a Distal")
    filled = state.board.filled()
    lp = plan_grapple(
        state, Occupancy(state), c, t, limb_id, filled, called_shot, suffocate, charge, with_distal, swallowing
    )
    params: dict[str, Any] = {"hold": lp.hold.id, "limb": lp.limb.id, "suffocate": suffocate, "swallow": swallowing}
    if called_shot is not None:
        params.update({"called_part": called_shot, "part_offset": tactics.called_part(t, called_shot).size_offset})
    if with_distal:
        params["distal"] = distal.params(state, c, lp.limb, strike_type)
    called = called_shot is not None
    flurry = (minor, [lp.limb.id])
    return _attack(tx, c, t, "grapple", lp.plan, params, dice, called_shot=called, charge=charge, flurry=flurry)


def _join(tx: Tx, hold: Hold, creature: str, limb_id: str) -> None:
    hold = tx.hold(hold.id)
    limbs = hold.holders.setdefault(creature, [])
    if limb_id not in limbs:
        limbs.append(limb_id)
    limb = tx.creature(creature).limb(limb_id)
    if limb is not None and limb.hold_id != hold.id:
        tx.own(creature, limb).hold_id = hold.id


@attacks.on_result("grapple")
def _grapple_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    hold = tx.state.holds.get(spec.params["hold"])
    if hold is None or spec.target not in hold.members:
        return []
    c, t = tx.get(spec.attacker), tx.get(spec.target)
    limb_id: str = spec.params["limb"]
    events: list[Event] = []
    swallowing = bool(spec.params.get("swallow"))
    if not swallowing and (not spec.params["suffocate"] or tx.state.settings.suffocate_also_grapples):
        hold = tx.hold(hold.id)
        hold.caused.setdefault(c.id, {})[t.id] = caused_by(hold, c.id, t.id) + 1
        hold.extra_encumbered[t.id] = hold.extra_encumbered.get(t.id, 0) + 1
        _join(tx, hold, c.id, limb_id)
        events.append(
            Event(
                kind="grapple",
                text=f"{c.name} Grapples {t.name}: +1 Tier of Encumbered from the Hold "
                f"(now {hold_encumbered(tx.state, hold, t.id)}); {c.name} is a Holder.",
                actor=c.id,
                target=t.id,
                data={"hold": hold.id, "limb": limb_id},
            )
        )
    part_id = spec.params.get("called_part")
    struck: str | None = None
    if part_id is not None:
        offset = int(spec.params["part_offset"])
        part = t.part(part_id)
        name = part.name if part else part_id
        if tactics.part_struck(result, offset):
            struck = part_id
            hold = tx.hold(hold.id)
            _join(tx, hold, c.id, limb_id)
            hold.locks.append(PartLock(held=t.id, part=part_id, holder=c.id, limb=limb_id))
            body = tx.creature(t.id).limb(part_id)
            if body is not None and body.hold_id is None:
                tx.own(t.id, body).hold_id = hold.id
            text = f"The Called Shot beats the defense by {result.margin} (needs {offset}): {t.name} cannot use its "
            text += f"{name} while in the Hold."
        else:
            text = f"The Called Shot beats the defense by {result.margin}, not the {offset} the {name} needs."
        events.append(
            Event(
                kind="called_shot",
                text=text,
                actor=c.id,
                target=t.id,
                data={"part": part_id, "needed": offset, "margin": result.margin},
            )
        )
    if spec.params["suffocate"]:
        lock = next((x for x in hold.locks if x.holder == c.id and x.held == t.id and x.part == HEAD), None)
        if lock is not None:
            lock = tx.lock(hold.id, lock)
            lock.strangled += 1
            m = tx.creature(t.id)
            m.ailments["Strangled"] = m.ailments.get("Strangled", 0) + 1
            events.append(
                Event(
                    kind="ailment",
                    text=f"{c.name} suffocates {t.name}: Tier 1 Strangled until its head is no longer held.",
                    actor=c.id,
                    target=t.id,
                    data={"ailment": "Strangled", "tier": m.ailments["Strangled"]},
                )
            )
    if spec.params.get("distal") is not None:
        events += deal(tx, distal.hit(c, t.id, spec.params["distal"], spec.attack, struck), dice)
    if swallowing:
        events += swallow.swallow(tx, c.id, t.id)
    return events


def plan_break_hold(
    state: GameState,
    occ: Occupancy,
    c: Creature,
    holder: Creature,
    held: str | None,
    limb_id: str | None,
    filled: AbstractSet[Cell],
    free_part: str | None = None,
    charge: bool = False,
) -> LimbPlan:
    spent = tactics.spent_limbs(state, c.id)
    pairs = [(h, x) for h in state.holds.values() if holder.id in h.holders for x in h.held]
    if not pairs:
        raise RuleError(f"{holder.name} is not a Holder")
    if held is not None:
        pairs = [(h, x) for h, x in pairs if x == held]
        if not pairs:
            raise RuleError(f"{holder.name} does not hold {held!r}")
    if len(pairs) > 1:
        raise RuleError(f"{holder.name} holds more than one creature: name the Grabbed one")
    hold, grabbed = pairs[0]
    if free_part is not None and not any(
        x.holder == holder.id and x.held == grabbed and x.part == free_part for x in hold.locks
    ):
        raise RuleError(f"{holder.name} keeps no part {free_part!r} of the Grabbed creature from use")
    options = [lb for lb in [*hold_limbs(c, hold), *(lb for lb in c.limbs if lb.free)] if lb.id not in spent]
    limb = _choose_limb(c, limb_id, options, "a Free Limb or a part used in the Hold")
    rng = reach(c, limb)
    dist, path = _touch(state, occ, c, holder, rng, filled, "Break Hold")
    wounded = ailments.wounded_use_modifiers(state, c, [limb.id])
    terms = _shared_terms(state, c, holder, wounded, False, charge)
    plan = _plan(state, c, holder, "break_hold", rng, dist, path, limb.name, terms)
    return LimbPlan(hold=hold, held=grabbed, limb=limb, plan=plan)


def break_hold(
    tx: Tx,
    creature: str,
    target: str,
    held: str | None,
    limb_id: str | None,
    free_part: str | None,
    charge: bool,
    dice: DiceSource,
    minor: bool = False,
) -> list[Event]:
    state = tx.state
    c = require_active(state, creature)
    holder = tx.get(target)
    if charge:
        tactics.require_charge(state, c)
    lp = plan_break_hold(state, Occupancy(state), c, holder, held, limb_id, state.board.filled(), free_part, charge)
    params = {"hold": lp.hold.id, "held": lp.held, "free_part": free_part}
    flurry = (minor, [lp.limb.id])
    return _attack(tx, c, holder, "break_hold", lp.plan, params, dice, charge=charge, flurry=flurry)


@attacks.on_result("break_hold")
def _break_hold_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    if not result.success:
        return []
    state = tx.state
    hold = state.holds.get(spec.params["hold"])
    grabbed: str = spec.params["held"]
    holder = spec.target
    if hold is None or holder not in hold.holders or grabbed not in hold.held:
        return []
    free_part: str | None = spec.params.get("free_part")
    by = BREAK_HOLD_FREEING_REDUCTION if free_part else BREAK_HOLD_REDUCTION
    hold = tx.hold(hold.id)
    caused = caused_by(hold, holder, grabbed)
    lowered = min(by, caused)
    hold.caused.setdefault(holder, {})[grabbed] = caused - lowered
    hold.extra_encumbered[grabbed] = hold.extra_encumbered.get(grabbed, 0) - min(
        lowered, hold_encumbered(state, hold, grabbed)
    )
    own = min(by, hold_encumbered(state, hold, holder))
    hold.extra_encumbered[holder] = hold.extra_encumbered.get(holder, 0) - own
    h, g = tx.get(holder).name, tx.get(grabbed).name
    events = [
        Event(
            kind="break_hold",
            text=f"{h} causes {g} {count(lowered, 'Tier')} of Encumbered fewer and suffers {own} fewer: {g} has "
            f"{hold_encumbered(state, hold, grabbed)} from the Hold, {h} {hold_encumbered(state, hold, holder)}.",
            actor=spec.attacker,
            target=holder,
            data={"hold": hold.id, "held": grabbed, "lowered": lowered, "holder_lowered": own},
        )
    ]
    if free_part is not None:
        lock = next((x for x in hold.locks if x.holder == holder and x.held == grabbed and x.part == free_part), None)
        if lock is not None:
            release_limb(tx, hold, holder, lock.limb)
            events.append(
                Event(
                    kind="part_freed",
                    text=f"{g}'s {free_part.replace('_', ' ')} and {h}'s {lock.limb.replace('_', ' ')} leave the Hold.",
                    actor=spec.attacker,
                    target=grabbed,
                    data={"part": free_part, "limb": lock.limb},
                )
            )
    if grabbed in hold.held and hold.holders and hold_encumbered(state, hold, grabbed) == 0:
        remove_held(tx, hold, grabbed)
        events.append(
            Event(kind="hold_left", text=f"{g} has no Encumbered left: it is removed from the Grab.", actor=grabbed)
        )
    return events + end_empty_holds(tx)


# --------------------------------------------------------------------------------------------------------
# The attack
# --------------------------------------------------------------------------------------------------------


def _attack(
    tx: Tx,
    c: Creature,
    target: Creature,
    action: OverpowerAction,
    plan: AttackPlan,
    params: dict[str, Any],
    dice: DiceSource,
    called_shot: bool = False,
    charge: bool = False,
    defense_mods: list[Modifier] | None = None,
    flurry: tuple[bool, list[str]] = (False, []),
) -> list[Event]:
    paid = tactics.pay_attack(tx, c.id, flurry[0], flurry[1])
    declared = [*paid, *tactics.declare(tx, c.id, called_shot, charge)]
    attack = attack_roll(tx, dice, c.id, plan.label, plan.dice, plan.modifiers, plan.dice_changes)
    spec = attacks.AttackSpec(
        action=action,
        attacker=c.id,
        target=target.id,
        dl=plan.dl,
        defense_skill=plan.defense_skill or roll_terms(tx.state, action)[1],
        attack=attack,
        defense_modifiers=defense_mods or [],
        params=params,
    )
    path_event = Event(
        kind="reach",
        text=f"{c.name} reaches {count(plan.distance, 'space')} (Reach {plan.reach}) "
        f"through {count(len(plan.path), 'space')}.",
        actor=c.id,
        target=target.id,
        data={"path": plan.path, "reach": plan.reach},
    )
    return [*declared, path_event, *attacks.resolve(tx, spec, dice)]
