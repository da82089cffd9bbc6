"""The attack pipeline shared by every action that attacks a skill.

An action rolls its attack, then the defender rolls the attacked skill or declines. Whether that waits on a
person is the table setting `defense_prompts`: the defense becomes a pending decision addressed to the
defender's controller, answered by a `Defend` command. A defender that cannot act (Unconscious) cannot roll and
fails. When the defense is known the action's own handler applies the outcome; then, if the attacker declared a
Charge and nothing about the attack waits any more, its turn ends (see `turns.end_turn_after_charge`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from pydantic import TypeAdapter

from vtt.rules import ailments, guard
from vtt.rules.checks import AttackResult, judge_attack
from vtt.rules.conditions import defense_modifiers
from vtt.rules.death import exhaustion_death
from vtt.rules.dice import DiceSource, Modifier, Roll, roll
from vtt.rules.events import Event, RuleError, event, new_event
from vtt.rules.frozen import NO_DICT
from vtt.rules.model import SOULWEAVER, Creature, Decision, GameState
from vtt.rules.turns import end_turn_after_charge
from vtt.rules.txn import Tx


class AttackSpec(NamedTuple):
    """An attack rolled, and what its defense and its action's outcome read. A plain immutable record, not a model:
    every attack makes one; a defense that waits holds it as JSON (`spec_payload`, read back by `spec_of_payload`)."""

    action: str
    attacker: str
    target: str
    dl: int
    defense_skill: str
    attack: Roll
    defense_modifiers: Sequence[Modifier] = ()
    physical: bool = True
    params: dict[str, Any] = NO_DICT


_SPEC_JSON = TypeAdapter(AttackSpec)

new_record = tuple.__new__
"""`new_record(AttackSpec, (...))` of all a named tuple's fields in order is `AttackSpec(...)` without the Python
frame of the named tuple's `__new__` (every attack makes a spec and a result)."""


def spec_payload(spec: AttackSpec) -> dict[str, Any]:
    """A pending defense's payload: the spec's fields by name, in order, as JSON."""
    return dict(zip(AttackSpec._fields, _SPEC_JSON.dump_python(spec, mode="json"), strict=True))


def spec_of_payload(payload: dict[str, Any]) -> AttackSpec:
    """The spec a pending defense's payload holds (validated: it was stored)."""
    return _SPEC_JSON.validate_python(payload)


Handler = Callable[[Tx, AttackSpec, AttackResult, DiceSource], list[Event]]
HANDLERS: dict[str, Handler] = {}


ON_HIT: dict[str, Handler] = {}
"""Handlers of the actions whose outcome follows a successful attack alone: a failed one comes to nothing."""


def on_result(action: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[action] = fn
        return fn

    return register


def on_hit(action: str) -> Callable[[Handler], Handler]:
    """Register the outcome of `action`'s successful attack (`on_result` of a handler that does nothing on a failed
    one, which is then not called)."""

    def register(fn: Handler) -> Handler:
        ON_HIT[action] = fn
        return fn

    return register


def defense_waits(state: GameState, defender_id: str) -> bool:
    mode = state.settings.defense_prompts
    if mode == "nobody":
        return False
    if mode == "everyone":
        return True
    return state.creatures[defender_id].controller is not None


DefenseInputs = tuple[str, int, tuple[Modifier, ...]]
"""What a defense roll is rolled with: its label, its dice and its modifiers."""


def resolve(tx: Tx, spec: AttackSpec, dice: DiceSource, kept: DefenseInputs | None = None) -> list[Event]:
    """Ask for, or roll, the defense against an attack already rolled, then apply the outcome (`kept`: what the
    defense is rolled with, worked out of the same state before, see `strike.strike`)."""
    try:  # `tx.get`'s creature, read without its call
        defender = tx.state.creatures[spec.target]
    except KeyError:
        defender = tx.get(spec.target)  # its RuleError
    if defender.dead or defender.unconscious:  # `not defender.can_act`
        return finish(tx, spec, None, dice, note=f"{defender.name} cannot defend")
    if tx.state.settings.defense_prompts != "nobody" and defense_waits(tx.state, spec.target):
        decision = Decision(
            id=tx.state.new_id("d"),
            kind="defense",
            to=defender.controller or SOULWEAVER,
            creature=spec.target,
            prompt=(
                f"{tx.get(spec.attacker).name} attacks {defender.name}'s {spec.defense_skill} with "
                f"{spec.attack.result} (DL {spec.dl}). Roll {spec.defense_skill} or decline?"
            ),
            options=["roll", "decline"],
            payload=spec_payload(spec),
        )
        tx.pending().append(decision)
        return [
            event(
                kind="decision",
                text=f"Waiting for {defender.name} to defend ({spec.defense_skill}).",
                actor=spec.attacker,
                target=spec.target,
                rolls=[spec.attack],
                data={"decision": decision.id, "to": decision.to},
            )
        ]
    label, count, mods = defense_inputs(tx.state, spec) if kept is None else kept
    return finish(tx, spec, roll(dice, label, count, mods), dice)


def roll_defense(tx: Tx, spec: AttackSpec, dice: DiceSource) -> Roll:
    label, count, mods = defense_inputs(tx.state, spec)
    return roll(dice, label, count, mods)


def defense_inputs(state: GameState, spec: AttackSpec) -> DefenseInputs:
    """The defense roll against `spec`: its label, dice and modifiers."""
    defender = state.creatures[spec.target]
    skill = spec.defense_skill
    label = f"{defender.name}: {skill} defense"
    if not spec.defense_modifiers and _unmodified(state, defender):
        return label, defender.skill(skill), ()
    mods = [*defense_modifiers(state, defender, skill, spec.physical), *spec.defense_modifiers]
    mods += ailments.defense_against_modifiers(state, defender, state.creatures.get(spec.attacker))
    mods += guard.guard_modifiers(
        state, defender, spec.physical, bool(spec.params.get("ranged")), spec.params.get("item")
    )
    return label, defender.skill(skill), tuple(mods)


PlainDefense = tuple[str, str, int, DefenseInputs]
"""The inputs of a defense nothing modifies, with the defender's name, the defense skill and the defender's dice in it
they were made from (`plain_defense_inputs`)."""


def plain_defense_inputs(
    state: GameState, spec: AttackSpec, was: PlainDefense | None
) -> tuple[DefenseInputs, PlainDefense | None]:
    """`defense_inputs(state, spec)`, and what to give the next call: a defense nothing modifies (`_unmodified` now,
    and no defense modifier of the attack's) is rolled with a label of the defender's name and the skill and the
    defender's dice in it alone, so `was` (what an earlier call gave) is reused when those three are the same."""
    defender = state.creatures[spec.target]
    if spec.defense_modifiers or not _unmodified(state, defender):
        return defense_inputs(state, spec), None
    name, skill = defender.name, spec.defense_skill
    dice = defender.skills.get(skill, 0)  # `defender.skill(skill)` without its call
    if was is not None and was[2] == dice and was[0] == name and was[1] == skill:
        return was[3], was
    inputs = defense_inputs(state, spec)
    return inputs, (name, skill, dice, inputs)


def _unmodified(state: GameState, defender: Creature) -> bool:
    """Whether nothing can change `defender`'s defense rolls, as for most defenders: it has no ailment (none of
    `ailments.defense_roll_modifiers`' or `ailments.defense_against_modifiers`'), there is no effect or Hold and it
    carries no Bulk (`conditions.defense_modifiers`), the table gives no penalty for Concealment on defenses
    (`senses.defense_concealment_modifiers`), it carries no weapon with a Guard (`guard.guard_modifiers`) and no part
    of it is Wounded (`ailments.wounded_limbs_modifiers`)."""
    if defender.ailments or state.effects or state.holds or defender.gear_bulk:
        return False
    if state.settings.concealment_defense_per_tier:
        return False
    for w in defender.weapons:
        if w.guard:
            return False
    for part in defender.parts:  # noqa: SIM110 (`ailments.any_wounded` without its call)
        if part.wounded:
            return False
    return True


def answer_defense(tx: Tx, decision: Decision, rolls: bool, dice: DiceSource) -> list[Event]:
    spec = spec_of_payload(decision.payload)
    tx.state.pending = [d for d in tx.state.pending if d.id != decision.id]
    if spec.target not in tx.state.creatures:
        raise RuleError("the defender is gone")
    defense = roll_defense(tx, spec, dice) if rolls else None
    return finish(tx, spec, defense, dice, note=None if rolls else f"{tx.get(spec.target).name} declines")


def finish(tx: Tx, spec: AttackSpec, defense: Roll | None, dice: DiceSource, note: str | None = None) -> list[Event]:
    s = tx.state.settings
    action, attacker_id, target_id, dl, defense_skill, attack, _, _, _ = spec  # by name, each field is a look-up
    result = new_record(AttackResult, (attack, dl, defense_skill, defense, s.ties_to, s.fumble_always_fails))
    creatures = tx.state.creatures
    try:  # `tx.get`'s creatures, read without its calls
        attacker, target = creatures[attacker_id].name, creatures[target_id].name
    except KeyError:
        attacker, target = tx.get(attacker_id).name, tx.get(target_id).name  # its RuleError for the one gone
    success, text = judge_attack(result, attacker, target)
    out = new_event(Event)  # `event("attack", ...)` without its call
    out.kind = "attack"
    out.text = f"{note}. {text}" if note else text
    out.actor = attacker_id
    out.target = target_id
    out.rolls = [attack] if defense is None else [attack, defense]
    out.data = {
        "action": action,
        "dl": dl,
        "defense_skill": defense_skill,
        "success": success,
        "margin": attack.result - (0 if defense is None else defense.result),  # `result.margin`
        "declined": defense is None,
    }
    events = [out]
    if defense is not None and defense_skill == "Endure":  # only an Endure roll may kill (`exhaustion_death`)
        events += exhaustion_death(tx, target_id, defense_skill, defense)
    hit_outcome = ON_HIT.get(action)
    if hit_outcome is None:
        events += HANDLERS[action](tx, spec, result, dice)
    elif success:
        events += hit_outcome(tx, spec, result, dice)
    events += end_turn_after_charge(tx, attacker_id, dice)
    return events
