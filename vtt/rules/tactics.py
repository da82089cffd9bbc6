"""Tactics (seed-000): Called Shot and Charge, declared with the attack they go with.

- Called Shot: "For 1 round, suffer -1 on physical attack rolls and when you make a physical attack that has a
  single target, you can choose to target a specific part of the target. If your attack succeeds and exceeds the
  defense by an amount based on the target, the attack strikes the part and treats Severe Threshold as half. If
  Threshold is below 0, instead double it. If you cause Serious Injury, you may replace each Tier of Wounded with
  2 Tiers of Trauma." The amount "equals the number of sizes that the specified part is smaller than the target"
  (`BodyPart.size_offset`: torso 2, legs 3, arms and stomach 4, head 5, eyes and ears 9 on a humanoid).
  It is declared as the `called_shot` part of a Strike or a Grapple. The first declaration starts the effect
  "Called Shot" (-1 on the creature's physical attack rolls until its next turn starts), which that very attack
  already suffers; later attacks in the same round suffer it once, not once more. An attack that succeeds but
  does not exceed the defense by the part's offset is an ordinary hit.
- Charge: "After moving 2 consecutive spaces, if you have used Dash this turn, use an action that includes using a
  Strike or Overpower, gain +1 on the attack roll, and suffer -1 on defenses against physical attacks for 1 round.
  Your turn ends after the attack." It is the `charge` flag of a Strike or an Overpower. The turn ends when the
  attack is resolved: after a pending defense is answered, after every attack it leads to. A creature of the
  Soulweaver's acting on the Soulweaver's shared turn cannot end that turn for the others: its own actions and
  Movement for the turn are used up instead.
- Flurry: "Declare a number. For 1 round, lose that number of d12 on attack rolls and half that number on damage
  rolls. Up to the declared number times this turn, you can use any Strike or Overpower as a Minor Action. If you
  do, limbs used to attack cannot be used to attack again for 1 round and if attacking with a weapon that is not
  Lightweight, lose an additional 1d12 on that attack roll." The `flurry` command declares it (cost: the table
  setting `flurry_cost`, no action by default, like Called Shot; the number from 1 to `flurry_max`; once per
  round, as its effect lasts the round). The effect "Flurry" carries the d12 lost on every attack roll and on
  damage (half, rounded down -- an ASSUMPTION) by the keys `attack_dice` and `damage_dice`. The `minor` flag of a
  Strike, Disarm, Impair or Reposition (and of a Grab, a space attack, a Grapple, a Break Hold or an attack on a
  stomach from inside) pays a Minor Action instead of the Major while uses are left; the limbs it used (the
  gripping limbs of a weapon, or the unarmed limb) go into the effect "Flurry: limbs used" and cannot attack for
  1 round. Collision uses no Major Action, so it has no Minor form; its roll and damage still lose the dice.
- Distract: "Create a diversion to draw attention to cause the creature to become Focused on you and they cannot
  drop Focus until their next turn. After you use an action or speak, attack creatures that are Aware of that
  action. Gain +1 on your roll if you used a Minor Action and +2 if you used a Major Action. If your action creates
  a sound at range, creatures instead become Focused on the space where the sound was made. Creatures that expect
  you to use this action gain +6 on their defense." A Distract costs no action of its own: it follows an action
  used this turn (`Economy.distractable`, filled as actions are paid; each action carries one Distract) or a
  speech (`action="speak"`, free, no bonus). Being an attack, it is refused on a full Resolve Pool (seed-004), as
  a Hinder is. Any sender may name the creatures that expect it (`expects`). The `distract` command rolls
  one attack (table settings: `distract_skill` Guile against `distract_defense` Observe, DL `distract_dl`)
  against each chosen creature; a creature is Aware (ASSUMPTION) when it is not Unaware or Unconscious and is
  within `distract_range` spaces, and, of an action, perceives the distracter (sees it, or knows its space by
  sound or scent: `vision.perceives`, the computation of fog of war; its Blinded and Deafened are not a bar but
  Concealment on its defense, below); speech is heard through walls. It is not a physical attack. On success the
  creature's `focus` (or
  `focus_space`, for a sound at range) is set and `focus_locked` holds until its next turn starts. Focus gives
  `focus_bonus` (+1) on its attack rolls against its Focus (`conditions.attack_modifiers`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from vtt.rules import attacks, near, senses, vision
from vtt.rules.ailments import (
    EFFECT_ATTACK_DICE,
    EFFECT_DAMAGE_DICE,
    attack_dice_changes,
    attack_roll_modifiers,
    can_speak,
    speech_error,
)
from vtt.rules.checks import AttackResult
from vtt.rules.conditions import PHYSICAL_ATTACK, PHYSICAL_DEFENSE
from vtt.rules.dice import DiceChange, DiceSource, Modifier
from vtt.rules.events import Event, RuleError
from vtt.rules.grid import footprint_distance
from vtt.rules.model import BodyPart, Cell, Creature, Effect, GameState, Weapon
from vtt.rules.situational import attack_roll
from vtt.rules.space import Occupancy, grid_of
from vtt.rules.turns import break_moves, refuse_on_full_resolve, require_active, spend
from vtt.rules.txn import Tx
from vtt.rules.words import count

CALLED_SHOT = "Called Shot"
CALLED_SHOT_PENALTY = -1
CHARGE = "Charge"
CHARGE_ATTACK_BONUS = 1
CHARGE_DEFENSE_PENALTY = -1
CHARGE_SPACES = 2
FLURRY = "Flurry"
FLURRY_LIMBS = "Flurry: limbs used"
FLURRY_WEAPON_DICE = -1
"""seed-000 Flurry: a weapon that is not Lightweight loses an additional 1d12 on a Minor Action attack."""
DISTRACT = "Distract"
DISTRACT_BONUS = {"minor": 1, "major": 2, "speak": 0}
DistractAction = Literal["major", "minor", "speak"]
DISTRACT_AFTER: dict[str, str] = {"major": "after a Major Action", "minor": "after a Minor Action", "speak": "speaking"}
DISTRACT_EXPECTED = 6
"""seed-000 Distract: "Creatures that expect you to use this action gain +6 on their defense"."""


def called_shot_active(state: GameState, creature_id: str) -> bool:
    return any(e.name == CALLED_SHOT and e.subject == creature_id for e in state.effects)


def can_charge(state: GameState, creature_id: str) -> bool:
    """seed-000 Charge: after moving 2 consecutive spaces, having used Dash this turn."""
    econ = state.economy.get(creature_id)
    return econ is not None and econ.dashed and econ.consecutive_spaces >= CHARGE_SPACES


def require_charge(state: GameState, c: Creature) -> None:
    econ = state.economy.get(c.id)
    if econ is None or not econ.dashed:
        raise RuleError(f"{c.name} has not used Dash this turn: no Charge")
    if econ.consecutive_spaces < CHARGE_SPACES:
        raise RuleError(f"{c.name} has not moved {CHARGE_SPACES} consecutive spaces: no Charge")


def declared_modifiers(state: GameState, c: Creature, called_shot: bool, charge: bool) -> list[Modifier]:
    """What declaring a Called Shot or a Charge with this attack adds to its roll."""
    mods: list[Modifier] = []
    if called_shot and not called_shot_active(state, c.id):
        mods.append(_called_shot_modifier(c.id))
    if charge:
        mods.append(_charge_modifier(c.id))
    return mods


@lru_cache(maxsize=4096)  # a Modifier is frozen: every attack of a menu declaring it shares one
def _called_shot_modifier(source: str) -> Modifier:
    why = f"{CALLED_SHOT}: -1 on physical attack rolls for 1 round"
    return Modifier(value=CALLED_SHOT_PENALTY, reason=why, key="called_shot", source=source)


@lru_cache(maxsize=4096)
def _charge_modifier(source: str) -> Modifier:
    return Modifier(value=CHARGE_ATTACK_BONUS, reason=f"{CHARGE}: +1 on the attack roll", key="charge", source=source)


def called_part(target: Creature, part_id: str) -> BodyPart:
    """The part a Called Shot aims at; RuleError when the target has no such part left."""
    part = target.part(part_id)
    if part is None:
        raise RuleError(f"{target.name} has no part {part_id!r}")
    if part.severed:
        raise RuleError(f"{target.name}'s {part.name} is severed")
    return part


def part_struck(result: AttackResult, offset: int) -> bool:
    """seed-000 Called Shot: the attack succeeds and exceeds the defense by the part's size offset."""
    return result.success and result.margin >= offset


def declare(tx: Tx, creature_id: str, called_shot: bool, charge: bool) -> list[Event]:
    """Start the effects of a Called Shot and a Charge declared with an attack (after its cost is paid)."""
    state = tx.state
    name = tx.get(creature_id).name
    events: list[Event] = []
    if called_shot and not called_shot_active(state, creature_id):
        tx.effects().append(
            Effect(
                id=state.new_id("e"),
                name=CALLED_SHOT,
                creator=creature_id,
                subject=creature_id,
                modifiers={PHYSICAL_ATTACK: CALLED_SHOT_PENALTY},
            )
        )
        events.append(
            Event(
                kind="effect",
                text=f"{name} makes a Called Shot: -1 on physical attack rolls for 1 round.",
                actor=creature_id,
                data={"effect": CALLED_SHOT},
            )
        )
    if charge:
        tx.effects().append(
            Effect(
                id=state.new_id("e"),
                name=CHARGE,
                creator=creature_id,
                subject=creature_id,
                modifiers={PHYSICAL_DEFENSE: CHARGE_DEFENSE_PENALTY},
            )
        )
        tx.economy(creature_id).charging = True
        events.append(
            Event(
                kind="effect",
                text=f"{name} Charges: +1 on this attack, -1 on defenses against physical attacks for 1 round; "
                "the turn ends after the attack.",
                actor=creature_id,
                data={"effect": CHARGE},
            )
        )
    return events


# --------------------------------------------------------------------------------------------------------
# Flurry
# --------------------------------------------------------------------------------------------------------


def flurry_effect(state: GameState, creature_id: str) -> Effect | None:
    return next((e for e in state.effects if e.name == FLURRY and e.subject == creature_id), None)


def flurry_uses(state: GameState, creature_id: str) -> int:
    econ = state.economy.get(creature_id)
    return econ.flurry_uses if econ is not None and flurry_effect(state, creature_id) is not None else 0


def flurry(tx: Tx, creature_id: str, number: int) -> list[Event]:
    """seed-000 Flurry: declare a number; the effect lasts 1 round; uses as Minor Actions this turn."""
    state = tx.state
    c = require_active(state, creature_id)
    s = state.settings
    if not 1 <= number <= s.flurry_max:
        raise RuleError(f"a Flurry declares a number from 1 to {s.flurry_max}")
    if flurry_effect(state, creature_id) is not None:
        raise RuleError(f"{c.name} has already declared a Flurry this round")
    if s.flurry_cost == "major":
        spend(tx, creature_id, major=1)
    elif s.flurry_cost == "minor":
        spend(tx, creature_id, minor=1)
    else:
        refuse_on_full_resolve(state, creature_id, "declare a Flurry")
        break_moves(tx, creature_id)
    mods = {EFFECT_ATTACK_DICE: -number}
    if number // 2:
        mods[EFFECT_DAMAGE_DICE] = -(number // 2)
    tx.effects().append(Effect(id=state.new_id("e"), name=FLURRY, creator=c.id, subject=c.id, modifiers=mods))
    tx.economy(c.id).flurry_uses = number
    return [
        Event(
            kind="effect",
            text=f"{c.name} declares a Flurry of {number}: lose {number}d12 on attack rolls and {number // 2}d12 "
            f"on damage rolls for 1 round; up to {count(number, 'Strike')} or "
            f"{'Overpower' if number == 1 else 'Overpowers'} as a Minor Action this turn.",
            actor=c.id,
            data={"effect": FLURRY, "number": number},
        )
    ]


def flurry_damage_changes(state: GameState, c: Creature) -> list[DiceChange]:
    """seed-000 Flurry: "lose ... half that number on damage rolls" for 1 round."""
    if not state.effects:
        return []
    return [
        DiceChange(
            dice=e.modifiers[EFFECT_DAMAGE_DICE],
            reason=f"{e.name}: lose {-e.modifiers[EFFECT_DAMAGE_DICE]}d12 on damage rolls",
        )
        for e in state.effects
        if e.subject == c.id and e.modifiers.get(EFFECT_DAMAGE_DICE)
    ]


def flurry_weapon_changes(weapon: Weapon | None, minor: bool) -> list[DiceChange]:
    """seed-000 Flurry: a Minor Action attack with a weapon that is not Lightweight loses an additional 1d12."""
    if not minor or weapon is None or weapon.lightweight:
        return []
    return [DiceChange(dice=FLURRY_WEAPON_DICE, reason=f"Flurry: {weapon.name} is not Lightweight, lose 1d12")]


def spent_limbs(state: GameState, creature_id: str) -> set[str]:
    """seed-000 Flurry: limbs that attacked as a Minor Action cannot attack again for 1 round."""
    if not state.effects:
        return set()
    return {lid for e in state.effects if e.name == FLURRY_LIMBS and e.subject == creature_id for lid in e.limbs}


def pay_attack(tx: Tx, creature_id: str, minor: bool, limbs: list[str]) -> list[Event]:
    """Pay an attack (a Strike, an Overpower, a shot): a Major Action, or with `minor` a Minor Action of a Flurry,
    which keeps the limbs used from attacking for 1 round."""
    if not minor:
        spend(tx, creature_id, major=1, attack=True)
        return []
    state = tx.state
    name = tx.get(creature_id).name
    if flurry_uses(state, creature_id) <= 0:
        raise RuleError(f"{name} has no Flurry use left this turn: the attack is a Major Action")
    spend(tx, creature_id, minor=1, attack=True)
    econ = tx.economy(creature_id)
    econ.flurry_uses -= 1
    tx.effects().append(
        Effect(id=state.new_id("e"), name=FLURRY_LIMBS, creator=creature_id, subject=creature_id, limbs=list(limbs))
    )
    used = ", ".join(lid.replace("_", " ") for lid in limbs) or "no limb"
    return [
        Event(
            kind="effect",
            text=f"{name} attacks as a Minor Action (Flurry, {count(econ.flurry_uses, 'use')} left): {used} cannot "
            "attack again for 1 round.",
            actor=creature_id,
            data={"effect": FLURRY_LIMBS, "limbs": list(limbs), "uses_left": econ.flurry_uses},
        )
    ]


# --------------------------------------------------------------------------------------------------------
# Distract
# --------------------------------------------------------------------------------------------------------


def aware_of(
    state: GameState,
    c: Creature,
    other: Creature,
    occ: Occupancy | None = None,
    action: DistractAction | None = None,
) -> bool:
    """Whether `other` is Aware of `c`'s `action` (None: of any Distract `c` could make now). ASSUMPTION: when it
    is not Unaware or Unconscious and is within the table's `distract_range`; and, for an action (not speech, which
    is heard through walls), when it perceives `c` as fog of war does (`vision.perceives`: sees it, or knows its
    space by its sound or scent; its Blinded and Deafened count as Concealment on its defense instead).
    (`occ`: the state's occupancy, when the caller has one.)"""
    if not _may_be_aware(c, other):
        return False
    occ = occ or Occupancy(state)
    dist = footprint_distance(grid_of(state), occ.cells[c.id], occ.cells[other.id])
    return dist <= state.settings.distract_range and _perceives(state, c, other, action)


def _may_be_aware(c: Creature, other: Creature) -> bool:
    """`aware_of` but for the range and what `other` perceives."""
    if other.id == c.id or other.dead or other.unconscious or other.ailments.get("Unaware", 0) > 0:
        return False
    return other.swallowed_by is None and c.swallowed_by is None  # off the board (seed-000 swallowing)


def _perceives(state: GameState, c: Creature, other: Creature, action: DistractAction | None) -> bool:
    """`aware_of` of a creature within range that may be Aware."""
    speaking = action == "speak" or (action is None and can_speak(state, c))
    return speaking or vision.perceives(state, other.id, c.id, ailments=False) is not None


def distract_targets(
    state: GameState, c: Creature, occ: Occupancy | None = None, kinds: list[DistractAction] | None = None
) -> list[str]:
    """The creatures Aware of every Distract `c` could make now (`distract_actions`, or `kinds` when the caller has
    them), so that the menu may offer each with any of them: of an action when it may follow one (a creature Aware of
    an action is Aware of speech too), else of its speech."""
    occ = occ or Occupancy(state)
    if c.swallowed_by is not None:
        return []
    if kinds is None:
        kinds = distract_actions(state, c.id)
    action: DistractAction = next((k for k in kinds if k != "speak"), "speak")
    # Only a creature with a space within range can be Aware: the others are not asked about, and those are within it.
    found = near.within(occ, grid_of(state), occ.cells[c.id], state.settings.distract_range)
    creatures = state.creatures
    return [oid for oid in found if _may_be_aware(c, other := creatures[oid]) and _perceives(state, c, other, action)]


def distract_bonus(action: Literal["major", "minor"]) -> Modifier:
    word = "Major" if action == "major" else "Minor"
    why = f"{DISTRACT}: {DISTRACT_BONUS[action]:+d} for a {word} Action"
    return Modifier(value=DISTRACT_BONUS[action], reason=why, key="distract")


def distract_modifiers(action: DistractAction) -> list[Modifier]:
    return [] if action == "speak" else [distract_bonus(action)]


def distract_actions(state: GameState, creature_id: str) -> list[DistractAction]:
    """What a Distract may follow now: each kind of action used this turn and not yet followed, and speaking."""
    econ = state.economy.get(creature_id)
    if econ is not None and econ.turn_over:
        return []
    used = econ.distractable if econ is not None else []
    kinds: list[DistractAction] = [a for a in ("major", "minor") if a in used]
    c = state.creatures.get(creature_id)
    return [*kinds, "speak"] if c is not None and can_speak(state, c) else kinds


def distract(
    tx: Tx,
    creature_id: str,
    targets: list[str],
    action: DistractAction,
    expects: list[str],
    sound_at: Cell | None,
    dice: DiceSource,
) -> list[Event]:
    """seed-000 Distract: one attack roll against each chosen Aware creature; success makes it Focused."""
    state = tx.state
    c = require_active(state, creature_id)
    chosen = list(dict.fromkeys(targets))
    if not chosen:
        raise RuleError("a Distract attacks at least one creature")
    for tid in chosen:
        t = tx.get(tid)
        if not aware_of(state, c, t, action=action):
            what = "speech" if action == "speak" else "action"
            raise RuleError(f"{t.name} is not Aware of {c.name}'s {what}: a Distract cannot attack it")
    for eid in expects:
        tx.get(eid)
    if sound_at is not None and not grid_of(state).in_bounds(sound_at, state.board.cols, state.board.rows):
        raise RuleError(f"a Distract's sound cannot be made at {sound_at}: it is off the map")
    s = state.settings
    refuse_on_full_resolve(state, c.id, "Distract")
    silenced = speech_error(state, c) if action == "speak" else None
    if silenced is not None:
        raise RuleError(f"{silenced}: it cannot Distract by speaking")
    if action == "speak" and action not in distract_actions(state, c.id):
        raise RuleError(f"{c.name}'s turn is over: it cannot Distract now")
    if action != "speak":
        econ = tx.economy(c.id)
        if action not in econ.distractable:
            word = "Major" if action == "major" else "Minor"
            raise RuleError(
                f"{c.name} has used no {word} Action this turn that a Distract could follow: a Distract comes after "
                "an action you used, or after speaking"
            )
        left = list(econ.distractable)
        left.remove(action)
        econ.distractable = left  # a new list: the state before the command shares the old one
    tx.economy(c.id).attacked = True
    label = f"{c.name}: {DISTRACT}"
    attack = attack_roll(
        tx,
        dice,
        c.id,
        label,
        c.skill(s.distract_skill),
        [
            *distract_modifiers(action),
            *attack_roll_modifiers(state, c),
            *senses.attack_concealment_modifiers(state, c),
        ],
        attack_dice_changes(state, c, physical=False),
    )
    events = [
        Event(
            kind="distract",
            text=f"{c.name} creates a diversion ({DISTRACT_AFTER[action]}).",
            actor=c.id,
            data={"targets": chosen, "action": action, "sound_at": sound_at},
        )
    ]
    for tid in chosen:
        expected = (
            [
                Modifier(
                    value=DISTRACT_EXPECTED,
                    reason=f"expects the {DISTRACT}: +{DISTRACT_EXPECTED}",
                    key="distract",
                    source=tid,
                )
            ]
            if tid in expects
            else []
        )
        spec = attacks.AttackSpec(
            action="distract",
            attacker=c.id,
            target=tid,
            dl=s.distract_dl,
            defense_skill=s.distract_defense,
            attack=attack,
            defense_modifiers=[
                *expected,
                *senses.distract_defense_modifiers(state, tx.get(tid), action == "speak"),
            ],
            physical=False,
            params={"sound_at": list(sound_at) if sound_at is not None else None},
        )
        events += attacks.resolve(tx, spec, dice)
    return events


def distract_result(tx: Tx, spec: attacks.AttackSpec, result: AttackResult, dice: DiceSource) -> list[Event]:
    """On success the creature becomes Focused on the distracter (or the sound's space) until its next turn."""
    if not result.success:
        return []
    t = tx.creature(spec.target)
    sound = spec.params.get("sound_at")
    if sound is not None:
        t.focus, t.focus_space = None, (int(sound[0]), int(sound[1]))
        what = f"the space {t.focus_space}"
    else:
        t.focus, t.focus_space = spec.attacker, None
        what = tx.get(spec.attacker).name
    t.focus_locked = True
    return [
        Event(
            kind="focused",
            text=f"{t.name} is Focused on {what} and cannot drop Focus until its next turn.",
            actor=spec.attacker,
            target=t.id,
            data={"focus": t.focus, "focus_space": t.focus_space},
        )
    ]
