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
"""

from __future__ import annotations

from vtt.rules.checks import AttackResult
from vtt.rules.conditions import PHYSICAL_ATTACK, PHYSICAL_DEFENSE
from vtt.rules.dice import DiceSource, Modifier
from vtt.rules.events import Event, RuleError
from vtt.rules.model import BodyPart, Creature, Effect, GameState
from vtt.rules.turns import end_turn
from vtt.rules.txn import Tx

CALLED_SHOT = "Called Shot"
CALLED_SHOT_PENALTY = -1
CHARGE = "Charge"
CHARGE_ATTACK_BONUS = 1
CHARGE_DEFENSE_PENALTY = -1
CHARGE_SPACES = 2


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
        mods.append(
            Modifier(value=CALLED_SHOT_PENALTY, reason=f"{CALLED_SHOT}: -1 on physical attack rolls for 1 round")
        )
    if charge:
        mods.append(Modifier(value=CHARGE_ATTACK_BONUS, reason=f"{CHARGE}: +1 on the attack roll"))
    return mods


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
        state.effects.append(
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
        state.effects.append(
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


def after_attack(tx: Tx, attacker: str, dice: DiceSource) -> list[Event]:
    """seed-000 Charge: "Your turn ends after the attack" -- once nothing about the attack waits any more."""
    econ = tx.state.economy.get(attacker)
    if econ is None or not econ.charging or tx.state.pending or tx.state.reactions:
        return []
    tx.economy(attacker).charging = False
    return end_turn_of(tx, attacker, dice)


def end_turn_of(tx: Tx, creature_id: str, dice: DiceSource) -> list[Event]:
    state = tx.state
    if state.turn.current == creature_id:
        return end_turn(tx, dice)
    econ = tx.economy(creature_id)
    econ.major = 0
    econ.minor = 0
    econ.movement_spent = max(econ.movement_spent, econ.movement_max)
    return [
        Event(
            kind="turn_over",
            text=f"{tx.get(creature_id).name}'s turn ends after the Charge: no action or Movement is left to it.",
            actor=creature_id,
        )
    ]
