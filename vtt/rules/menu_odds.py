"""What the token menu shows of an option's roll against one target: the exact chance it succeeds and, for an
attack that deals damage, its damage dice and the Injury it likely comes to.

The chance follows the d12 rule (reference §1.1-§1.3): the attack's result is its highest face plus modifiers; it
must reach the DL and beat the defender's roll of its defense skill, rolled with the modifiers `attacks.roll_defense`
gives it (a defender that cannot act does not defend). The damage follows seed-004 as `damage.deal` counts it
before the attack is rolled: the weapon's dice, the size difference, a Severe Threshold below 0, and the face each
die needs. What only the attack's faces decide (Chopping, Devastating, Bashing) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from vtt.rules import ailments
from vtt.rules.conditions import defense_modifiers
from vtt.rules.damage import Hit, effective_threshold, needed_face, severe_threshold
from vtt.rules.dice import dice_count
from vtt.rules.model import Creature, GameState
from vtt.rules.odds import DamagePreview, attack_chance, check_chance, damage_preview
from vtt.rules.offers import RollPreview
from vtt.rules.txn import Tx

NO_DL = -1000
"""A roll without a DL: any result reaches it."""


@dataclass(frozen=True)
class Defense:
    """The defender's roll: its dice and flat modifier, or None when it cannot defend."""

    dice: int | None
    modifier: int


def defense_of(state: GameState, attacker: Creature, target: Creature, skill: str, physical: bool) -> Defense:
    """The defense roll `target` makes against `attacker` with `skill` (as `attacks.roll_defense` rolls it)."""
    if not target.can_act:
        return Defense(None, 0)
    mods = [*defense_modifiers(state, target, skill, physical)]
    mods += ailments.defense_against_modifiers(state, target, attacker)
    return Defense(target.skill(skill), sum(m.value for m in mods))


def success_chance(
    state: GameState, attacker_id: str, target_id: str | None, preview: RollPreview, physical: bool = True
) -> Fraction:
    """The exact chance the previewed roll succeeds against `target_id` (a check against its DL alone when it
    names no defense, or has no creature to defend)."""
    s = state.settings
    dice = dice_count(preview.dice, preview.dice_changes)
    modifier = sum(m.value for m in preview.modifiers)
    dl = preview.dl if preview.dl is not None else NO_DL
    attacker = state.creatures.get(attacker_id)
    target = state.creatures.get(target_id or "")
    if preview.defense_skill is None or target is None or attacker is None or target.id == attacker_id:
        return check_chance(dice, modifier, dl, s.fumble_always_fails)
    d = defense_of(state, attacker, target, preview.defense_skill, physical)
    return attack_chance(dice, modifier, dl, d.dice, d.modifier, s.ties_to, s.fumble_always_fails)


def strike_damage(
    state: GameState, attacker_id: str, target_id: str | None, preview: RollPreview, weapon_id: str | None = None
) -> DamagePreview | None:
    """The damage a hit of the previewed Strike rolls on `target_id` and its likely Injury; None when it deals no
    damage or the target is Immune to it."""
    attacker = state.creatures.get(attacker_id)
    target = state.creatures.get(target_id or "")
    if preview.damage <= 0 or attacker is None or target is None:
        return None
    weapon = attacker.weapon(weapon_id) if weapon_id else None
    hit = Hit(
        target=target.id,
        amount=preview.damage,
        attacker=attacker.id,
        changes=tuple(preview.damage_changes),
        element=weapon.element if weapon is not None else None,
        strike_type=weapon.strike_types[0] if weapon is not None and weapon.strike_types else None,
    )
    if any(kind in target.immunities for kind in hit.types()):
        return None
    tx = Tx(state)
    change = sum(c.dice for c in hit.changes)
    if hit.is_physical:
        change += attacker.size - target.size
    threshold = effective_threshold(severe_threshold(tx, target), False)
    if threshold < 0:
        change -= threshold
    needed, _ = needed_face(tx, hit, target, attacker)
    return damage_preview(max(0, hit.amount + change), needed)


def percent(p: Fraction | float) -> str:
    """A chance as a whole percentage; never "0%" or "100%" for what may still happen or fail."""
    n = round(float(p) * 100)
    if n <= 0 < p:
        return "under 1%"
    if n >= 100 and p < 1:
        return "over 99%"
    return f"{n}%"


def injury_text(d: DamagePreview) -> str:
    """ "3 dice, likely 1 to 2 Injury" in plain words."""
    if d.dice == 0:
        return "no dice left, no Injury"
    dice = f"{d.dice} {'die' if d.dice == 1 else 'dice'}"
    likely = str(d.likely_low) if d.likely_low == d.likely_high else f"{d.likely_low} to {d.likely_high}"
    return f"{dice}, likely {likely} Injury"
